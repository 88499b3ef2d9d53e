package client_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// A mock tampered to serve a subscription whose saved text holds terminal escapes: every
// operation that returns subscriptions refuses the answer, naming the subscription and the
// field, and nothing of the forged text reaches the error.
func TestMockForgedText_refused(t *testing.T) {
	const forged = "alerts\x1b]8;;https://evil.example\a\r\n  + forged\u202e"
	e, c := newMockClient(t, func(cfg *client.Config) { cfg.ListCacheTTL = -1 })
	sub := e.seed(itAccount, 1)[0]
	ctx := context.Background()
	calls := []struct {
		name string
		call func() error
	}{
		{"list", func() error { _, err := c.ListSubscriptions(ctx, itAccount, client.ListOptions{}); return err }},
		{"read", func() error { _, err := c.GetSubscription(ctx, itAccount, sub.SubscriptionID); return err }},
		{"create", func() error {
			_, err := c.CreateSubscriptions(ctx, itAccount, []client.SubscriptionInput{{
				EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS", LogLevel: "ERROR",
				EventStreamsEnvironment: "env-1", EventStreamsTopic: "alerts",
			}})
			return err
		}},
	}
	fields := []string{"eventStreamsTopic", "createdBy", "lastUpdatedUserId", "eventStreamsEnvironmentName"}
	for _, field := range fields {
		for _, tc := range calls {
			t.Run(field+"/"+tc.name, func(t *testing.T) {
				remove := e.mock.InjectFault(mockserver.Fault{ForgeMember: field, ForgeValue: forged})
				defer remove()
				err := tc.call()
				if !errors.Is(err, httpapi.ErrMalformedResponse) {
					t.Fatalf("error %v, want the answer refused as malformed", err)
				}
				msg := err.Error()
				for _, want := range []string{"whose " + field + " has", "U+001B"} {
					if !strings.Contains(msg, want) {
						t.Errorf("error %q does not say %q", msg, want)
					}
				}
				if tc.name != "create" && !strings.Contains(msg, sub.SubscriptionID) {
					t.Errorf("error %q does not name subscription %s", msg, sub.SubscriptionID)
				}
				if strings.ContainsAny(msg, "\x1b\r\n\u202e") || strings.Contains(msg, "evil.example") {
					t.Errorf("error %q carries the forged text", msg)
				}
			})
		}
	}
	// The control: without the fault the same calls succeed.
	if _, err := c.ListSubscriptions(ctx, itAccount, client.ListOptions{}); err != nil {
		t.Fatalf("list without the fault: %v", err)
	}
	// A refused answer is not retried: one read per field.
	e.wantCount(http.MethodGet, mockserver.RouteSubscription, len(fields))
}
