package client_test

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// toggled is the update that flips s's enabled flag and keeps its other settings.
func toggled(s mockserver.Subscription) client.SubscriptionUpdate {
	enabled := !s.Enabled
	return client.SubscriptionUpdate{ID: s.SubscriptionID, Input: client.SubscriptionInput{
		EventName: s.EventName, DestinationType: s.DestinationType, LogLevel: s.LogLevel,
		EventStreamsEnvironment: s.EventStreamsEnvironment, EventStreamsEnvironmentName: s.EventStreamsEnvironmentName,
		EventStreamsTopic: s.EventStreamsTopic, Enabled: &enabled,
	}}
}

// wantResults compares each result's ID, and its error's status and message ("" = no error).
func wantResults(t *testing.T, got []client.BulkUpdateResult, wantIDs []string, wantErrs []string) {
	t.Helper()
	if len(got) != len(wantIDs) {
		t.Fatalf("got %d results %+v, want %d", len(got), got, len(wantIDs))
	}
	for i := range got {
		if got[i].ID != wantIDs[i] {
			t.Errorf("result %d: ID %q, want %q", i, got[i].ID, wantIDs[i])
		}
		switch {
		case wantErrs[i] == "" && got[i].Err != nil:
			t.Errorf("result %d (%s): unexpected error %v", i, got[i].ID, got[i].Err)
		case wantErrs[i] != "" && (got[i].Err == nil || !strings.Contains(got[i].Err.Error(), wantErrs[i])):
			t.Errorf("result %d (%s): error %v, want one containing %q", i, got[i].ID, got[i].Err, wantErrs[i])
		}
	}
}

// wantEnabled fails unless the mock holds each subscription with the given enabled flag.
func (e *mockEnv) wantEnabled(subs []mockserver.Subscription, want []bool) {
	e.t.Helper()
	for i, s := range subs {
		got, ok := e.mock.Subscription(itAccount, s.SubscriptionID)
		if !ok || got.Enabled != want[i] {
			e.t.Errorf("subscription %d: held %v, enabled = %v, want %v", i, ok, got.Enabled, want[i])
		}
	}
}

// One bulk update per call: the changed items are held by the service, an item answered 404 or
// 400 fails with the service's message, and the others are kept.
func TestMockUpdateSubscriptionsBulk(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t)
	subs := e.seed(itAccount, 4)
	missing := uuid.NewString()
	invalid := toggled(subs[2])
	invalid.Input.LogLevel = "LOUD"
	gone := toggled(subs[0])
	gone.ID = missing

	got := c.UpdateSubscriptionsBulk(ctx(t), itAccount, []client.SubscriptionUpdate{
		toggled(subs[0]), gone, invalid, toggled(subs[3]),
	})
	wantResults(t, got, []string{subs[0].SubscriptionID, missing, subs[2].SubscriptionID, subs[3].SubscriptionID},
		[]string{"", "HTTP 404 Not Found: Subscription not found", "HTTP 400 Bad Request: Must provide a valid logLevel", ""})
	if !errors.Is(got[1].Err, httpapi.ErrNotFound) {
		t.Errorf("the 404 item's error %v does not match ErrNotFound", got[1].Err)
	}
	var itemErr *client.ItemError
	if !errors.As(got[2].Err, &itemErr) || itemErr.HTTPEquivalentCode != http.StatusBadRequest || errors.Is(itemErr, httpapi.ErrNotFound) {
		t.Errorf("the 400 item's error = %#v, want an *ItemError 400", got[2].Err)
	}
	e.wantEnabled(subs, []bool{!subs[0].Enabled, subs[1].Enabled, subs[2].Enabled, !subs[3].Enabled})
	if now, _ := e.mock.Subscription(itAccount, subs[2].SubscriptionID); now != subs[2] {
		t.Errorf("the refused item changed: %+v, was %+v", now, subs[2])
	}
	e.wantCount(http.MethodPatch, mockserver.RouteSubscriptions, 1)
	e.wantCount(http.MethodPut, mockserver.RouteSubscription, 0)

	if got := c.UpdateSubscriptionsBulk(ctx(t), itAccount, nil); len(got) != 0 {
		t.Errorf("no updates gave %v", got)
	}
	e.wantCount(http.MethodPatch, mockserver.RouteSubscriptions, 1)
}

