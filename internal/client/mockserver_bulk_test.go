package client_test

import (
	"net/http"
	"testing"

	"github.com/google/uuid"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// bulkOperationsOnSubscriptionsForAccount, delete: 207 with one status per item, in order, the ids echoed.
func TestMockBulkDelete(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t)
	subs := e.seed(itAccount, 3)
	missing := uuid.NewString()

	got, err := c.BulkDeleteSubscriptions(ctx(t), itAccount, []string{
		subs[0].SubscriptionID, missing, subs[2].SubscriptionID, subs[0].SubscriptionID, "not-a-uuid",
	})
	if err != nil {
		t.Fatalf("BulkDeleteSubscriptions: %v", err)
	}
	want := []client.OperationStatus{
		{SubscriptionID: subs[0].SubscriptionID, HTTPEquivalentCode: 204, Message: "Deleted successfully"},
		{SubscriptionID: missing, HTTPEquivalentCode: 404, Message: "Subscription not found"},
		{SubscriptionID: subs[2].SubscriptionID, HTTPEquivalentCode: 204, Message: "Deleted successfully"},
		{SubscriptionID: subs[0].SubscriptionID, HTTPEquivalentCode: 404, Message: "Subscription not found"},
		{SubscriptionID: "not-a-uuid", HTTPEquivalentCode: 404, Message: "Subscription not found"},
	}
	wantStatuses(t, got, want)
	left := e.mock.Subscriptions(itAccount)
	if len(left) != 1 || left[0].SubscriptionID != subs[1].SubscriptionID {
		t.Errorf("mock holds %v, want only %s", left, subs[1].SubscriptionID)
	}
	wantLastStatus(t, e, http.MethodPatch, http.StatusMultiStatus)
	e.wantCount(http.MethodPatch, mockserver.RouteSubscriptions, 1)
}

// bulkOperationsOnSubscriptionsForAccount, update: 200, per-item 400 "Unable to update createdDate" and validation, 404.
// The client sends whole subscriptions as read from the service; unchanged server-managed
// fields must be accepted.
func TestMockBulkUpdate(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t)
	e.seed(itAccount, 4)
	subs, err := c.ListSubscriptions(ctx(t), itAccount, client.ListOptions{})
	if err != nil {
		t.Fatalf("ListSubscriptions: %v", err)
	}
	before := e.mock.Subscriptions(itAccount)

	changed := subs[0]
	changed.LogLevel = "ERROR"
	changed.Enabled = !changed.Enabled
	changed.EventStreamsTopic = "new-topic"
	changed.DestinationType = "EMAIL"
	changed.DestinationEmail = "ops@example.com"

	createdDate := subs[1]
	createdDate.CreatedDate++
	createdDate.LogLevel = "ERROR" // not applied: the item is rejected as a whole

	invalid := subs[2]
	invalid.LogLevel = "LOUD"

	unchanged := subs[3] // sent as read: 200, nothing but the update stamp changes

	missing := subs[0]
	missing.ID = uuid.NewString()

	noID := subs[0]
	noID.ID = ""

	got, err := c.BulkUpdateSubscriptions(ctx(t), itAccount, []client.Subscription{changed, createdDate, invalid, unchanged, missing, noID})
	if err != nil {
		t.Fatalf("BulkUpdateSubscriptions: %v", err)
	}
	wantStatuses(t, got, []client.OperationStatus{
		{SubscriptionID: changed.ID, HTTPEquivalentCode: 200, Message: "Updated successfully"},
		{SubscriptionID: createdDate.ID, HTTPEquivalentCode: 400, Message: "Unable to update createdDate"},
		{SubscriptionID: invalid.ID, HTTPEquivalentCode: 400, Message: "Must provide a valid logLevel"},
		{SubscriptionID: unchanged.ID, HTTPEquivalentCode: 200, Message: "Updated successfully"},
		{SubscriptionID: missing.ID, HTTPEquivalentCode: 404, Message: "Subscription not found"},
		{SubscriptionID: "", HTTPEquivalentCode: 400, Message: "subscriptionId is required"},
	})

	after, err := c.GetSubscription(ctx(t), itAccount, changed.ID)
	if err != nil {
		t.Fatalf("GetSubscription: %v", err)
	}
	want := changed
	want.LastUpdatedDate, want.LastUpdatedUserID = after.LastUpdatedDate, itUser
	if *after != want {
		t.Errorf("after bulk update:\n got  %+v\n want %+v", *after, want)
	}
	for _, i := range []int{1, 2} {
		now, _ := e.mock.Subscription(itAccount, before[i].SubscriptionID)
		if now != before[i] {
			t.Errorf("rejected item %d changed:\n before %+v\n after  %+v", i, before[i], now)
		}
	}
	wantLastStatus(t, e, http.MethodPatch, http.StatusMultiStatus)
	e.wantCount(http.MethodPatch, mockserver.RouteSubscriptions, 1)
}

