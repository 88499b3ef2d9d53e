package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// TestErrorShapes covers every error of the spec's Errors section and bodies that are not
// JSON at all.
func TestErrorShapes(t *testing.T) {
	t.Parallel()
	long := "<html><head><title>502 Bad Gateway</title></head><body>" + strings.Repeat("<p>upstream error é</p>", 100) + "</body></html>"
	tests := []struct {
		name       string
		call       func(ctx context.Context, c *Client) error
		status     int
		body       string
		ctype      string
		is         error
		wantFields httpapi.APIError
		contains   []string
		rawPrefix  string
		attempts   int32
	}{
		{
			name: "400 validation (SERVICE.md rule 3)",
			call: func(ctx context.Context, c *Client) error {
				_, err := c.CreateSubscriptions(ctx, "acc-1", []SubscriptionInput{{}})
				return err
			},
			status: 400,
			body: `{"error":"Bad Request","messages":["Must provide a valid eventName","Must provide a valid destinationType",
				"Must provide a valid logLevel"],"path":"/rest/v1/accounts/acc-1/subscriptions"}`,
			wantFields: httpapi.APIError{Operation: "create subscriptions", Method: "POST", URLPath: "/rest/v1/accounts/acc-1/subscriptions",
				StatusCode: 400, ErrorText: "Bad Request", Path: "/rest/v1/accounts/acc-1/subscriptions",
				Messages: []string{"Must provide a valid eventName", "Must provide a valid destinationType", "Must provide a valid logLevel"}},
			contains: []string{"create subscriptions: HTTP 400 Bad Request: Must provide a valid eventName; Must provide a valid destinationType; Must provide a valid logLevel"},
			attempts: 1,
		},
		{
			name: "400 topic blank field (SERVICE.md rule 4)",
			call: func(ctx context.Context, c *Client) error {
				_, err := c.CreateEventStreamTopic(ctx, "acc-1", TopicInput{})
				return err
			},
			status:   400,
			body:     `{"error":"Bad Request","messages":["eventStreamsEnvironmentId cannot be blank"],"path":"/x"}`,
			contains: []string{"create event streams topic: HTTP 400 Bad Request: eventStreamsEnvironmentId cannot be blank"},
			attempts: 1,
		},
		{
			name: "400 bulk rule",
			call: func(ctx context.Context, c *Client) error {
				_, err := c.BulkDeleteSubscriptions(ctx, "acc-1", nil)
				return err
			},
			status:   400,
			body:     `{"error":"Bad Request","messages":["Subscription list cannot be empty"],"path":"/x"}`,
			contains: []string{"bulk delete subscriptions: HTTP 400 Bad Request: Subscription list cannot be empty"},
			attempts: 1,
		},
		{
			name: "403 access denied",
			call: func(ctx context.Context, c *Client) error {
				_, err := c.GetSubscription(ctx, "acc-1", "s1")
				return err
			},
			status: 403, body: `{"error":"Forbidden","messages":["Access Denied"],"path":"/rest/v1/accounts/acc-1/subscriptions/s1"}`,
			is:       httpapi.ErrForbidden,
			contains: []string{"read subscription: HTTP 403 Forbidden: Access Denied"},
			attempts: 1,
		},
		{
			name: "404 entity not found",
			call: func(ctx context.Context, c *Client) error {
				_, err := c.GetSubscription(ctx, "acc-1", "s1")
				return err
			},
			status: 404, body: `{"error":"Entity not found","messages":["Subscription s1 not found"],"path":"/p"}`,
			is:       httpapi.ErrNotFound,
			contains: []string{"read subscription: HTTP 404 Not Found: Entity not found: Subscription s1 not found"},
			attempts: 1,
		},
		{
			name: "404 on delete",
			call: func(ctx context.Context, c *Client) error {
				return c.DeleteSubscription(ctx, "acc-1", "s1")
			},
			status: 404, body: `{"error":"Entity not found","messages":["Subscription s1 not found"],"path":"/p"}`,
			is: httpapi.ErrNotFound, attempts: 1,
		},
		{
			name: "500 with errorId, never retried",
			call: func(ctx context.Context, c *Client) error {
				_, err := c.ListEvents(ctx)
				return err
			},
			status: 500, body: `{"error":"Internal server error","messages":["boom"],"path":"/rest/v1/events","errorId":"0d6f7a3e-1111-2222-3333-444455556666"}`,
			wantFields: httpapi.APIError{Operation: "list events", Method: "GET", URLPath: "/rest/v1/events", StatusCode: 500,
				ErrorText: "Internal server error", Messages: []string{"boom"}, Path: "/rest/v1/events", ErrorID: "0d6f7a3e-1111-2222-3333-444455556666"},
			contains: []string{"list events: HTTP 500 Internal Server Error: boom (error ID 0d6f7a3e-1111-2222-3333-444455556666)"},
			attempts: 1,
		},
		{
			name: "502 HTML page, retried then kept as excerpt",
			call: func(ctx context.Context, c *Client) error {
				_, err := c.ListLogLevels(ctx)
				return err
			},
			status: 502, body: long, ctype: "text/html",
			contains:  []string{"list log levels: HTTP 502 Bad Gateway: response body: <html><head><title>502 Bad Gateway", "(after 4 attempts)"},
			rawPrefix: "<html><head><title>502",
			attempts:  4,
		},
		{
			name: "truncated JSON error body",
			call: func(ctx context.Context, c *Client) error {
				_, err := c.CreateSubscriptions(ctx, "acc-1", nil)
				return err
			},
			status: 400, body: `{"error":"Bad Req`,
			contains:  []string{"create subscriptions: HTTP 400 Bad Request: response body: {\"error\":\"Bad Req"},
			rawPrefix: `{"error":"Bad Req`,
			attempts:  1,
		},
		{
			name: "JSON that is not the error shape",
			call: func(ctx context.Context, c *Client) error {
				return c.DeleteAllSubscriptions(ctx, "acc-1")
			},
			status: 409, body: `{"unexpected":[1,2,3]}`,
			contains:  []string{"delete all subscriptions: HTTP 409 Conflict: response body: {\"unexpected\":[1,2,3]}"},
			rawPrefix: `{"unexpected"`,
			attempts:  1,
		},
		{
			name: "messages as a single string",
			call: func(ctx context.Context, c *Client) error {
				_, err := c.UpdateSubscription(ctx, "acc-1", "s1", SubscriptionInput{})
				return err
			},
			status: 400, body: `{"error":"Bad Request","messages":"Must provide a valid logLevel"}`,
			contains: []string{"update subscription: HTTP 400 Bad Request: Must provide a valid logLevel"},
			attempts: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
				ct := tc.ctype
				if ct == "" {
					ct = "application/json"
				}
				w.Header().Set("Content-Type", ct)
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			})
			c := f.newClient(nil)
			err := tc.call(context.Background(), c)
			var apiErr *httpapi.APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("error %v (%T) is not an *APIError", err, err)
			}
			if apiErr.StatusCode != tc.status {
				t.Errorf("status %d, want %d", apiErr.StatusCode, tc.status)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("errors.Is(%v, %v) = false", err, tc.is)
			}
			for _, sentinel := range []error{httpapi.ErrNotFound, httpapi.ErrUnauthorized, httpapi.ErrForbidden} {
				if sentinel != tc.is && errors.Is(err, sentinel) {
					t.Errorf("error unexpectedly matches %v", sentinel)
				}
			}
			if tc.wantFields.Operation != "" {
				got := *apiErr
				got.AccountID, got.PreIssuedJWT, got.Attempts, got.URL = "", false, 0, ""
				if got.Operation != tc.wantFields.Operation || got.Method != tc.wantFields.Method || got.URLPath != tc.wantFields.URLPath ||
					got.ErrorText != tc.wantFields.ErrorText || got.Path != tc.wantFields.Path || got.ErrorID != tc.wantFields.ErrorID ||
					strings.Join(got.Messages, "|") != strings.Join(tc.wantFields.Messages, "|") || got.RawBody != "" {
					t.Errorf("fields\n got: %+v\nwant: %+v", got, tc.wantFields)
				}
			}
			for _, s := range tc.contains {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err.Error(), s)
				}
			}
			if tc.rawPrefix != "" {
				if !strings.HasPrefix(apiErr.RawBody, tc.rawPrefix) || len(apiErr.RawBody) > httpapi.RawBodyLimit {
					t.Errorf("RawBody %q (len %d)", apiErr.RawBody, len(apiErr.RawBody))
				}
				if !utf8.ValidString(apiErr.RawBody) || strings.ContainsRune(apiErr.RawBody, '\uFFFD') {
					t.Errorf("RawBody is not valid UTF-8 cut: %q", apiErr.RawBody)
				}
			} else if apiErr.RawBody != "" {
				t.Errorf("unexpected RawBody %q", apiErr.RawBody)
			}
			if n := f.apiCalls.Load(); n != tc.attempts {
				t.Errorf("%d attempts, want %d", n, tc.attempts)
			}
		})
	}
}

