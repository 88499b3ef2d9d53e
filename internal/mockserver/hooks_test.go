package mockserver_test

import (
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// An OnServed hook runs once, after the next matching request that succeeded was carried out
// and before its answer is sent: a create made from the hook is not in the listing that the
// hook held back, and is in the next one. A failed request, another route or a removed hook
// does not run it.
func TestOnServed(t *testing.T) {
	tests := []struct {
		name   string
		before func(e *testEnv, token string) // requests made before the observed listing
		remove bool                           // remove the hook before the observed listing
		runs   int                            // times the hook ran, after the observed listing
	}{
		{name: "runs once on the listing", runs: 1},
		{name: "not on a failed request or another route", before: func(e *testEnv, token string) {
			e.do(http.MethodGet, subsPath(testAccount), "not-a-jwt", nil).wantStatus(e.t, http.StatusUnauthorized)
			e.do(http.MethodGet, "/rest/v1/events", token, nil).wantStatus(e.t, http.StatusOK)
		}, runs: 1},
		{name: "removed", remove: true, runs: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, mockserver.Config{})
			token := e.jwt(testAccount)
			e.createN(token, testAccount, 1)
			var ran atomic.Int32 // the hook runs on the server's goroutine
			remove := e.srv.OnServed(http.MethodGet, mockserver.RouteSubscriptions, func() {
				ran.Add(1)
				// Report, do not stop the test, from the server's goroutine.
				if got := e.send(http.MethodPost, subsPath(testAccount), token, map[string]any{"subscriptions": []any{validItem()}}); got != http.StatusCreated {
					t.Errorf("the hook's create: status %d, want 201", got)
				}
			})
			if tt.before != nil {
				tt.before(e, token)
			}
			if tt.remove {
				remove()
			}
			var first wireWrapper
			rFirst := e.do(http.MethodGet, subsPath(testAccount), token, nil)
			rFirst.wantStatus(t, http.StatusOK)
			decodeStrict(t, rFirst.body, &first)
			if runs := int(ran.Load()); runs != tt.runs {
				t.Fatalf("the hook ran %d times, want %d", runs, tt.runs)
			}
			if len(first.Subscriptions) != 1 {
				t.Errorf("the observed listing holds %d subscriptions, want 1 (the hook's create comes after it)", len(first.Subscriptions))
			}
			var second wireWrapper
			rSecond := e.do(http.MethodGet, subsPath(testAccount), token, nil)
			rSecond.wantStatus(t, http.StatusOK)
			decodeStrict(t, rSecond.body, &second)
			if runs := int(ran.Load()); len(second.Subscriptions) != 1+tt.runs || runs != tt.runs {
				t.Errorf("the next listing holds %d subscriptions after %d runs; want %d after %d", len(second.Subscriptions), runs, 1+tt.runs, tt.runs)
			}
		})
	}
}
