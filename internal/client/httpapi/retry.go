package httpapi

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

const (
	// maxRetryAfter caps one wait that a Retry-After header asks for, so that a bogus value
	// cannot stall a run.
	maxRetryAfter = time.Minute
	// maxTotalWait bounds the waits between the attempts of one request, all retries
	// together: once they add up to it, the last answer is the result.
	maxTotalWait = 5 * time.Minute
	// longWait is the wait from which a retry is logged at INFO rather than DEBUG.
	longWait = 10 * time.Second
)

// retryClient returns a go-retryablehttp client for one call: it shares the Client's
// http.Client and limiter, logs through tflog on ctx, retries what is safe for method, and
// waits at most maxTotalWait between attempts in all.
func (c *Client) retryClient(ctx context.Context, method string) *retryablehttp.Client {
	return c.retryClientSafe(ctx, idempotent(method))
}

// retryClientSafe is retryClient for a request that may (safe) or may not be repeated after
// the service may have acted on it.
func (c *Client) retryClientSafe(ctx context.Context, safe bool) *retryablehttp.Client {
	budget := &waitBudget{ctx: ctx, left: maxTotalWait, backoff: c.backoff, sleep: c.cfg.RetryWait}
	policy := retryPolicySafe(safe)
	return &retryablehttp.Client{
		HTTPClient:   c.httpClient,
		Logger:       leveledLogger{ctx: ctx},
		RetryWaitMin: c.cfg.RetryWaitMin,
		RetryWaitMax: c.cfg.RetryWaitMax,
		RetryMax:     c.cfg.MaxRetries,
		CheckRetry: func(ctx context.Context, resp *http.Response, err error) (bool, error) {
			retry, checkErr := policy(ctx, resp, err)
			if retry && budget.left <= 0 {
				tflog.Info(ctx, "Not retrying: the request has waited as long as one request may between attempts",
					map[string]any{"max_total_wait": maxTotalWait.String()})
				return false, checkErr
			}
			return retry, checkErr
		},
		Backoff:      budget.wait,
		ErrorHandler: giveUp,
	}
}

// waitBudget spends the waits of one request's retries out of maxTotalWait. One request's
// attempts run one after another, so it needs no lock.
type waitBudget struct {
	ctx     context.Context
	left    time.Duration
	backoff retryablehttp.Backoff
	sleep   func(ctx context.Context, d time.Duration) error // Config.RetryWait; nil: retryablehttp's timer
}

// wait is the retryablehttp.Backoff of one request: the Client's backoff, cut to what is
// left of the budget; a long wait is logged at INFO, since it is what a user sees as a stall.
// With Config.RetryWait set, the wait happens there and retryablehttp is told to wait no
// longer; when RetryWait ends early (the context is done), retryablehttp is handed the whole
// wait, which its timer ends at once with the context.
func (b *waitBudget) wait(min, max time.Duration, attempt int, resp *http.Response) time.Duration {
	d := b.backoff(min, max, attempt, resp)
	if d > b.left {
		d = b.left
	}
	b.left -= d
	if d >= longWait {
		fields := map[string]any{"wait": d.String(), "attempt": attempt + 1}
		if resp != nil {
			fields["status"] = resp.StatusCode
			if ra := resp.Header.Get("Retry-After"); ra != "" {
				fields["retry_after"] = ra
			}
		}
		tflog.Info(b.ctx, "Waiting before retrying an eventnotify API request", fields)
	}
	if b.sleep != nil {
		if err := b.sleep(b.ctx, d); err != nil {
			return d
		}
		return 0
	}
	return d
}

// idempotent reports whether a request with this method may be repeated after the service
// may have acted on it.
func idempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete, http.MethodOptions:
		return true
	}
	return false
}

