package client

// What the Client has read before a create was sent is never that create's result. A
// subscription that a listing or a read of this Client returned existed when that answer came
// back; a create sent later cannot have made it. So a create never adopts (a lost answer's
// settling) nor hands out (an answer that lists more than was sent, as the collection's PUT
// answers with the whole account) a subscription this Client read before the create was
// first sent. This judges by this process's own clock only, and needs no date from the service:
// it tells apart what the service dates within a second of the request (the adoption window's
// margin), an identical resource's subscription made half a second earlier included.
//
// Terraform starts a provider process for each walk, and in the apply walk it neither reads
// nor plans a resource that does not change: the apply's process would never see an identical
// resource's subscription. So eventnotify_subscription's create lists its account once per
// process first (SeeAccount), through the listing the plan's refreshes share
// (subscription_cache.go). Why: DESIGN.md#lost-answers-and-ownership.

import (
	"context"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// seenSet records, per subscription ID, when this Client first received it in an answer of a
// listing or a read, and which accounts it has listed in full.
type seenSet struct {
	mu       sync.Mutex
	ids      map[string]time.Time      // listingKey -> when the answer that held it came back
	accounts map[string][]Subscription // the first full listing of each account
	// byKey is each first listing by content key (Subscription.key), for Lookalikes.
	byKey map[string]map[string][]Subscription
	group singleflight.Group
}

// record notes that subs were in an answer that came back at `at`. An ID keeps the instant
// it was first seen.
func (ss *seenSet) record(at time.Time, subs ...Subscription) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.ids == nil {
		ss.ids = make(map[string]time.Time)
	}
	for _, s := range subs {
		if s.ID == "" {
			continue
		}
		if _, ok := ss.ids[listingKey(s.ID)]; !ok {
			ss.ids[listingKey(s.ID)] = at
		}
	}
}

// before reports whether id was seen strictly before t: then it existed before t.
func (ss *seenSet) before(id string, t time.Time) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	at, ok := ss.ids[listingKey(id)]
	return ok && at.Before(t)
}

// listed returns the first full listing of account this Client made (or served from its
// cache), and whether there was one.
func (ss *seenSet) listed(account string) ([]Subscription, bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	subs, ok := ss.accounts[account]
	return subs, ok
}

// keepListing keeps subs as the account's first full listing, unless one is kept already.
func (ss *seenSet) keepListing(account string, subs []Subscription) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.accounts == nil {
		ss.accounts = make(map[string][]Subscription)
	}
	if _, ok := ss.accounts[account]; ok {
		return
	}
	ss.accounts[account] = slices.Clone(subs)
	if ss.byKey == nil {
		ss.byKey = make(map[string]map[string][]Subscription)
	}
	keys := make(map[string][]Subscription)
	for _, s := range subs {
		keys[s.key()] = append(keys[s.key()], s)
	}
	ss.byKey[account] = keys
}

// listedLike returns the subscriptions of the account's first full listing whose content key
// is key.
func (ss *seenSet) listedLike(account, key string) []Subscription {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.byKey[account][key]
}

// SeeAccount makes sure that this Client has listed the account once, so that the creates
// that follow never adopt or hand out a subscription that existed before them (see the top of
// this file). It sends nothing when the account has been listed already by this Client (a
// refresh's shared listing, an earlier SeeAccount or Lookalikes) and at most one listing
// otherwise, shared by concurrent callers. It returns the listing's error: the caller may
// create all the same, and is then protected only by the adoption window.
func (c *Client) SeeAccount(ctx context.Context, accountID string) error {
	_, err := c.firstListing(ctx, accountID)
	return err
}

// firstListing returns the account's first full listing made by this Client, listing the
// account (through the shared listing of subscription_cache.go) when there is none.
func (c *Client) firstListing(ctx context.Context, accountID string) ([]Subscription, error) {
	account, err := c.account(accountID)
	if err != nil {
		return nil, err
	}
	if subs, ok := c.seen.listed(account); ok {
		return subs, nil
	}
	// Concurrent first callers (the plans of a walk's creates) share one listing.
	return httpapi.SharedFlight(ctx, &c.seen.group, account, func() ([]Subscription, error) {
		if subs, ok := c.seen.listed(account); ok {
			return subs, nil
		}
		subs, err := c.AccountSubscriptions(ctx, account)
		if err != nil {
			return nil, err
		}
		c.seen.keepListing(account, subs)
		subs, _ = c.seen.listed(account)
		return subs, nil
	})
}

// heldFrom reports whether a create first sent at start must leave subscription id alone: a
// caller of this Client holds it (claimSet), or this Client read it before start.
func (c *Client) heldFrom(id string, start time.Time) bool {
	return c.claims.claimed(id) || c.seen.before(id, start)
}
