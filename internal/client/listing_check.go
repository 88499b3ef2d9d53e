package client

// A listing that the service's own metadata contradicts is not trusted. Where the service sends
// them: a page's numberOfElements must be its number of subscriptions; totalElements must be the
// same on every page; a page marked last must not be followed by more pages by its own
// totalPages, nor leave subscriptions of totalElements unlisted; and the listing must end with
// totalElements subscriptions. A listing that fails a check is made again from its first page,
// listAttempts times in all. Why, and what no check reveals: DESIGN.md#listings.

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// listAttempts bounds how often one ListSubscriptions lists the account when its pages
// disagree with their metadata.
const listAttempts = 3

// IncompleteListingError is the error of a listing whose pages disagreed with their own
// metadata every time the account was listed: the account was changing while it was read, or
// the service miscounts. A caller that only shows what exists may use Subscriptions; a caller
// that would act on a subscription's absence must not.
type IncompleteListingError struct {
	// AccountID is the account listed.
	AccountID string
	// Attempts is the number of times the account was listed.
	Attempts int
	// Reason is the last attempt's disagreement.
	Reason string
	// Subscriptions is what the last attempt listed, up to the disagreement.
	Subscriptions []Subscription
}

// Error says what disagreed and how often.
func (e *IncompleteListingError) Error() string {
	return fmt.Sprintf("%s in account %q: the listing disagreed with the service's own page metadata %d times in a "+
		"row (last: %s), so it may be incomplete", opListSubscriptions, e.AccountID, e.Attempts, e.Reason)
}

// listChecked lists the account until a listing agrees with its metadata (listAttempts at most).
func (c *Client) listChecked(ctx context.Context, accountID string, opts ListOptions) ([]Subscription, error) {
	var last []Subscription
	var reason string
	for attempt := 1; attempt <= listAttempts; attempt++ {
		subs, problem, err := c.listOnce(ctx, accountID, opts)
		if err != nil {
			return nil, err
		}
		if problem == "" {
			return subs, nil
		}
		tflog.Warn(ctx, "The account's listing disagreed with its page metadata; listing it again", map[string]any{
			"account_id": accountID, "attempt": attempt, "reason": problem})
		last, reason = subs, problem
	}
	account, _ := c.account(accountID)
	return nil, &IncompleteListingError{AccountID: account, Attempts: listAttempts, Reason: reason, Subscriptions: last}
}

// listingCheck follows the pages of one listing (see the top of this file).
type listingCheck struct {
	total    int64 // totalElements as the first page that sent it said
	hasTotal bool
	listed   int64 // subscriptions on the pages so far, as sent
}

// page checks page n, whose metadata as sent is m (nil: none), and returns the disagreement.
func (lc *listingCheck) page(n int, p *Page, m *wirePagination) string {
	lc.listed += int64(len(p.Subscriptions))
	if m == nil {
		return ""
	}
	if m.NumberOfElements != nil && int64(*m.NumberOfElements) != int64(len(p.Subscriptions)) {
		return fmt.Sprintf("page %d holds %d subscriptions, its numberOfElements says %d", n, len(p.Subscriptions), *m.NumberOfElements)
	}
	if m.TotalElements != nil {
		switch total := int64(*m.TotalElements); {
		case !lc.hasTotal:
			lc.total, lc.hasTotal = total, true
		case total != lc.total:
			return fmt.Sprintf("page %d counts %d subscriptions in all, an earlier page %d", n, total, lc.total)
		}
	}
	if m.Last != nil && *m.Last {
		if m.TotalPages != nil && int64(n)+1 < int64(*m.TotalPages) {
			return fmt.Sprintf("page %d says it is the last, and that there are %d pages", n, *m.TotalPages)
		}
		if lc.hasTotal && lc.listed < lc.total {
			return fmt.Sprintf("page %d says it is the last, with %d of %d subscriptions listed", n, lc.listed, lc.total)
		}
	}
	return ""
}

// end checks the listing once paging has ended.
func (lc *listingCheck) end() string {
	if lc.hasTotal && lc.listed < lc.total {
		return fmt.Sprintf("the listing ended with %d of the %d subscriptions that totalElements counts", lc.listed, lc.total)
	}
	return ""
}
