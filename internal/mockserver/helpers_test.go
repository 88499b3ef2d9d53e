package mockserver_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/testsupport"
)

// The wire types below are written from the service spec, independently of the package's
// own, and decoded strictly: a JSON name the server gets wrong fails the tests. A subscription
// is the exception: its members are checked against the spec's list, the tests' one pin on a
// subscription's wire names (testsupport.SpecSubscription, TestSpecMembers), so that a new
// field is written down once.

// wireSubscription is a subscription as the server answers it.
type wireSubscription = mockserver.Subscription

type wirePage struct {
	PageNumber       int32 `json:"pageNumber"`
	PageSize         int32 `json:"pageSize"`
	TotalPages       int32 `json:"totalPages"`
	TotalElements    int64 `json:"totalElements"`
	NumberOfElements int32 `json:"numberOfElements"`
	First            bool  `json:"first"`
	Last             bool  `json:"last"`
}

type wireWrapper struct {
	Subscriptions      []wireSubscription `json:"subscriptions"`
	Subscription       *wireSubscription  `json:"subscription"`
	PaginationMetadata *wirePage          `json:"paginationMetadata"`
}

type wireOperationStatus struct {
	SubscriptionID     string `json:"subscriptionId"`
	HTTPEquivalentCode int    `json:"httpEquivalentCode"`
	Message            string `json:"message"`
}

type wirePatchResponse struct {
	OperationStatuses []wireOperationStatus `json:"operationStatuses"`
}

type wireError struct {
	Error    string   `json:"error"`
	Messages []string `json:"messages"`
	Path     string   `json:"path"`
	ErrorID  string   `json:"errorId"`
}

type wireTopicResponse struct {
	Data struct {
		EventStreamsSubscriptionCreate struct {
			Name  string `json:"name"`
			Topic struct {
				Name        string `json:"name"`
				Environment struct {
					ID string `json:"id"`
				} `json:"environment"`
				SubscriptionCount int32 `json:"subscriptionCount"`
			} `json:"topic"`
		} `json:"eventStreamsSubscriptionCreate"`
	} `json:"data"`
}

// The harness's account and password user (internal/testsupport).
const (
	testAccount  = testsupport.Account
	testUser     = testsupport.User
	testPassword = testsupport.Password
)

// testEnv is a mock server behind an httptest.Server, started by the shared harness.
type testEnv struct {
	t   *testing.T
	srv *mockserver.Server
	ts  *httptest.Server
}

// newEnv starts a fresh mock server configured by cfg; with no users in cfg, the harness's test
// users may log in.
func newEnv(t *testing.T, cfg mockserver.Config) *testEnv {
	t.Helper()
	m := testsupport.Start(t, cfg)
	return &testEnv{t: t, srv: m.Server, ts: m.HTTP}
}

// response is a finished HTTP exchange.
type response struct {
	status int
	header http.Header
	body   []byte
}

// do sends a request. body: nil (none), string or []byte (raw), anything
// else is JSON-encoded. token "" sends no Authorization.
func (e *testEnv) do(method, path, token string, body any) response {
	e.t.Helper()
	return e.doHeaders(method, path, body, func(h http.Header) {
		if token != "" {
			h.Set("Authorization", "Bearer "+token)
		}
	})
}

