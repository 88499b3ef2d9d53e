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
	t.Parallel()
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

// TestMockForgedText_createOutcome: a create whose answer carries forged text did create the
// subscription. When the account's listing carries it too, the error is a
// *CreatedUnreadableError naming the id the mock holds (not an unknown outcome), and nothing is
// created again; when only the create's answer is forged, the listing that settles it finds
// the subscription and hands it out, as for a lost answer.
func TestMockForgedText_createOutcome(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		fault mockserver.Fault
		exact bool // the error names the id; else the subscription is handed out
	}{
		{"every answer forged", mockserver.Fault{ForgeMember: "createdBy", ForgeValue: "ops\x1b[2J"}, true},
		{"the create's answer forged", mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
			ForgeMember: "createdBy", ForgeValue: "ops\x1b[2J"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, c := newMockClient(t, func(cfg *client.Config) { cfg.ListCacheTTL = -1 })
			e.mock.InjectFault(tc.fault)
			subs, err := c.CreateSubscriptions(context.Background(), itAccount, []client.SubscriptionInput{{
				EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS", LogLevel: "ERROR",
				EventStreamsEnvironment: "env-1", EventStreamsTopic: "alerts",
			}})
			held := e.mock.Subscriptions(itAccount)
			if len(held) != 1 {
				t.Fatalf("the mock holds %d subscriptions, want 1", len(held))
			}
			e.wantCount(http.MethodPost, mockserver.RouteSubscriptions, 1)
			var unreadable *client.CreatedUnreadableError
			if !tc.exact {
				if err != nil || len(subs) != 1 || subs[0].ID != held[0].SubscriptionID {
					t.Fatalf("got %v, %v; want subscription %s handed out", subs, err, held[0].SubscriptionID)
				}
				return
			}
			if !errors.As(err, &unreadable) {
				t.Fatalf("error %T %v, want a *client.CreatedUnreadableError", err, err)
			}
			if len(unreadable.IDs) != 1 || unreadable.IDs[0] != held[0].SubscriptionID || unreadable.AccountID != itAccount {
				t.Errorf("the error names %v in %q, want [%s] in %q", unreadable.IDs, unreadable.AccountID, held[0].SubscriptionID, itAccount)
			}
			if unreadable.ReadErr == nil || !errors.Is(err, httpapi.ErrMalformedResponse) {
				t.Errorf("the error carries no failed listing (%v), or does not match ErrMalformedResponse", unreadable.ReadErr)
			}
			var unknown *client.UnknownOutcomeError
			if errors.As(err, &unknown) || strings.ContainsAny(err.Error(), "\x1b") {
				t.Errorf("the error is an unknown outcome, or carries the forged text: %v", err)
			}
		})
	}
}
