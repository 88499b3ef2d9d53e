package mockserver_test

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

func TestBulkRequestRules(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	id := e.createN(token, testAccount, 1)[0].SubscriptionID
	ids := []string{id}
	subs := []any{map[string]any{"subscriptionId": id, "logLevel": "INFO"}}
	const (
		required = "Operation is required"
		invalid  = "Invalid operation. Supported operations are: delete, update"
		empty    = "Subscription list cannot be empty"
		both     = "Cannot provide both subscriptionIds and subscriptions in the same request"
		needIDs  = "subscriptionIds is required for delete operation"
		needSubs = "subscriptions is required for update operation"
	)
	tests := []struct {
		name string
		body any
		want string
	}{
		{"no body", nil, msgMissing},
		{"invalid JSON", "{", "Malformed JSON request body"},
		{"operation missing", map[string]any{"subscriptionIds": ids}, required},
		{"operation null", map[string]any{"operation": nil, "subscriptionIds": ids}, required},
		{"operation blank", map[string]any{"operation": "", "subscriptionIds": ids}, required},
		{"operation unknown", map[string]any{"operation": "remove", "subscriptionIds": ids}, invalid},
		{"operation upper-case", map[string]any{"operation": "DELETE", "subscriptionIds": ids}, invalid},
		{"operation not a string", map[string]any{"operation": 1, "subscriptionIds": ids}, invalid},
		{"operation missing wins over empty list", map[string]any{"subscriptionIds": []string{}}, required},
		{"both lists, delete", map[string]any{"operation": "delete", "subscriptionIds": ids, "subscriptions": subs}, both},
		{"both lists, update", map[string]any{"operation": "update", "subscriptionIds": ids, "subscriptions": subs}, both},
		{"both lists empty", map[string]any{"operation": "delete", "subscriptionIds": []string{}, "subscriptions": []any{}}, both},
		{"delete without subscriptionIds", map[string]any{"operation": "delete"}, needIDs},
		{"delete with subscriptions only", map[string]any{"operation": "delete", "subscriptions": subs}, needIDs},
		{"delete with null subscriptionIds", map[string]any{"operation": "delete", "subscriptionIds": nil}, needIDs},
		{"update without subscriptions", map[string]any{"operation": "update"}, needSubs},
		{"update with subscriptionIds only", map[string]any{"operation": "update", "subscriptionIds": ids}, needSubs},
		{"delete empty list", map[string]any{"operation": "delete", "subscriptionIds": []string{}}, empty},
		{"update empty list", map[string]any{"operation": "update", "subscriptions": []any{}}, empty},
		{"subscriptionIds not an array", map[string]any{"operation": "delete", "subscriptionIds": id}, "subscriptionIds must be an array of uuid strings"},
		{"subscriptionIds not strings", map[string]any{"operation": "delete", "subscriptionIds": []any{1}}, "subscriptionIds must be an array of uuid strings"},
		{"subscriptions not an array", map[string]any{"operation": "update", "subscriptions": "x"}, "subscriptions must be an array"},
		{"unknown member", map[string]any{"operation": "delete", "subscriptionIds": ids, "force": true}, "Unknown field: force"},
	}
	path := subsPath(testAccount)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := e.with(t)
			e.do(http.MethodPatch, path, token, tt.body).wantError(t, http.StatusBadRequest, "Bad Request", path, tt.want)
			if _, ok := e.srv.Subscription(testAccount, id); !ok {
				t.Fatalf("a rejected bulk request deleted the subscription")
			}
		})
	}
}

func (e *testEnv) bulk(token, account string, body any) []wireOperationStatus {
	e.t.Helper()
	r := e.do(http.MethodPatch, subsPath(account), token, body)
	r.wantStatus(e.t, http.StatusMultiStatus)
	var w wirePatchResponse
	decodeStrict(e.t, r.body, &w)
	return w.OperationStatuses
}

