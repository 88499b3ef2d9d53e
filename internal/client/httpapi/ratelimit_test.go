package httpapi

import (
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

// TestLimiterDelay reads the wait for the next slot from the limiter at fixed instants, without
// taking a slot.
func TestLimiterDelay(t *testing.T) {
	t.Parallel()
	l := newLimiter(10)
	t0 := time.Unix(1_700_000_000, 0)
	if d := limiterDelay(l, t0); d != 0 {
		t.Fatalf("a fresh limiter: wait %v, want 0", d)
	}
	if !l.AllowN(t0, 1) {
		t.Fatal("first request refused")
	}
	for _, tc := range []struct {
		at   time.Duration
		want time.Duration
	}{{0, 100 * time.Millisecond}, {30 * time.Millisecond, 70 * time.Millisecond}, {100 * time.Millisecond, 0}, {time.Second, 0}} {
		if d := limiterDelay(l, t0.Add(tc.at)); d.Round(time.Millisecond) != tc.want {
			t.Errorf("%v after a request: wait %v, want %v", tc.at, d, tc.want)
		}
	}
	if limiterDelay(l, t0.Add(30*time.Millisecond)); !l.AllowN(t0.Add(100*time.Millisecond), 1) {
		t.Fatal("reading the wait took a slot")
	}
}

// TestLimiterConfiguration inspects the limiter instead of timing requests.
func TestLimiterConfiguration(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rps       float64
		wantNil   bool
		wantLimit rate.Limit
	}{
		{0, true, 0},
		{10, false, 10},
		{0.5, false, 0.5},
		{math.Inf(1), true, 0},
	}
	for _, tc := range tests {
		l := newLimiter(tc.rps)
		if (l == nil) != tc.wantNil {
			t.Fatalf("newLimiter(%v) = %v", tc.rps, l)
		}
		if l == nil {
			continue
		}
		if l.Limit() != tc.wantLimit || l.Burst() != 1 || float64(l.Burst()) > math.Max(1, tc.rps) {
			t.Errorf("newLimiter(%v): limit %v burst %d", tc.rps, l.Limit(), l.Burst())
		}
	}
	// At 10 per second, a second request at the same instant must wait 100ms: count tokens
	// at fixed instants, no wall clock involved.
	l := newLimiter(10)
	t0 := time.Unix(1_700_000_000, 0)
	if !l.AllowN(t0, 1) {
		t.Fatal("first request refused")
	}
	if l.AllowN(t0, 1) || l.AllowN(t0.Add(99*time.Millisecond), 1) {
		t.Fatal("a second request within 100ms was allowed")
	}
	if !l.AllowN(t0.Add(100*time.Millisecond), 1) {
		t.Fatal("a request after 100ms was refused")
	}
	if got := l.TokensAt(t0.Add(100 * time.Millisecond)); got != 0 {
		t.Errorf("tokens left %v, want 0", got)
	}

	// The Client wires its limiter into its transport, and into no other client.
	c, err := New(Config{BaseURL: "http://127.0.0.1", JWT: "j", AccountID: "a", RequestsPerSecond: 10})
	if err != nil {
		t.Fatal(err)
	}
	tr := c.httpClient.Transport.(*transport)
	if tr.limiter == nil || tr.limiter != c.limiter || tr.limiter.Limit() != 10 {
		t.Errorf("transport limiter %v", tr.limiter)
	}
	if c.httpClient == http.DefaultClient || tr.base == http.DefaultTransport {
		t.Error("the client shares the default client or transport")
	}
	c0, _ := New(Config{BaseURL: "http://127.0.0.1", JWT: "j", AccountID: "a"})
	if c0.httpClient.Transport.(*transport).limiter != nil {
		t.Error("a limiter with RequestsPerSecond 0")
	}
}

// TestLimiterCountsEveryAttempt: JWT fetches and retries each take a token. A limiter with a
// large bucket and a negligible refill rate makes the count exact without timing.
func TestLimiterCountsEveryAttempt(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/auth/jwt/generate/") {
			_, _ = io.WriteString(w, "token-1")
			return
		}
		if calls.Add(1) == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		_, _ = io.WriteString(w, "[]")
	}))
	t.Cleanup(srv.Close)
	c, err := New(Config{BaseURL: srv.URL, AuthURL: srv.URL, AccountID: testAccount, Username: testUser, Password: testPassword,
		RequestsPerSecond: 1000, MaxRetries: 2, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	lim := rate.NewLimiter(rate.Limit(1e-9), 100)
	c.httpClient.Transport.(*transport).limiter = lim
	before := lim.Tokens()
	events := Call{Operation: "list events", Method: http.MethodGet, AccountID: testAccount, Path: "/rest/v1/events"}
	if _, err := c.Do(context.Background(), events); err != nil { // JWT fetch + 503 + 200
		t.Fatal(err)
	}
	levels := Call{Operation: "list log levels", Method: http.MethodGet, AccountID: testAccount, Path: "/rest/v1/logLevels"}
	if _, err := c.Do(context.Background(), levels); err != nil { // one more
		t.Fatal(err)
	}
	if used := before - lim.Tokens(); math.Abs(used-4) > 0.01 {
		t.Errorf("%.3f tokens used, want 4 (JWT fetch, 503, retry, second call)", used)
	}
}