func wantStatuses(t *testing.T, got, want []client.OperationStatus) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d statuses %+v, want %d %+v", len(got), got, len(want), want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("status %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// Every bulk rule of the spec reaches the client as a 400 *APIError with the spec's message.
// Requests the typed client cannot build are sent through it with their body rewritten.
func TestMockBulkRules(t *testing.T) {
	t.Parallel()
	id := uuid.NewString()
	tests := []struct {
		name string
		body string // "" = the typed client's own body
		call func(*client.Client) error
		msg  string
	}{
		{name: "operation missing", body: `{"subscriptionIds":["` + id + `"]}`, msg: "Operation is required"},
		{name: "operation blank", body: `{"operation":"","subscriptionIds":["` + id + `"]}`, msg: "Operation is required"},
		{name: "operation invalid", body: `{"operation":"archive","subscriptionIds":["` + id + `"]}`, msg: "Invalid operation. Supported operations are: delete, update"},
		{name: "operation in another case", body: `{"operation":"DELETE","subscriptionIds":["` + id + `"]}`, msg: "Invalid operation. Supported operations are: delete, update"},
		{name: "both lists", body: `{"operation":"delete","subscriptionIds":["` + id + `"],"subscriptions":[{"subscriptionId":"` + id + `"}]}`, msg: "Cannot provide both subscriptionIds and subscriptions in the same request"},
		{name: "delete without subscriptionIds", body: `{"operation":"delete"}`, msg: "subscriptionIds is required for delete operation"},
		{name: "update without subscriptions", body: `{"operation":"update"}`, msg: "subscriptions is required for update operation"},
		{name: "delete with an empty list (raw)", body: `{"operation":"delete","subscriptionIds":[]}`, msg: "Subscription list cannot be empty"},
		{name: "update with an empty list (raw)", body: `{"operation":"update","subscriptions":[]}`, msg: "Subscription list cannot be empty"},
		{name: "bulk delete of no ids", call: func(c *client.Client) error {
			_, err := c.BulkDeleteSubscriptions(t.Context(), itAccount, nil)
			return err
		}, msg: "Subscription list cannot be empty"},
		{name: "bulk delete of an empty list", call: func(c *client.Client) error {
			_, err := c.BulkDeleteSubscriptions(t.Context(), itAccount, []string{})
			return err
		}, msg: "Subscription list cannot be empty"},
		{name: "bulk update of no subscriptions", call: func(c *client.Client) error {
			_, err := c.BulkUpdateSubscriptions(t.Context(), itAccount, nil)
			return err
		}, msg: "Subscription list cannot be empty"},
		{name: "no body", body: " ", msg: "Required request body is missing"},
		{name: "malformed body", body: `{"operation":`, msg: "Malformed JSON request body"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newMockEnv(t, mockserver.Config{})
			subs := e.seed(itAccount, 1)
			var c *client.Client
			if tt.body != "" {
				c = e.client(rewriteBodies(http.MethodPatch, tt.body))
			} else {
				c = e.client()
			}
			call := tt.call
			if call == nil {
				call = func(c *client.Client) error {
					_, err := c.BulkDeleteSubscriptions(ctx(t), itAccount, []string{subs[0].SubscriptionID})
					return err
				}
			}
			apiErr := wantAPIError(t, call(c), http.StatusBadRequest, tt.msg)
			wantErrorBody(t, apiErr, "Bad Request", subsPath(itAccount))
			if n := len(e.mock.Subscriptions(itAccount)); n != 1 {
				t.Errorf("mock holds %d subscriptions after a rejected bulk request, want 1", n)
			}
			e.wantCount(http.MethodPatch, mockserver.RouteSubscriptions, 1)
		})
	}
}
