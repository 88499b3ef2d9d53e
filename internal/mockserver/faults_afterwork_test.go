package mockserver_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// An AfterWork fault keeps the change a request made and replaces only its answer; the
// counters record what the client received.
func TestFaultAfterWork(t *testing.T) {
	tests := []struct {
		name       string
		method     string
		route      string
		path       func(id string) string
		body       func(id string) any
		fault      mockserver.Fault
		wantStored int // subscriptions in the account afterwards (2 seeded)
		check      func(t *testing.T, srv *mockserver.Server, id string)
	}{
		{name: "create answered 504", method: http.MethodPost, route: mockserver.RouteSubscriptions,
			path:  func(string) string { return subsPath(testAccount) },
			body:  func(string) any { return map[string]any{"subscriptions": []any{validItem()}} },
			fault: mockserver.Fault{Status: http.StatusGatewayTimeout}, wantStored: 3},
		{name: "delete answered 502", method: http.MethodDelete, route: mockserver.RouteSubscription,
			path:  func(id string) string { return subsPath(testAccount) + "/" + id },
			fault: mockserver.Fault{Status: http.StatusBadGateway}, wantStored: 1},
		{name: "update answered 500", method: http.MethodPut, route: mockserver.RouteSubscription,
			path: func(id string) string { return subsPath(testAccount) + "/" + id },
			body: func(string) any {
				return map[string]any{"subscription": withFields(map[string]any{"logLevel": "INFO"})}
			},
			fault: mockserver.Fault{Status: http.StatusInternalServerError}, wantStored: 2,
			check: func(t *testing.T, srv *mockserver.Server, id string) {
				if s, _ := srv.Subscription(testAccount, id); s.LogLevel != "INFO" {
					t.Errorf("log level %q after the update, want INFO", s.LogLevel)
				}
			}},
		{name: "bulk delete answered 504", method: http.MethodPatch, route: mockserver.RouteSubscriptions,
			path:  func(string) string { return subsPath(testAccount) },
			body:  func(id string) any { return map[string]any{"operation": "delete", "subscriptionIds": []string{id}} },
			fault: mockserver.Fault{Status: http.StatusGatewayTimeout}, wantStored: 1},
		{name: "create, connection dropped", method: http.MethodPost, route: mockserver.RouteSubscriptions,
			path:  func(string) string { return subsPath(testAccount) },
			body:  func(string) any { return map[string]any{"subscriptions": []any{validItem()}} },
			fault: mockserver.Fault{Drop: true}, wantStored: 3},
		{name: "an invalid create is answered as usual", method: http.MethodPost, route: mockserver.RouteSubscriptions,
			path: func(string) string { return subsPath(testAccount) },
			body: func(string) any {
				return map[string]any{"subscriptions": []any{withFields(map[string]any{"logLevel": nil})}}
			},
			fault: mockserver.Fault{Status: http.StatusGatewayTimeout}, wantStored: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, mockserver.Config{})
			token := e.jwt(testAccount)
			seeded := e.createN(token, testAccount, 2)
			f := tt.fault
			f.Method, f.Route, f.AfterWork = tt.method, tt.route, true
			e.srv.InjectFault(f)
			var body any
			if tt.body != nil {
				body = tt.body(seeded[0].SubscriptionID)
			}
			status := e.send(tt.method, tt.path(seeded[0].SubscriptionID), token, body)
			want := f.Status
			switch {
			case f.Drop:
				want = 0
			case tt.wantStored == 2 && tt.check == nil:
				want = http.StatusBadRequest // not a success: its real answer
			}
			if status != want {
				t.Errorf("the client received %d, want %d", status, want)
			}
			if n := len(e.srv.Subscriptions(testAccount)); n != tt.wantStored {
				t.Errorf("the account holds %d subscriptions, want %d", n, tt.wantStored)
			}
			if tt.check != nil {
				tt.check(t, e.srv, seeded[0].SubscriptionID)
			}
			reqs := e.srv.Requests()
			if last := reqs[len(reqs)-1]; last.Status != want {
				t.Errorf("the request log recorded %d, want %d", last.Status, want)
			}
		})
	}
}

// With a Ratio, an AfterWork fault loses that share of the successful answers, and every
// request does its work.
func TestFaultAfterWorkRatio(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	e.srv.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
		Status: http.StatusGatewayTimeout, Ratio: 0.3, AfterWork: true})
	lost := 0
	for range 10 {
		if e.send(http.MethodPost, subsPath(testAccount), token, map[string]any{"subscriptions": []any{validItem()}}) == http.StatusGatewayTimeout {
			lost++
		}
	}
	if lost != 3 {
		t.Errorf("%d answers lost, want 3", lost)
	}
	if n := len(e.srv.Subscriptions(testAccount)); n != 10 {
		t.Errorf("the account holds %d subscriptions, want 10", n)
	}
}

// send is do for requests whose connection may be dropped: it returns the status, or 0
// when no answer came.
func (e *testEnv) send(method, path, token string, body any) int {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(e.t.Context(), method, e.ts.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := e.ts.Client().Do(req)
	if err != nil {
		var netErr interface{ Timeout() bool }
		if errors.As(err, &netErr) || strings.Contains(err.Error(), "EOF") {
			return 0
		}
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}
