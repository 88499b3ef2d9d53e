package httpapi

import (
	"context"
	"errors"

	"golang.org/x/sync/singleflight"
)

// SharedFlight runs fn once at a time for all callers of key (the JWT fetch of an account, the
// listing of an account, the events catalogue), and gives each caller its result. A flight
// runs with the context of the caller that started it, so its result is every waiter's,
// errors included: a per-attempt timeout, a refused wait for the rate limiter (which stands
// for the starter's deadline) or a 401 ends the flight for all. Only when the starter's own
// context ended (Ctrl-C, its deadline) do the other waiters start a new flight, since that
// says nothing about the service; each such flight needs a starter that was cancelled, so
// there are never more restarts than cancelled callers. A caller whose own context ends stops
// waiting with its context's error.
//
// A hanging endpoint thus costs one flight: with the provider's defaults (5 retries, 30 s per
// attempt) 6 requests and about 210 s, for any number of waiters. Before, a per-attempt
// timeout was taken for the starter's cancellation and the flight started again, up to three
// times: 18 requests and about 620 s.
func SharedFlight[T any](ctx context.Context, g *singleflight.Group, key string, fn func() (T, error)) (T, error) {
	var zero T
	watch, _ := ctx.Value(flightWatchKey{}).(*flightWatch)
	self := new(byte) // tells this caller's flights from others'
	for {
		// A context that has already ended starts or joins no flight: its caller gets the
		// context's error, always the same one (a flight it started would end with the same
		// cause, and the select below would pick either answer at random).
		if err := ctx.Err(); err != nil {
			return zero, err
		}
		ch := g.DoChan(key, func() (any, error) {
			watch.flightStarted()
			v, err := fn()
			if err != nil && starterEnded(ctx, err) {
				return v, &starterEndedError{err: err, starter: self}
			}
			return v, err
		})
		watch.flightJoined()
		select {
		case <-ctx.Done():
			return zero, ctx.Err()
		case r := <-ch:
			if r.Err == nil {
				return r.Val.(T), nil
			}
			var ended *starterEndedError
			if !errors.As(r.Err, &ended) {
				return zero, r.Err
			}
			if ended.starter != self && ctx.Err() == nil {
				continue // another caller's context ended the flight: start or join a new one
			}
			return zero, ended.err
		}
	}
}

// starterEnded reports whether a flight's error came from its starter's context: the context
// is done, or the rate limiter refused to wait past its deadline.
func starterEnded(ctx context.Context, err error) bool {
	var rl *rateLimitError
	return ctx.Err() != nil || errors.As(err, &rl)
}

// starterEndedError carries the error of a flight that its starter's context ended.
type starterEndedError struct {
	err     error
	starter *byte // the self of the caller that started the flight
}

// Error is the flight's error.
func (e *starterEndedError) Error() string { return e.err.Error() }

// Unwrap returns the flight's error.
func (e *starterEndedError) Unwrap() error { return e.err }

// flightWatchKey is the context key of a *flightWatch.
type flightWatchKey struct{}

// flightWatch lets a test see the flights of the callers whose context carries it: started
// runs in a flight before its work, joined after each caller has started or joined a flight.
// Either may block, to hold a flight until the test's callers have joined it.
type flightWatch struct {
	started func()
	joined  func()
}

// flightStarted calls w.started; a nil w does nothing.
func (w *flightWatch) flightStarted() {
	if w != nil && w.started != nil {
		w.started()
	}
}

// flightJoined calls w.joined; a nil w does nothing.
func (w *flightWatch) flightJoined() {
	if w != nil && w.joined != nil {
		w.joined()
	}
}
