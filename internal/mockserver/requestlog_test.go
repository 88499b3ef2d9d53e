package mockserver_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// serveN sends n unauthenticated GETs of the paths path(i) straight to srv's handler.
func serveN(srv *mockserver.Server, method string, n int, path func(int) string) {
	for i := range n {
		r := httptest.NewRequest(http.MethodGet, path(i), nil)
		r.Method = method
		srv.ServeHTTP(httptest.NewRecorder(), r)
	}
}

// TestRequestLogBounded: the request log keeps the latest requests only, each path cut to
// MaxLoggedPath bytes and unknown methods as OTHER, while the counters count every request.
func TestRequestLogBounded(t *testing.T) {
	path := func(i int) string { return fmt.Sprintf("/rest/v1/accounts/acc-%d/subscriptions", i) }
	tests := []struct {
		name     string
		cfg      mockserver.Config
		requests int
		wantLog  int
	}{
		{"under the size", mockserver.Config{RequestLogSize: 5}, 3, 3},
		{"at the size", mockserver.Config{RequestLogSize: 5}, 5, 5},
		{"over the size", mockserver.Config{RequestLogSize: 5}, 23, 5},
		{"default size", mockserver.Config{}, mockserver.DefaultRequestLogSize + 7, mockserver.DefaultRequestLogSize},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := mockserver.New(tt.cfg)
			serveN(srv, http.MethodGet, tt.requests, path)
			log := srv.Requests()
			if len(log) != tt.wantLog {
				t.Fatalf("the log holds %d entries after %d requests, want %d", len(log), tt.requests, tt.wantLog)
			}
			// The latest requests, oldest first.
			for i, rec := range log {
				if want := path(tt.requests - tt.wantLog + i); rec.Path != want {
					t.Fatalf("entry %d: path %q, want %q", i, rec.Path, want)
				}
			}
			if got := srv.Count("", ""); got != tt.requests {
				t.Errorf("Count = %d, want every request: %d", got, tt.requests)
			}
			total := 0
			srv.EachCount(func(_, _ string, n int) { total += n })
			if total != tt.requests {
				t.Errorf("EachCount adds up to %d, want %d", total, tt.requests)
			}
		})
	}
}

// TestRequestLogEntriesBounded: a 900 kB path and a long made-up method take a bounded entry.
func TestRequestLogEntriesBounded(t *testing.T) {
	srv := mockserver.New(mockserver.Config{})
	long := "/rest/v1/" + strings.Repeat("a", 900<<10)
	serveN(srv, http.MethodGet, 1, func(int) string { return long })
	serveN(srv, strings.Repeat("M", 10000), 1, func(int) string { return "/rest/v1/events" })
	serveN(srv, "get", 1, func(int) string { return "/rest/v1/events" })
	log := srv.Requests()
	if len(log) != 3 {
		t.Fatalf("log = %d entries, want 3", len(log))
	}
	if got := log[0].Path; got != long[:mockserver.MaxLoggedPath] {
		t.Errorf("logged path of %d bytes, want the first %d of the path", len(got), mockserver.MaxLoggedPath)
	}
	if got := log[1].Method; got != "OTHER" {
		t.Errorf("made-up method logged as %d bytes %.20q..., want OTHER", len(got), got)
	}
	if got := log[2].Method; got != "get" {
		t.Errorf("method get logged as %q", got)
	}
	if got := srv.Count("OTHER", mockserver.RouteEvents); got != 1 {
		t.Errorf("Count(OTHER, events) = %d, want 1", got)
	}
}
