package mockserver_test

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

func statuses(e *testEnv, n int, method, path, token string, body any) []int {
	e.t.Helper()
	out := make([]int, n)
	for i := range out {
		out[i] = e.do(method, path, token, body).status
	}
	return out
}

func TestFaultCount(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	e.srv.InjectFault(mockserver.Fault{Method: http.MethodGet, Route: mockserver.RouteEvents, Status: http.StatusServiceUnavailable, Count: 2})
	r := e.do(http.MethodGet, "/rest/v1/events", token, nil)
	r.wantError(t, http.StatusServiceUnavailable, "Service Unavailable", "/rest/v1/events", "Injected fault")
	// Other routes are not affected and do not use up the count.
	e.do(http.MethodGet, "/rest/v1/log-levels", token, nil).wantStatus(t, http.StatusOK)
	got := statuses(e, 3, http.MethodGet, "/rest/v1/events", token, nil)
	if want := []int{503, 200, 200}; !slices.Equal(got, want) {
		t.Errorf("statuses = %v, want %v", got, want)
	}
}

func TestFaultRatio(t *testing.T) {
	tests := []struct {
		ratio float64
		want  []int
	}{
		{0.5, []int{200, 500, 200, 500, 200, 500, 200, 500}},
		{0.25, []int{200, 200, 200, 500, 200, 200, 200, 500}},
		{1, []int{500, 500, 500, 500, 500, 500, 500, 500}},
		{0.1, []int{200, 200, 200, 200, 200, 200, 200, 200, 200, 500}},
	}
	for _, tt := range tests {
		e := newEnv(t, mockserver.Config{})
		token := e.jwt(testAccount)
		e.srv.InjectFault(mockserver.Fault{Route: mockserver.RouteLogLevels, Status: 500, Ratio: tt.ratio})
		got := statuses(e, len(tt.want), http.MethodGet, "/rest/v1/log-levels", token, nil)
		if !slices.Equal(got, tt.want) {
			t.Errorf("ratio %v: statuses = %v, want %v", tt.ratio, got, tt.want)
		}
	}
	// Count limits the fired answers of a ratio fault.
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	e.srv.InjectFault(mockserver.Fault{Route: mockserver.RouteLogLevels, Status: 502, Ratio: 0.5, Count: 2})
	got := statuses(e, 8, http.MethodGet, "/rest/v1/log-levels", token, nil)
	if want := []int{200, 502, 200, 502, 200, 200, 200, 200}; !slices.Equal(got, want) {
		t.Errorf("ratio with count: statuses = %v, want %v", got, want)
	}
}

func TestFaultRetryAfter(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	tests := []struct {
		after time.Duration
		want  string
	}{
		{1500 * time.Millisecond, "2"},
		{3 * time.Second, "3"},
		{time.Millisecond, "1"},
		{0, ""},
	}
	for _, tt := range tests {
		e.srv.InjectFault(mockserver.Fault{Status: http.StatusTooManyRequests, RetryAfter: tt.after, Count: 1})
		r := e.do(http.MethodGet, "/rest/v1/events", "", nil)
		r.wantError(t, http.StatusTooManyRequests, "Too Many Requests", "/rest/v1/events", "Injected fault")
		if got := r.header.Get("Retry-After"); got != tt.want {
			t.Errorf("RetryAfter %v: header = %q, want %q", tt.after, got, tt.want)
		}
	}
}

func TestFaultDefaultBodies(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	tests := []struct {
		status   int
		errValue string
		message  string
	}{
		{400, "Bad Request", "Injected fault"},
		{403, "Forbidden", "Access Denied"},
		{404, "Entity not found", "Injected fault"},
		{500, "Internal server error", "An unexpected error occurred"},
		{502, "Bad Gateway", "Injected fault"},
		{504, "Gateway Timeout", "Injected fault"},
	}
	path := subsPath(testAccount)
	for _, tt := range tests {
		e.srv.InjectFault(mockserver.Fault{Status: tt.status, Count: 1})
		w := e.do(http.MethodGet, path, "", nil).wantError(t, tt.status, tt.errValue, path, tt.message)
		if tt.status == 500 && !uuidPattern.MatchString(w.ErrorID) {
			t.Errorf("errorId = %q, want a uuid", w.ErrorID)
		}
	}
	e.srv.InjectFault(mockserver.Fault{Status: 401, Count: 1})
	e.do(http.MethodGet, path, "", nil).wantNoBody(t, http.StatusUnauthorized)
	e.srv.InjectFault(mockserver.Fault{Count: 1}) // status 0 means 500
	e.do(http.MethodGet, path, "", nil).wantError(t, 500, "Internal server error", path, "An unexpected error occurred")
	e.srv.InjectFault(mockserver.Fault{Status: 204, Count: 1})
	e.do(http.MethodGet, path, "", nil).wantNoBody(t, http.StatusNoContent)
}

