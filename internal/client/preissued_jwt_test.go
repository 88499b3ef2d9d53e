package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// TestPreIssuedJWT_otherAccountSendsNothing: a pre-issued JWT is issued for the configured
// account; every operation for another account fails with httpapi.ErrPreIssuedJWTAccount before
// anything is sent, while the configured account's calls carry it.
func TestPreIssuedJWT_otherAccountSendsNothing(t *testing.T) {
	t.Parallel()
	var requests, otherAccount atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.URL.Path != "/rest/v1/accounts/acc-own/subscriptions" {
			otherAccount.Add(1)
		}
		writeJSON(w, http.StatusOK, `{"data":{"subscriptions":[]}}`)
	}))
	t.Cleanup(srv.Close)
	c, err := New(Config{Config: httpapi.Config{BaseURL: srv.URL, AccountID: "acc-own", JWT: "pre.issued.jwt", MaxRetries: 0}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	const other = "acc-other"
	in := SubscriptionInput{EventName: "ATOM.STATUS", DestinationType: "EMAIL", LogLevel: "INFO"}
	calls := map[string]func() error{
		"Token":                     func() error { _, err := c.Token(ctx, other); return err },
		"TokenWithExpiry":           func() error { _, _, err := c.TokenWithExpiry(ctx, other, 0); return err },
		"ListSubscriptions":         func() error { _, err := c.ListSubscriptions(ctx, other, ListOptions{}); return err },
		"ListSubscriptionsPage":     func() error { _, err := c.ListSubscriptionsPage(ctx, other, 0, ListOptions{}); return err },
		"ReadSubscription":          func() error { _, err := c.ReadSubscription(ctx, other, "id-1"); return err },
		"GetSubscription":           func() error { _, err := c.GetSubscription(ctx, other, "id-1"); return err },
		"CreateSubscriptions":       func() error { _, err := c.CreateSubscriptions(ctx, other, []SubscriptionInput{in}); return err },
		"CreateSubscriptionBatched": func() error { _, err := c.CreateSubscriptionBatched(ctx, other, in); return err },
		"ReplaceSubscriptions":      func() error { _, err := c.ReplaceSubscriptions(ctx, other, []SubscriptionInput{in}); return err },
		"UpdateSubscription":        func() error { _, err := c.UpdateSubscription(ctx, other, "id-1", in); return err },
		"BulkUpdateSubscriptions": func() error {
			_, err := c.BulkUpdateSubscriptions(ctx, other, []Subscription{{ID: "id-1"}})
			return err
		},
		"DeleteSubscription":        func() error { return c.DeleteSubscription(ctx, other, "id-1") },
		"DeleteSubscriptionBatched": func() error { return c.DeleteSubscriptionBatched(ctx, other, "id-1") },
		"BulkDeleteSubscriptions":   func() error { _, err := c.BulkDeleteSubscriptions(ctx, other, []string{"id-1"}); return err },
		"DeleteAllSubscriptions":    func() error { return c.DeleteAllSubscriptions(ctx, other) },
		"CreateEventStreamTopic": func() error {
			_, err := c.CreateEventStreamTopic(ctx, other, TopicInput{EnvironmentID: "e", SubscriptionName: "s", TopicName: "t"})
			return err
		},
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, httpapi.ErrPreIssuedJWTAccount) {
			t.Errorf("%s for another account: error %v, want ErrPreIssuedJWTAccount", name, err)
		}
	}
	if n := requests.Load(); n != 0 {
		t.Fatalf("%d requests were sent for another account with the pre-issued JWT", n)
	}

	// The configured account, named or by default, is served with the token.
	for _, account := range []string{"acc-own", ""} {
		if _, err := c.ListSubscriptions(ctx, account, ListOptions{}); err != nil {
			t.Errorf("ListSubscriptions(%q): %v", account, err)
		}
	}
	if requests.Load() != 2 || otherAccount.Load() != 0 {
		t.Errorf("%d requests, %d for another path; want 2 for the configured account", requests.Load(), otherAccount.Load())
	}
}
