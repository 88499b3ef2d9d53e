package client

import (
	"context"
	"errors"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// scripted answers the given statuses in turn, then 200/201/204 with a body fitting the
// operation.
func scripted(statuses []int, headers map[string]string, success func(w http.ResponseWriter)) (http.HandlerFunc, *atomic.Int32) {
	var n atomic.Int32
	return func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		if i < len(statuses) {
			for k, v := range headers {
				w.Header().Set(k, v)
			}
			writeJSON(w, statuses[i], `{"error":"x","messages":["scripted"],"path":"/"}`)
			return
		}
		success(w)
	}, &n
}

func okEvents(w http.ResponseWriter) { writeJSON(w, 200, `[]`) }
func okCreate(w http.ResponseWriter) { writeJSON(w, 201, `{"subscriptions":[]}`) }
func okBulk(w http.ResponseWriter) {
	writeJSON(w, 207, `{"operationStatuses":[{"subscriptionId":"a","httpEquivalentCode":204,"message":"Deleted successfully"}]}`)
}
func okNoBody(w http.ResponseWriter)  { w.WriteHeader(204) }
func okReplace(w http.ResponseWriter) { writeJSON(w, 200, `{"subscriptions":[]}`) }

// TestRetries counts attempts per method and status.
func TestRetries(t *testing.T) {
	t.Parallel()
	list := func(ctx context.Context, c *Client) error { _, err := c.ListEvents(ctx); return err }
	post := func(ctx context.Context, c *Client) error { _, err := c.CreateSubscriptions(ctx, "", nil); return err }
	patch := func(ctx context.Context, c *Client) error {
		_, err := c.BulkUpdateSubscriptions(ctx, "", []Subscription{{ID: "a"}})
		return err
	}
	bulkDelete := func(ctx context.Context, c *Client) error {
		_, err := c.BulkDeleteSubscriptions(ctx, "", []string{"a"})
		return err
	}
	put := func(ctx context.Context, c *Client) error { _, err := c.ReplaceSubscriptions(ctx, "", nil); return err }
	del := func(ctx context.Context, c *Client) error { return c.DeleteSubscription(ctx, "", "s1") }
	tests := []struct {
		name       string
		call       func(ctx context.Context, c *Client) error
		statuses   []int
		headers    map[string]string
		success    func(w http.ResponseWriter)
		maxRetries int
		wantCalls  int32
		wantStatus int // 0 => success
	}{
		{"GET 503 then success", list, []int{503, 503}, nil, okEvents, 3, 3, 0},
		{"GET 502 504 429 then success", list, []int{502, 504, 429}, nil, okEvents, 3, 4, 0},
		{"GET 503 beyond MaxRetries", list, []int{503, 503, 503, 503}, nil, okEvents, 2, 3, 503},
		{"GET MaxRetries 0", list, []int{503}, nil, okEvents, 0, 1, 503},
		{"GET 500 never retried", list, []int{500}, nil, okEvents, 3, 1, 500},
		{"GET 400 never retried", list, []int{400}, nil, okEvents, 3, 1, 400},
		{"GET 404 never retried", list, []int{404}, nil, okEvents, 3, 1, 404},
		{"GET 501 never retried", list, []int{501}, nil, okEvents, 3, 1, 501},
		{"POST 503 not retried", post, []int{503}, nil, okCreate, 3, 1, 503},
		{"POST 502 not retried", post, []int{502}, nil, okCreate, 3, 1, 502},
		{"POST 504 not retried", post, []int{504}, nil, okCreate, 3, 1, 504},
		{"POST 500 not retried", post, []int{500}, nil, okCreate, 3, 1, 500},
		{"POST 429 retried", post, []int{429, 429}, nil, okCreate, 3, 3, 0},
		{"PATCH 503 not retried", patch, []int{503}, nil, okBulk, 3, 1, 503},
		{"PATCH 429 retried", patch, []int{429}, nil, okBulk, 3, 2, 0},
		{"bulk delete 503 retried", bulkDelete, []int{503}, nil, okBulk, 3, 2, 0},
		{"PUT 502 retried", put, []int{502}, nil, okReplace, 3, 2, 0},
		{"DELETE 504 retried", del, []int{504, 503}, nil, okNoBody, 3, 3, 0},
		{"DELETE 409 not retried", del, []int{409}, nil, okNoBody, 3, 1, 409},
		{"Retry-After date in the past", list, []int{429}, map[string]string{"Retry-After": "Mon, 02 Jan 2006 15:04:05 GMT"}, okEvents, 3, 2, 0},
		{"Retry-After zero seconds", list, []int{503}, map[string]string{"Retry-After": "0"}, okEvents, 3, 2, 0},
		{"Retry-After garbage", list, []int{503}, map[string]string{"Retry-After": "soon"}, okEvents, 3, 2, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, n := scripted(tc.statuses, tc.headers, tc.success)
			f := newFake(t, h)
			c := f.newClient(func(cfg *Config) { cfg.MaxRetries = tc.maxRetries })
			err := tc.call(context.Background(), c)
			if got := n.Load(); got != tc.wantCalls {
				t.Errorf("%d attempts, want %d", got, tc.wantCalls)
			}
			if tc.wantStatus == 0 {
				if err != nil {
					t.Fatalf("error %v", err)
				}
				return
			}
			var apiErr *httpapi.APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != tc.wantStatus {
				t.Fatalf("error %v, want HTTP %d", err, tc.wantStatus)
			}
			if tc.wantCalls > 1 && !strings.Contains(err.Error(), "attempts") {
				t.Errorf("error %q does not say how many attempts were made", err)
			}
		})
	}
}

