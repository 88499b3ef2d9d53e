package client_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// raised is the update of s to log level ERROR, enabled.
func raised(s mockserver.Subscription) client.SubscriptionInput {
	enabled := true
	return client.SubscriptionInput{EventName: s.EventName, DestinationType: s.DestinationType, LogLevel: "ERROR",
		EventStreamsEnvironment: s.EventStreamsEnvironment, EventStreamsEnvironmentName: s.EventStreamsEnvironmentName,
		EventStreamsTopic: s.EventStreamsTopic, Enabled: &enabled}
}

// disableAll is a choose of UpdateListed that disables every subscription it is given, and
// records the log levels it was given, by id.
func disableAll(levels map[string]string) func([]client.Subscription) []client.SubscriptionUpdate {
	return func(subs []client.Subscription) []client.SubscriptionUpdate {
		var out []client.SubscriptionUpdate
		for _, s := range subs {
			levels[s.ID] = s.LogLevel
			in := s.Settings()
			disabled := false
			in.Enabled = &disabled
			out = append(out, client.SubscriptionUpdate{ID: s.ID, Input: in})
		}
		return out
	}
}

// UpdateListed and another write of the same Client to the account: a write that lands
// between the listing and the bulk update is listed again and kept, with the bulk update's
// enabled flag; a write that starts once the updates are chosen waits until they are written
// and lands after them (or, cancelled while it waits, sends nothing).
func TestMockUpdateListed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		during      string // "listing": the write is made from a hook on the listing; "choose": started from choose
		cancel      bool   // cancel the write from a hook on the bulk update
		listings    int
		chosenLevel string // the log level choose was given for the subscription written
		wantLevel   string // the log level the service ends with
		wantEnabled bool
		writeErr    string // "" = the write succeeds
	}{
		{name: "a write between the listing and the bulk update", during: "listing",
			listings: 2, chosenLevel: "ERROR", wantLevel: "ERROR", wantEnabled: false},
		{name: "a write that starts while the updates are written", during: "choose",
			listings: 1, chosenLevel: "INFO", wantLevel: "ERROR", wantEnabled: true},
		{name: "a waiting write cancelled", during: "choose", cancel: true,
			listings: 1, chosenLevel: "INFO", wantLevel: "INFO", wantEnabled: false,
			writeErr: "waiting for this provider's update of the account's subscriptions to finish: context canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, c := newMockClient(t)
			subs := e.seed(itAccount, 3)
			target := subs[0] // INFO, enabled
			writeCtx, cancelWrite := context.WithCancel(ctx(t))
			defer cancelWrite()
			written := make(chan error, 1) // the write's outcome, from whichever goroutine made it
			write := func() {
				_, err := c.UpdateSubscription(writeCtx, itAccount, target.SubscriptionID, raised(target))
				written <- err
			}
			putsAtBulk := make(chan int, 1)
			e.mock.OnServed(http.MethodPatch, mockserver.RouteSubscriptions, func() {
				putsAtBulk <- e.mock.Count(http.MethodPut, mockserver.RouteSubscription)
				if tt.cancel {
					cancelWrite()
				}
			})
			if tt.during == "listing" {
				e.mock.OnServed(http.MethodGet, mockserver.RouteSubscriptions, write)
			}
			levels := map[string]string{}
			choose := disableAll(levels)
			listedBefore := e.mock.Count(http.MethodGet, mockserver.RouteSubscriptions)
			waiting := make(chan struct{}, 1)
			client.SetOnWriteWait(c, func(string) { waiting <- struct{}{} })
			landed := make(chan struct{}, 1)
			e.mock.OnServed(http.MethodPut, mockserver.RouteSubscription, func() { landed <- struct{}{} })
			results, err := c.UpdateListed(ctx(t), itAccount, func(listed []client.Subscription) []client.SubscriptionUpdate {
				if tt.during == "choose" {
					// The write must wait for the gate, not land while the updates are chosen.
					go write()
					select {
					case <-waiting:
					case <-landed:
						t.Error("a write that started while UpdateListed held the account landed before its bulk update")
					}
				}
				return choose(listed)
			})
			if tt.during == "listing" && len(waiting) > 0 {
				t.Error("the write between the listing and the bulk update waited for the gate")
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range results {
				if r.Err != nil {
					t.Errorf("bulk update of %s: %v", r.ID, r.Err)
				}
			}
			werr := <-written
			if puts := <-putsAtBulk; tt.during == "choose" && puts != 0 {
				t.Errorf("%d PUTs had landed when the bulk update was served, want 0: the write did not wait", puts)
			}
			switch {
			case tt.writeErr == "" && werr != nil:
				t.Errorf("the write: %v", werr)
			case tt.writeErr != "" && (werr == nil || !strings.Contains(werr.Error(), tt.writeErr)):
				t.Errorf("the write: %v, want an error containing %q", werr, tt.writeErr)
			}
			if got := e.mock.Count(http.MethodGet, mockserver.RouteSubscriptions) - listedBefore; got != tt.listings {
				t.Errorf("%d listings, want %d", got, tt.listings)
			}
			if got := levels[target.SubscriptionID]; got != tt.chosenLevel {
				t.Errorf("choose was given log level %q, want %q", got, tt.chosenLevel)
			}
			got, _ := e.mock.Subscription(itAccount, target.SubscriptionID)
			if got.LogLevel != tt.wantLevel || got.Enabled != tt.wantEnabled {
				t.Errorf("the service holds log level %s, enabled %v; want %s, %v", got.LogLevel, got.Enabled, tt.wantLevel, tt.wantEnabled)
			}
		})
	}
}
