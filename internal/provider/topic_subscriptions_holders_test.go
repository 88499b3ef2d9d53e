package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// TestHolderRegistryTopics checks the registry's warnings about topics, whatever the order in
// which the plans come: a topic resource and an account resource of one account, a topic
// resource and single resources on its topic (naming the entry that holds one's id), two topic
// resources on one topic, each warned about once; one topic resource planned twice (-replace,
// same keys), topic resources on other topics, single resources on other topics or
// environments, and another account are no conflict.
func TestHolderRegistryTopics(t *testing.T) {
	type step struct {
		kind           string // "topic", "account" or "single"
		acct, env, top string
		id             string            // a single resource's id
		entries        map[string]string // a topic or account resource's entries (key -> id)
		keys           []string
	}
	topic := func(acct, env, top string, keys ...string) step {
		return step{kind: "topic", acct: acct, env: env, top: top, keys: keys, entries: map[string]string{}}
	}
	account := func(acct string) step { return step{kind: "account", acct: acct, keys: []string{"x"}} }
	single := func(acct, env, top, id string) step {
		return step{kind: "single", acct: acct, env: env, top: top, id: id}
	}
	orders := `topic "orders" of environment "e1" in account "a1"`
	cases := []struct {
		name  string
		steps []step
		want  [][]string // per warning: summary, then phrases of its detail
	}{
		{name: "two topics, one account", steps: []step{topic("a1", "e1", "orders", "k"), topic("a1", "e1", "audit", "k")}},
		{name: "one topic planned twice", steps: []step{topic("a1", "e1", "orders", "k"), topic("a1", "e1", "orders", "k")}},
		{name: "two topic resources on one topic", steps: []step{topic("a1", "e1", "orders", "k"), topic("a1", "e1", "orders", "j"),
			topic("a1", "e1", "orders", "i")},
			want: [][]string{{"The " + orders + " is held by two eventnotify_topic_subscriptions resources", "each apply undoes the other"}}},
		{name: "topic, then account", steps: []step{topic("a1", "e1", "orders", "k"), account("a1"), account("a2")},
			want: [][]string{{"The " + orders + " is held by eventnotify_topic_subscriptions and by eventnotify_account_subscriptions",
				"Manage the account one way"}}},
		{name: "account, then topic", steps: []step{account("a1"), topic("a1", "e1", "orders", "k"), topic("a2", "e1", "orders", "k")},
			want: [][]string{{"The " + orders + " is held by eventnotify_topic_subscriptions and by eventnotify_account_subscriptions"}}},
		{name: "single on the topic, then the topic", steps: []step{single("a1", "e1", "orders", "id-1"), single("a1", "e1", "orders", ""),
			{kind: "topic", acct: "a1", env: "e1", top: "orders", keys: []string{"k"}, entries: map[string]string{"k": "id-1"}}},
			want: [][]string{{"The " + orders + " is held by eventnotify_topic_subscriptions and by eventnotify_subscription resources: subscription id-1",
				`subscription "id-1", which entry "k" of the topic resource holds too`, "one to be created, which no entry holds"}}},
		{name: "topic, then single on it", steps: []step{topic("a1", "e1", "orders", "k"), single("a1", "e1", "orders", "id-2"),
			single("a1", "e1", "orders", "id-3")},
			want: [][]string{{"The " + orders + " is held by eventnotify_topic_subscriptions and by eventnotify_subscription resources: subscription id-2",
				`subscription "id-2", which no entry holds: the topic resource deletes it`}}},
		{name: "singles elsewhere", steps: []step{topic("a1", "e1", "orders", "k"), single("a1", "e1", "billing", "id-1"),
			single("a1", "e2", "orders", "id-2"), single("a2", "e1", "orders", "id-3")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newHolderRegistry()
			var got diag.Diagnostics
			for _, s := range tc.steps {
				switch s.kind {
				case "topic":
					got.Append(r.holdTopic(s.acct, topicScope(s.env, s.top), s.keys, s.entries)...)
				case "account":
					got.Append(r.holdAccount(s.acct, s.keys, s.entries)...)
				default:
					got.Append(r.holdSubscription(s.acct, s.id)...)
					got.Append(r.holdSubscriptionOnTopic(topicHolder{s.acct, s.env, s.top}, s.id)...)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("diagnostics %v, want %d warnings", got, len(tc.want))
			}
			for i, want := range tc.want {
				if got[i].Severity() != diag.SeverityWarning || got[i].Summary() != want[0] {
					t.Fatalf("diagnostic %d is %q, want the warning %q", i, got[i].Summary(), want[0])
				}
				for _, phrase := range want[1:] {
					if !strings.Contains(got[i].Detail(), phrase) {
						t.Errorf("detail lacks %q:\n%s", phrase, got[i].Detail())
					}
				}
			}
		})
	}
	var none *holderRegistry
	if d := none.holdTopic("a1", topicScope("e1", "orders"), nil, nil); d != nil {
		t.Errorf("a nil registry warns: %v", d)
	}
}
