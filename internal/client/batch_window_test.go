package client

import (
	"context"
	"testing"
	"time"
)

// TestBatchWindowWaitsForTheLimiter checks how long a batch stays open: the window, or until
// the rate limiter would grant its request, whichever is later; both when a batch starts with
// nothing in flight and when the request it gathered behind ends.
func TestBatchWindowWaitsForTheLimiter(t *testing.T) {
	t.Parallel()
	const window = 10 * time.Millisecond
	for _, tc := range []struct {
		name      string
		slotDelay func() time.Duration
		want      time.Duration
	}{
		{"unlimited", nil, window},
		{"a slot free now", func() time.Duration { return 0 }, window},
		{"the next slot in 80ms", func() time.Duration { return 80 * time.Millisecond }, 80 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scheduled := make(chan time.Duration, 2)
			q := newBatchQueue(Config{MaxBatchSize: 10, BatchWindow: window}, tc.slotDelay,
				func(_ context.Context, _ string, items []string) []batchResult[int] {
					return make([]batchResult[int], len(items))
				})
			var flush func()
			q.afterFunc = func(d time.Duration, f func()) *time.Timer {
				flush = f
				scheduled <- d
				return time.NewTimer(time.Hour)
			}
			done := make(chan error, 1)
			go func() {
				_, err := q.do(context.Background(), "acct", "a")
				done <- err
			}()
			if got := <-scheduled; got != tc.want {
				t.Errorf("a batch with nothing in flight stays open %v, want %v", got, tc.want)
			}
			flush()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			// A batch that gathered behind a request: scheduled when the request ends.
			q.mu.Lock()
			q.inFlight["acct"] = 1
			q.pending["acct"] = &pendingBatch[string, int]{ctx: context.Background()}
			q.mu.Unlock()
			q.done("acct")
			if got := <-scheduled; got != tc.want {
				t.Errorf("a batch behind a request stays open %v after it, want %v", got, tc.want)
			}
		})
	}
}
