package client

import (
	"reflect"
	"slices"
	"testing"
)

// serverManagedFields are the fields of Subscription that are not content: the service sets
// them and no create or update carries them (their JSON names are not in the spec's
// SubscriptionCreate), so the content key leaves them out.
var serverManagedFields = func() []string {
	var names []string
	typ := reflect.TypeFor[Subscription]()
	for i, name := range jsonNames[Subscription]() {
		if slices.Contains(serverManaged, name) {
			names = append(names, typ.Field(i).Name)
		}
	}
	return names
}()

// setOther sets v, a field of one of the subscription structs, to a value other than the one
// it holds; false for a kind it does not know.
func setOther(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		v.SetString(v.String() + "-other")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Pointer:
		if v.Type().Elem().Kind() != reflect.Bool {
			return false
		}
		// nil is the service's default, true.
		off := false
		v.Set(reflect.ValueOf(&off))
	default:
		return false
	}
	return true
}

// filledInput is an input with every string field set to a value of its own.
func filledInput() SubscriptionInput {
	var in SubscriptionInput
	v := reflect.ValueOf(&in).Elem()
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.String {
			f.SetString("value-of-" + v.Type().Field(i).Name)
		}
	}
	return in
}

// subscriptionOf is the subscription that the service returns for in: the fields of the same
// name hold the same values.
func subscriptionOf(t *testing.T, in SubscriptionInput) Subscription {
	t.Helper()
	s := Subscription{ID: "id-1", CreatedBy: "someone"}
	iv, sv := reflect.ValueOf(in), reflect.ValueOf(&s).Elem()
	for i := range iv.NumField() {
		name := iv.Type().Field(i).Name
		dst := sv.FieldByName(name)
		switch src := iv.Field(i); {
		case !dst.IsValid():
			t.Errorf("SubscriptionInput.%s has no field of the same name in Subscription: what the service returns "+
				"for it cannot be compared with what was sent (contentFields, content_fields.go)", name)
		case src.Kind() == reflect.Pointer && dst.Kind() == src.Type().Elem().Kind():
			if src.IsNil() {
				dst.SetBool(true) // the service's default of an unset Enabled
			} else {
				dst.Set(src.Elem())
			}
		case src.Type() == dst.Type():
			dst.Set(src)
		default:
			t.Errorf("SubscriptionInput.%s is %s but Subscription.%s is %s", name, src.Type(), name, dst.Type())
		}
	}
	return s
}

// TestContentFields checks that the content key carries every field of SubscriptionInput and
// every field of Subscription but the server-managed ones: a field left out of contentFields
// would let a lost create answer adopt a subscription that differs only in it.
func TestContentFields(t *testing.T) {
	t.Parallel()
	listed := make(map[string]bool)
	for _, f := range contentFields {
		listed[f.name] = true
	}
	in := filledInput()
	want := in.key()
	if got := subscriptionOf(t, in).key(); got != want {
		t.Errorf("a subscription with the values of an input has another content key: %q, want %q (contentFields, content_fields.go)", got, want)
	}

	inType := reflect.TypeFor[SubscriptionInput]()
	for i := range inType.NumField() {
		name := inType.Field(i).Name
		if !listed[name] {
			t.Errorf("SubscriptionInput.%s is not in contentFields (content_fields.go): the content key ignores it", name)
		}
		changed := in
		if !setOther(reflect.ValueOf(&changed).Elem().Field(i)) {
			t.Errorf("SubscriptionInput.%s is of a kind the test cannot change (%s)", name, inType.Field(i).Type)
			continue
		}
		if changed.key() == want {
			t.Errorf("SubscriptionInput.%s: two inputs that differ only in it have the same content key (contentFields, content_fields.go)", name)
		}
	}

	sub := subscriptionOf(t, in)
	subType := reflect.TypeFor[Subscription]()
	for i := range subType.NumField() {
		name := subType.Field(i).Name
		managed := slices.Contains(serverManagedFields, name)
		switch {
		case managed && listed[name]:
			t.Errorf("Subscription.%s is server-managed but in contentFields (content_fields.go)", name)
		case !managed && !listed[name]:
			t.Errorf("Subscription.%s is neither in contentFields (content_fields.go) nor server-managed "+
				"(serverManagedFields, content_fields_test.go): the content key ignores it", name)
		}
		changed := sub
		if !setOther(reflect.ValueOf(&changed).Elem().Field(i)) {
			t.Errorf("Subscription.%s is of a kind the test cannot change (%s)", name, subType.Field(i).Type)
			continue
		}
		if differs := changed.key() != sub.key(); differs == managed {
			t.Errorf("Subscription.%s: changing it changes the content key: %v, want %v (contentFields, content_fields.go)", name, differs, !managed)
		}
	}
	// A subscription's settings carry every field of SubscriptionInput.
	settings := reflect.ValueOf(sub.Settings())
	for i := range inType.NumField() {
		name := inType.Field(i).Name
		got, want := settings.Field(i), reflect.ValueOf(in).Field(i)
		if got.Kind() == reflect.Pointer {
			if got.IsNil() {
				t.Errorf("Subscription.Settings leaves SubscriptionInput.%s unset (contentFields, content_fields.go)", name)
				continue
			}
			got, want = got.Elem(), reflect.ValueOf(true) // filledInput leaves Enabled unset: the default
		}
		if got.Interface() != want.Interface() {
			t.Errorf("Subscription.Settings: SubscriptionInput.%s = %v, want %v (contentFields, content_fields.go)", name, got, want)
		}
	}
	for name := range listed {
		if _, ok := inType.FieldByName(name); !ok {
			t.Errorf("contentFields (content_fields.go) names %s, which SubscriptionInput does not have", name)
		}
	}
}

