package mockserver_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// A Later fault answers at once and carries the work out just before the Later-th read of the
// same route that follows; reads of other routes and writes do not count.
func TestFaultLater(t *testing.T) {
	tests := []struct {
		name  string
		fault mockserver.Fault
		want  int // the status the client receives
	}{
		{"504", mockserver.Fault{Status: http.StatusGatewayTimeout}, http.StatusGatewayTimeout},
		{"dropped connection", mockserver.Fault{Drop: true}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, mockserver.Config{})
			token := e.jwt(testAccount)
			f := tt.fault
			f.Method, f.Route, f.Count, f.Later = http.MethodPost, mockserver.RouteSubscriptions, 1, 3
			e.srv.InjectFault(f)
			if got := e.send(http.MethodPost, subsPath(testAccount), token, map[string]any{"subscriptions": []any{validItem(), validItem()}}); got != tt.want {
				t.Fatalf("the client received %d, want %d", got, tt.want)
			}
			e.do(http.MethodGet, "/rest/v1/events", token, nil).wantStatus(t, http.StatusOK) // another route
			e.do(http.MethodPost, subsPath(testAccount), token, map[string]any{"subscriptions": []any{}}).wantStatus(t, http.StatusNoContent)
			for i := 1; i <= 3; i++ {
				r := e.do(http.MethodGet, subsPath(testAccount), token, nil)
				stored := len(e.srv.Subscriptions(testAccount))
				if i < 3 && (r.status != http.StatusNoContent || stored != 0 || e.srv.PendingLater() != 1) {
					t.Fatalf("read %d: status %d, %d stored, %d pending; want 204, 0, 1", i, r.status, stored, e.srv.PendingLater())
				}
				if i == 3 && (r.status != http.StatusOK || stored != 2 || e.srv.PendingLater() != 0) {
					t.Fatalf("read 3: status %d, %d stored, %d pending; want 200, 2, 0", r.status, stored, e.srv.PendingLater())
				}
			}
		})
	}
}

// An Omit fault keeps a create's work and status, and lists fewer subscriptions in its answer.
func TestFaultOmit(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	e.srv.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions, AfterWork: true, Omit: 2, Count: 1})
	items := []any{
		withFields(map[string]any{"eventStreamsTopic": "t0"}),
		withFields(map[string]any{"eventStreamsTopic": "t1"}),
		withFields(map[string]any{"eventStreamsTopic": "t2"}),
	}
	r := e.do(http.MethodPost, subsPath(testAccount), token, map[string]any{"subscriptions": items})
	r.wantStatus(t, http.StatusCreated)
	var w wireWrapper
	decodeStrict(t, r.body, &w)
	if len(w.Subscriptions) != 1 || w.Subscriptions[0].EventStreamsTopic != "t2" {
		t.Errorf("the answer lists %+v, want only the subscription of topic t2", w.Subscriptions)
	}
	if n := len(e.srv.Subscriptions(testAccount)); n != 3 {
		t.Errorf("the account holds %d subscriptions, want 3", n)
	}
}

// The service's clock dates subscriptions and the Date header, shifted by SetClockOffset.
func TestClockOffset(t *testing.T) {
	for _, offset := range []time.Duration{0, time.Hour, -time.Hour} {
		t.Run(offset.String(), func(t *testing.T) {
			e := newEnv(t, mockserver.Config{})
			e.srv.SetClockOffset(offset)
			token := e.jwt(testAccount)
			before := time.Now().Add(offset).Truncate(time.Second)
			r := e.do(http.MethodPost, subsPath(testAccount), token, map[string]any{"subscriptions": []any{validItem()}})
			after := time.Now().Add(offset)
			r.wantStatus(t, http.StatusCreated)
			date, err := http.ParseTime(r.header.Get("Date"))
			if err != nil || date.Before(before) || date.After(after) {
				t.Errorf("Date %q (%v), want between %v and %v", r.header.Get("Date"), err, before, after)
			}
			created := time.UnixMilli(e.srv.Subscriptions(testAccount)[0].CreatedDate)
			if created.Before(before) || created.After(after) {
				t.Errorf("createdDate %v, want between %v and %v", created, before, after)
			}
		})
	}
}

// SetDateOffset shifts the Date header off the clock that dates subscriptions.
func TestDateOffset(t *testing.T) {
	for _, offset := range []time.Duration{2 * time.Second, -2 * time.Second} {
		t.Run(offset.String(), func(t *testing.T) {
			e := newEnv(t, mockserver.Config{})
			e.srv.SetDateOffset(offset)
			token := e.jwt(testAccount)
			before := time.Now().Truncate(time.Second)
			r := e.do(http.MethodPost, subsPath(testAccount), token, map[string]any{"subscriptions": []any{validItem()}})
			after := time.Now()
			r.wantStatus(t, http.StatusCreated)
			date, err := http.ParseTime(r.header.Get("Date"))
			if err != nil || date.Before(before.Add(offset)) || date.After(after.Add(offset)) {
				t.Errorf("Date %q (%v), want between %v and %v", r.header.Get("Date"), err, before.Add(offset), after.Add(offset))
			}
			created := time.UnixMilli(e.srv.Subscriptions(testAccount)[0].CreatedDate)
			if created.Before(before) || created.After(after) {
				t.Errorf("createdDate %v, want between %v and %v: the offset moved the store's clock", created, before, after)
			}
		})
	}
}

// A ListAccount fault keeps a create's work and status, and lists the whole account in its
// answer.
func TestFaultListAccount(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	e.do(http.MethodPost, subsPath(testAccount), token, map[string]any{"subscriptions": []any{
		withFields(map[string]any{"eventStreamsTopic": "old"}),
	}}).wantStatus(t, http.StatusCreated)
	e.srv.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions, AfterWork: true, ListAccount: true, Count: 1})
	r := e.do(http.MethodPost, subsPath(testAccount), token, map[string]any{"subscriptions": []any{
		withFields(map[string]any{"eventStreamsTopic": "new"}),
	}})
	r.wantStatus(t, http.StatusCreated)
	var w wireWrapper
	decodeStrict(t, r.body, &w)
	topics := map[string]bool{}
	for _, s := range w.Subscriptions {
		topics[s.EventStreamsTopic] = true
	}
	if len(w.Subscriptions) != 2 || !topics["old"] || !topics["new"] {
		t.Errorf("the answer lists %+v, want the subscriptions of topics old and new", w.Subscriptions)
	}
	if n := len(e.srv.Subscriptions(testAccount)); n != 2 {
		t.Errorf("the account holds %d subscriptions, want 2", n)
	}
}
