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
