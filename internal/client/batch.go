package client

// Batched writes: CreateSubscriptionBatched and DeleteSubscriptionBatched let the calls for one
// account share one request (a createSubscriptions list, a bulk delete), up to
// Config.MaxBatchSize subscriptions per request. A batch goes out when it is full, or
// Config.BatchWindow after the account has no request of its kind in flight, longer while the
// rate limiter would hold its request anyway (slotDelay); Config.BatchReady, a test hook,
// replaces both rules. Results go back by content (creates) or by ID (deletes); a batch refused
// as a whole (400) is split until the refused items stand alone; a caller cancelled before its
// batch is sent leaves it, and a sent batch runs to its answer (what follows the answer, such as
// the waits that settle a lost one, ends once every caller of the batch is cancelled or past its
// deadline). Why: DESIGN.md#batching.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

const (
	// DefaultMaxBatchSize is Config.MaxBatchSize's default. The service documents no limit;
	// Terraform's default parallelism (10) keeps batches far below it.
	DefaultMaxBatchSize = 100
	// DefaultBatchWindow is Config.BatchWindow's default: long enough for the writes that
	// Terraform starts together to meet, short enough to cost little when nothing else
	// comes (measured: see BENCHMARKS.md).
	DefaultBatchWindow = 10 * time.Millisecond
)

// ItemError is the failure of one item of a bulk operation: the status the service gave it.
type ItemError struct {
	// Operation names the bulk call.
	Operation string
	// AccountID is the account of the call.
	AccountID string
	// SubscriptionID identifies the item.
	SubscriptionID string
	// HTTPEquivalentCode is the item's status.
	HTTPEquivalentCode int
	// Message is the service's message for the item.
	Message string
}

// Error names the operation, the item, its status and the service's message.
func (e *ItemError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = "no message"
	}
	return fmt.Sprintf("%s: subscription %s: HTTP %d %s: %s", e.Operation, e.SubscriptionID,
		e.HTTPEquivalentCode, http.StatusText(e.HTTPEquivalentCode), msg)
}

// Is makes errors.Is(err, ErrNotFound) true for an item the service answered 404.
func (e *ItemError) Is(target error) bool {
	return target == httpapi.ErrNotFound && e.HTTPEquivalentCode == http.StatusNotFound
}

// batchResult is one caller's share of a batch's answer.
type batchResult[Out any] struct {
	out Out
	err error
}

// pendingBatch is a batch that is still collecting items, or is being sent.
type pendingBatch[In, Out any] struct {
	ctx       context.Context // the first caller's, without its cancellation
	callers   []context.Context
	items     []In
	waiters   []chan batchResult[Out]
	withdrawn []bool
	timer     *time.Timer
	sent      bool
}

// batchQueue collects the writes of one kind per account and sends them in batches.
type batchQueue[In, Out any] struct {
	mu       sync.Mutex
	pending  map[string]*pendingBatch[In, Out]
	inFlight map[string]int // requests being sent, per account
	max      int
	window   time.Duration
	ready    func(account string, pending int) bool
	send     func(ctx context.Context, account string, items []In) []batchResult[Out]
	// slotDelay is how long a request sent now would wait for the rate limiter (nil:
	// unlimited).
	slotDelay func() time.Duration
	// afterFunc is time.AfterFunc; tests replace it to see the windows.
	afterFunc func(time.Duration, func()) *time.Timer
}

// newBatchQueue builds a queue for cfg's batch settings that sends with send; slotDelay
// (nil when unlimited) tells how long a request would wait for the rate limiter.
func newBatchQueue[In, Out any](cfg Config, slotDelay func() time.Duration,
	send func(context.Context, string, []In) []batchResult[Out]) *batchQueue[In, Out] {
	return &batchQueue[In, Out]{
		pending:   make(map[string]*pendingBatch[In, Out]),
		inFlight:  make(map[string]int),
		max:       cfg.MaxBatchSize,
		window:    cfg.BatchWindow,
		ready:     cfg.BatchReady,
		send:      send,
		slotDelay: slotDelay,
		afterFunc: time.AfterFunc,
	}
}

// openFor is how long a batch stays open once nothing of its kind is in flight: the window,
// or longer while its request would wait for the rate limiter anyway.
func (q *batchQueue[In, Out]) openFor() time.Duration {
	d := q.window
	if q.slotDelay != nil {
		d = max(d, q.slotDelay())
	}
	return d
}

