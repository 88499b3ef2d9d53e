package provider

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// notCarried are the fields of client.Subscription that no attribute holds, and why.
var notCarried = map[string]string{
	"AccountID": "the account in state is the one the request named, never the service's (subscriptionFromAPI)",
}

// filledSubscription is a subscription with a value of its own in every field, enabled false
// (not the default).
func filledSubscription() client.Subscription {
	var s client.Subscription
	v := reflect.ValueOf(&s).Elem()
	for i := range v.NumField() {
		switch f := v.Field(i); f.Kind() {
		case reflect.String:
			f.SetString("value-of-" + v.Type().Field(i).Name)
		case reflect.Int64:
			f.SetInt(int64(1000 + i))
		}
	}
	return s
}

// plain is a known value of an attribute as a Go value.
func plain(v attr.Value) any {
	switch v := v.(type) {
	case types.Bool:
		return v.ValueBool()
	case types.Int64:
		return v.ValueInt64()
	case interface{ ValueString() string }:
		return v.ValueString()
	}
	return v
}

// otherValue is a known value of the same type as v and different from it.
func otherValue(v attr.Value) attr.Value {
	switch v := v.(type) {
	case types.Bool:
		return types.BoolValue(!v.ValueBool())
	case types.Int64:
		return types.Int64Value(v.ValueInt64() + 1)
	case eventNameValue:
		return newEventName(v.ValueString() + "-other")
	case types.String:
		return types.StringValue(v.ValueString() + "-other")
	}
	return nil
}

// TestSubscriptionFields checks that every field of client.Subscription and
// client.SubscriptionInput is carried through the provider's one list of fields, the
// attribute table: into the model and the entries of eventnotify_account_subscriptions
// (subscriptionFromAPI), back into the request body (input), through an entry's object value
// (entryFromObject, accountEntry.object), and into the inputs an entry is compared by
// (accountEntry.inputs). A failure names the field and the place.
func TestSubscriptionFields(t *testing.T) {
	const (
		tablePlace = "subscriptionAttributes (subscription_schema.go)"
		modelPlace = "subscriptionFields (subscription_model.go)"
	)
	byAPI := make(map[string]subscriptionField)
	names := make(map[string]bool)
	for _, f := range subscriptionFieldTable() {
		names[f.attr.name] = true
		if f.attr.api != "" {
			byAPI[f.attr.api] = f
		}
		if f.model < 0 && f.attr.name != "account_id" {
			t.Errorf("attribute %s of %s has no field in %s (a field with tfsdk tag %q)", f.attr.name, tablePlace, modelPlace, f.attr.name)
		}
		if f.attr.api != "" && f.api == nil {
			t.Errorf("attribute %s of %s names client.Subscription.%s, which does not exist", f.attr.name, tablePlace, f.attr.api)
		}
		if f.isInput() && f.attr.api != "" && f.input == nil {
			t.Errorf("input attribute %s of %s names client.SubscriptionInput.%s, which does not exist: the request body "+
				"would never carry it (add the field to SubscriptionInput, internal/client/subscription.go)", f.attr.name, tablePlace, f.attr.api)
		}
	}
	for _, name := range entryFieldNames() {
		if !names[name] {
			t.Errorf("field with tfsdk tag %q of %s is no attribute of %s", name, modelPlace, tablePlace)
		}
	}
	for name := range accountEntryAttributes() {
		if _, ok := byNameIndex(name); !ok {
			t.Errorf("attribute %s of an eventnotify_account_subscriptions entry has no field in %s", name, modelPlace)
		}
	}

	subType := reflect.TypeFor[client.Subscription]()
	for i := range subType.NumField() {
		name := subType.Field(i).Name
		if _, skip := notCarried[name]; skip {
			continue
		}
		if _, ok := byAPI[name]; !ok {
			t.Errorf("client.Subscription.%s is held by no attribute of %s: add one with api: %q, and its field to %s",
				name, tablePlace, name, modelPlace)
		}
	}
	inType := reflect.TypeFor[client.SubscriptionInput]()
	for i := range inType.NumField() {
		name := inType.Field(i).Name
		if f, ok := byAPI[name]; !ok || f.input == nil {
			t.Errorf("client.SubscriptionInput.%s is set by no required or optional attribute of %s (api: %q)", name, tablePlace, name)
		}
	}

	// From the service to the model.
	s := filledSubscription()
	sv := reflect.ValueOf(s)
	m := subscriptionFromAPI("account-1", &s)
	mv := reflect.ValueOf(m.subscriptionFields)
	for name, f := range byAPI {
		if f.model < 0 || f.api == nil {
			continue
		}
		want := sv.FieldByIndex(f.api).Interface()
		if got := plain(mv.Field(f.model).Interface().(attr.Value)); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("client.Subscription.%s = %v arrives as %s = %v (subscriptionFromAPI, subscription_fields.go)", name, want, f.attr.name, got)
		}
	}

	// From the model to the request body.
	in := m.input()
	iv := reflect.ValueOf(in)
	for i := range inType.NumField() {
		name := inType.Field(i).Name
		got := iv.Field(i)
		if got.Kind() == reflect.Pointer {
			if got.IsNil() {
				t.Errorf("client.SubscriptionInput.%s is not set from the model (input, subscription_fields.go)", name)
				continue
			}
			got = got.Elem()
		}
		if want := sv.FieldByName(name); !want.IsValid() || fmt.Sprint(got.Interface()) != fmt.Sprint(want.Interface()) {
			t.Errorf("client.SubscriptionInput.%s = %v from a subscription whose %s is %v (input, subscription_fields.go)", name, got, name, want)
		}
	}

	// An entry through its object value, and the inputs it is compared by.
	e := accountEntryFromAPI(&s)
	obj, diags := e.object()
	if diags.HasError() {
		t.Fatalf("accountEntry.object: %v", diags)
	}
	back, diags := entryFromObject(obj)
	if diags.HasError() {
		t.Fatalf("entryFromObject: %v", diags)
	}
	ev, bv := reflect.ValueOf(subscriptionFields(e)), reflect.ValueOf(subscriptionFields(back))
	for i, name := range entryFieldNames() {
		if !ev.Field(i).Interface().(attr.Value).Equal(bv.Field(i).Interface().(attr.Value)) {
			t.Errorf("attribute %s is lost between an entry and its object value (entryFromObject, accountEntry.object)", name)
		}
	}
	entryAttrs := accountEntryAttributes()
	for _, f := range subscriptionFieldTable() {
		if f.model < 0 {
			continue
		}
		// An entry holds the inputs and the id, and nothing else (schema version 1: DESIGN.md, decision log).
		_, inSchema := entryAttrs[f.attr.name]
		wantEntry := f.isInput() || f.attr.name == "id"
		if inSchema != wantEntry {
			t.Errorf("the entry schema holds %s: %v, want %v (accountEntryAttributes)", f.attr.name, inSchema, wantEntry)
		}
		if null := ev.Field(f.model).Interface().(attr.Value).IsNull(); null == wantEntry {
			t.Errorf("accountEntryFromAPI: %s null: %v, want %v (scoped_entries.go)", f.attr.name, null, !wantEntry)
		}
		changed := subscriptionFields(e)
		dst := reflect.ValueOf(&changed).Elem().Field(f.model)
		dst.Set(reflect.ValueOf(otherValue(dst.Interface().(attr.Value))))
		if differs := !sameInputs(e, accountEntry(changed)); differs != f.isInput() {
			t.Errorf("entries that differ only in %s have different inputs: %v, want %v (accountEntry.inputs, subscription_fields.go)",
				f.attr.name, differs, f.isInput())
		}
	}
}

