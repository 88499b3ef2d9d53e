package client

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// A listing pages through an account until the service says it has shown the last page. A
// service that never says so (every page new items and "last": false) would keep the provider
// listing for hours and grow its memory without end; so every listing stops at the bounds
// below, with an error that says what the service did. The bounds are far above any real
// account: the platform's accounts hold hundreds of subscriptions, and one of the bound's size
// lists in under two minutes at the default rate of 10 requests per second.
const (
	// MaxListedSubscriptions is the most subscriptions one listing reads.
	MaxListedSubscriptions = 50_000
	// minPlausiblePageSize is the smallest page size the bound on pages allows for: a
	// service may serve smaller pages than asked for (the mock's default is 20), but one
	// that serves fewer than 10 while claiming more is not listed to the end.
	minPlausiblePageSize = 10
	// MaxListedPages is the most pages one listing reads: enough for MaxListedSubscriptions
	// in pages of minPlausiblePageSize.
	MaxListedPages = MaxListedSubscriptions / minPlausiblePageSize
	// MaxListedBytes bounds the bodies of one listing's pages together: a subscription's JSON
	// takes 150 to 600 bytes, so MaxListedSubscriptions of them take at most about 30 MiB.
	MaxListedBytes = 64 << 20
	// MaxListingDuration bounds one listing, waits for the rate limit and retries included:
	// MaxListedPages pages take 500 s at 10 requests per second.
	MaxListingDuration = 10 * time.Minute
)

// ErrListingLimit matches the error of a listing stopped at one of its bounds: the service
// kept answering pages without saying which was the last. Nothing is taken from such a
// listing.
var ErrListingLimit = errors.New("listing limit reached")

// listingLimits are the bounds of one listing; tests lower them.
type listingLimits struct {
	items    int
	pages    int
	bytes    int
	duration time.Duration
}

// defaultListingLimits are the bounds of every listing.
func defaultListingLimits() listingLimits {
	return listingLimits{
		items:    MaxListedSubscriptions,
		pages:    MaxListedPages,
		bytes:    MaxListedBytes,
		duration: MaxListingDuration,
	}
}

// listingBudget counts what one listing has read against its limits.
type listingBudget struct {
	limits listingLimits
	items  int
	pages  int
	bytes  int
}

// withDeadline returns ctx bounded by the listing's duration.
func (b *listingBudget) withDeadline(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(ctx, b.limits.duration, ErrListingLimit)
}

// add counts a page of size bytes, of whose subscriptions kept were new; the error says which
// bound the service's pages went past.
func (b *listingBudget) add(p *Page, kept, size int) error {
	b.pages++
	b.items += kept
	b.bytes += size
	switch {
	case b.items > b.limits.items:
		return b.stop(fmt.Sprintf("more than %d subscriptions", b.limits.items))
	case b.bytes > b.limits.bytes:
		return b.stop(fmt.Sprintf("more than %d MiB", b.limits.bytes>>20))
	case b.pages >= b.limits.pages && !p.Last:
		return b.stop(fmt.Sprintf("%d pages", b.limits.pages))
	}
	return nil
}

// stop is the error of a listing that went past a bound.
func (b *listingBudget) stop(what string) error {
	return fmt.Errorf("%s: %w: the service answered %s (%d pages, %d subscriptions, %d bytes read) without marking a "+
		"last page, more than any account holds; the service or a proxy in front of it is misbehaving, so the listing "+
		"was stopped and nothing was taken from it", opListSubscriptions, ErrListingLimit, what, b.pages, b.items, b.bytes)
}

// deadline turns the error of a page that ran out of the listing's time (lctx's deadline, not
// the caller's) into the listing's own error.
func (b *listingBudget) deadline(caller, lctx context.Context, err error) error {
	if caller.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if dl, ok := caller.Deadline(); ok && !dl.After(deadlineOf(lctx)) {
		return err // the caller's own deadline, not the listing's
	}
	return fmt.Errorf("%s: %w: the listing did not end within %s (%d pages, %d subscriptions read); the service is too slow "+
		"or keeps serving pages without marking a last one (%v)", opListSubscriptions, ErrListingLimit, b.limits.duration,
		b.pages, b.items, err)
}

// deadlineOf is ctx's deadline; it has one.
func deadlineOf(ctx context.Context) time.Time {
	dl, _ := ctx.Deadline()
	return dl
}