// do adds item to the account's batch and waits for its result.
func (q *batchQueue[In, Out]) do(ctx context.Context, account string, item In) (Out, error) {
	q.mu.Lock()
	b := q.pending[account]
	if b == nil {
		b = &pendingBatch[In, Out]{ctx: context.WithoutCancel(ctx)}
		q.pending[account] = b
		if q.ready == nil && q.max > 1 && q.inFlight[account] == 0 {
			b.timer = q.afterFunc(q.openFor(), func() { q.flush(account, b) })
		}
	}
	idx := len(b.items)
	ch := make(chan batchResult[Out], 1)
	b.items = append(b.items, item)
	b.callers = append(b.callers, ctx)
	b.waiters = append(b.waiters, ch)
	b.withdrawn = append(b.withdrawn, false)
	full := len(b.items) >= q.max || (q.ready != nil && q.ready(account, len(b.items)))
	if full {
		q.takeLocked(account, b)
		q.inFlight[account]++
	}
	q.mu.Unlock()
	if full {
		go q.run(account, b)
	}
	select {
	case r := <-ch:
		return r.out, r.err
	case <-ctx.Done():
	}
	q.mu.Lock()
	if !b.sent {
		// Not sent yet: leave the batch.
		b.withdrawn[idx] = true
		q.mu.Unlock()
		var zero Out
		return zero, ctx.Err()
	}
	q.mu.Unlock()
	// Sent: the service may act on it, so wait for its answer whatever the caller does.
	r := <-ch
	return r.out, r.err
}

// untilAllDone returns base, cancelled once every one of callers is done (cancelled or past
// its deadline), with the cause of the last: a request already sent runs to its answer
// whatever the callers do (the transport detaches it), but the waits that follow, such as
// the grace period of a lost create answer (create_settle.go), end when no caller is left to
// wait for them, as they end for the caller of an unbatched write. stop releases it.
func untilAllDone(base context.Context, callers []context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(base)
	var left atomic.Int64
	left.Store(int64(len(callers)))
	stops := make([]func() bool, 0, len(callers))
	for _, caller := range callers {
		stops = append(stops, context.AfterFunc(caller, func() {
			if left.Add(-1) == 0 {
				cancel(context.Cause(caller))
			}
		}))
	}
	return ctx, func() {
		for _, s := range stops {
			s()
		}
		cancel(nil)
	}
}

// takeLocked marks b as sent and removes it from the queue; q.mu is held.
func (q *batchQueue[In, Out]) takeLocked(account string, b *pendingBatch[In, Out]) {
	b.sent = true
	if q.pending[account] == b {
		delete(q.pending, account)
	}
	if b.timer != nil {
		b.timer.Stop()
	}
}

// flush sends b when its window has passed, unless it was sent already.
func (q *batchQueue[In, Out]) flush(account string, b *pendingBatch[In, Out]) {
	q.mu.Lock()
	if b.sent {
		q.mu.Unlock()
		return
	}
	q.takeLocked(account, b)
	q.inFlight[account]++
	q.mu.Unlock()
	q.run(account, b)
}

// run sends the items of b that no caller withdrew, hands each its result, and then sends
// the batch that gathered behind it, if any. The caller has counted b in q.inFlight.
func (q *batchQueue[In, Out]) run(account string, b *pendingBatch[In, Out]) {
	defer q.done(account)
	q.mu.Lock()
	var items []In
	var waiters []chan batchResult[Out]
	var callers []context.Context
	for i, it := range b.items {
		if !b.withdrawn[i] {
			items = append(items, it)
			waiters = append(waiters, b.waiters[i])
			callers = append(callers, b.callers[i])
		}
	}
	q.mu.Unlock()
	if len(items) == 0 {
		return
	}
	ctx, stop := untilAllDone(b.ctx, callers)
	defer stop()
	results := q.send(ctx, account, items)
	for i, ch := range waiters {
		ch <- results[i]
	}
}

// done ends a request of the account. When it was the last in flight, the batch that
// gathered behind it goes out one window later: the writes that Terraform starts as soon as
// this request's writes are answered join it, so that a batch holds about as many writes as
// Terraform runs in parallel.
func (q *batchQueue[In, Out]) done(account string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.inFlight[account]--
	if q.inFlight[account] > 0 || q.ready != nil {
		return
	}
	delete(q.inFlight, account)
	if next := q.pending[account]; next != nil && !next.sent && next.timer == nil {
		next.timer = q.afterFunc(q.openFor(), func() { q.flush(account, next) })
	}
}

