package client

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// AccountSubscriptions returns every subscription of the account, ordered by id. It serves the
// listing that ReadSubscription keeps (see subscription_cache.go) when one is usable: started
// less than Config.ListCacheTTL ago, and kept up to date by the writes through this Client to
// the account since (a write whose answer does not tell its outcome drops it). Otherwise it
// lists the account and keeps the listing for the calls that follow.
//
// Terraform plans a resource again just before it applies it, in the same provider process
// and with no write of that resource in between; so a resource that lists the whole account
// both to plan and to apply (eventnotify_account_subscriptions at create) makes one listing
// per apply, not two; and the readers of one account that a plan refreshes at once (every
// topic resource, account resource and data source of the account) share one listing: it is
// the flight of ReadSubscription's listing. A listing that failed is never served: the account
// is listed again, and the error is the service's answer to that listing.
func (c *Client) AccountSubscriptions(ctx context.Context, accountID string) ([]Subscription, error) {
	opts := ListOptions{PageSize: c.cfg.ListPageSize}
	account, err := c.account(accountID)
	if err != nil || c.cfg.ListCacheTTL < 0 {
		return c.ListSubscriptions(ctx, accountID, opts)
	}
	v, err := c.sharedListing(ctx, account, true)
	if errors.Is(err, errListingFailed) {
		// It joined a flight of ReadSubscription's that found the last listing failed: the
		// caller needs the listing, so it lists the account itself.
		_, _, gen, _ := c.listings.lookup(account, c.now(), c.cfg.ListCacheTTL)
		v.subs, err = c.listAccount(ctx, account, gen)
	}
	if err != nil {
		return nil, err
	}
	subs := v.subs
	switch size := max(1, c.cfg.ListPageSize); {
	case len(v.unread) == 0:
	case len(v.unread) > (len(v.subs)+len(v.unread)+size-1)/size:
		// More to read one by one than a pass over the account has pages: list it again.
		_, _, gen, _ := c.listings.lookup(account, c.now(), c.cfg.ListCacheTTL)
		if subs, err = c.listAccount(ctx, account, gen); err != nil {
			return nil, err
		}
	default:
		if subs, err = c.readUnread(ctx, account, v); err != nil {
			return nil, err
		}
	}
	out := make([]Subscription, 0, len(subs))
	for _, s := range subs {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b Subscription) int { return strings.Compare(listingKey(a.ID), listingKey(b.ID)) })
	return out, nil
}

// readUnread completes the listing v with its unread subscriptions, fewer than a pass over the
// account has pages (written by this Client,
// their answers not showing how: a bulk update's statuses), each read with
// getSubscribedEventForAccount, whose 404 alone means gone, and keeps what it read in the
// stored listing unless a write came in since. A read that fails lists the account instead.
func (c *Client) readUnread(ctx context.Context, account string, v listingView) (map[string]Subscription, error) {
	ids := make([]string, 0, len(v.unread))
	for k := range v.unread {
		ids = append(ids, k)
	}
	slices.Sort(ids)
	got, errs := c.GetSubscriptions(ctx, account, ids)
	reads := make(map[string]*Subscription, len(ids))
	for i, k := range ids {
		switch {
		case errs[i] == nil:
			reads[k] = got[i]
		case errors.Is(errs[i], httpapi.ErrNotFound):
			reads[k] = nil
		default:
			_, _, gen, _ := c.listings.lookup(account, c.now(), c.cfg.ListCacheTTL)
			return c.listAccount(ctx, account, gen)
		}
	}
	c.listings.storeRead(account, v.gen, reads)
	subs := maps.Clone(v.subs)
	for k, s := range reads {
		if s != nil {
			subs[k] = *s
		}
	}
	return subs, nil
}
