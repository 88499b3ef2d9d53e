package client_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/testsupport"
)

// TestTransient reads the events catalogue through the real client while the mock (or an address
// that is not the mock) fails in each way a plan-time read can meet, and checks which failures
// Transient calls passing (a plan goes on with a warning) and which definite (the plan stops): only
// the service failing or busy, a timeout and a dropped connection pass. Which other network errors
// may pass is the retry policy's to say (httpapi.RetryableTransportError).
func TestTransient(t *testing.T) {
	t.Parallel()
	restricted := []mockserver.User{{Username: itUser, Password: itPassword, Accounts: []string{itOther}}}
	events := func(status int, mods ...func(*mockserver.Fault)) func(t *testing.T, e *mockEnv) {
		return func(_ *testing.T, e *mockEnv) {
			f := mockserver.Fault{Method: http.MethodGet, Route: mockserver.RouteEvents, Status: status}
			for _, m := range mods {
				m(&f)
			}
			e.mock.InjectFault(f)
		}
	}
	retryAfter := func(f *mockserver.Fault) { f.RetryAfter = time.Second }
	cases := []struct {
		name      string
		users     []mockserver.User
		setup     func(t *testing.T, e *mockEnv)
		config    func(t *testing.T, e *mockEnv, cfg *client.Config)
		transient bool
	}{
		{name: "401 from the service", setup: events(http.StatusUnauthorized)},
		{name: "403: the user has no access to the account", users: restricted},
		{name: "403 from the service", setup: events(http.StatusForbidden)},
		{name: "the service's own 404", setup: events(http.StatusNotFound)},
		{name: "a 404 that is not the service's (base_url with a path it does not serve)",
			config: func(_ *testing.T, e *mockEnv, cfg *client.Config) { cfg.BaseURL = e.srv.URL + "/gateway" }},
		{name: "400", setup: events(http.StatusBadRequest)},
		{name: "a redirect", setup: events(http.StatusMovedPermanently)},
		{name: "a page that is not the service's answer", setup: events(http.StatusOK, func(f *mockserver.Fault) {
			f.Body, f.ContentType = "<html>sign in</html>", "text/html"
		})},
		{name: "an untrusted certificate", config: func(t *testing.T, e *mockEnv, cfg *client.Config) {
			tlsSrv := httptest.NewTLSServer(e.mock)
			t.Cleanup(tlsSrv.Close)
			cfg.BaseURL, cfg.AuthURL = tlsSrv.URL, tlsSrv.URL
		}},
		{name: "500", setup: events(http.StatusInternalServerError), transient: true},
		{name: "502", setup: events(http.StatusBadGateway), transient: true},
		{name: "503 with Retry-After", setup: events(http.StatusServiceUnavailable, retryAfter), transient: true},
		{name: "429", setup: events(http.StatusTooManyRequests, retryAfter), transient: true},
		{name: "a dropped connection", setup: events(0, func(f *mockserver.Fault) { f.Drop = true }), transient: true},
		{name: "a timeout", transient: true, config: func(t *testing.T, _ *mockEnv, cfg *client.Config) {
			silent := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
			t.Cleanup(silent.Close)
			t.Cleanup(silent.CloseClientConnections)
			cfg.BaseURL, cfg.RequestTimeout = silent.URL, 50*time.Millisecond
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newMockEnv(t, mockserver.Config{Users: tc.users})
			e.mock.SetEvents([]mockserver.CatalogueEntry{{Name: "ATOM.STATUS"}})
			if tc.setup != nil {
				tc.setup(t, e)
			}
			c := e.client(func(cfg *client.Config) {
				cfg.MaxRetries = 0
				if tc.config != nil {
					tc.config(t, e, cfg)
				}
			})
			_, err := c.ListEvents(context.Background())
			if err == nil {
				t.Fatal("the read succeeded")
			}
			if got := client.Transient(err); got != tc.transient {
				t.Errorf("Transient(%v) = %v, want %v", err, got, tc.transient)
			}
			// Wrapping, as callers do, changes nothing.
			if got := client.Transient(fmt.Errorf("check event names: %w", err)); got != tc.transient {
				t.Errorf("Transient of the wrapped error = %v, want %v", got, tc.transient)
			}
		})
	}
}

// TestTransient_others: errors that no request produced.
func TestTransient_others(t *testing.T) {
	t.Parallel()
	cases := []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("something else"), false},
		{context.Canceled, false},
		{fmt.Errorf("list events: %w", context.DeadlineExceeded), true},
		{&client.IncompleteListingError{AccountID: testsupport.Account, Attempts: 3}, true},
		{httpapi.CheckAccountID(".."), false},
		{&httpapi.APIError{StatusCode: http.StatusRequestTimeout}, true},
		{&httpapi.APIError{StatusCode: http.StatusServiceUnavailable, Throttled: true}, true},
		{&httpapi.APIError{StatusCode: http.StatusServiceUnavailable}, true},
		{&httpapi.APIError{StatusCode: http.StatusConflict}, false},
	}
	for _, tc := range cases {
		if got := client.Transient(tc.err); got != tc.want {
			t.Errorf("Transient(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
