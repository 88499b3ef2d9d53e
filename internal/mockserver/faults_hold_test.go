package mockserver_test

import (
	"net/http"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// A hold carries a create out, keeps its answer back until Release (the subscription is
// stored while the client still waits), then sends the real answer; other routes and
// methods pass, and once released the hold keeps nothing back.
func TestHoldAnswers(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	h := e.srv.HoldAnswers(http.MethodPost, mockserver.RouteSubscriptions)

	answered := make(chan response, 1)
	go func() {
		answered <- e.do(http.MethodPost, subsPath(testAccount), token, map[string]any{"subscriptions": []any{validItem()}})
	}()
	<-h.Arrived()
	if n := len(e.srv.Subscriptions(testAccount)); n != 1 {
		t.Fatalf("while the answer is held the account holds %d subscriptions, want 1", n)
	}
	select {
	case r := <-answered:
		t.Fatalf("the held create was answered (%d) before Release", r.status)
	default:
	}
	// A listing is not held while the create is.
	e.do(http.MethodGet, subsPath(testAccount), token, nil).wantStatus(t, http.StatusOK)

	h.Release()
	r := <-answered
	r.wantStatus(t, http.StatusCreated)
	var got wireWrapper
	decodeStrict(t, r.body, &got)
	stored := e.srv.Subscriptions(testAccount)
	if len(got.Subscriptions) != 1 || got.Subscriptions[0].SubscriptionID != stored[0].SubscriptionID {
		t.Fatalf("the released answer lists %+v, the account holds %+v", got.Subscriptions, stored)
	}
	h.Release() // a second Release is harmless
	// Released, the hold keeps nothing back: this create is answered without a Release.
	e.do(http.MethodPost, subsPath(testAccount), token, map[string]any{"subscriptions": []any{validItem()}}).wantStatus(t, http.StatusCreated)
	if n := len(e.srv.Subscriptions(testAccount)); n != 2 {
		t.Fatalf("the account holds %d subscriptions after two creates, want 2", n)
	}
}
