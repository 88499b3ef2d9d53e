package httpapi

import (
	"context"
	"errors"
)

// lostAnswerError marks a transport failure of a write that may have reached the service: a
// timeout or a reset after the request was written.
type lostAnswerError struct{ err error }

// Error is the underlying error's.
func (e *lostAnswerError) Error() string { return e.err.Error() }

// Unwrap returns the underlying error.
func (e *lostAnswerError) Unwrap() error { return e.err }

// mayHaveReachedServer reports whether a failed request may have reached the service: not a
// failed dial, a refused wait for the rate limiter, an untrusted certificate, or the caller's
// cancellation before the request went out (a sent create is detached from the caller's
// cancellation, see transport, so such an error comes from before sending or from the wait
// between attempts, which follows only answers that did nothing).
func mayHaveReachedServer(ctx context.Context, err error) bool {
	if notSent(err) || !RetryableTransportError(err) {
		return false
	}
	if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
		return false
	}
	return true
}

// AnswerLost reports whether err is the transport failure of a write (any method but GET and
// HEAD) that may have reached the service: its outcome is unknown, and package client settles
// it by reading the service (the account for a create, the subscriptions for an update). For
// an idempotent write the failure is the last attempt's, after the retries.
func AnswerLost(err error) bool {
	var lost *lostAnswerError
	return errors.As(err, &lost)
}
