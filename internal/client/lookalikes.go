package client

// Look-alikes of a planned create. An interrupted apply (a cancelled CI job, a killed terraform
// or plugin, Ctrl-C twice) leaves on the service the subscriptions whose creates were answered
// after the last state snapshot Terraform wrote: nothing holds them, and the next apply would
// create each one again, next to its copy. Before a resource plans a create, its provider asks
// for the account's subscriptions of the same content, made by the same user in the recent past
// (LookalikeAge), that no resource this Client has served holds; the caller names them. Why
// a warning and what stays racy: DESIGN.md#lost-answers-and-ownership.

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"
)

// LookalikeAge is how far back a look-alike counts as a possible orphan of an interrupted
// apply: a day, the span in which a cancelled job is re-run. Older ones are more likely
// another configuration's, or made by hand, and naming them on every create would be noise.
const LookalikeAge = 24 * time.Hour

// Lookalikes returns the subscriptions of the account with the content of in, created by the
// caller (the JWT's subject or the configured user name) no earlier than LookalikeAge ago by
// this machine's clock (a day dwarfs any skew), that no caller of this Client holds (read,
// created, adopted or claimed), ordered by creation date. It reads the account's first
// listing in this Client (firstListing): no request when a refresh has listed it already, one
// listing per account and Client otherwise, shared with SeeAccount; the listing is indexed by
// content once, so a check costs its matches, not the account's size.
func (c *Client) Lookalikes(ctx context.Context, accountID string, in SubscriptionInput) ([]Subscription, error) {
	account, err := c.account(accountID)
	if err != nil {
		return nil, err
	}
	if _, err := c.firstListing(ctx, account); err != nil {
		return nil, err
	}
	key := in.key()
	list := c.seen.listedLike(account, key)
	since := c.now().Add(-LookalikeAge).UnixMilli()
	var callers []string
	asked := false
	var out []Subscription
	for _, s := range list {
		if s.ID == "" || (s.CreatedDate != 0 && s.CreatedDate < since) || c.claims.claimed(s.ID) {
			continue
		}
		if !asked { // once, and only for a match
			callers, asked = c.callerNames(ctx, accountID), true
		}
		if createdBy(s, callers) {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b Subscription) int {
		return cmp.Or(cmp.Compare(a.CreatedDate, b.CreatedDate), strings.Compare(a.ID, b.ID))
	})
	return out, nil
}