// retryPolicy decides what to retry. GET, PUT and DELETE: 429, 502, 503, 504 and transport
// errors. POST and PATCH: 429, 503 with a Retry-After header (the service declining the request
// for now, which is how the platform signals its rate limit), and connections that failed
// before the request was sent. Never other 4xx, never 500, never once the caller's context is
// done. An answer that needs no retry is handed back even when the context is done: the
// answer of a create that the caller cancelled while it was in flight (see transport) is
// how the caller learns what the service created.
func retryPolicy(method string) retryablehttp.CheckRetry {
	return retryPolicySafe(idempotent(method))
}

// retryPolicySafe is retryPolicy for a request that may (safe) or may not be repeated after
// the service may have acted on it.
func retryPolicySafe(safe bool) retryablehttp.CheckRetry {
	return func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if ctxErr := ctx.Err(); ctxErr != nil && (err != nil || retryableStatus(resp, safe)) {
			return false, ctxErr
		}
		if err != nil {
			if !RetryableTransportError(err) {
				return false, nil
			}
			return safe || notSent(err), nil
		}
		return retryableStatus(resp, safe), nil
	}
}

// retryableStatus reports whether an answer is worth another attempt; safe tells whether the
// method may be repeated after the service may have acted on it.
func retryableStatus(resp *http.Response, safe bool) bool {
	switch resp.StatusCode {
	case http.StatusTooManyRequests:
		return true
	case http.StatusServiceUnavailable:
		return safe || strings.TrimSpace(resp.Header.Get("Retry-After")) != ""
	case http.StatusBadGateway, http.StatusGatewayTimeout:
		return safe
	}
	return false
}

// RetryableTransportError rules out errors that another attempt cannot fix: a refused wait
// for the client-side rate limit, a plain-http connection refused for its address, and the
// permanent network errors (permanentNetworkFault).
func RetryableTransportError(err error) bool {
	var rl *rateLimitError
	var nl *NotLoopbackError
	if errors.As(err, &rl) || errors.As(err, &nl) {
		return false
	}
	return permanentNetworkFault(err) == faultNone
}

// NotSent reports whether a failed call certainly never reached the server: the connection
// failed before any byte of the request was sent (a failed dial, a DNS lookup, a refused
// connection).
func NotSent(err error) bool { return err != nil && notSent(err) }

// notSent reports whether a transport error certainly happened before any byte of the
// request reached the server: a failed dial (DNS lookup, connection refused, dial timeout).
// A reset or timeout on an established connection is not such an error.
func notSent(err error) bool {
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return true
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return true
	}
	return errors.Is(err, syscall.ECONNREFUSED)
}

// backoff honours a Retry-After header (seconds or HTTP date), and otherwise waits
// exponentially longer with jitter, between min and max.
func (c *Client) backoff(min, max time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), c.now()); ok {
			return d
		}
	}
	return jitteredBackoff(min, max, attempt)
}

// jitteredBackoff returns a wait drawn from [d/2, d] with d = min·2^attempt capped at max,
// and never less than min.
func jitteredBackoff(min, max time.Duration, attempt int) time.Duration {
	d := max
	if attempt < 32 {
		if m := min << uint(attempt); m > 0 && m < max {
			d = m
		}
	}
	half := d / 2
	wait := half
	if half > 0 {
		wait += time.Duration(rand.Int64N(int64(half) + 1))
	}
	if wait < min {
		wait = min
	}
	return wait
}

// parseRetryAfter reads a Retry-After value: delay seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		if secs > int64(maxRetryAfter/time.Second) {
			return maxRetryAfter, true
		}
		return time.Duration(secs) * time.Second, true
	}
	at, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	d := at.Sub(now)
	if d < 0 {
		d = 0
	}
	if d > maxRetryAfter {
		d = maxRetryAfter
	}
	return d, true
}

// giveUp is the retryablehttp.ErrorHandler: it hands the last response back (so that its
// status and body become an *APIError), or the last error with the number of attempts.
func giveUp(resp *http.Response, err error, attempts int) (*http.Response, error) {
	if err == nil {
		return resp, nil
	}
	if resp != nil && resp.Body != nil {
		_ = resp.Body.Close()
	}
	if attempts > 1 {
		return nil, fmt.Errorf("giving up after %d attempts: %w", attempts, err)
	}
	return nil, err
}
