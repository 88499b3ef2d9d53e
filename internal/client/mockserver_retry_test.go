package client_test

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// op is one operation of the client, called against a seeded account.
type op struct {
	method string
	route  string
	call   func(t *testing.T, c *client.Client, seeded []mockserver.Subscription) error
}

var (
	opList = op{http.MethodGet, mockserver.RouteSubscriptions, func(t *testing.T, c *client.Client, _ []mockserver.Subscription) error {
		_, err := c.ListSubscriptions(t.Context(), itAccount, client.ListOptions{})
		return err
	}}
	opReplace = op{http.MethodPut, mockserver.RouteSubscriptions, func(t *testing.T, c *client.Client, _ []mockserver.Subscription) error {
		_, err := c.ReplaceSubscriptions(t.Context(), itAccount, []client.SubscriptionInput{validInput("R1"), validInput("R2")})
		return err
	}}
	opCreate = op{http.MethodPost, mockserver.RouteSubscriptions, func(t *testing.T, c *client.Client, _ []mockserver.Subscription) error {
		_, err := c.CreateSubscriptions(t.Context(), itAccount, []client.SubscriptionInput{validInput("C1")})
		return err
	}}
	opDeleteAll = op{http.MethodDelete, mockserver.RouteSubscriptions, func(t *testing.T, c *client.Client, _ []mockserver.Subscription) error {
		return c.DeleteAllSubscriptions(t.Context(), itAccount)
	}}
	opBulk = op{http.MethodPatch, mockserver.RouteSubscriptions, func(t *testing.T, c *client.Client, s []mockserver.Subscription) error {
		st, err := c.BulkDeleteSubscriptions(t.Context(), itAccount, []string{s[0].SubscriptionID})
		if err == nil && (len(st) != 1 || st[0].HTTPEquivalentCode != http.StatusNoContent) {
			return errors.New("unexpected bulk statuses")
		}
		return err
	}}
	opGet = op{http.MethodGet, mockserver.RouteSubscription, func(t *testing.T, c *client.Client, s []mockserver.Subscription) error {
		_, err := c.GetSubscription(t.Context(), itAccount, s[0].SubscriptionID)
		return err
	}}
	opUpdate = op{http.MethodPut, mockserver.RouteSubscription, func(t *testing.T, c *client.Client, s []mockserver.Subscription) error {
		_, err := c.UpdateSubscription(t.Context(), itAccount, s[0].SubscriptionID, validInput("U"))
		return err
	}}
	opDelete = op{http.MethodDelete, mockserver.RouteSubscription, func(t *testing.T, c *client.Client, s []mockserver.Subscription) error {
		return c.DeleteSubscription(t.Context(), itAccount, s[0].SubscriptionID)
	}}
	opTopic = op{http.MethodPost, mockserver.RouteTopic, func(t *testing.T, c *client.Client, _ []mockserver.Subscription) error {
		_, err := c.CreateEventStreamTopic(t.Context(), itAccount, client.TopicInput{EnvironmentID: "e", SubscriptionName: "s", TopicName: "t"})
		return err
	}}
	opLogLevels = op{http.MethodGet, mockserver.RouteLogLevels, func(t *testing.T, c *client.Client, _ []mockserver.Subscription) error {
		_, err := c.ListLogLevels(t.Context())
		return err
	}}
	opEvents = op{http.MethodGet, mockserver.RouteEvents, func(t *testing.T, c *client.Client, _ []mockserver.Subscription) error {
		_, err := c.ListEvents(t.Context())
		return err
	}}
	opDestinationTypes = op{http.MethodGet, mockserver.RouteDestinationTypes, func(t *testing.T, c *client.Client, _ []mockserver.Subscription) error {
		_, err := c.ListDestinationTypes(t.Context())
		return err
	}}
)

// wantStored checks how many subscriptions and topic subscriptions the mock holds after op
// ran successfully exactly once on an account seeded with 2 subscriptions: a retry of a
// non-idempotent request must never leave a duplicate.
func wantStored(t *testing.T, e *mockEnv, o op, succeeded bool) {
	t.Helper()
	wantSubs, wantTopicSubs := 2, 0
	if succeeded {
		switch {
		case o.route == mockserver.RouteTopic:
			wantTopicSubs = 1
		case o.method == http.MethodPost:
			wantSubs = 3
		case o.method == http.MethodPatch, o.method == http.MethodDelete && o.route == mockserver.RouteSubscription:
			wantSubs = 1
		case o.method == http.MethodDelete:
			wantSubs = 0
		}
	}
	if n := len(e.mock.Subscriptions(itAccount)); n != wantSubs {
		t.Errorf("mock holds %d subscriptions, want %d", n, wantSubs)
	}
	topicSubs := 0
	for _, tp := range e.mock.Topics(itAccount) {
		topicSubs += len(tp.SubscriptionNames)
	}
	if topicSubs != wantTopicSubs {
		t.Errorf("mock holds %d topic subscriptions, want %d", topicSubs, wantTopicSubs)
	}
}