func (e *testEnv) doHeaders(method, path string, body any, setHeaders func(http.Header)) response {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		enc, err := json.Marshal(b)
		if err != nil {
			e.t.Fatalf("encode body: %v", err)
		}
		rd = bytes.NewReader(enc)
	}
	req, err := http.NewRequestWithContext(e.t.Context(), method, e.ts.URL+path, rd)
	if err != nil {
		e.t.Fatalf("new request: %v", err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if setHeaders != nil {
		setHeaders(req.Header)
	}
	resp, err := e.ts.Client().Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatalf("read body: %v", err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: b}
}

// jwt fetches a JWT for account with the default user's password.
func (e *testEnv) jwt(account string) string {
	e.t.Helper()
	return e.jwtAs(account, testUser, testPassword, "")
}

func (e *testEnv) jwtAs(account, user, password, otp string) string {
	e.t.Helper()
	r := e.doHeaders(http.MethodGet, "/auth/jwt/generate/"+url.PathEscape(account), nil, func(h http.Header) {
		req := &http.Request{Header: h}
		req.SetBasicAuth(user, password)
		if otp != "" {
			h.Set("X-Platform-OTP", otp)
		}
	})
	if r.status != http.StatusOK {
		e.t.Fatalf("JWT for %s as %s: status %d %s", account, user, r.status, r.body)
	}
	var body struct {
		Token string `json:"token"`
	}
	decodeStrict(e.t, r.body, &body)
	return body.Token
}

// decodeStrict decodes b into v, failing on unknown fields.
func decodeStrict(t *testing.T, b []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
}

// wantStatus fails unless r has status.
func (r response) wantStatus(t *testing.T, status int) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status = %d, want %d; body %s", r.status, status, r.body)
	}
}

// wantError checks an error response: status, error value, exact
// messages, path, and errorId on 500 only.
func (r response) wantError(t *testing.T, status int, errValue, path string, messages ...string) wireError {
	t.Helper()
	r.wantStatus(t, status)
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	var e wireError
	decodeStrict(t, r.body, &e)
	if e.Error != errValue {
		t.Errorf("error = %q, want %q", e.Error, errValue)
	}
	if messages != nil && !reflect.DeepEqual(e.Messages, messages) {
		t.Errorf("messages = %q, want %q", e.Messages, messages)
	}
	if e.Messages == nil {
		t.Errorf("messages missing in %s", r.body)
	}
	if e.Path != path {
		t.Errorf("path = %q, want %q", e.Path, path)
	}
	if (e.ErrorID != "") != (status == http.StatusInternalServerError) {
		t.Errorf("errorId = %q on status %d", e.ErrorID, status)
	}
	return e
}

// wantNoBody checks a bodiless response with status.
func (r response) wantNoBody(t *testing.T, status int) {
	t.Helper()
	r.wantStatus(t, status)
	if len(r.body) != 0 {
		t.Errorf("body = %q, want none", r.body)
	}
}

// subsPath is the collection path of account.
func subsPath(account string) string {
	return "/rest/v1/accounts/" + account + "/subscriptions"
}

// validItem is a valid SubscriptionCreate with every string member of the spec's
// SubscriptionCreate set (enabled is left to its default).
func validItem() map[string]any {
	item := map[string]any{
		"eventName":                   "ATOM.STATUS",
		"destinationType":             "EVENT_STREAMS",
		"logLevel":                    "ERROR",
		"eventStreamsEnvironment":     "env-1",
		"eventStreamsEnvironmentName": "Production",
		"eventStreamsTopic":           "alerts",
	}
	for name, v := range everyInput() {
		if _, set := item[name]; !set && name != "enabled" {
			item[name] = v
		}
	}
	return item
}

// withFields returns a copy of validItem with changes (nil deletes).
func withFields(changes map[string]any) map[string]any {
	m := validItem()
	for k, v := range changes {
		if v == nil {
			delete(m, k)
			continue
		}
		m[k] = v
	}
	return m
}

// createN creates n subscriptions through the API and returns them.
func (e *testEnv) createN(token, account string, n int) []wireSubscription {
	e.t.Helper()
	items := make([]map[string]any, n)
	for i := range items {
		items[i] = validItem()
	}
	r := e.do(http.MethodPost, subsPath(account), token, map[string]any{"subscriptions": items})
	r.wantStatus(e.t, http.StatusCreated)
	var w wireWrapper
	decodeStrict(e.t, r.body, &w)
	if len(w.Subscriptions) != n {
		e.t.Fatalf("created %d subscriptions, want %d", len(w.Subscriptions), n)
	}
	return w.Subscriptions
}

// with returns a copy of e that reports to t (for subtests).
func (e *testEnv) with(t *testing.T) *testEnv {
	c := *e
	c.t = t
	return &c
}
