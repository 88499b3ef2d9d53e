package client_test

// The mockserver_*_test.go files run the real client (internal/client) against the real mock
// service (internal/mockserver). The two packages were written independently from the service
// spec, each with tests against its own fakes; these cross-tests make any disagreement between
// the two readings of the spec (JSON names, status codes, shapes, messages) fail.
//
// Every test starts a fresh mock through the shared harness (internal/testsupport), asserts
// request counts through the mock's Count, JWTFetches and Requests, and never sleeps or measures
// time.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/testsupport"
)

// The harness's credentials (internal/testsupport), and a second account.
const (
	itAccount  = testsupport.Account
	itOther    = "acc-other"
	itUser     = testsupport.User
	itPassword = testsupport.Password
	itAPIToken = testsupport.APIToken
	itOTP      = testsupport.OTP
)

// mockEnv is one cross-test's environment: the real mock service (internal/mockserver) behind
// its own HTTP server.
type mockEnv struct {
	t     *testing.T
	mock  *mockserver.Server
	srv   *httptest.Server
	waits client.WaitRecorder // the SettleWait of e.config: the grace period's waits
	// retries is the RetryWait of e.config: the waits between the attempts of a request.
	retries client.WaitRecorder
}

// newMockEnv starts a fresh mock server through the shared harness. With no users in cfg, the
// harness's test users may log in (itUser with itPassword among them).
func newMockEnv(t *testing.T, cfg mockserver.Config) *mockEnv {
	t.Helper()
	m := testsupport.Start(t, cfg)
	return &mockEnv{t: t, mock: m.Server, srv: m.HTTP}
}

// newMockClient is the set-up of most cross-tests: a fresh mock with the harness's users
// (newMockEnv with the zero mockserver.Config) and a client of it (mockEnv.client, changed by
// mods).
func newMockClient(t *testing.T, mods ...func(*client.Config)) (*mockEnv, *client.Client) {
	t.Helper()
	e := newMockEnv(t, mockserver.Config{})
	return e, e.client(mods...)
}

// config is a client configuration for alice's password login, with fast retries.
func (e *mockEnv) config() client.Config {
	return client.Config{
		Config: httpapi.Config{
			BaseURL:      e.srv.URL,
			AuthURL:      e.srv.URL,
			AccountID:    itAccount,
			Username:     itUser,
			Password:     itPassword,
			MaxRetries:   3,
			RetryWaitMin: time.Millisecond,
			RetryWaitMax: 10 * time.Millisecond,
			UserAgent:    "terraform-provider-eventnotify/test",
			RetryWait:    e.retries.Wait,
		},
		SettleWait: e.waits.Wait,
	}
}

// client builds a client from config, changed by the given functions.
func (e *mockEnv) client(mods ...func(*client.Config)) *client.Client {
	e.t.Helper()
	cfg := e.config()
	for _, m := range mods {
		m(&cfg)
	}
	c, err := client.New(cfg)
	if err != nil {
		e.t.Fatalf("client.New: %v", err)
	}
	return c
}

// seed stores n subscriptions directly in the mock, with distinct event names and creation
// dates (so that the default order is the seeding order), and returns them as stored.
func (e *mockEnv) seed(accountID string, n int) []mockserver.Subscription {
	out := make([]mockserver.Subscription, 0, n)
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	for i := range n {
		out = append(out, e.mock.PutSubscription(accountID, mockserver.Subscription{
			EventName:               fmt.Sprintf("EVENT.%02d", i),
			DestinationType:         "EVENT_STREAMS",
			LogLevel:                []string{"INFO", "WARNING", "ERROR"}[i%3],
			EventStreamsEnvironment: "env-1",
			EventStreamsTopic:       fmt.Sprintf("topic-%02d", i),
			Enabled:                 i%2 == 0,
			CreatedDate:             base + int64(i)*1000,
			LastUpdatedDate:         base + int64(i)*1000,
			CreatedBy:               itUser,
			LastUpdatedUserID:       itUser,
		}))
	}
	return out
}

// wantCount fails the test unless the mock counted want requests for method and route.
func (e *mockEnv) wantCount(method, route string, want int) {
	e.t.Helper()
	if got := e.mock.Count(method, route); got != want {
		e.t.Errorf("mock Count(%q, %q) = %d, want %d; request log:\n%s", method, route, got, want, e.requestLog())
	}
}

// wantJWTFetches fails the test unless the mock issued want JWTs.
func (e *mockEnv) wantJWTFetches(want int) {
	e.t.Helper()
	if got := e.mock.JWTFetches(); got != want {
		e.t.Errorf("mock JWTFetches() = %d, want %d; request log:\n%s", got, want, e.requestLog())
	}
}

// requestLog renders the mock's request log for failure messages.
func (e *mockEnv) requestLog() string {
	var b strings.Builder
	for _, r := range e.mock.Requests() {
		fmt.Fprintf(&b, "  %s %s -> %d\n", r.Method, r.Path, r.Status)
	}
	return b.String()
}