func TestFaultCustomBody(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	e.srv.InjectFault(mockserver.Fault{Status: 502, Body: "<html>bad gateway</html>", ContentType: "text/html", Count: 1})
	r := e.do(http.MethodGet, "/rest/v1/events", "", nil)
	if r.status != 502 || string(r.body) != "<html>bad gateway</html>" || r.header.Get("Content-Type") != "text/html" {
		t.Errorf("got %d %q %q", r.status, r.header.Get("Content-Type"), r.body)
	}
	e.srv.InjectFault(mockserver.Fault{Status: 500, Body: `{"oops":true}`, Count: 1})
	r = e.do(http.MethodGet, "/rest/v1/events", "", nil)
	if r.status != 500 || string(r.body) != `{"oops":true}` || r.header.Get("Content-Type") != "application/json" {
		t.Errorf("got %d %q %q", r.status, r.header.Get("Content-Type"), r.body)
	}
}

func TestFaultMatching(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	path := subsPath(testAccount)
	remove := e.srv.InjectFault(mockserver.Fault{Method: "post", Route: mockserver.RouteSubscriptions, Status: 409})
	// Another method on the route, and the same method on another route, pass.
	e.do(http.MethodGet, path, token, nil).wantStatus(t, http.StatusNoContent)
	e.do(http.MethodPost, topicPath(testAccount), token, topicBody(nil)).wantStatus(t, http.StatusCreated)
	// Faults come before authentication and validation.
	e.do(http.MethodPost, path, "", "garbage").wantStatus(t, http.StatusConflict)
	e.do(http.MethodPost, path, token, list(validItem())).wantStatus(t, http.StatusConflict)
	remove()
	remove() // idempotent
	e.do(http.MethodPost, path, token, list(validItem())).wantStatus(t, http.StatusCreated)

	// Route "" and Method "" match everything, the JWT endpoint and unknown paths included.
	e.srv.InjectFault(mockserver.Fault{Status: 418})
	for _, p := range []string{"/auth/jwt/generate/x", "/rest/v1/events", "/nowhere"} {
		e.do(http.MethodGet, p, "", nil).wantStatus(t, http.StatusTeapot)
	}
	// The first injected fault that matches answers.
	e.srv.InjectFault(mockserver.Fault{Status: 503})
	e.do(http.MethodGet, "/rest/v1/events", token, nil).wantStatus(t, http.StatusTeapot)
	e.srv.ClearFaults()
	e.do(http.MethodGet, "/rest/v1/events", token, nil).wantStatus(t, http.StatusOK)
	// A fault on the JWT route.
	e.srv.InjectFault(mockserver.Fault{Route: mockserver.RouteJWT, Status: 503, Count: 1})
	e.do(http.MethodGet, "/auth/jwt/generate/"+testAccount, "", nil).wantStatus(t, http.StatusServiceUnavailable)
	e.jwt(testAccount)
}

func TestFaultDrop(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	e.srv.InjectFault(mockserver.Fault{Route: mockserver.RouteEvents, Drop: true, Count: 1})
	// A fresh connection, so that the transport does not retry the request
	// on another one.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.ts.URL+"/rest/v1/events", nil)
	resp, err := client.Do(req)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("dropped request got status %d, want a transport error", resp.StatusCode)
	}
	recs := e.srv.Requests()
	if len(recs) != 1 || recs[0].Status != 0 || recs[0].Route != mockserver.RouteEvents {
		t.Errorf("log = %+v, want one record with status 0", recs)
	}
	// Spent: the next request is answered.
	e.do(http.MethodGet, "/rest/v1/events", "", nil).wantNoBody(t, http.StatusUnauthorized)
}
