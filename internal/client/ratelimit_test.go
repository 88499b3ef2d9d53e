package client

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

// TestLimiterConfiguration inspects the limiter instead of timing requests.
func TestLimiterConfiguration(t *testing.T) {
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
	h, _ := scripted([]int{503}, nil, okEvents)
	f := newFake(t, h)
	c := f.newClient(func(cfg *Config) { cfg.RequestsPerSecond = 1000 })
	lim := rate.NewLimiter(rate.Limit(1e-9), 100)
	c.httpClient.Transport.(*transport).limiter = lim
	before := lim.Tokens()
	if _, err := c.ListEvents(context.Background()); err != nil { // JWT fetch + 503 + 200
		t.Fatal(err)
	}
	if _, err := c.ListLogLevels(context.Background()); err != nil { // one more
		t.Fatal(err)
	}
	if used := before - lim.Tokens(); math.Abs(used-4) > 0.01 {
		t.Errorf("%.3f tokens used, want 4 (JWT fetch, 503, retry, second call)", used)
	}
}

// TestLimiterRespectsDeadline: a wait that cannot finish before the deadline fails at once
// with an error matching context.DeadlineExceeded, and is not retried.
func TestLimiterRespectsDeadline(t *testing.T) {
	f := newFake(t, eventsHandler)
	c := f.newClient(func(cfg *Config) {
		cfg.Username, cfg.Password, cfg.AuthURL, cfg.JWT = "", "", "", f.issue(testAccount)
		cfg.RequestsPerSecond = 1e-6
	})
	if _, err := c.ListEvents(context.Background()); err != nil { // takes the only token
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := c.ListEvents(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "rate limit") {
		t.Fatalf("error %v", err)
	}
	if got := len(f.api()); got != 1 {
		t.Errorf("%d requests reached the service, want 1", got)
	}
}