// One request per max_batch_size updates.
func TestMockUpdateSubscriptionsBulkChunks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		max, n, requests int
	}{
		{max: 2, n: 5, requests: 3},
		{max: 5, n: 5, requests: 1},
		{max: 1, n: 3, requests: 3},
		{max: 100, n: 7, requests: 1},
	}
	for _, tt := range tests {
		e, c := newMockClient(t, func(cfg *client.Config) { cfg.MaxBatchSize = tt.max })
		subs := e.seed(itAccount, tt.n)
		var updates []client.SubscriptionUpdate
		want := make([]bool, tt.n)
		for i, s := range subs {
			updates = append(updates, toggled(s))
			want[i] = !s.Enabled
		}
		for i, r := range c.UpdateSubscriptionsBulk(ctx(t), "", updates) {
			if r.Err != nil || r.ID != subs[i].SubscriptionID {
				t.Errorf("max %d, n %d: result %d = %+v", tt.max, tt.n, i, r)
			}
		}
		e.wantEnabled(subs, want)
		e.wantCount(http.MethodPatch, mockserver.RouteSubscriptions, tt.requests)
	}
}

// A service that refuses the bulk update as a whole gets single PUTs, for this request and
// every later one of the client, logged once at INFO; per-item failures keep their status.
func TestMockUpdateSubscriptionsBulkFallback(t *testing.T) {
	t.Parallel()
	e := newMockEnv(t, mockserver.Config{})
	e.mock.SetBulkUpdateRefused(true)
	subs := e.seed(itAccount, 3)
	c := e.client()
	var buf bytes.Buffer
	lctx := tflogtest.RootLogger(ctx(t), &buf)
	missing := toggled(subs[1])
	missing.ID = uuid.NewString()

	got := c.UpdateSubscriptionsBulk(lctx, itAccount, []client.SubscriptionUpdate{toggled(subs[0]), missing, toggled(subs[2])})
	wantResults(t, got, []string{subs[0].SubscriptionID, missing.ID, subs[2].SubscriptionID},
		[]string{"", "404", ""})
	if !errors.Is(got[1].Err, httpapi.ErrNotFound) {
		t.Errorf("the missing item's error %v does not match ErrNotFound", got[1].Err)
	}
	e.wantEnabled(subs, []bool{!subs[0].Enabled, subs[1].Enabled, !subs[2].Enabled})
	e.wantCount(http.MethodPatch, mockserver.RouteSubscriptions, 1)
	e.wantCount(http.MethodPut, mockserver.RouteSubscription, 3)

	// The next call goes straight to PUTs.
	got = c.UpdateSubscriptionsBulk(lctx, itAccount, []client.SubscriptionUpdate{toggled(subs[1])})
	wantResults(t, got, []string{subs[1].SubscriptionID}, []string{""})
	e.wantEnabled(subs[1:2], []bool{!subs[1].Enabled})
	e.wantCount(http.MethodPatch, mockserver.RouteSubscriptions, 1)
	e.wantCount(http.MethodPut, mockserver.RouteSubscription, 4)

	entries, err := tflogtest.MultilineJSONDecode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	infos := 0
	for _, en := range entries {
		if msg, _ := en["@message"].(string); strings.Contains(msg, "refused a bulk update as a whole") {
			infos++
			if en["@level"] != "info" {
				t.Errorf("fallback logged at %v, want info", en["@level"])
			}
			if !strings.Contains(fmt.Sprint(en["service_messages"]), "unsupported item shape") {
				t.Errorf("fallback entry %v does not carry the service's message", en)
			}
		}
	}
	if infos != 1 {
		t.Errorf("the fallback was logged %d times, want once", infos)
	}

	// Another client (another provider instance) tries the bulk update again.
	e.mock.SetBulkUpdateRefused(false)
	other := e.client()
	got = other.UpdateSubscriptionsBulk(ctx(t), itAccount, []client.SubscriptionUpdate{toggled(subs[0])})
	wantResults(t, got, []string{subs[0].SubscriptionID}, []string{""})
	e.wantCount(http.MethodPatch, mockserver.RouteSubscriptions, 2)
	e.wantCount(http.MethodPut, mockserver.RouteSubscription, 4)
}

