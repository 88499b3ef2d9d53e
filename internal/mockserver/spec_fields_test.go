package mockserver_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/testsupport"
)

// jsonNames are the JSON names of the fields of the struct type T, in field order.
func jsonNames[T any]() []string {
	var names []string
	for _, sf := range reflect.VisibleFields(reflect.TypeFor[T]()) {
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		names = append(names, name)
	}
	return names
}

// everyInput is a SubscriptionCreate with every member of the spec's SubscriptionCreate set to
// a value other than its default: valid values of the required ones, enabled false, and a value
// of its own in every other string member.
func everyInput() map[string]any {
	item := map[string]any{"eventName": "ATOM.STATUS", "destinationType": "EVENT_STREAMS", "logLevel": "WARNING", "enabled": false}
	for _, name := range testsupport.SpecNames(true) {
		if _, set := item[name]; !set {
			item[name] = "value-of-" + name
		}
	}
	return item
}

// TestSpecMembers checks the mock's Subscription (wire.go) against the spec's members
// (testsupport.SpecSubscription): the same JSON names; a SubscriptionCreate that carries every
// input member is stored with each value and answered with it; one that carries any other
// member is refused. A failure names the member.
func TestSpecMembers(t *testing.T) {
	got, want := jsonNames[mockserver.Subscription](), testsupport.SpecNames(false)
	for _, name := range want {
		if !slices.Contains(got, name) {
			t.Errorf("the spec's Subscription has %q, the mock's Subscription (wire.go) has no field with that JSON name", name)
		}
	}
	for _, name := range got {
		if !slices.Contains(want, name) {
			t.Errorf("the mock's Subscription (wire.go) has %q, which the spec's Subscription (testsupport.SpecSubscription) does not", name)
		}
	}

	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	item := everyInput()
	r := e.do(http.MethodPost, subsPath(testAccount), token, map[string]any{"subscriptions": []any{item}})
	r.wantStatus(t, http.StatusCreated)
	var answer struct {
		Subscriptions []map[string]any `json:"subscriptions"`
	}
	if err := json.Unmarshal(r.body, &answer); err != nil || len(answer.Subscriptions) != 1 {
		t.Fatalf("create answer %s: %v", r.body, err)
	}
	for name, v := range item {
		if got := answer.Subscriptions[0][name]; got != v {
			t.Errorf("the create's %s is %v, the answer's %v (its role tag, wire.go)", name, v, got)
		}
	}

	for _, m := range testsupport.SpecSubscription {
		if m.Input {
			continue
		}
		t.Run(m.Name, func(t *testing.T) {
			body := everyInput()
			body[m.Name] = "value"
			r := e.do(http.MethodPost, subsPath(testAccount), token, map[string]any{"subscriptions": []any{body}})
			if r.status != http.StatusBadRequest || !strings.Contains(string(r.body), m.Name) {
				t.Errorf("a SubscriptionCreate that carries %s: status %d %s, want 400 naming it (its role tag, wire.go)",
					m.Name, r.status, r.body)
			}
		})
	}
}
