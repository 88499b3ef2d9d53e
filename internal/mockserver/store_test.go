package mockserver_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

func TestPutSubscription(t *testing.T) {
	s := mockserver.New(mockserver.Config{})
	before := time.Now().UnixMilli()
	got := s.PutSubscription(testAccount, mockserver.Subscription{EventName: "X", DestinationType: "EMAIL", LogLevel: "INFO"})
	if !uuidPattern.MatchString(got.SubscriptionID) || got.AccountID != testAccount ||
		got.CreatedDate < before || got.LastUpdatedDate != got.CreatedDate || got.Enabled {
		t.Errorf("filled = %+v", got)
	}
	stored, ok := s.Subscription(testAccount, got.SubscriptionID)
	if !ok || stored != got {
		t.Errorf("Subscription = %+v, %v", stored, ok)
	}
	if _, ok := s.Subscription("acc-other", got.SubscriptionID); ok {
		t.Errorf("found in another account")
	}
	// Replace by id, keeping given values as they are.
	repl := got
	repl.LogLevel = "ERROR"
	repl.CreatedDate = 42
	repl.SubscriptionID = strings.ToUpper(got.SubscriptionID)
	s.PutSubscription(testAccount, repl)
	all := s.Subscriptions(testAccount)
	if len(all) != 1 || all[0].LogLevel != "ERROR" || all[0].CreatedDate != 42 || all[0].SubscriptionID != got.SubscriptionID {
		t.Errorf("after replace = %+v", all)
	}
	// Explicit values are kept.
	explicit := mockserver.Subscription{SubscriptionID: "b6d0c1a2-0000-4000-8000-000000000001", AccountID: "weird", CreatedDate: 7, LastUpdatedDate: 9, Enabled: true}
	if got := s.PutSubscription(testAccount, explicit); got != explicit {
		t.Errorf("explicit = %+v", got)
	}
	// Sorted by createdDate, then subscriptionId.
	all = s.Subscriptions(testAccount)
	if len(all) != 2 || all[0].CreatedDate != 7 || all[1].CreatedDate != 42 {
		t.Errorf("order = %+v", all)
	}
	if got := s.Subscriptions("none"); len(got) != 0 {
		t.Errorf("empty account = %+v", got)
	}
}

func TestDirectHelpersDrift(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	created := e.createN(token, testAccount, 2)
	id := created[0].SubscriptionID
	path := subsPath(testAccount) + "/" + id

	// A change outside the API shows in the API.
	if !e.srv.ModifySubscription(testAccount, id, func(s *mockserver.Subscription) { s.LogLevel = "INFO"; s.Enabled = false }) {
		t.Fatalf("ModifySubscription found nothing")
	}
	r := e.do(http.MethodGet, path, token, nil)
	var got wireSubscription
	decodeStrict(t, r.body, &got)
	if got.LogLevel != "INFO" || got.Enabled {
		t.Errorf("after drift = %+v", got)
	}
	if e.srv.ModifySubscription(testAccount, "3f1c2a9e-8b7d-4c5e-9f01-23456789abcd", func(*mockserver.Subscription) {}) {
		t.Errorf("ModifySubscription of a missing id reported true")
	}
	if e.srv.ModifySubscription("acc-none", id, func(*mockserver.Subscription) {}) {
		t.Errorf("ModifySubscription in another account reported true")
	}

	// Changing the id re-keys the subscription.
	newID := "0b5f3c57-1111-4222-8333-444455556666"
	e.srv.ModifySubscription(testAccount, id, func(s *mockserver.Subscription) { s.SubscriptionID = newID })
	e.do(http.MethodGet, path, token, nil).wantStatus(t, http.StatusNotFound)
	e.do(http.MethodGet, subsPath(testAccount)+"/"+newID, token, nil).wantStatus(t, http.StatusOK)

	// A deletion outside the API shows as 404.
	if !e.srv.DeleteSubscriptionDirect(testAccount, newID) {
		t.Errorf("DeleteSubscriptionDirect reported false")
	}
	if e.srv.DeleteSubscriptionDirect(testAccount, newID) || e.srv.DeleteSubscriptionDirect("acc-none", newID) {
		t.Errorf("DeleteSubscriptionDirect of a missing id reported true")
	}
	e.do(http.MethodGet, subsPath(testAccount)+"/"+newID, token, nil).wantStatus(t, http.StatusNotFound)
	if n := len(e.srv.Subscriptions(testAccount)); n != 1 {
		t.Errorf("%d left, want 1", n)
	}
}

func TestResponseTransform(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	e.srv.SetResponseTransform(func(s *mockserver.Subscription) { s.LogLevel = strings.ToLower(s.LogLevel) })
	created := e.createN(token, testAccount, 1)
	if created[0].LogLevel != "error" {
		t.Errorf("create response not transformed: %+v", created[0])
	}
	if s := e.srv.Subscriptions(testAccount)[0]; s.LogLevel != "ERROR" {
		t.Errorf("transform changed the store: %+v", s)
	}
	w, _ := e.listPage(token, testAccount, "")
	if w.Subscriptions[0].LogLevel != "error" {
		t.Errorf("list not transformed")
	}
	path := subsPath(testAccount) + "/" + created[0].SubscriptionID
	var one wireSubscription
	decodeStrict(t, e.do(http.MethodGet, path, token, nil).body, &one)
	if one.LogLevel != "error" {
		t.Errorf("get not transformed")
	}
	decodeStrict(t, e.do(http.MethodPut, path, token, map[string]any{"subscription": validItem()}).body, &one)
	if one.LogLevel != "error" {
		t.Errorf("update not transformed")
	}
	e.srv.SetResponseTransform(nil)
	decodeStrict(t, e.do(http.MethodGet, path, token, nil).body, &one)
	if one.LogLevel != "ERROR" {
		t.Errorf("transform not cleared")
	}
}