func TestBulkDelete(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	created := e.createN(token, testAccount, 3)
	missing := "3f1c2a9e-8b7d-4c5e-9f01-23456789abcd"
	a, b := created[0].SubscriptionID, created[1].SubscriptionID
	got := e.bulk(token, testAccount, map[string]any{
		"operation": "delete", "subscriptionIds": []string{a, missing, "not-a-uuid", b, a},
		"subscriptions": nil, // null counts as absent
	})
	want := []wireOperationStatus{
		{a, 204, "Deleted successfully"},
		{missing, 404, "Subscription not found"},
		{"not-a-uuid", 404, "Subscription not found"},
		{b, 204, "Deleted successfully"},
		{a, 404, "Subscription not found"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("statuses = %+v\nwant       %+v", got, want)
	}
	left := e.srv.Subscriptions(testAccount)
	if len(left) != 1 || left[0].SubscriptionID != created[2].SubscriptionID {
		t.Errorf("left = %+v", left)
	}
	// An account without subscriptions: every item is not found, still 207.
	other := e.jwt("acc-empty")
	got = e.bulk(other, "acc-empty", map[string]any{"operation": "delete", "subscriptionIds": []string{a}})
	if !reflect.DeepEqual(got, []wireOperationStatus{{a, 404, "Subscription not found"}}) {
		t.Errorf("empty account = %+v", got)
	}
}

func TestBulkUpdate(t *testing.T) {
	e := newEnv(t, mockserver.Config{Users: []mockserver.User{
		{Username: testUser, Password: testPassword},
		{Username: "bulk@example.com", Password: "pw"},
	}})
	token := e.jwt(testAccount)
	created := e.createN(token, testAccount, 6)
	ids := make([]string, len(created))
	for i, s := range created {
		ids[i] = s.SubscriptionID
	}
	missing := "3f1c2a9e-8b7d-4c5e-9f01-23456789abcd"
	roundTrip := map[string]any{ // a subscription as read, with one change
		"subscriptionId": ids[5], "eventName": created[5].EventName, "destinationType": created[5].DestinationType,
		"logLevel": created[5].LogLevel, "accountId": testAccount, "eventStreamsEnvironment": "env-2",
		"enabled": false, "createdDate": created[5].CreatedDate, "lastUpdatedDate": 1, "createdBy": testUser,
		"lastUpdatedUserId": "someone-else",
	}
	items := []any{
		map[string]any{"subscriptionId": ids[0], "logLevel": "INFO"},
		map[string]any{"subscriptionId": ids[1], "createdDate": created[1].CreatedDate + 1},
		map[string]any{"subscriptionId": ids[2], "createdDate": created[2].CreatedDate, "eventStreamsTopic": "t9"},
		map[string]any{"logLevel": "INFO"},
		map[string]any{"subscriptionId": missing, "logLevel": "INFO"},
		map[string]any{"subscriptionId": "nope", "logLevel": "INFO"},
		map[string]any{"subscriptionId": ids[3], "logLevel": "TRACE"},
		map[string]any{"subscriptionId": ids[3], "eventName": " "},
		map[string]any{"subscriptionId": ids[3], "destinationType": "FAX"},
		map[string]any{"subscriptionId": ids[4], "accountId": "acc-other"},
		map[string]any{"subscriptionId": ids[4], "createdBy": "mallory"},
		map[string]any{"subscriptionId": ids[4], "color": "red"},
		map[string]any{"subscriptionId": ids[4], "enabled": "no"},
		map[string]any{"subscriptionId": ids[4], "createdDate": 1, "logLevel": "BAD"},
		"not an object",
		roundTrip,
		map[string]any{"subscriptionId": ids[2], "destinationEmail": "ops@example.com"},
		map[string]any{"subscriptionId": ids[4], "eventStreamsTopic": false, "destinationEmail": 5, "eventName": 5, "enabled": nil},
	}
	editor := e.jwtAs(testAccount, "bulk@example.com", "pw", "")
	got := e.bulk(editor, testAccount, map[string]any{"operation": "update", "subscriptions": items, "subscriptionIds": nil})
	want := []wireOperationStatus{
		{ids[0], 200, "Updated successfully"},
		{ids[1], 400, "Unable to update createdDate"},
		{ids[2], 200, "Updated successfully"},
		{"", 400, "subscriptionId is required"},
		{missing, 404, "Subscription not found"},
		{"nope", 404, "Subscription not found"},
		{ids[3], 400, "Must provide a valid logLevel"},
		{ids[3], 400, "Must provide a valid eventName"},
		{ids[3], 400, "Must provide a valid destinationType"},
		{ids[4], 400, "Unable to update accountId"},
		{ids[4], 400, "Unable to update createdBy"},
		{ids[4], 400, "Unknown field: color"},
		{ids[4], 400, "Invalid value for enabled: must be a boolean"},
		{ids[4], 400, "Must provide a valid logLevel; Unable to update createdDate"},
		{"", 400, "Each subscription must be a JSON object"},
		{ids[5], 200, "Updated successfully"},
		{ids[2], 200, "Updated successfully"},
		{ids[4], 400, "Must provide a valid eventName; Invalid value for destinationEmail: must be a string; Invalid value for eventStreamsTopic: must be a string"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d statuses, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("item %d = %+v, want %+v", i, got[i], want[i])
		}
	}

	check := func(i int, fn func(s mockserver.Subscription) bool) {
		t.Helper()
		s, _ := e.srv.Subscription(testAccount, ids[i])
		if !fn(s) {
			t.Errorf("subscription %d = %+v", i, s)
		}
	}
	// Updated items are merged and stamped; rejected ones are untouched.
	check(0, func(s mockserver.Subscription) bool {
		return s.LogLevel == "INFO" && s.EventName == "ATOM.STATUS" && s.EventStreamsTopic == "alerts" &&
			s.LastUpdatedUserID == "bulk@example.com" && s.CreatedBy == testUser
	})
	check(1, func(s mockserver.Subscription) bool {
		return s.LastUpdatedUserID == testUser && s.CreatedDate == created[1].CreatedDate
	})
	check(2, func(s mockserver.Subscription) bool {
		return s.EventStreamsTopic == "t9" && s.DestinationEmail == "ops@example.com" && s.LogLevel == created[2].LogLevel
	})
	check(3, func(s mockserver.Subscription) bool { return s.LogLevel == "ERROR" && s.LastUpdatedUserID == testUser })
	check(4, func(s mockserver.Subscription) bool {
		return s.AccountID == testAccount && s.LastUpdatedUserID == testUser
	})
	check(5, func(s mockserver.Subscription) bool {
		return !s.Enabled && s.EventStreamsEnvironment == "env-2" && s.LastUpdatedUserID == "bulk@example.com" &&
			s.LastUpdatedDate >= s.CreatedDate
	})
}
