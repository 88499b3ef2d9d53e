package mockserver_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

func TestCountersAndLog(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	start := time.Now()
	token := e.jwt(testAccount)
	e.do(http.MethodGet, subsPath(testAccount), token, nil)          // 204
	e.do(http.MethodGet, subsPath(testAccount), "", nil)             // 401
	e.do(http.MethodPost, subsPath(testAccount), token, list())      // 204
	e.do(http.MethodGet, subsPath(testAccount)+"/x", token, nil)     // 400
	e.do(http.MethodGet, "/rest/v1/nothing", token, nil)             // 404, no route
	e.do(http.MethodPatch, "/rest/v1/events", token, nil)            // 405
	e.srv.InjectFault(mockserver.Fault{Status: 503, Count: 1})       //
	e.do(http.MethodGet, "/rest/v1/events", token, nil)              // 503
	e.do(http.MethodGet, "/auth/jwt/generate/"+testAccount, "", nil) // 401

	tests := []struct {
		method, route string
		want          int
	}{
		{"", "", 9},
		{http.MethodGet, "", 7},
		{"get", "", 7},
		{"", mockserver.RouteSubscriptions, 3},
		{http.MethodGet, mockserver.RouteSubscriptions, 2},
		{http.MethodPost, mockserver.RouteSubscriptions, 1},
		{"", mockserver.RouteSubscription, 1},
		{"", mockserver.RouteEvents, 2},
		{"", mockserver.RouteJWT, 2},
		{http.MethodDelete, "", 0},
	}
	for _, tt := range tests {
		if got := e.srv.Count(tt.method, tt.route); got != tt.want {
			t.Errorf("Count(%q, %q) = %d, want %d", tt.method, tt.route, got, tt.want)
		}
	}
	if got := e.srv.JWTFetches(); got != 1 {
		t.Errorf("JWTFetches = %d, want 1", got)
	}

	recs := e.srv.Requests()
	wantRecs := []struct {
		method, route, path string
		status              int
	}{
		{"GET", mockserver.RouteJWT, "/auth/jwt/generate/" + testAccount, 200},
		{"GET", mockserver.RouteSubscriptions, subsPath(testAccount), 204},
		{"GET", mockserver.RouteSubscriptions, subsPath(testAccount), 401},
		{"POST", mockserver.RouteSubscriptions, subsPath(testAccount), 204},
		{"GET", mockserver.RouteSubscription, subsPath(testAccount) + "/x", 400},
		{"GET", "", "/rest/v1/nothing", 404},
		{"PATCH", mockserver.RouteEvents, "/rest/v1/events", 405},
		{"GET", mockserver.RouteEvents, "/rest/v1/events", 503},
		{"GET", mockserver.RouteJWT, "/auth/jwt/generate/" + testAccount, 401},
	}
	if len(recs) != len(wantRecs) {
		t.Fatalf("log has %d records, want %d: %+v", len(recs), len(wantRecs), recs)
	}
	for i, w := range wantRecs {
		r := recs[i]
		if r.Method != w.method || r.Route != w.route || r.Path != w.path || r.Status != w.status {
			t.Errorf("record %d = %+v, want %+v", i, r, w)
		}
		if r.Time.Before(start) || r.Time.After(time.Now()) {
			t.Errorf("record %d time = %v", i, r.Time)
		}
	}
	// The log is a copy.
	recs[0].Status = 999
	if e.srv.Requests()[0].Status == 999 {
		t.Errorf("Requests returned the log itself")
	}

	e.srv.ResetCounters()
	if e.srv.Count("", "") != 0 || e.srv.JWTFetches() != 0 || len(e.srv.Requests()) != 0 {
		t.Errorf("ResetCounters left counts")
	}
	e.do(http.MethodGet, "/rest/v1/events", token, nil)
	if got := e.srv.Count(http.MethodGet, mockserver.RouteEvents); got != 1 {
		t.Errorf("after reset Count = %d, want 1", got)
	}
}

func TestRouting(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	tests := []struct {
		method, path string
		allow        string
	}{
		{http.MethodPost, "/rest/v1/events", "GET"},
		{http.MethodDelete, "/rest/v1/log-levels", "GET"},
		{http.MethodPut, "/rest/v1/destination-types", "GET"},
		{http.MethodPatch, subsPath(testAccount) + "/3f1c2a9e-8b7d-4c5e-9f01-23456789abcd", "GET, PUT, DELETE"},
		{http.MethodHead, subsPath(testAccount), "GET, PUT, POST, DELETE, PATCH"},
		{http.MethodGet, topicPath(testAccount), "POST"},
		{http.MethodPost, "/auth/jwt/generate/" + testAccount, "GET"},
	}
	for _, tt := range tests {
		r := e.do(tt.method, tt.path, "", nil)
		if tt.method == http.MethodHead {
			r.wantStatus(t, http.StatusMethodNotAllowed)
		} else {
			r.wantError(t, http.StatusMethodNotAllowed, "Method Not Allowed", tt.path, "Request method '"+tt.method+"' is not supported")
		}
		if got := r.header.Get("Allow"); got != tt.allow {
			t.Errorf("%s %s: Allow = %q, want %q", tt.method, tt.path, got, tt.allow)
		}
	}
	for _, p := range []string{"/", "/rest/v1", "/rest/v1/events/", "/rest/v1/accounts//subscriptions", "/rest/v2/events",
		"/rest/v1/accounts/a/subscriptions/x/y", "/auth/jwt/generate/", "/auth/jwt/generate"} {
		e.do(http.MethodGet, p, token, nil).wantError(t, http.StatusNotFound, "Not Found", p, "No endpoint GET "+p)
	}
	// Escaped path variables are unescaped.
	other := e.jwt("team a/b")
	e.do(http.MethodGet, "/rest/v1/accounts/team%20a%2Fb/subscriptions", other, nil).wantNoBody(t, http.StatusNoContent)
}
