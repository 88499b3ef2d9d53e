package client

// The listing cache behind ReadSubscription. The first read of an account lists it (pages of
// Config.ListPageSize) and later reads of the account are served from that listing; concurrent
// first reads share one listing. An ID the listing lacks is read with
// getSubscribedEventForAccount, whose 404 alone means deleted. Every write through the Client to
// the account (any non-GET call, see Client.write) bumps its generation, so a listing in flight
// during a write is never stored, and applies its outcome to the stored listing
// (listingCache.applyWrite): what a conclusive answer says the write did is written into it, and
// any other outcome drops it. A listing is served for at most
// Config.ListCacheTTL (negative: no cache); a failed listing sends reads to single GETs until
// the next write or the TTL. Why, and what it costs: DESIGN.md#listings.

import (
	"context"
	"errors"
	"maps"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"golang.org/x/sync/singleflight"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

const (
	// defaultListPageSize is Config.ListPageSize's default: the largest page size the
	// service is known to accept (the mock's maximum).
	defaultListPageSize = 100
	// defaultListCacheTTL is Config.ListCacheTTL's default.
	defaultListCacheTTL = time.Minute
)

// errListingFailed is what joiners of a flight see when a listing of the same generation has
// just failed.
var errListingFailed = errors.New("listing the account failed recently")

// listingCache holds, per account, the latest listing of its subscriptions.
type listingCache struct {
	mu       sync.Mutex
	accounts map[string]*accountListing
	group    singleflight.Group
}

// accountListing is one account's entry. Entries are never removed, so that the generation
// of an account only grows.
type accountListing struct {
	gen    uint64                  // bumped by every write to the account
	subs   map[string]Subscription // by listingKey; nil: no listing; never mutated once stored
	unread map[string]bool         // by listingKey: written, as the answer did not show; never mutated once stored
	at     time.Time               // when the stored listing (or the failed attempt) started
	failed bool                    // the listing of this generation failed: use single reads
}

// writeOutcome is what one write of this Client did to its account's subscriptions, as its
// answer tells it. The zero value is an inconclusive write (lost answer, 5xx, timeout, an
// answer that fails a check or holds no status for an item): the listing is dropped.
type writeOutcome struct {
	conclusive bool           // the answer told everything the write did
	put        []Subscription // created or replaced, as the service answered them
	unread     []string       // changed to what the answer does not show (a bulk update's 200): read before serving
	gone       []string       // deleted, or already gone (the service's 404)
}

// listingState is what lookup found.
type listingState int

const (
	listingMiss   listingState = iota // no usable listing: list (at the returned generation)
	listingHit                        // a listing younger than the TTL
	listingFailed                     // the listing failed recently: read single subscriptions
)

// listingKey is the key of a subscription ID: IDs are UUIDs, compared without regard to case.
func listingKey(id string) string { return strings.ToLower(id) }

// lookup returns the account's listing if one is usable at now, else its state and the
// current generation. An expired listing is dropped. The listing lacks the subscriptions of
// unread (see writeOutcome), which it holds when a write changed them; both maps are shared:
// read them only.
func (lc *listingCache) lookup(account string, now time.Time, ttl time.Duration) (subs map[string]Subscription, unread map[string]bool, gen uint64, state listingState) {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	if lc.accounts == nil {
		lc.accounts = make(map[string]*accountListing)
	}
	a := lc.accounts[account]
	if a == nil {
		a = &accountListing{}
		lc.accounts[account] = a
	}
	fresh := now.Sub(a.at) < ttl
	switch {
	case a.subs != nil && fresh:
		return a.subs, a.unread, a.gen, listingHit
	case a.failed && fresh:
		return nil, nil, a.gen, listingFailed
	}
	a.subs, a.unread, a.failed = nil, nil, false
	return nil, nil, a.gen, listingMiss
}

// store keeps a listing that started at `at`, unless a write to the account has happened
// since generation gen was read.
func (lc *listingCache) store(account string, gen uint64, subs map[string]Subscription, at time.Time) bool {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	a := lc.accounts[account]
	if a == nil || a.gen != gen {
		return false
	}
	a.subs, a.unread, a.at, a.failed = subs, nil, at, false
	return true
}

// storeRead puts into the stored listing of generation gen the subscriptions of its unread set
// that were read since (reads, by listingKey; nil: the read's 404, gone), unless a write to the
// account has happened since gen was read.
func (lc *listingCache) storeRead(account string, gen uint64, reads map[string]*Subscription) {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	a := lc.accounts[account]
	if a == nil || a.gen != gen || a.subs == nil {
		return
	}
	subs, unread := maps.Clone(a.subs), maps.Clone(a.unread)
	for k, s := range reads {
		if !unread[k] {
			continue
		}
		delete(unread, k)
		if s != nil {
			subs[k] = *s
		}
	}
	a.subs, a.unread = subs, unread
}

// fail remembers that the listing of generation gen failed.
func (lc *listingCache) fail(account string, gen uint64, at time.Time) {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	if a := lc.accounts[account]; a != nil && a.gen == gen {
		a.subs, a.at, a.failed = nil, at, true
	}
}

// invalidate drops the account's listing and bumps its generation, so that no listing in
// flight is stored and no later read joins one.
func (lc *listingCache) invalidate(account string) { lc.applyWrite(account, writeOutcome{}) }

// applyWrite is the rule of a write of this Client to the account, applied once the write is
// over (its answer read and judged): the generation is bumped, so that no listing in flight
// during the write is stored (it may or may not show the write) and no later read joins one.
// A stored listing then takes a conclusive outcome: the subscriptions put are written in as
// answered, those gone are removed, those unread are removed and listed as unread; the listing
// keeps its age, since it is no younger for other writers' changes. An inconclusive outcome
// drops the listing, and so does every outcome when none is stored (a failed listing is
// forgotten: the next read lists again). A stored listing is never changed in place: readers
// may hold it.
func (lc *listingCache) applyWrite(account string, w writeOutcome) {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	a := lc.accounts[account]
	if a == nil {
		return
	}
	a.gen++
	if !w.conclusive || a.subs == nil {
		a.subs, a.unread, a.failed = nil, nil, false
		return
	}
	subs, unread := maps.Clone(a.subs), maps.Clone(a.unread)
	if unread == nil {
		unread = make(map[string]bool)
	}
	for _, s := range w.put {
		k := listingKey(s.ID)
		subs[k] = s
		delete(unread, k)
	}
	for _, id := range w.unread {
		k := listingKey(id)
		delete(subs, k)
		unread[k] = true
	}
	for _, id := range w.gone {
		k := listingKey(id)
		delete(subs, k)
		delete(unread, k)
	}
	a.subs, a.unread = subs, unread
}

// ReadSubscription is a cached read of one subscription: the same answer as GetSubscription
// (a deleted subscription yields an error matching ErrNotFound), served when possible from
// one listing of the account shared by every read of the account in this Client. The first
// read of an account lists it page by page (Config.ListPageSize); later reads use that
// listing, as this Client's writes to the account update it, until one of them drops it (its
// answer did not tell its outcome) or until Config.ListCacheTTL has passed. An ID the listing
// does not hold (or holds as unread), and every read after a failed listing, is read with
// GetSubscription. See DESIGN.md#listings for the design.
func (c *Client) ReadSubscription(ctx context.Context, accountID, id string) (*Subscription, error) {
	account, err := c.account(accountID)
	if err != nil || id == "" || c.cfg.ListCacheTTL < 0 {
		return c.GetSubscription(ctx, accountID, id)
	}
	if subs, ok := c.listing(ctx, account); ok {
		if s, found := subs[listingKey(id)]; found {
			c.claims.claim(s)
			return &s, nil
		}
	}
	s, err := c.GetSubscription(ctx, account, id)
	if err == nil {
		c.claims.claim(*s)
	}
	return s, err
}

// listing returns the account's listing, listing the account unless a usable listing
// exists, and false when reads must go to single GETs. The listing lacks what it holds as
// unread: a read of those goes to a single GET.
func (c *Client) listing(ctx context.Context, account string) (map[string]Subscription, bool) {
	v, err := c.sharedListing(ctx, account, false)
	return v.subs, err == nil
}

// listingView is a listing as sharedListing serves it: subs lacks the subscriptions of unread,
// which writes of this Client changed to what their answers did not show; gen is the
// generation it was served at. Both maps are shared: read them only.
type listingView struct {
	subs   map[string]Subscription
	unread map[string]bool
	gen    uint64
}

// sharedListing returns the account's listing: the stored one while it is usable, else the
// one listing that every caller of the account shares at the time (one flight per generation),
// stored for the calls that follow. After a failed listing, relistFailed lists again (the
// caller needs the listing itself, AccountSubscriptions); else it answers errListingFailed
// (ReadSubscription: single reads), so that N reads after a failure do not make N listings.
// A caller that joins another's flight gets that flight's answer.
func (c *Client) sharedListing(ctx context.Context, account string, relistFailed bool) (listingView, error) {
	ttl := c.cfg.ListCacheTTL
	subs, unread, gen, state := c.listings.lookup(account, c.now(), ttl)
	switch {
	case state == listingHit:
		return listingView{subs: subs, unread: unread, gen: gen}, nil
	case state == listingFailed && !relistFailed:
		return listingView{}, errListingFailed
	}
	return httpapi.SharedFlight(ctx, &c.listings.group, account+"\x00"+strconv.FormatUint(gen, 10), func() (listingView, error) {
		// A listing may have been stored since lookup (by a flight that has just ended).
		switch subs, unread, now, state := c.listings.lookup(account, c.now(), ttl); {
		case state == listingHit:
			return listingView{subs: subs, unread: unread, gen: now}, nil
		case state == listingFailed && !relistFailed:
			return listingView{}, errListingFailed
		}
		subs, err := c.listAccount(ctx, account, gen)
		return listingView{subs: subs, gen: gen}, err
	})
}

// listAccount lists the account for generation gen and stores the result.
func (c *Client) listAccount(ctx context.Context, account string, gen uint64) (map[string]Subscription, error) {
	start := c.now()
	list, err := c.ListSubscriptions(ctx, account, ListOptions{PageSize: c.cfg.ListPageSize})
	if err != nil {
		// A cancelled caller says nothing about the service: the next read lists again.
		if !httpapi.IsContextError(err) {
			c.listings.fail(account, gen, start)
		}
		tflog.Debug(ctx, "Listing the account's subscriptions failed; reading subscriptions one by one",
			map[string]any{"account_id": account, "error": err.Error()})
		return nil, err
	}
	subs := make(map[string]Subscription, len(list))
	for _, s := range list {
		if s.ID != "" {
			subs[listingKey(s.ID)] = s
		}
	}
	stored := c.listings.store(account, gen, subs, start)
	tflog.Debug(ctx, "Listed the account's subscriptions to serve reads",
		map[string]any{"account_id": account, "subscriptions": len(subs), "cached": stored})
	return subs, nil
}
