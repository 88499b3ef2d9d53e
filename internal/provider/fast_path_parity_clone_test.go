package provider

import (
	"reflect"
	"testing"
)

// TestCloneHolders: cloneHolders copies every field of a holder registry, each filled by the
// registry's own methods, and the copy is independent of the original. A field added to
// holderRegistry is empty here until the test fills it, which fails the test: then clone it.
func TestCloneHolders(t *testing.T) {
	r := newHolderRegistry()
	r.holdSubscription("acct", "sub-1")
	r.holdAccount("acct", []string{"a"}, map[string]string{"a": "sub-2"}) // warns: fills warned
	topic := topicHolder{"acct", "env", "topic"}
	r.holdTopic("acct", topicScope(topic.environmentID, topic.topic), []string{"b"}, map[string]string{"b": "sub-3"})
	r.holdSubscriptionOnTopic(topic, "sub-4")

	v := reflect.ValueOf(r).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		if f.Kind() == reflect.Map && f.Len() == 0 {
			t.Errorf("holderRegistry.%s is empty: fill it here, and copy it in cloneHolders", v.Type().Field(i).Name)
		} else if f.Kind() != reflect.Map && v.Type().Field(i).Name != "mu" {
			t.Errorf("holderRegistry.%s is a %s: copy it in cloneHolders and compare it here", v.Type().Field(i).Name, f.Kind())
		}
	}
	c := cloneHolders(r)
	if !reflect.DeepEqual(r, c) { // the lock included: both are unlocked
		t.Errorf("cloneHolders: the copy differs from the original\noriginal: %+v\ncopy:     %+v", r, c)
	}
	c.holdSubscription("acct", "sub-5")
	c.holdSubscriptionOnTopic(topic, "sub-6")
	if len(r.singles["acct"]) != 1 || len(r.topicSingles[topic]) != 1 {
		t.Errorf("a registration in the copy reached the original: singles %v, topic singles %v", r.singles["acct"], r.topicSingles[topic])
	}
	if cloneHolders(nil) != nil {
		t.Error("cloneHolders(nil) is not nil")
	}
}
