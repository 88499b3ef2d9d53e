package provider

import (
	"context"
	"sync"
	"time"
)

// The calls of this plugin process that may write to the service, counted so that a plugin
// asked to stop by a signal (main's shutdown.go) keeps serving until their answers are
// back with Terraform. A call counts from the moment Terraform makes it until its answer is
// handed back: the requests it sends, the settling of a lost answer
// (internal/client/create_settle.go) and the building of the new state included.
//
// Only ApplyResourceChange and InvokeAction write, and protocolServer (protocol_server.go)
// counts them; the provider must be served through it (main.go) for the count to exist. A
// call of another kind that comes to write (a plan, a read, an import, a list resource, a
// function) must be counted there too, or a signalled plugin may end while it is in flight.
// Deleting the protocol fast path keeps protocolServer for this.

// writesInFlight counts the process's calls in flight that may write: ApplyResourceChange and
// InvokeAction, of every provider instance the process serves.
var writesInFlight = &writeCounter{}

// writeCounter counts calls in flight and how many have ever started.
type writeCounter struct {
	mu      sync.Mutex
	n       int           // calls in flight
	started uint64        // calls ever started
	idle    chan struct{} // closed while n == 0; nil means closed
	// after replaces time.After in tests; nil is time.After.
	after func(time.Duration) <-chan time.Time
}

// begin counts a call in flight; the call must call end once its answer is built.
func (w *writeCounter) begin() (end func()) {
	w.mu.Lock()
	if w.n == 0 {
		w.idle = make(chan struct{})
	}
	w.n++
	w.started++
	w.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			w.mu.Lock()
			defer w.mu.Unlock()
			w.n--
			if w.n == 0 {
				close(w.idle)
			}
		})
	}
}

// inFlight returns how many calls are in flight.
func (w *writeCounter) inFlight() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n
}

// state returns how many calls have started so far and a channel closed once none is in
// flight.
func (w *writeCounter) state() (started uint64, idle <-chan struct{}) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.n == 0 {
		c := make(chan struct{})
		close(c)
		return w.started, c
	}
	return w.started, w.idle
}

// waitQuiet returns nil once no call has been in flight for quiet without a break (no call
// started or ended in that time), or ctx's error when ctx ends first.
func (w *writeCounter) waitQuiet(ctx context.Context, quiet time.Duration) error {
	for {
		started, idle := w.state()
		select {
		case <-idle:
		case <-ctx.Done():
			return ctx.Err()
		}
		after := w.after
		if after == nil {
			after = time.After
		}
		select {
		case <-after(quiet):
		case <-ctx.Done():
			return ctx.Err()
		}
		if now, idle := w.state(); now == started && isClosed(idle) {
			return nil
		}
	}
}

// isClosed reports whether c is closed.
func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// WaitForWrites returns nil once no call of this process that may write to the service has
// been in flight for quiet (every write sent has its answer, its settling is over and
// Terraform has been answered), or ctx's error when ctx ends first. main calls it after a
// SIGTERM or SIGINT before the plugin ends by itself.
func WaitForWrites(ctx context.Context, quiet time.Duration) error {
	return writesInFlight.waitQuiet(ctx, quiet)
}