// TestContentKey_spellings checks each field's comparison: what the service may spell back
// differently is the same content, anything else is not.
func TestContentKey_spellings(t *testing.T) {
	t.Parallel()
	off := false
	base := SubscriptionInput{EventName: "Atom.Status", DestinationType: "EVENT_STREAMS", LogLevel: "WARNING",
		EventStreamsEnvironment: "env-1", EventStreamsEnvironmentName: "Env", EventStreamsTopic: "Topic"}
	tests := []struct {
		name string
		sub  Subscription
		same bool
	}{
		{"as sent", Subscription{EventName: "Atom.Status", DestinationType: "EVENT_STREAMS", LogLevel: "WARNING",
			EventStreamsEnvironment: "env-1", EventStreamsEnvironmentName: "Env", EventStreamsTopic: "Topic", Enabled: true}, true},
		{"event name in another case, padded", Subscription{EventName: " ATOM.STATUS", DestinationType: "EVENT_STREAMS", LogLevel: "WARNING",
			EventStreamsEnvironment: "env-1", EventStreamsEnvironmentName: "Env", EventStreamsTopic: "Topic", Enabled: true}, true},
		{"destination type in lower case", Subscription{EventName: "Atom.Status", DestinationType: "event_streams", LogLevel: "WARNING",
			EventStreamsEnvironment: "env-1", EventStreamsEnvironmentName: "Env", EventStreamsTopic: "Topic", Enabled: true}, true},
		{"log level spelt WARN", Subscription{EventName: "Atom.Status", DestinationType: "EVENT_STREAMS", LogLevel: "warn",
			EventStreamsEnvironment: "env-1", EventStreamsEnvironmentName: "Env", EventStreamsTopic: "Topic", Enabled: true}, true},
		{"topic in another case", Subscription{EventName: "Atom.Status", DestinationType: "EVENT_STREAMS", LogLevel: "WARNING",
			EventStreamsEnvironment: "env-1", EventStreamsEnvironmentName: "Env", EventStreamsTopic: "topic", Enabled: true}, false},
		{"disabled", Subscription{EventName: "Atom.Status", DestinationType: "EVENT_STREAMS", LogLevel: "WARNING",
			EventStreamsEnvironment: "env-1", EventStreamsEnvironmentName: "Env", EventStreamsTopic: "Topic"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if same := tt.sub.key() == base.key(); same != tt.same {
				t.Fatalf("same content: %v, want %v", same, tt.same)
			}
		})
	}
	disabled := base
	disabled.Enabled = &off
	if disabled.key() == base.key() {
		t.Fatal("an input with enabled false has the content key of one that leaves it unset (true)")
	}
}
