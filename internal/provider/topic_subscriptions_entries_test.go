package provider

import (
	"maps"
	"slices"
	"testing"
)

// TestTopicEntryAttributes holds the topic resource's entries to the account resource's: every
// attribute the scope fixes is an account entry attribute, and a topic entry holds every other
// one, so a new input field of a subscription reaches the topic resource with no edit.
func TestTopicEntryAttributes(t *testing.T) {
	account := accountEntryAttributes()
	for _, name := range scopeFixedAttributes {
		if _, ok := account[name]; !ok {
			t.Errorf("scopeFixedAttributes names %q, which the account resource's entries do not hold "+
				"(topic_subscriptions_entries.go)", name)
		}
	}
	topic := topicEntryAttributes()
	for name := range account {
		_, onTopic := topic[name]
		if fixed := slices.Contains(scopeFixedAttributes, name); onTopic == fixed {
			t.Errorf("account entry attribute %q: on the topic entry %t, fixed by the scope %t; want exactly one",
				name, onTopic, fixed)
		}
	}
	if got := slices.Sorted(maps.Keys(topic)); !slices.Equal(got, topicEntryNames) {
		t.Errorf("topicEntryAttributes holds %v, topicEntryNames %v", got, topicEntryNames)
	}
	for _, name := range []string{"id", "event_name", "log_level", "enabled"} {
		if _, ok := topic[name]; !ok {
			t.Errorf("the topic entry lacks %q, which the provider's public interface names", name)
		}
	}
}
