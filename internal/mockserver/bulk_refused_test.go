package mockserver_test

import (
	"net/http"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// SetBulkUpdateRefused refuses bulk updates as a whole and changes nothing; bulk deletes and
// the refusal's end work as usual.
func TestBulkUpdateRefused(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	subs := e.createN(token, testAccount, 2)
	path := subsPath(testAccount)
	update := map[string]any{"operation": "update", "subscriptions": []any{
		map[string]any{"subscriptionId": subs[0].SubscriptionID, "logLevel": "WARNING"}}}

	e.srv.SetBulkUpdateRefused(true)
	e.do(http.MethodPatch, path, token, update).wantError(t, http.StatusBadRequest, "Bad Request", path,
		"Invalid subscriptions: unsupported item shape")
	if got, _ := e.srv.Subscription(testAccount, subs[0].SubscriptionID); got.LogLevel != subs[0].LogLevel {
		t.Fatalf("a refused bulk update changed the subscription: %+v", got)
	}
	e.do(http.MethodPatch, path, token, map[string]any{"operation": "delete", "subscriptionIds": []string{subs[1].SubscriptionID}}).
		wantStatus(t, http.StatusMultiStatus)
	if _, ok := e.srv.Subscription(testAccount, subs[1].SubscriptionID); ok {
		t.Errorf("the bulk delete was refused too")
	}

	e.srv.SetBulkUpdateRefused(false)
	e.do(http.MethodPatch, path, token, update).wantStatus(t, http.StatusMultiStatus)
	if got, _ := e.srv.Subscription(testAccount, subs[0].SubscriptionID); got.LogLevel != "WARNING" {
		t.Errorf("after SetBulkUpdateRefused(false), log level = %q, want WARNING", got.LogLevel)
	}
}

// RefuseBulkUpdateItems answers the named items of a bulk update 400 and leaves their
// subscriptions unchanged; the other items are updated, and no ids ends it.
func TestRefuseBulkUpdateItems(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	subs := e.createN(token, testAccount, 2)
	update := map[string]any{"operation": "update", "subscriptions": []any{
		map[string]any{"subscriptionId": subs[0].SubscriptionID, "logLevel": "WARNING"},
		map[string]any{"subscriptionId": subs[1].SubscriptionID, "logLevel": "WARNING"}}}

	e.srv.RefuseBulkUpdateItems(subs[0].SubscriptionID)
	got := e.bulk(token, testAccount, update)
	if len(got) != 2 || got[0].HTTPEquivalentCode != http.StatusBadRequest ||
		got[0].Message != "Unable to update subscription: refused by the service" || got[1].HTTPEquivalentCode != http.StatusOK {
		t.Fatalf("statuses %+v, want 400 for the refused item and 200 for the other", got)
	}
	if s, _ := e.srv.Subscription(testAccount, subs[0].SubscriptionID); s.LogLevel != subs[0].LogLevel {
		t.Errorf("the refused item changed its subscription: %+v", s)
	}
	if s, _ := e.srv.Subscription(testAccount, subs[1].SubscriptionID); s.LogLevel != "WARNING" {
		t.Errorf("the other item was not applied: %+v", s)
	}

	e.srv.RefuseBulkUpdateItems()
	if got := e.bulk(token, testAccount, update); got[0].HTTPEquivalentCode != http.StatusOK {
		t.Errorf("after RefuseBulkUpdateItems(), the item is answered %+v", got[0])
	}
}