// GET, PUT, DELETE and the bulk delete (deleting by ID is idempotent) are retried on 429, 502,
// 503 and 504; POST only on 429.
func TestMockRetriedStatuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		op     op
		status int
		count  int
	}{
		{"list 503 twice", opList, http.StatusServiceUnavailable, 2},
		{"list 429", opList, http.StatusTooManyRequests, 1},
		{"get 502 twice", opGet, http.StatusBadGateway, 2},
		{"get 504", opGet, http.StatusGatewayTimeout, 1},
		{"replace 503 twice", opReplace, http.StatusServiceUnavailable, 2},
		{"update 502", opUpdate, http.StatusBadGateway, 1},
		{"delete all 504", opDeleteAll, http.StatusGatewayTimeout, 1},
		{"delete 503 twice", opDelete, http.StatusServiceUnavailable, 2},
		{"log levels 503", opLogLevels, http.StatusServiceUnavailable, 1},
		{"events 502 twice", opEvents, http.StatusBadGateway, 2},
		{"destination types 429", opDestinationTypes, http.StatusTooManyRequests, 1},
		{"create 429 twice", opCreate, http.StatusTooManyRequests, 2},
		{"bulk 429", opBulk, http.StatusTooManyRequests, 1},
		{"bulk delete 503", opBulk, http.StatusServiceUnavailable, 1},
		{"topic 429", opTopic, http.StatusTooManyRequests, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, c := newMockClient(t)
			seeded := e.seed(itAccount, 2)
			e.mock.InjectFault(mockserver.Fault{Method: tt.op.method, Route: tt.op.route, Status: tt.status, Count: tt.count})
			if err := tt.op.call(t, c, seeded); err != nil {
				t.Fatalf("call: %v", err)
			}
			e.wantCount(tt.op.method, tt.op.route, tt.count+1)
			e.wantJWTFetches(1)
			wantStored(t, e, tt.op, true)
		})
	}
}

// A 429 with Retry-After on a POST is retried after the given delay: the mock sends whole
// seconds, rounding the fault's millisecond up to "1", and the client asks for a wait of one
// second (recorded through Config.RetryWait, not waited for).
func TestMockRetryAfterOnPost(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t)
	seeded := e.seed(itAccount, 2)
	e.mock.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions, Status: http.StatusTooManyRequests, Count: 1, RetryAfter: time.Millisecond})
	if err := opCreate.call(t, c, seeded); err != nil {
		t.Fatalf("CreateSubscriptions: %v", err)
	}
	e.wantCount(http.MethodPost, mockserver.RouteSubscriptions, 2)
	wantStored(t, e, opCreate, true)
	if got, want := e.retries.All(), []time.Duration{time.Second}; !slices.Equal(got, want) {
		t.Errorf("waits between attempts %v, want %v", got, want)
	}
}

// PATCH and the topic's POST are not retried on 5xx (the service may have acted), and no
// status of the 5xx family is retried for 500 on any method. The mock holds no duplicate. (A
// create of subscriptions is settled by reading the account instead: see
// mockserver_create_adopt_test.go.)
func TestMockNotRetried(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		op     op
		status int
		msg    string
	}{
		{"bulk 500", opBulk, http.StatusInternalServerError, "An unexpected error occurred"},
		{"topic 503", opTopic, http.StatusServiceUnavailable, "Injected fault"},
		{"topic 500", opTopic, http.StatusInternalServerError, "An unexpected error occurred"},
		{"list 500", opList, http.StatusInternalServerError, "An unexpected error occurred"},
		{"replace 500", opReplace, http.StatusInternalServerError, "An unexpected error occurred"},
		{"delete 500", opDelete, http.StatusInternalServerError, "An unexpected error occurred"},
		{"get 501", opGet, http.StatusNotImplemented, "Injected fault"},
		{"events 500", opEvents, http.StatusInternalServerError, "An unexpected error occurred"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, c := newMockClient(t)
			seeded := e.seed(itAccount, 2)
			e.mock.InjectFault(mockserver.Fault{Method: tt.op.method, Route: tt.op.route, Status: tt.status, Count: 1})
			apiErr := wantAPIError(t, tt.op.call(t, c, seeded), tt.status, tt.msg)
			if (apiErr.ErrorID != "") != (tt.status == http.StatusInternalServerError) {
				t.Errorf("ErrorID = %q on HTTP %d", apiErr.ErrorID, tt.status)
			}
			e.wantCount(tt.op.method, tt.op.route, 1)
			wantStored(t, e, tt.op, false)

			// The fault is spent; the caller's own repeat succeeds exactly once.
			if err := tt.op.call(t, c, seeded); err != nil {
				t.Fatalf("repeat: %v", err)
			}
			e.wantCount(tt.op.method, tt.op.route, 2)
			wantStored(t, e, tt.op, true)
		})
	}
}