// fromMock converts a mock subscription into what the client should report for it.
func fromMock(s mockserver.Subscription) client.Subscription {
	return client.Subscription{
		ID:                          s.SubscriptionID,
		AccountID:                   s.AccountID,
		EventName:                   s.EventName,
		DestinationType:             s.DestinationType,
		LogLevel:                    s.LogLevel,
		DestinationEmail:            s.DestinationEmail,
		EventStreamsEnvironment:     s.EventStreamsEnvironment,
		EventStreamsEnvironmentName: s.EventStreamsEnvironmentName,
		EventStreamsTopic:           s.EventStreamsTopic,
		Enabled:                     s.Enabled,
		CreatedDate:                 s.CreatedDate,
		LastUpdatedDate:             s.LastUpdatedDate,
		CreatedBy:                   s.CreatedBy,
		LastUpdatedUserID:           s.LastUpdatedUserID,
	}
}

func fromMockAll(subs []mockserver.Subscription) []client.Subscription {
	out := make([]client.Subscription, 0, len(subs))
	for _, s := range subs {
		out = append(out, fromMock(s))
	}
	return out
}

func ids(subs []client.Subscription) []string {
	out := make([]string, 0, len(subs))
	for _, s := range subs {
		out = append(out, s.ID)
	}
	return out
}

// wantSubs compares subscriptions field by field, in order.
func wantSubs(t *testing.T, got, want []client.Subscription) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d subscriptions %v, want %d %v", len(got), ids(got), len(want), ids(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("subscription %d:\n got  %+v\n want %+v", i, got[i], want[i])
		}
	}
}

// wantAPIError fails the test unless err is an *httpapi.APIError with the given status and
// exactly the given messages (nil: no body), and returns it.
func wantAPIError(t *testing.T, err error, status int, messages ...string) *httpapi.APIError {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want HTTP %d %q", status, messages)
	}
	var apiErr *httpapi.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("error %v (%T) is not an *httpapi.APIError", err, err)
	}
	if apiErr.StatusCode != status {
		t.Errorf("StatusCode = %d, want %d (error: %v)", apiErr.StatusCode, status, err)
	}
	if !slices.Equal(apiErr.Messages, messages) {
		t.Errorf("Messages = %q, want %q", apiErr.Messages, messages)
	}
	if apiErr.RawBody != "" {
		t.Errorf("RawBody = %q, want the service's JSON error shape to be understood", apiErr.RawBody)
	}
	for _, m := range messages {
		if !strings.Contains(err.Error(), m) {
			t.Errorf("error text %q does not contain the service's message %q", err.Error(), m)
		}
	}
	wantIs := map[int]error{
		http.StatusNotFound:     httpapi.ErrNotFound,
		http.StatusUnauthorized: httpapi.ErrUnauthorized,
		http.StatusForbidden:    httpapi.ErrForbidden,
	}
	for code, sentinel := range wantIs {
		want := code == status
		if code == http.StatusNotFound && apiErr.ErrorText != "Entity not found" {
			want = false // a router's "Not Found" (wrong base URL) is not a missing entity
		}
		if got := errors.Is(err, sentinel); got != want {
			t.Errorf("errors.Is(err, %v) = %v for HTTP %d", sentinel, got, status)
		}
	}
	return apiErr
}

// wantErrorBody checks the error and path members of the service's error body.
func wantErrorBody(t *testing.T, apiErr *httpapi.APIError, errorText, path string) {
	t.Helper()
	if apiErr.ErrorText != errorText {
		t.Errorf("ErrorText = %q, want %q", apiErr.ErrorText, errorText)
	}
	if apiErr.Path != path {
		t.Errorf("Path = %q, want %q", apiErr.Path, path)
	}
	if apiErr.URLPath != path {
		t.Errorf("URLPath = %q, want %q", apiErr.URLPath, path)
	}
	if apiErr.ErrorID != "" && apiErr.StatusCode != http.StatusInternalServerError {
		t.Errorf("ErrorID = %q on HTTP %d, want it on 500 only", apiErr.ErrorID, apiErr.StatusCode)
	}
}

func subsPath(accountID string) string { return "/rest/v1/accounts/" + accountID + "/subscriptions" }

func subPath(accountID, id string) string { return subsPath(accountID) + "/" + id }

func boolPtr(b bool) *bool { return &b }

// validInput is a valid SubscriptionCreate.
func validInput(event string) client.SubscriptionInput {
	return client.SubscriptionInput{
		EventName:                   event,
		DestinationType:             "EVENT_STREAMS",
		LogLevel:                    "WARNING",
		EventStreamsEnvironment:     "env-42",
		EventStreamsEnvironmentName: "Production",
		EventStreamsTopic:           "alerts",
	}
}

// bodyRewriter replaces the body of the requests with the given method, so that bodies the
// typed client never sends (to reach every validation rule of the mock) still go through the
// real client and its error decoding.
type bodyRewriter struct {
	base   http.RoundTripper
	method string
	body   string
}

func (rw bodyRewriter) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method != rw.method {
		return rw.base.RoundTrip(r)
	}
	if r.Body != nil {
		_ = r.Body.Close()
	}
	r = r.Clone(r.Context())
	r.ContentLength = int64(len(rw.body))
	r.Body = io.NopCloser(strings.NewReader(rw.body))
	if rw.body == "" {
		r.Body = http.NoBody
	}
	body := rw.body
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(body)), nil }
	return rw.base.RoundTrip(r)
}

// rewriteBodies makes the client send body instead of its own for method.
func rewriteBodies(method, body string) func(*client.Config) {
	return func(c *client.Config) {
		c.HTTPClient = &http.Client{Transport: bodyRewriter{base: http.DefaultTransport.(*http.Transport).Clone(), method: method, body: body}}
	}
}

func ctx(t *testing.T) context.Context { return t.Context() }
