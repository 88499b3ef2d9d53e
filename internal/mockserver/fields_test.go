package mockserver

import (
	"cmp"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// otherValue sets f's value in sub to one greater than the zero value of its kind, and valid
// when f has a rule.
func otherValue(t *testing.T, f field, sub *Subscription) {
	t.Helper()
	switch v := f.value(sub); v.Kind() {
	case reflect.String:
		for _, s := range []string{"value", "EVENT_STREAMS", "INFO"} {
			if f.valid == nil || f.valid(s) {
				v.SetString(s)
				return
			}
		}
		t.Fatalf("no sample value of %q is valid", f.name)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int64:
		v.SetInt(7)
	default:
		t.Fatalf("a field of kind %s", v.Kind())
	}
}

// TestFieldTable checks the mock's table of a subscription's members, the fields of
// Subscription (wire.go) with their role tags, and that the input validation and the sort
// derive from it: each member sorts by its own value, and each client-settable member of an
// input reaches the subscription. A failure names the member and the place.
func TestFieldTable(t *testing.T) {
	fields, err := buildFields()
	if err != nil {
		t.Fatal(err)
	}
	if n := reflect.TypeFor[Subscription]().NumField(); len(fields) != n {
		t.Errorf("the table has %d members, Subscription %d fields", len(fields), n)
	}
	for name := range requiredRules {
		if !slices.ContainsFunc(fields, func(f field) bool { return f.name == name && f.role == required }) {
			t.Errorf("requiredRules (fields.go) has a rule of %q, which is no required member of Subscription (wire.go)", name)
		}
	}

	for _, f := range fields {
		t.Run(f.name, func(t *testing.T) {
			// The sort: two subscriptions that differ only in the member are ordered by it.
			var lo, hi Subscription
			otherValue(t, f, &hi)
			byField, ok := sortComparator(f.name)
			if !ok {
				t.Fatalf("sortBy %q is refused (sortComparator, store.go)", f.name)
			}
			if k, l := byField(&lo), byField(&hi); cmp.Or(strings.Compare(k.text, l.text), cmp.Compare(k.number, l.number)) >= 0 {
				t.Errorf("sortBy %q does not order by the member's value (sortComparator, store.go)", f.name)
			}
			if !slices.Contains(sortFields(), f.name) {
				t.Errorf("sortBy's message does not list %q (sortFields, store.go)", f.name)
			}

			// The input: a member a client sets reaches the subscription; another is never read.
			for _, shape := range []inputShape{shapeCreate, shapeBulkItem} {
				body, err := json.Marshal(f.value(&hi).Interface())
				if err != nil {
					t.Fatal(err)
				}
				o := object{f.name: body}
				var got Subscription
				readFields(o, &got, shape)
				if read := got == hi; read != f.settable(shape) {
					t.Errorf("shape %d: readFields sets %q: %v, want %v (its role tag, wire.go)", shape, f.name, read, f.settable(shape))
				}
				known := slices.Contains(knownFields(shape), f.name)
				if want := f.settable(shape) || f.role == managed; known != want {
					t.Errorf("shape %d: %q is a known member: %v, want %v (knownFields, input.go)", shape, f.name, known, want)
				}
			}
			if f.settable(shapeCreate) {
				var created Subscription
				applyInput(&created, hi, "someone", 1)
				if !reflect.DeepEqual(f.value(&created).Interface(), f.value(&hi).Interface()) {
					t.Errorf("applyInput drops %q (subscriptions.go)", f.name)
				}
			}
			if listed := slices.Contains(managedFields(), f.name); listed != (f.role == managed) {
				t.Errorf("managedFields holds %q: %v, want %v", f.name, listed, f.role == managed)
			}
		})
	}
}