// Items a 207 holds no status for are read: the service's settings decide.
func TestMockUpdateSubscriptionsBulkSettle(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		afterWork bool
		wantErr   string
		enabled   bool // whether the dropped item was flipped
	}{
		{name: "done, status lost", afterWork: true, enabled: true},
		{name: "neither done nor answered", afterWork: false, wantErr: "not updated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newMockEnv(t, mockserver.Config{})
			subs := e.seed(itAccount, 2)
			e.mock.InjectFault(mockserver.Fault{Method: http.MethodPatch, Route: mockserver.RouteSubscriptions,
				DropStatuses: 1, AfterWork: tt.afterWork, Count: 1})
			c := e.client()
			got := c.UpdateSubscriptionsBulk(ctx(t), itAccount, []client.SubscriptionUpdate{toggled(subs[0]), toggled(subs[1])})
			wantResults(t, got, []string{subs[0].SubscriptionID, subs[1].SubscriptionID}, []string{"", tt.wantErr})
			e.wantEnabled(subs, []bool{!subs[0].Enabled, subs[1].Enabled != tt.enabled})
			e.wantCount(http.MethodGet, mockserver.RouteSubscription, 1)
			e.wantCount(http.MethodPatch, mockserver.RouteSubscriptions, 1)
		})
	}
}

// A bulk update that fails as a whole with a 5xx is repeated by the retries where they repeat
// a safe request (502, 504; never 500: updates are idempotent, but a 500 is no passing
// condition); when it keeps failing, the items are read back (a GET each for two), and the
// service holding the old settings makes each item not updated, with the service's error.
func TestMockUpdateSubscriptionsBulkServerError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status, requests int
	}{
		{status: http.StatusInternalServerError, requests: 1},
		{status: http.StatusBadGateway, requests: 4}, // the first attempt and MaxRetries (3)
	}
	for _, tt := range tests {
		t.Run(http.StatusText(tt.status), func(t *testing.T) {
			t.Parallel()
			e := newMockEnv(t, mockserver.Config{})
			subs := e.seed(itAccount, 2)
			e.mock.InjectFault(mockserver.Fault{Method: http.MethodPatch, Route: mockserver.RouteSubscriptions, Status: tt.status})
			c := e.client()
			updates := []client.SubscriptionUpdate{toggled(subs[0]), toggled(subs[1])}
			got := c.UpdateSubscriptionsBulk(ctx(t), itAccount, updates)
			code := fmt.Sprintf("HTTP %d", tt.status)
			wantResults(t, got, []string{subs[0].SubscriptionID, subs[1].SubscriptionID}, []string{code, code})
			for _, r := range got {
				if !errors.Is(r.Err, client.ErrNotUpdated) || errors.Is(r.Err, client.ErrOutcomeUnknown) || !r.ReadBack {
					t.Errorf("%s: error %v (read back %v), want one matching ErrNotUpdated only, read back", r.ID, r.Err, r.ReadBack)
				}
			}
			e.wantCount(http.MethodPatch, mockserver.RouteSubscriptions, tt.requests)
			e.wantCount(http.MethodPut, mockserver.RouteSubscription, 0)
			e.wantCount(http.MethodGet, mockserver.RouteSubscription, 2)

			// Once the fault is gone, the same call succeeds: nothing else is needed.
			e.mock.ClearFaults()
			got = c.UpdateSubscriptionsBulk(ctx(t), itAccount, updates)
			wantResults(t, got, []string{subs[0].SubscriptionID, subs[1].SubscriptionID}, []string{"", ""})
			e.wantEnabled(subs, []bool{!subs[0].Enabled, !subs[1].Enabled})
		})
	}
}