// byNameIndex is the index of the field of subscriptionFields with the tfsdk tag name.
func byNameIndex(name string) (int, bool) {
	for i, n := range entryFieldNames() {
		if n == name {
			return i, true
		}
	}
	return 0, false
}

// TestEntryInputs_comparisons checks each input's comparison: an event name in another case
// and an unset enabled (true) are the same inputs; anything else is not.
func TestEntryInputs_comparisons(t *testing.T) {
	base := accountEntry{EventName: newEventName("Atom.Status"), DestinationType: types.StringValue("EVENT_STREAMS"),
		LogLevel: types.StringValue("ERROR"), EventStreamsTopic: types.StringValue("Topic"), Enabled: types.BoolValue(true)}
	tests := []struct {
		name   string
		change func(*accountEntry)
		same   bool
	}{
		{"event name in another case", func(e *accountEntry) { e.EventName = newEventName("ATOM.STATUS") }, true},
		{"enabled unset", func(e *accountEntry) { e.Enabled = types.BoolNull() }, true},
		{"topic in another case", func(e *accountEntry) { e.EventStreamsTopic = types.StringValue("topic") }, false},
		{"environment unset and empty", func(e *accountEntry) { e.EventStreamsEnvironmentID = types.StringValue("") }, true},
		{"disabled", func(e *accountEntry) { e.Enabled = types.BoolValue(false) }, false},
		{"log level", func(e *accountEntry) { e.LogLevel = types.StringValue("INFO") }, false},
		{"an input unknown", func(e *accountEntry) { e.LogLevel = types.StringUnknown() }, false},
		{"the id", func(e *accountEntry) { e.ID = types.StringValue("other") }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := base
			tt.change(&e)
			if same := sameInputs(base, e); same != tt.same {
				t.Fatalf("same inputs: %v, want %v", same, tt.same)
			}
		})
	}
}
