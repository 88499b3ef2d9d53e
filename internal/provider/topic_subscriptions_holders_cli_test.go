package provider

import (
	"fmt"
	"testing"
)

// These tests run the CLI on configurations with eventnotify_topic_subscriptions beside the
// other resources, and read the takeover plan's warnings and the warnings that name two
// holders of one topic (topic_subscriptions_holders.go).

// singleOnTopicConfig renders an eventnotify_subscription named name on topic of topicTestEnv.
func singleOnTopicConfig(name, level, topic string) string {
	return fmt.Sprintf(`
resource "eventnotify_subscription" %q {
  event_name                   = "ATOM.STATUS"
  destination_type             = "EVENT_STREAMS"
  log_level                    = %q
  event_streams_environment_id = %q
  event_streams_topic          = %q
}
`, name, level, topicTestEnv, topic)
}

// TestAccTopicSubscriptions_takeoverPlan creates a topic resource on a topic that already has
// 3 subscriptions, with one entry like the first of them: the plan names the one the entry
// takes over and the 2 the apply deletes, and says how to import the topic instead; a
// subscription of another topic is named nowhere. The plan writes nothing, and the apply
// does what it said: the one taken over kept, the 2 deleted, the other topic's untouched.
func TestAccTopicSubscriptions_takeoverPlan(t *testing.T) {
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	held := []string{
		m.PutSubscription(testAccount, onTopic("orders", "ATOM.STATUS", "ERROR")).SubscriptionID,
		m.PutSubscription(testAccount, onTopic("orders", "ATOM.DEPLOYMENT", "INFO")).SubscriptionID,
		m.PutSubscription(testAccount, onTopic("orders", "PROCESS.EXECUTION", "WARNING")).SubscriptionID,
	}
	other := m.PutSubscription(testAccount, onTopic("billing", "ATOM.STATUS", "ERROR"))
	w.write("versions.tf", requiredProviders)
	w.write("main.tf", topicResourceConfig("orders", "orders", topicEntry{key: "adopt", event: "ATOM.STATUS", level: "ERROR"}))
	where := `topic "orders" of environment "env-1" in account "acc-test"`

	out := w.mustRun(nil, "plan", "-input=false", "-no-color")
	expectOutput(t, "the plan of the create", out, true,
		"Warning: The first apply takes over 1 subscription that "+where+" already holds: subscription "+held[0]+` (entry "adopt")`,
		fmt.Sprintf(`entry "adopt" takes over %q`, held[0]),
		"Warning: The first apply deletes 2 subscriptions that "+where+" already holds: "+min(held[1], held[2])+" and 1 more",
		"eventnotify_topic_subscriptions is authoritative",
		fmt.Sprintf("- %q: event", held[1]), fmt.Sprintf("- %q: event", held[2]),
		"terraform import eventnotify_topic_subscriptions.NAME acc-test/env-1/orders")
	expectOutput(t, "the plan of the create", out, false, fmt.Sprintf("- %q: event", held[0]), other.SubscriptionID)
	if wr := m.writes(); wr.total() != 0 {
		t.Fatalf("the plan made %s, want none", wr)
	}

	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	if ids := m.topicIDs("orders"); len(ids) != 1 || ids[0] != held[0] {
		t.Errorf("the topic holds %v after apply, want only the subscription taken over, %s", ids, held[0])
	}
	if err := m.checkUntouched(&other)(nil); err != nil {
		t.Error(err)
	}
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("the plan after the apply is not empty (exit %d):\n%s", code, out)
	}
}

// TestAccTopicSubscriptions_conflictWarnings plans configurations where a topic resource meets
// the other resources of one provider instance:
//   - with an eventnotify_account_subscriptions of the same account: a warning naming the topic
//     and both resource types, for each topic resource;
//   - with an eventnotify_subscription on its topic: a warning naming the topic and both types;
//   - two topic resources on one account and an eventnotify_subscription on a third topic: no
//     warning (the safe combination).
func TestAccTopicSubscriptions_conflictWarnings(t *testing.T) {
	orders := `topic "orders" of environment "env-1" in account "acc-test"`
	audit := `topic "audit" of environment "env-1" in account "acc-test"`
	cases := []struct {
		name      string
		config    string
		want      []string // phrases the plan prints
		wantNot   []string // phrases it does not
		emptyPlan bool
	}{
		{name: "account resource",
			config: topicResourceConfig("orders", "orders", topicEntry{key: "a", event: "ATOM.STATUS", level: "ERROR"}) +
				topicResourceConfig("audit", "audit") +
				acctConfig(acctEntry{key: "x", event: "PROCESS.EXECUTION", level: "WARNING"}),
			want: []string{
				"Warning: The " + orders + " is held by eventnotify_topic_subscriptions and by eventnotify_account_subscriptions",
				"Warning: The " + audit + " is held by eventnotify_topic_subscriptions and by eventnotify_account_subscriptions",
				"each apply fights", "Manage the account one way"}},
		{name: "single on the topic",
			config: topicResourceConfig("orders", "orders", topicEntry{key: "a", event: "ATOM.STATUS", level: "ERROR"}) +
				singleOnTopicConfig("single", "INFO", "orders"),
			want: []string{
				"Warning: The " + orders + " is held by eventnotify_topic_subscriptions and by eventnotify_subscription resources",
				"one to be created, which no entry holds: the topic resource deletes it"}},
		{name: "safe: two topics and a single elsewhere",
			config: topicResourceConfig("orders", "orders", topicEntry{key: "a", event: "ATOM.STATUS", level: "ERROR"}) +
				topicResourceConfig("audit", "audit", topicEntry{key: "a", event: "ATOM.STATUS", level: "ERROR"}) +
				singleOnTopicConfig("single", "INFO", "billing"),
			wantNot: []string{"is held by", "The first apply"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			w := newCLIWorkspace(t, m)
			w.write("versions.tf", requiredProviders)
			w.write("main.tf", tc.config)
			out := w.mustRun(nil, "plan", "-input=false", "-no-color")
			expectOutput(t, "the plan", out, true, tc.want...)
			expectOutput(t, "the plan", out, false, tc.wantNot...)
		})
	}
}
