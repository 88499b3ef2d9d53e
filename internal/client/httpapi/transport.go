package httpapi

import (
	"context"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"golang.org/x/time/rate"
)

// callInfoKey is the context key of a call's *callInfo.
type callInfoKey struct{}

// callInfo follows one logical call (all its attempts) through the transport.
type callInfo struct {
	operation string
	attempts  atomic.Int32
}

// withCallInfo attaches a fresh callInfo to ctx.
func withCallInfo(ctx context.Context, operation string) (context.Context, *callInfo) {
	info := &callInfo{operation: operation}
	return context.WithValue(ctx, callInfoKey{}, info), info
}

// transport is the Client's http.RoundTripper: before each attempt it waits for the rate
// limiter, then bounds the attempt with the per-attempt timeout (a create or bulk call, once
// sent, with that timeout only: see RoundTrip), and logs it at DEBUG (method, path, status,
// duration, attempt; never a header). A plain-http request goes through plain, which dials
// loopback addresses only (loopback_dial.go); any other through base.
type transport struct {
	base    http.RoundTripper
	plain   http.RoundTripper
	limiter *rate.Limiter
	timeout time.Duration
}

// maxDetachedAttempt bounds an attempt of a create or bulk call, which the caller's
// cancellation does not abort once sent, when no per-attempt timeout is configured.
const maxDetachedAttempt = 2 * time.Minute

// rateLimitError is returned when the limiter cannot grant a slot before the context's
// deadline. It matches context.DeadlineExceeded and is never retried.
type rateLimitError struct{ err error }

// Error describes the failed wait.
func (e *rateLimitError) Error() string {
	return "waiting for the client-side rate limit: " + e.err.Error()
}

// Unwrap makes the error match context.DeadlineExceeded.
func (e *rateLimitError) Unwrap() error { return context.DeadlineExceeded }

// RoundTrip implements http.RoundTripper.
func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	if t.limiter != nil {
		if err := t.limiter.Wait(ctx); err != nil {
			if req.Body != nil {
				_ = req.Body.Close()
			}
			if ctxErr := ctx.Err(); ctxErr != nil {
				return nil, ctxErr
			}
			return nil, &rateLimitError{err: err}
		}
	}
	if err := ctx.Err(); err != nil {
		// Cancelled before anything was sent (the attempt below may outlive a cancellation).
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, err
	}
	attempt := 1
	operation := ""
	if info, ok := ctx.Value(callInfoKey{}).(*callInfo); ok {
		attempt = int(info.attempts.Add(1))
		operation = info.operation
	}
	attemptCtx, timeout := ctx, t.timeout
	if !idempotent(req.Method) {
		// The service may carry out a create or a bulk change as soon as it has the request,
		// whatever the caller does next. So once the request goes out, the caller's
		// cancellation (Ctrl-C) no longer aborts it: its answer, with the IDs of what it
		// created, still reaches the caller and the state. The wait for the limiter above,
		// the JWT fetch and the back-off between attempts still end with the cancellation.
		attemptCtx = context.WithoutCancel(ctx)
		if timeout <= 0 {
			timeout = maxDetachedAttempt
		}
	}
	var cancel context.CancelFunc
	if timeout > 0 {
		attemptCtx, cancel = context.WithTimeout(attemptCtx, timeout)
	}
	if attemptCtx != ctx {
		req = req.WithContext(attemptCtx)
	}
	start := time.Now()
	probeFrom(ctx).sending(start)
	base := t.base
	if req.URL.Scheme == "http" && t.plain != nil {
		base = t.plain
	}
	resp, err := base.RoundTrip(req)
	fields := map[string]any{
		"operation":   operation,
		"method":      req.Method,
		"path":        req.URL.Path,
		"attempt":     attempt,
		"duration_ms": time.Since(start).Milliseconds(),
	}
	if err != nil {
		if cancel != nil {
			cancel()
		}
		fields["error"] = errorLogText(err)
		tflog.Debug(ctx, "eventnotify API request failed", fields)
		return nil, err
	}
	fields["status"] = resp.StatusCode
	tflog.Debug(ctx, "eventnotify API response", fields)
	if cancel != nil {
		resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	}
	return resp, nil
}

// cancelOnClose releases an attempt's timeout context once its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

// Close closes the body and cancels the attempt's context.
func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}