// Retries are bounded by MaxRetries; the last answer becomes the error.
func TestMockRetriesExhausted(t *testing.T) {
	t.Parallel()
	for _, maxRetries := range []int{0, 1, 3} {
		t.Run(fmt.Sprintf("MaxRetries=%d", maxRetries), func(t *testing.T) {
			t.Parallel()
			e, c := newMockClient(t, func(c *client.Config) { c.MaxRetries = maxRetries })
			e.mock.InjectFault(mockserver.Fault{Method: http.MethodGet, Route: mockserver.RouteSubscriptions, Status: http.StatusServiceUnavailable})
			_, err := c.ListSubscriptions(ctx(t), itAccount, client.ListOptions{})
			wantErrorBody(t, wantAPIError(t, err, http.StatusServiceUnavailable, "Injected fault"), "Service Unavailable", subsPath(itAccount))
			e.wantCount(http.MethodGet, mockserver.RouteSubscriptions, maxRetries+1)
		})
	}
}

// The JWT endpoint is a GET: retried on 503; its 429 with a share of requests too.
func TestMockJWTEndpointRetried(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t)
	e.mock.InjectFault(mockserver.Fault{Route: mockserver.RouteJWT, Status: http.StatusServiceUnavailable, Count: 2})
	if _, err := c.ListEvents(ctx(t)); err != nil {
		t.Fatalf("ListEvents: %v", err)
	}
	e.wantCount(http.MethodGet, mockserver.RouteJWT, 3)
	e.wantJWTFetches(1)
	e.wantCount(http.MethodGet, mockserver.RouteEvents, 1)
}

// A dropped connection: GET, PUT, DELETE and the bulk delete are retried, POST is not (the
// request was sent).
func TestMockDroppedConnection(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		op      op
		retried bool
	}{
		{"list", opList, true},
		{"get", opGet, true},
		{"events", opEvents, true},
		{"update (PUT)", opUpdate, true},
		{"delete", opDelete, true},
		{"bulk delete (PATCH)", opBulk, true},
		{"topic (POST)", opTopic, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, c := newMockClient(t)
			seeded := e.seed(itAccount, 2)
			if _, err := c.Token(ctx(t), itAccount); err != nil {
				t.Fatalf("Token: %v", err)
			}
			e.mock.InjectFault(mockserver.Fault{Method: tt.op.method, Route: tt.op.route, Drop: true, Count: 1})
			err := tt.op.call(t, c, seeded)
			if tt.retried {
				if err != nil {
					t.Fatalf("call: %v", err)
				}
				e.wantCount(tt.op.method, tt.op.route, 2)
				wantStored(t, e, tt.op, true)
				return
			}
			if err == nil {
				t.Fatal("call succeeded, want the dropped connection's error")
			}
			var apiErr *httpapi.APIError
			if errors.As(err, &apiErr) {
				t.Errorf("error %v is an *APIError, want a transport error", err)
			}
			e.wantCount(tt.op.method, tt.op.route, 1)
			wantStored(t, e, tt.op, false)
		})
	}
}

// A deterministic share of failing requests: every second GET answers 503, every call
// still succeeds after one retry.
func TestMockRetryRatio(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t)
	if _, err := c.Token(ctx(t), itAccount); err != nil {
		t.Fatalf("Token: %v", err)
	}
	e.mock.InjectFault(mockserver.Fault{Method: http.MethodGet, Route: mockserver.RouteEvents, Status: http.StatusServiceUnavailable, Ratio: 0.5})
	const calls = 10
	for i := range calls {
		if _, err := c.ListEvents(ctx(t)); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	// Requests 2, 4, 6, ... fail: call 1 takes one request, every later call two.
	e.wantCount(http.MethodGet, mockserver.RouteEvents, 2*calls-1)
}

// With a client-side rate limit, concurrent calls (retries and JWT fetches included) all
// succeed and each reaches the mock once. Nothing asserts the time taken.
func TestMockRateLimited(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t, func(c *client.Config) { c.RequestsPerSecond = 500 })
	e.seed(itAccount, 3)
	e.mock.InjectFault(mockserver.Fault{Method: http.MethodGet, Route: mockserver.RouteEvents, Status: http.StatusServiceUnavailable, Count: 2})
	const callers = 10
	var wg sync.WaitGroup
	errs := make(chan error, 3*callers)
	for range callers {
		wg.Go(func() {
			subs, err := c.ListSubscriptions(ctx(t), itAccount, client.ListOptions{PageSize: 2})
			if err == nil && len(subs) != 3 {
				err = errors.New("wrong number of subscriptions")
			}
			errs <- err
		})
		wg.Go(func() {
			_, err := c.ListEvents(ctx(t))
			errs <- err
		})
		wg.Go(func() {
			_, err := c.CreateEventStreamTopic(ctx(t), itAccount, client.TopicInput{EnvironmentID: "e", SubscriptionName: "s", TopicName: "t"})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("call: %v", err)
		}
	}
	e.wantJWTFetches(1)
	e.wantCount(http.MethodGet, mockserver.RouteSubscriptions, 2*callers)
	e.wantCount(http.MethodGet, mockserver.RouteEvents, callers+2)
	e.wantCount(http.MethodPost, mockserver.RouteTopic, callers)
	if tp := e.mock.Topics(itAccount); len(tp) != 1 || len(tp[0].SubscriptionNames) != callers {
		t.Errorf("topics %+v, want one with %d subscriptions", tp, callers)
	}
}