// splitOnRefusal sends items with send; when the service refuses a batch of several as a whole
// (400), it sends each half on its own, so that only the refused items fail.
func splitOnRefusal[In, Out any](ctx context.Context, items []In, send func(context.Context, []In) ([]batchResult[Out], error)) []batchResult[Out] {
	results, err := send(ctx, items)
	if err == nil {
		return results
	}
	var apiErr *httpapi.APIError
	if len(items) > 1 && errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusBadRequest {
		tflog.Debug(ctx, "A batch was refused as a whole; sending its halves on their own",
			map[string]any{"items": len(items), "operation": apiErr.Operation})
		half := len(items) / 2
		return append(splitOnRefusal(ctx, items[:half], send), splitOnRefusal(ctx, items[half:], send)...)
	}
	if results == nil {
		results = make([]batchResult[Out], len(items))
	}
	for i := range results {
		if results[i].err == nil && isZero(results[i].out) {
			results[i].err = err
		}
	}
	return results
}

// isZero reports whether v is its type's zero value (no result).
func isZero[T any](v T) bool {
	var zero T
	return any(v) == any(zero)
}

// CreateSubscriptionBatched creates one subscription (createSubscriptions), in one request with
// the other CreateSubscriptionBatched calls for the account that arrive within the batch
// window (see batch.go). The result is matched to the input by content; a lost answer is
// settled by reading the account, as CreateSubscriptions does. A subscription adopted with a
// doubt (a *LateAdoptionWarning), or created again after a lost answer's grace period (a
// *RecreatedWarning), comes with the warning as the error: the caller keeps the subscription
// and shows the warning.
func (c *Client) CreateSubscriptionBatched(ctx context.Context, accountID string, in SubscriptionInput) (*Subscription, error) {
	accountID, err := c.account(accountID)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", opCreateSubscriptions, err)
	}
	return c.creates.do(ctx, accountID, in)
}

// sendCreates is the send function of the create queue.
func (c *Client) sendCreates(ctx context.Context, account string, in []SubscriptionInput) []batchResult[*Subscription] {
	if len(in) > 1 {
		tflog.Debug(ctx, "Creating subscriptions in one request", map[string]any{"account_id": account, "subscriptions": len(in)})
	}
	return splitOnRefusal(ctx, in, func(ctx context.Context, in []SubscriptionInput) ([]batchResult[*Subscription], error) {
		created, late, err := c.createSubscriptions(ctx, account, in)
		results := make([]batchResult[*Subscription], len(in))
		for i, s := range created {
			results[i].out = s
			if s != nil && late[i] != nil {
				// Not a failure: the caller gets the subscription and says what is uncertain.
				results[i].err = late[i]
			}
		}
		return results, err
	})
}

// DeleteSubscriptionBatched deletes one subscription, in one bulk delete
// (bulkOperationsOnSubscriptionsForAccount) with the other DeleteSubscriptionBatched calls for
// the account that arrive within the batch window; alone, it is a deleteSubscription. A
// subscription that is already gone (its item's 404, or the service's own 404) counts as
// deleted; any other item status is an *ItemError with the service's message.
func (c *Client) DeleteSubscriptionBatched(ctx context.Context, accountID, id string) error {
	accountID, err := c.account(accountID)
	if err != nil {
		return fmt.Errorf("%s: %w", opBulkDelete, err)
	}
	_, err = c.deletes.do(ctx, accountID, id)
	return err
}

// deleted is the result of a delete: there is no value, only the error.
type deleted struct{}

// sendDeletes is the send function of the delete queue.
func (c *Client) sendDeletes(ctx context.Context, account string, ids []string) []batchResult[deleted] {
	if len(ids) == 1 {
		err := c.DeleteSubscription(ctx, account, ids[0])
		if errors.Is(err, httpapi.ErrNotFound) {
			err = nil
		}
		return []batchResult[deleted]{{err: err}}
	}
	tflog.Debug(ctx, "Deleting subscriptions in one request", map[string]any{"account_id": account, "subscriptions": len(ids)})
	return splitOnRefusal(ctx, ids, func(ctx context.Context, ids []string) ([]batchResult[deleted], error) {
		statuses, err := c.bulkDelete(ctx, account, ids)
		if err != nil {
			return nil, err
		}
		byID := make(map[string]OperationStatus, len(statuses))
		for _, st := range statuses {
			byID[strings.ToLower(st.SubscriptionID)] = st
		}
		results := make([]batchResult[deleted], len(ids))
		for i, id := range ids {
			st, ok := byID[strings.ToLower(id)]
			switch {
			case !ok:
				results[i].err = fmt.Errorf("%s: the answer has no status for subscription %s, and reading it afterwards did not find it gone; it may still exist", opBulkDelete, id)
			case st.HTTPEquivalentCode == http.StatusNoContent, st.HTTPEquivalentCode == http.StatusOK,
				st.HTTPEquivalentCode == http.StatusNotFound:
			default:
				results[i].err = &ItemError{Operation: opBulkDelete, AccountID: account, SubscriptionID: id,
					HTTPEquivalentCode: st.HTTPEquivalentCode, Message: st.Message}
			}
		}
		return results, nil
	})
}