// TestRetryAfterHonoured: the wait before the retry is what Retry-After asks for (delay
// seconds or an HTTP date, read on the client's clock), capped at one minute, and wins over the
// 1-5ms back-off. The waits are recorded (Config.RetryWait), not waited for.
func TestRetryAfterHonoured(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	tests := []struct {
		name, retryAfter string
		want             time.Duration
	}{
		{"one second", "1", time.Second},
		{"zero seconds", "0", 0},
		{"an hour, capped", "3600", time.Minute},
		{"an HTTP date", now.Add(5 * time.Second).Format(http.TimeFormat), 5 * time.Second},
		{"an HTTP date an hour ahead, capped", now.Add(time.Hour).Format(http.TimeFormat), time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h, n := scripted([]int{429}, map[string]string{"Retry-After": tt.retryAfter}, okEvents)
			f := newFake(t, h)
			c := f.newClient(nil)
			c.now = func() time.Time { return now }
			if _, err := c.ListEvents(context.Background()); err != nil {
				t.Fatal(err)
			}
			if n.Load() != 2 {
				t.Errorf("%d attempts, want 2", n.Load())
			}
			if got, want := f.retries.All(), []time.Duration{tt.want}; !slices.Equal(got, want) {
				t.Errorf("waits %v, want %v", got, want)
			}
		})
	}
}

// TestTransportErrorsEndToEnd: a connection reset after the request was sent is retried for
// GET but not for POST; a refused connection is retried for POST too.
func TestTransportErrorsEndToEnd(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	hijack := func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			_ = conn.Close()
		}
	}
	f := newFake(t, hijack)
	c := f.newClient(func(cfg *Config) { cfg.MaxRetries = 2 })
	_, err := c.ListEvents(context.Background())
	if err == nil || !strings.Contains(err.Error(), "giving up after 3 attempts") {
		t.Fatalf("GET: %v", err)
	}
	// net/http itself may repeat an idempotent request once on a reused connection.
	if got := calls.Load(); got < 3 {
		t.Errorf("GET: %d attempts, want at least 3", got)
	}
	calls.Store(0)
	_, err = c.CreateSubscriptions(context.Background(), "", nil)
	if err == nil || !strings.Contains(err.Error(), "create subscriptions") {
		t.Fatalf("POST: %v", err)
	}
	if got := calls.Load(); got != 1 {
		t.Errorf("POST: %d attempts, want 1", got)
	}

	// A closed port: the connection is refused before anything is sent.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	c2, err := New(Config{
		Config: httpapi.Config{
			BaseURL:      "http://" + addr,
			JWT:          "pre.issued.jwt",
			AccountID:    "a",
			MaxRetries:   2,
			RetryWaitMin: time.Millisecond,
			RetryWaitMax: time.Millisecond,
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c2.CreateSubscriptions(context.Background(), "", nil)
	if err == nil || !strings.Contains(err.Error(), "giving up after 3 attempts") {
		t.Errorf("POST to a closed port: %v", err)
	}
}

// TestRequestTimeoutPerAttempt: a slow first attempt times out and the GET is retried; a
// POST is not.
func TestRequestTimeoutPerAttempt(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			select {
			case <-time.After(10 * time.Second):
			case <-r.Context().Done():
			}
		}
		writeJSON(w, 200, `[]`)
	})
	c := f.newClient(func(cfg *Config) { cfg.RequestTimeout = 500 * time.Millisecond })
	if _, err := c.Token(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListEvents(context.Background()); err != nil {
		t.Fatalf("GET: %v", err)
	}
	if got := calls.Load(); got != 2 {
		t.Errorf("GET: %d attempts, want 2", got)
	}
	calls.Store(0)
	_, err := c.CreateSubscriptions(context.Background(), "", nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("POST: %v", err)
	}
	if got := calls.Load(); got != 1 {
		t.Errorf("POST: %d attempts, want 1", got)
	}
}

// TestRetryStopsWithContext: a cancelled context ends the back-off at once.
func TestRetryStopsWithContext(t *testing.T) {
	t.Parallel()
	h, n := scripted([]int{503, 503, 503, 503}, map[string]string{"Retry-After": "30"}, okEvents)
	f := newFake(t, h)
	// The provider's wait: a real timer, which the context's deadline ends.
	c := f.newClient(func(cfg *Config) { cfg.RetryWait = nil })
	if _, err := c.Token(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.ListEvents(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v", err)
	}
	if n.Load() != 1 {
		t.Errorf("%d attempts, want 1", n.Load())
	}
	if time.Since(start) > 10*time.Second {
		t.Error("the back-off ignored the context")
	}
}