// TestDecodeErrors: a 2xx body that does not decode names the operation.
func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		call func(ctx context.Context, c *Client) error
		body string
		want string
	}{
		{"read subscription html", func(ctx context.Context, c *Client) error {
			_, err := c.GetSubscription(ctx, "", "s1")
			return err
		}, "<html>oops</html>", "could not decode response of read subscription: "},
		{"read subscription truncated", func(ctx context.Context, c *Client) error {
			_, err := c.GetSubscription(ctx, "", "s1")
			return err
		}, `{"subscriptionId":"s1","eventN`, "could not decode response of read subscription: "},
		{"read subscription empty object", func(ctx context.Context, c *Client) error {
			_, err := c.GetSubscription(ctx, "", "s1")
			return err
		}, `{}`, "could not decode response of read subscription: the response carries no subscription"},
		{"read subscription empty body", func(ctx context.Context, c *Client) error {
			_, err := c.GetSubscription(ctx, "", "s1")
			return err
		}, ``, "could not decode response of read subscription: the response body is empty"},
		{"list wrong types", func(ctx context.Context, c *Client) error {
			_, err := c.ListSubscriptions(ctx, "", ListOptions{})
			return err
		}, `{"subscriptions":{"a":1}}`, "could not decode response of list subscriptions: "},
		{"create number", func(ctx context.Context, c *Client) error {
			_, err := c.CreateSubscriptions(ctx, "", nil)
			return err
		}, `42`, "could not decode response of create subscriptions: "},
		{"bulk garbage", func(ctx context.Context, c *Client) error {
			_, err := c.BulkDeleteSubscriptions(ctx, "", []string{"a"})
			return err
		}, `{"operationStatuses":"no"}`, "could not decode response of bulk delete subscriptions: "},
		{"topic missing data", func(ctx context.Context, c *Client) error {
			_, err := c.CreateEventStreamTopic(ctx, "", TopicInput{})
			return err
		}, `{"name":"x"}`, "could not decode response of create event streams topic: "},
		{"events record without name", func(ctx context.Context, c *Client) error {
			_, err := c.ListEvents(ctx)
			return err
		}, `[{"description":"no name"}]`, "could not decode response of list events: record 0: "},
		{"log levels text", func(ctx context.Context, c *Client) error {
			_, err := c.ListLogLevels(ctx)
			return err
		}, `INFO,WARNING`, "could not decode response of list log levels: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, tc.body) })
			err := tc.call(context.Background(), f.newClient(nil))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want prefix %q", err, tc.want)
			}
		})
	}
}

