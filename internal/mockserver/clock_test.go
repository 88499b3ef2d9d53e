package mockserver_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// StopClock holds the service's clock at the instant given: subscriptions created meanwhile are
// dated at it, to the millisecond, and so is the Date header; ResumeClock lets it run again.
func TestStopClock(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	at := time.Now().Add(-71 * time.Millisecond).Truncate(time.Millisecond)
	e.srv.StopClock(at)
	for range 2 {
		r := e.do(http.MethodPost, subsPath(testAccount), token, map[string]any{"subscriptions": []any{validItem()}})
		r.wantStatus(t, http.StatusCreated)
		if date, err := http.ParseTime(r.header.Get("Date")); err != nil || !date.Equal(at.Truncate(time.Second)) {
			t.Errorf("Date %q (%v) while the clock stands at %v", r.header.Get("Date"), err, at)
		}
	}
	for _, s := range e.srv.Subscriptions(testAccount) {
		if s.CreatedDate != at.UnixMilli() {
			t.Errorf("createdDate %d while the clock stands at %d", s.CreatedDate, at.UnixMilli())
		}
	}
	e.srv.ResumeClock()
	before := time.Now()
	e.do(http.MethodPost, subsPath(testAccount), token, map[string]any{"subscriptions": []any{validItem()}}).wantStatus(t, http.StatusCreated)
	subs := e.srv.Subscriptions(testAccount)
	if last := subs[len(subs)-1].CreatedDate; last < before.UnixMilli() {
		t.Errorf("createdDate %d after ResumeClock, want at least %d", last, before.UnixMilli())
	}
}

// OnFaulted tells, on the service's clock, when a request that a fault answered before any work
// came in and when its answer was written, once; a request answered as usual runs no hook.
func TestOnFaulted(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	at := time.Now().Add(time.Hour).Truncate(time.Millisecond)
	e.srv.StopClock(at)
	var got []mockserver.FaultedRequest
	e.srv.OnFaulted(http.MethodPost, mockserver.RouteSubscriptions, func(f mockserver.FaultedRequest) { got = append(got, f) })
	e.do(http.MethodPost, subsPath(testAccount), token, map[string]any{"subscriptions": []any{validItem()}}).wantStatus(t, http.StatusCreated)
	e.srv.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions, Status: http.StatusBadGateway, Count: 2})
	for range 2 {
		e.do(http.MethodPost, subsPath(testAccount), token, map[string]any{"subscriptions": []any{validItem()}}).wantStatus(t, http.StatusBadGateway)
	}
	if len(got) != 1 || !got[0].Received.Equal(at) || !got[0].Answered.Equal(at) {
		t.Errorf("hook saw %v, want one faulted request, received and answered at %v", got, at)
	}
}
