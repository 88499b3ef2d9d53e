package client

import (
	"context"

	"golang.org/x/sync/singleflight"
)

// flightRetries bounds how often a caller joins a new flight after a flight it shared was
// ended by the context of the caller that started it.
const flightRetries = 3

// sharedFlight runs fn once at a time for all callers of key (the JWT fetch of an account, the
// listing of an account), and gives each caller its result. A flight runs with the context of
// the caller that started it; when that caller is cancelled, the others start one of their own
// instead of failing with its cancellation, up to flightRetries times. A caller whose own
// context ends stops waiting with its context's error.
func sharedFlight[T any](ctx context.Context, g *singleflight.Group, key string, fn func() (T, error)) (T, error) {
	var zero T
	for i := 0; ; i++ {
		ch := g.DoChan(key, func() (any, error) { return fn() })
		select {
		case <-ctx.Done():
			return zero, ctx.Err()
		case r := <-ch:
			if r.Err == nil {
				return r.Val.(T), nil
			}
			if ctx.Err() == nil && isContextError(r.Err) && i+1 < flightRetries {
				continue
			}
			return zero, r.Err
		}
	}
}