// TestTruncatedSuccessBody: a connection cut in the middle of a 200 body is an error, not
// a panic or a silently short result.
func TestTruncatedSuccessBody(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		w.WriteHeader(200)
		_, _ = w.Write([]byte(`{"subscriptionId":"s1",`))
	})
	c := f.newClient(func(cfg *Config) { cfg.MaxRetries = 0 })
	_, err := c.GetSubscription(context.Background(), "", "s1")
	if err == nil || !strings.Contains(err.Error(), "read subscription") {
		t.Fatalf("error %v", err)
	}
}

// TestContextErrors: cancellation and deadlines come back wrapped but matchable.
func TestContextErrors(t *testing.T) {
	t.Parallel()
	block := make(chan struct{})
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-block:
		case <-r.Context().Done():
		}
		w.WriteHeader(204)
	})
	t.Cleanup(func() { close(block) })
	c := f.newClient(nil)
	if _, err := c.Token(context.Background(), ""); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	err := c.DeleteSubscription(ctx, "", "s1")
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "delete subscription") {
		t.Errorf("cancel: %v", err)
	}

	ctx, cancel2 := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel2()
	_, err = c.ListEvents(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "list events") {
		t.Errorf("deadline: %v", err)
	}

	done, cancel3 := context.WithCancel(context.Background())
	cancel3()
	if _, err := c.ListLogLevels(done); !errors.Is(err, context.Canceled) {
		t.Errorf("already cancelled: %v", err)
	}
}
