package httpapi

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"syscall"
	"testing"
	"time"
)

// TestBackoff checks Retry-After parsing and the jittered exponential back-off bounds.
func TestBackoff(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"7", 7 * time.Second, true},
		{" 0 ", 0, true},
		{"-1", 0, false},
		{"", 0, false},
		{"later", 0, false},
		{"99999999", maxRetryAfter, true},
		{now.Add(45 * time.Second).Format(http.TimeFormat), 45 * time.Second, true},
		{now.Add(90 * time.Second).Format(http.TimeFormat), maxRetryAfter, true},
		{"Wednesday, 01-Jan-25 12:00:30 GMT", 30 * time.Second, true}, // RFC 850
		{now.Add(-time.Hour).Format(http.TimeFormat), 0, true},
		{now.Add(24 * time.Hour).Format(http.TimeFormat), maxRetryAfter, true},
	}
	for _, tc := range tests {
		got, ok := parseRetryAfter(tc.in, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseRetryAfter(%q) = %v, %t; want %v, %t", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	c := &Client{now: func() time.Time { return now }}
	resp := &http.Response{StatusCode: 503, Header: http.Header{"Retry-After": {"7"}}}
	if got := c.backoff(time.Millisecond, 10*time.Millisecond, 0, resp); got != 7*time.Second {
		t.Errorf("backoff with Retry-After = %v", got)
	}
	min, max := 100*time.Millisecond, 2*time.Second
	for attempt := 0; attempt < 40; attempt++ {
		ceiling := max
		if attempt < 5 {
			ceiling = min << attempt
			if ceiling > max {
				ceiling = max
			}
		}
		for i := 0; i < 50; i++ {
			got := c.backoff(min, max, attempt, &http.Response{StatusCode: 503, Header: http.Header{}})
			if got < min || got > ceiling || got < ceiling/2 {
				t.Fatalf("attempt %d: back-off %v outside [%v, %v]", attempt, got, ceiling/2, ceiling)
			}
		}
	}
}

// TestRetryPolicyTransportErrors: what counts as "not sent" for POST and PATCH; a host name
// that does not resolve is not retried at all.
func TestRetryPolicyTransportErrors(t *testing.T) {
	t.Parallel()
	urlErr := func(err error) error { return &url.Error{Op: "Post", URL: "http://x", Err: err} }
	refused := urlErr(&net.OpError{Op: "dial", Net: "tcp", Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}})
	dns := urlErr(&net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "server misbehaving", Name: "x", IsTemporary: true}})
	noSuchHost := urlErr(&net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "x", IsNotFound: true}})
	reset := urlErr(&net.OpError{Op: "read", Net: "tcp", Err: &os.SyscallError{Syscall: "read", Err: syscall.ECONNRESET}})
	timeout := urlErr(context.DeadlineExceeded)
	eof := urlErr(errors.New("EOF"))
	limiter := urlErr(&rateLimitError{err: errors.New("would exceed deadline")})
	tests := []struct {
		method string
		err    error
		want   bool
	}{
		{http.MethodPost, refused, true},
		{http.MethodPost, dns, true},
		{http.MethodPost, noSuchHost, false}, // permanent: TestPermanentNetworkErrors
		{http.MethodGet, noSuchHost, false},
		{http.MethodPatch, refused, true},
		{http.MethodPost, reset, false},
		{http.MethodPost, timeout, false},
		{http.MethodPatch, eof, false},
		{http.MethodGet, reset, true},
		{http.MethodGet, timeout, true},
		{http.MethodPut, eof, true},
		{http.MethodDelete, refused, true},
		{http.MethodGet, limiter, false},
	}
	for _, tc := range tests {
		got, err := retryPolicy(tc.method)(context.Background(), nil, tc.err)
		if got != tc.want || err != nil {
			t.Errorf("%s %v: retry %t (%v), want %t", tc.method, tc.err, got, err, tc.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if retry, err := retryPolicy(http.MethodGet)(ctx, nil, reset); retry || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: retry %t, %v", retry, err)
	}
}

// TestWaitBudget: the waits between the attempts of one request add up to at most
// maxTotalWait, each cut to what is left, and retrying stops once the budget is spent.
func TestWaitBudget(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		waits []time.Duration // what the back-off asks for, attempt by attempt
		want  []time.Duration // what the budget grants
	}{
		{"within the budget", []time.Duration{time.Second, 2 * time.Second}, []time.Duration{time.Second, 2 * time.Second}},
		{"cut to what is left", []time.Duration{maxRetryAfter, maxRetryAfter, maxRetryAfter, maxRetryAfter, maxRetryAfter, maxRetryAfter},
			[]time.Duration{maxRetryAfter, maxRetryAfter, maxRetryAfter, maxRetryAfter, maxRetryAfter, 0}},
		{"one long wait", []time.Duration{maxTotalWait + time.Hour, time.Second}, []time.Duration{maxTotalWait, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			i := 0
			b := &waitBudget{ctx: context.Background(), left: maxTotalWait,
				backoff: func(_, _ time.Duration, _ int, _ *http.Response) time.Duration { d := tc.waits[i]; i++; return d }}
			var total time.Duration
			for n, want := range tc.want {
				got := b.wait(0, 0, n, nil)
				if got != want {
					t.Fatalf("wait %d = %v, want %v", n, got, want)
				}
				total += got
			}
			if total > maxTotalWait {
				t.Errorf("waited %v in all, more than %v", total, maxTotalWait)
			}
		})
	}
}

// TestWaitBudgetRetryWait: with Config.RetryWait set, the budget's grant is waited there and
// retryablehttp is told to wait no longer; when RetryWait ends early with the context's error,
// retryablehttp gets the whole grant, so that its timer ends with the context.
func TestWaitBudgetRetryWait(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		err        error
		wantReturn time.Duration
	}{
		{"waited", nil, 0},
		{"ended by the context", context.Canceled, 7 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var asked []time.Duration
			b := &waitBudget{ctx: context.Background(), left: maxTotalWait,
				backoff: func(_, _ time.Duration, _ int, _ *http.Response) time.Duration { return 7 * time.Second },
				sleep: func(_ context.Context, d time.Duration) error {
					asked = append(asked, d)
					return tc.err
				}}
			if got := b.wait(0, 0, 0, nil); got != tc.wantReturn {
				t.Errorf("retryablehttp told to wait %v, want %v", got, tc.wantReturn)
			}
			if want := []time.Duration{7 * time.Second}; !slices.Equal(asked, want) {
				t.Errorf("RetryWait asked for %v, want %v", asked, want)
			}
		})
	}
}

// TestRetryStopsWhenBudgetIsSpent: once the waits of a request add up to maxTotalWait, an
// answer that would be retried is not; before that it is.
func TestRetryStopsWhenBudgetIsSpent(t *testing.T) {
	t.Parallel()
	c := &Client{now: time.Now}
	rc := c.retryClient(context.Background(), http.MethodGet)
	throttled := &http.Response{StatusCode: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"3600"}}}
	if retry, _ := rc.CheckRetry(context.Background(), throttled, nil); !retry {
		t.Fatal("a 429 is not retried with the budget untouched")
	}
	var total time.Duration
	for i := 0; i < 10; i++ {
		total += rc.Backoff(time.Second, time.Second, i, throttled)
	}
	if total != maxTotalWait {
		t.Fatalf("waits add up to %v, want %v", total, maxTotalWait)
	}
	if retry, _ := rc.CheckRetry(context.Background(), throttled, nil); retry {
		t.Fatal("a 429 is retried after the budget is spent")
	}
}
