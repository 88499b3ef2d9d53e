package client

import (
	"context"
	"sync"
)

// readWorkers bounds the reads of one GetSubscriptions call in flight at once.
const readWorkers = 4

// GetSubscriptions reads each of ids with GetSubscription, readWorkers at a time, and returns
// the subscriptions and errors in the order of ids (a nil subscription where the error is not
// nil). It serves the reads that settle what a listing or a bulk answer left open.
func (c *Client) GetSubscriptions(ctx context.Context, accountID string, ids []string) ([]*Subscription, []error) {
	subs := make([]*Subscription, len(ids))
	errs := make([]error, len(ids))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(readWorkers, len(ids)) {
		wg.Go(func() {
			for i := range next {
				subs[i], errs[i] = c.GetSubscription(ctx, accountID, ids[i])
			}
		})
	}
	for i := range ids {
		next <- i
	}
	close(next)
	wg.Wait()
	return subs, errs
}
