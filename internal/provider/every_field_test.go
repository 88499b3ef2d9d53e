package provider

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// The fixtures of a subscription's inputs derive from the attribute table
// (subscriptionAttributes): every input attribute gets a value other than its default, so a
// new input is set, sent, stored and read back by every test that uses them, and a layer that
// drops it fails those tests.

// inputSample is an input attribute of a subscription with two values the tests set: first
// (in the fixtures) and second (what an update changes it to), both other than its default.
type inputSample struct {
	attr          subscriptionAttribute
	first, second any // string or bool
}

// hcl is the argument line that sets the attribute to v.
func (s inputSample) hcl(v any) string {
	if b, ok := v.(bool); ok {
		return fmt.Sprintf("%s = %t", s.attr.name, b)
	}
	return fmt.Sprintf("%s = %q", s.attr.name, v)
}

// known is v as a state check expects it.
func (s inputSample) known(v any) knownvalue.Check {
	if b, ok := v.(bool); ok {
		return knownvalue.Bool(b)
	}
	return knownvalue.StringExact(v.(string))
}

// sampleValues are the values of the inputs that tests read back by name, kept from before the
// fixtures derived from the table. Any other input gets values of its own (inputSamples).
var sampleValues = map[string][2]string{
	"event_name":                     {"ATOM.STATUS", "PROCESS.EXECUTION"},
	"log_level":                      {"ERROR", "INFO"},
	"event_streams_environment_id":   {"env-1", "env-2"},
	"event_streams_environment_name": {"Production", "Staging"},
	"event_streams_topic":            {"alerts", "audit"},
}

// inputSamples are the input attributes of a subscription (those an entry of
// eventnotify_account_subscriptions holds but its id), in table order, with their values: a
// bool the opposite of its default, then its default; an enum its first and second values; any
// other string a value of its own.
var inputSamples = sync.OnceValue(func() []inputSample {
	var out []inputSample
	for _, f := range subscriptionFieldTable() {
		if !f.isInput() {
			continue
		}
		s := inputSample{attr: f.attr}
		switch v, ok := sampleValues[f.attr.name]; {
		case f.attr.kind == kindBool:
			s.first, s.second = !f.attr.defaultTrue, f.attr.defaultTrue
		case ok:
			s.first, s.second = v[0], v[1]
		case len(f.attr.enum) > 1:
			s.first, s.second = f.attr.enum[0], f.attr.enum[1]
		default:
			s.first, s.second = "first-"+f.attr.name, "second-"+f.attr.name
		}
		out = append(out, s)
	}
	return out
})

// argLines are the argument lines of the inputs' first values, the required ones only when
// requiredOnly is set.
func argLines(requiredOnly bool) []string {
	var lines []string
	for _, s := range inputSamples() {
		if s.attr.required || !requiredOnly {
			lines = append(lines, s.hcl(s.first))
		}
	}
	return lines
}

// apiField is the field of T (client.SubscriptionInput, mockserver.Subscription) that holds the
// input attribute a: the one with the JSON name of client.SubscriptionInput's field a.api.
func apiField[T any](a subscriptionAttribute) (reflect.StructField, bool) {
	in, ok := reflect.TypeFor[client.SubscriptionInput]().FieldByName(a.api)
	if !ok {
		panic(fmt.Sprintf("input attribute %s names client.SubscriptionInput.%s, which does not exist (api in subscriptionAttributes)", a.name, a.api))
	}
	name := jsonName(in)
	for _, sf := range reflect.VisibleFields(reflect.TypeFor[T]()) {
		if jsonName(sf) == name {
			return sf, true
		}
	}
	return reflect.StructField{}, false
}

// jsonName is the JSON name of a struct field.
func jsonName(sf reflect.StructField) string {
	name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
	return name
}

// mockField is the field of mockserver.Subscription that holds the input attribute a; it
// panics, failing the test, when the mock has none.
func mockField(a subscriptionAttribute) reflect.StructField {
	sf, ok := apiField[mockserver.Subscription](a)
	if !ok {
		panic(fmt.Sprintf("mockserver.Subscription (internal/mockserver/wire.go) has no field with the JSON name of "+
			"client.SubscriptionInput.%s: add it, with its role tag", a.api))
	}
	return sf
}

