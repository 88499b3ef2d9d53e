package provider

import (
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// TestSubscriptionScopeHolds checks the topic scope's filter: destination type EVENT_STREAMS in
// any letter case, the environment id and the topic exactly; the account scope holds every
// subscription.
func TestSubscriptionScopeHolds(t *testing.T) {
	in := client.Subscription{DestinationType: "EVENT_STREAMS", EventStreamsEnvironment: "env-1", EventStreamsTopic: "team/orders"}
	tests := []struct {
		name   string
		change func(*client.Subscription)
		want   bool
	}{
		{"in the scope", func(*client.Subscription) {}, true},
		{"destination type in another case", func(s *client.Subscription) { s.DestinationType = " event_streams" }, true},
		{"email", func(s *client.Subscription) { s.DestinationType = "EMAIL" }, false},
		{"another environment", func(s *client.Subscription) { s.EventStreamsEnvironment = "env-2" }, false},
		{"environment in another case", func(s *client.Subscription) { s.EventStreamsEnvironment = "ENV-1" }, false},
		{"another topic", func(s *client.Subscription) { s.EventStreamsTopic = "team/audit" }, false},
		{"topic in another case", func(s *client.Subscription) { s.EventStreamsTopic = "Team/Orders" }, false},
		{"topic padded", func(s *client.Subscription) { s.EventStreamsTopic = "team/orders " }, false},
	}
	scope := topicScope("env-1", "team/orders")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := in
			tt.change(&s)
			if got := scope.holds(&s); got != tt.want {
				t.Errorf("the topic scope holds %+v: %t, want %t", s, got, tt.want)
			}
			if !(subscriptionScope{}).holds(&s) {
				t.Errorf("the account scope does not hold %+v", s)
			}
		})
	}
}

// TestShellQuoted checks the import command's quoting: plain ids as they are, others in single
// quotes with a single quote escaped.
func TestShellQuoted(t *testing.T) {
	tests := []struct{ in, want string }{
		{"acc-test/env-1/orders", "acc-test/env-1/orders"},
		{"acc/env/my topic", "'acc/env/my topic'"},
		{"acc/env/it's", `'acc/env/it'\''s'`},
		{"acc/env/$(rm)", "'acc/env/$(rm)'"},
		{"", "''"},
	}
	for _, tt := range tests {
		if got := shellQuoted(tt.in); got != tt.want {
			t.Errorf("shellQuoted(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
