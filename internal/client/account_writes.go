package client

// The account write gate: it orders the writes of one Client (one provider instance) to an
// account around UpdateListed, the list-then-write of the actions. Every write (any request
// that is not a GET) holds its account's gate shared while it is in flight and counts itself
// once it is over; UpdateListed holds the gate alone from its listing (or, when a write of
// this Client came in between, its second listing) to the end of its bulk update. So the
// settings UpdateListed writes back are never older than a write of this Client: a write in
// flight when it takes the gate lands first and is listed again, one that comes later waits
// and lands after it. Writers outside this Client are not ordered: DESIGN.md#the-actions.

import (
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/semaphore"
)

// accountWrites holds the write gate of every account this Client has written to.
type accountWrites struct {
	mu       sync.Mutex
	accounts map[string]*writeGate
	// onWait, when set (by tests, before any write), is called when a write has to wait for
	// the gate.
	onWait func(accountID string)
}

// writeGate is one account's gate: writes acquire 1 of sem, UpdateListed all of it (the
// semaphore serves in order, so a waiting UpdateListed holds back the writes behind it).
// done counts the writes that are over.
type writeGate struct {
	sem  *semaphore.Weighted
	done atomic.Uint64
}

// writeGateWeight is the weight UpdateListed acquires: more than writes can ever hold.
const writeGateWeight = math.MaxInt32

// of returns the gate of accountID.
func (w *accountWrites) of(accountID string) *writeGate {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.accounts == nil {
		w.accounts = make(map[string]*writeGate)
	}
	g := w.accounts[accountID]
	if g == nil {
		g = &writeGate{sem: semaphore.NewWeighted(writeGateWeight)}
		w.accounts[accountID] = g
	}
	return g
}

// heldGateKey is the context key under which UpdateListed marks the account whose gate it
// holds, so that its own writes pass.
type heldGateKey struct{}

// enterWrite waits until a write to accountID may be sent and returns the function that ends
// it. A write under UpdateListed's own context passes at once.
func (c *Client) enterWrite(ctx context.Context, operation, accountID string) (func(), error) {
	g := c.writes.of(accountID)
	if held, _ := ctx.Value(heldGateKey{}).(string); held == accountID {
		return func() { g.done.Add(1) }, nil
	}
	if !g.sem.TryAcquire(1) {
		if c.writes.onWait != nil {
			c.writes.onWait(accountID)
		}
		if err := g.sem.Acquire(ctx, 1); err != nil {
			return nil, fmt.Errorf("%s: waiting for this provider's update of the account's subscriptions to finish: %w", operation, err)
		}
	}
	return func() {
		g.done.Add(1)
		g.sem.Release(1)
	}, nil
}

// UpdateListed lists the subscriptions of accountID, passes them to choose, and writes the
// updates choose returns with UpdateSubscriptionsBulk, one result per update in their
// order. choose is called once, with the listing the updates are written from, and no write
// of this Client to the account lands between that listing and the updates' write: when one
// was in flight or came in after the first listing began, the account is listed again once
// it is over, and writes that start meanwhile wait until the updates are written. A writer
// outside this Client is not held back (the service offers no conditional write).
func (c *Client) UpdateListed(ctx context.Context, accountID string, choose func([]Subscription) []SubscriptionUpdate) ([]BulkUpdateResult, error) {
	accountID, err := c.account(accountID)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", opListSubscriptions, err)
	}
	g := c.writes.of(accountID)
	before := g.done.Load()
	subs, err := c.ListSubscriptions(ctx, accountID, ListOptions{})
	if err != nil {
		return nil, err
	}
	if err := g.sem.Acquire(ctx, writeGateWeight); err != nil {
		return nil, fmt.Errorf("%s: waiting for this provider's other writes to the account to finish: %w", opBulkUpdate, err)
	}
	defer g.sem.Release(writeGateWeight)
	ctx = context.WithValue(ctx, heldGateKey{}, accountID)
	if g.done.Load() != before {
		if subs, err = c.ListSubscriptions(ctx, accountID, ListOptions{}); err != nil {
			return nil, err
		}
	}
	return c.UpdateSubscriptionsBulk(ctx, accountID, choose(subs)), nil
}