// fillInputs sets every input of s that the fixture leaves unset (an empty string) to a value
// of its own, n told apart: every input of a seeded subscription is then other than its
// default. Bools are left as the fixture sets them.
func fillInputs(s *mockserver.Subscription, n int) {
	v := reflect.ValueOf(s).Elem()
	for _, in := range inputSamples() {
		f := v.FieldByIndex(mockField(in.attr).Index)
		if f.Kind() == reflect.String && f.String() == "" {
			f.SetString(fmt.Sprintf("%s-%d", in.first, n))
		}
	}
}

// inputsOf are the inputs of a subscription of the mock, by attribute name: strings and bools.
func inputsOf(s mockserver.Subscription) map[string]any {
	out := make(map[string]any)
	v := reflect.ValueOf(s)
	for _, in := range inputSamples() {
		out[in.attr.name] = v.FieldByIndex(mockField(in.attr).Index).Interface()
	}
	return out
}

// attributesOf are the attributes of a subscription of the mock as the resource's state holds
// them, by name: every attribute of the table that holds a field of the service's subscription
// (all but account_id), an empty optional string null.
func attributesOf(s mockserver.Subscription) map[string]any {
	out := make(map[string]any)
	v := reflect.ValueOf(s)
	for _, a := range subscriptionAttributes() {
		if a.api == "" {
			continue
		}
		sf, ok := reflect.TypeFor[client.Subscription]().FieldByName(a.api)
		if !ok {
			panic(fmt.Sprintf("attribute %s names client.Subscription.%s, which does not exist (api in subscriptionAttributes)", a.name, a.api))
		}
		var value any
		for _, mf := range reflect.VisibleFields(reflect.TypeFor[mockserver.Subscription]()) {
			if jsonName(mf) == jsonName(sf) {
				value = v.FieldByIndex(mf.Index).Interface()
			}
		}
		if value == nil {
			panic(fmt.Sprintf("mockserver.Subscription (internal/mockserver/wire.go) has no field with the JSON name of client.Subscription.%s", a.api))
		}
		if value == "" && !a.required && a.name != "id" {
			value = nil
		}
		out[a.name] = value
	}
	return out
}

// entryHCL renders the inputs of a subscription of the mock as the body of an entry of
// eventnotify_account_subscriptions (or of an eventnotify_subscription), one line each in
// table order, an empty optional string left out, indented by indent.
func entryHCL(s mockserver.Subscription, indent string) string {
	inputs := inputsOf(s)
	var b strings.Builder
	for _, in := range inputSamples() {
		if v := inputs[in.attr.name]; v != "" {
			b.WriteString(indent + in.hcl(v) + "\n")
		}
	}
	return b.String()
}

// everyInputIs are the state checks that the resource at addr holds every input's first value
// (set), or its default: null for an optional string, the default of a bool, the first value
// of a required one (unset).
func everyInputIs(addr string, set bool) []statecheck.StateCheck {
	var checks []statecheck.StateCheck
	for _, s := range inputSamples() {
		want := s.known(s.first)
		switch {
		case set || s.attr.required:
		case s.attr.kind == kindBool:
			want = knownvalue.Bool(s.attr.defaultTrue)
		default:
			want = knownvalue.Null()
		}
		checks = append(checks, statecheck.ExpectKnownValue(addr, tfjsonpath.New(s.attr.name), want))
	}
	return checks
}

// TestInputSamples checks the fixtures' values: each input has two, different, valid for an
// enum, and the first never a bool's default; and the mock has a field for each, which the
// fixtures of its subscriptions set.
func TestInputSamples(t *testing.T) {
	if len(inputSamples()) == 0 {
		t.Fatal("no input attribute in the table")
	}
	for _, s := range inputSamples() {
		if s.first == s.second {
			t.Errorf("input %s: both sample values are %v", s.attr.name, s.first)
		}
		if s.attr.enum != nil && (!slices.Contains(s.attr.enum, s.first.(string)) || !slices.Contains(s.attr.enum, s.second.(string))) {
			t.Errorf("input %s: sample values %v, %v are not in its enum %v", s.attr.name, s.first, s.second, s.attr.enum)
		}
		if s.attr.defaultTrue && s.first == true {
			t.Errorf("input %s: the fixture's value is its default", s.attr.name)
		}
		// The fixtures of the mock's subscriptions set it (fillInputs).
		if _, ok := reflect.TypeFor[client.SubscriptionInput]().FieldByName(s.attr.api); ok {
			if _, ok := apiField[mockserver.Subscription](s.attr); !ok {
				t.Errorf("input %s: mockserver.Subscription (internal/mockserver/wire.go) has no field with the JSON name of "+
					"client.SubscriptionInput.%s: add it, with its role tag", s.attr.name, s.attr.api)
			}
		}
	}
}
