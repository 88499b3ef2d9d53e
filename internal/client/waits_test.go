package client

import (
	"context"
	"slices"
	"sync"
	"time"
)

// waitRecorder records the waits that a Client asks for through Config.RetryWait (between the
// attempts of a request) or Config.SettleWait (the grace period of a lost create answer), and
// returns at once with the context's error, so that no test waits on the real clock for them.
// The cross-tests (package client_test) use it as WaitRecorder (export_test.go).
type waitRecorder struct {
	mu    sync.Mutex
	waits []time.Duration
}

// Wait records d; it is a Config.RetryWait or Config.SettleWait.
func (w *waitRecorder) Wait(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.waits = append(w.waits, d)
	return ctx.Err()
}

// All returns the waits recorded so far.
func (w *waitRecorder) All() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.waits)
}
