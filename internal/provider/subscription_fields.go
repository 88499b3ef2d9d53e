package provider

import (
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// The attribute table (subscriptionAttributes, subscription_schema.go) is the provider's one
// list of a subscription's fields. Each attribute names the field of client.Subscription that
// it holds (api, the same name in client.SubscriptionInput for an input) and, by its tfsdk
// tag, the field of subscriptionFields; required and optional attributes are the inputs. The
// conversions derive from it: the model from the service's subscription (subscriptionFromAPI),
// the request body from the model (input), the inputs an entry of
// eventnotify_account_subscriptions is compared by (accountEntry.inputs), and an entry from
// its object value and back (entryFromObject, accountEntry.object). TestSubscriptionFields
// fails, naming the field and the place, when a field of client.Subscription or
// client.SubscriptionInput is not carried through.

// subscriptionField is an attribute of the table with the places of its value.
type subscriptionField struct {
	attr  subscriptionAttribute
	model int   // index in subscriptionFields; -1 for account_id, which only subscriptionModel has
	api   []int // index in client.Subscription; nil when the attribute names none
	input []int // index in client.SubscriptionInput; nil when the attribute is not an input
}

// isInput reports whether the user sets the value of an entry's attribute.
func (f subscriptionField) isInput() bool {
	return f.model >= 0 && (f.attr.required || f.attr.optional)
}

// subscriptionFieldTable is the attribute table with the places of each value.
var subscriptionFieldTable = sync.OnceValue(func() []subscriptionField {
	byTag := make(map[string]int)
	for i, name := range entryFieldNames() {
		byTag[name] = i
	}
	var out []subscriptionField
	for _, a := range subscriptionAttributes() {
		f := subscriptionField{attr: a, model: -1}
		if i, ok := byTag[a.name]; ok {
			f.model = i
		}
		if a.api != "" {
			if sf, ok := reflect.TypeFor[client.Subscription]().FieldByName(a.api); ok {
				f.api = sf.Index
			}
			if sf, ok := reflect.TypeFor[client.SubscriptionInput]().FieldByName(a.api); ok && (a.required || a.optional) {
				f.input = sf.Index
			}
		}
		out = append(out, f)
	}
	return out
})

// entryFieldNames are the attribute names of subscriptionFields' fields (their tfsdk tags),
// in field order.
var entryFieldNames = sync.OnceValue(func() []string {
	t := reflect.TypeFor[subscriptionFields]()
	names := make([]string, t.NumField())
	for i := range t.NumField() {
		names[i] = t.Field(i).Tag.Get("tfsdk")
	}
	return names
})

// fieldsFromAPI maps a subscription of the service to the attributes but its account.
func fieldsFromAPI(s *client.Subscription) subscriptionFields {
	var m subscriptionFields
	mv, sv := reflect.ValueOf(&m).Elem(), reflect.ValueOf(s).Elem()
	for _, f := range subscriptionFieldTable() {
		if f.model < 0 || f.api == nil {
			continue
		}
		v := f.attr.stateValue(sv.FieldByIndex(f.api))
		if dst := mv.Field(f.model); v != nil && reflect.TypeOf(v) == dst.Type() {
			dst.Set(reflect.ValueOf(v))
		}
	}
	return m
}

// stateValue is the attribute's value in state of the service's value v. The service's empty
// string is null for every attribute but the id and the required ones, so that an argument
// left out of the configuration stays null.
func (a subscriptionAttribute) stateValue(v reflect.Value) attr.Value {
	switch v.Kind() {
	case reflect.String:
		switch {
		case a.eventNameSemantic:
			return newEventName(v.String())
		case a.required || a.name == "id":
			return types.StringValue(v.String())
		}
		return optionalString(v.String())
	case reflect.Bool:
		return types.BoolValue(v.Bool())
	case reflect.Int64:
		return types.Int64Value(v.Int())
	}
	return nil
}

// input returns the request body of a create or update. An unknown or null value is left
// unset (for enabled: the service's default).
func (m subscriptionFields) input() client.SubscriptionInput {
	var in client.SubscriptionInput
	iv, mv := reflect.ValueOf(&in).Elem(), reflect.ValueOf(m)
	for _, f := range subscriptionFieldTable() {
		if f.input == nil || f.model < 0 {
			continue
		}
		dst := iv.FieldByIndex(f.input)
		switch v := mv.Field(f.model).Interface().(type) {
		case types.Bool:
			if v.IsNull() || v.IsUnknown() {
				continue
			}
			switch b := v.ValueBool(); dst.Kind() {
			case reflect.Bool:
				dst.SetBool(b)
			case reflect.Pointer:
				dst.Set(reflect.ValueOf(&b))
			}
		case interface{ ValueString() string }:
			if dst.Kind() == reflect.String {
				dst.SetString(v.ValueString())
			}
		}
	}
	return in
}

// entryInputs are the inputs of an entry, as the service compares them: each attribute's value
// in table order, the event name without regard to case, an unset optional as empty and an
// unset enabled as its default.
type entryInputs string

// inputs returns the entry's inputs, and false when one of them is unknown.
func (e accountEntry) inputs() (entryInputs, bool) {
	var b strings.Builder
	ev := reflect.ValueOf(subscriptionFields(e))
	for _, f := range subscriptionFieldTable() {
		if !f.isInput() {
			continue
		}
		v, _ := ev.Field(f.model).Interface().(attr.Value)
		if v == nil || v.IsUnknown() {
			return "", false
		}
		b.WriteString(f.attr.compared(v))
		b.WriteByte(0)
	}
	return entryInputs(b.String()), true
}

// compared is a known value of the attribute as the service compares it.
func (a subscriptionAttribute) compared(v attr.Value) string {
	switch v := v.(type) {
	case types.Bool:
		if v.IsNull() {
			return strconv.FormatBool(a.defaultTrue)
		}
		return strconv.FormatBool(v.ValueBool())
	case interface{ ValueString() string }:
		if a.eventNameSemantic {
			return strings.ToLower(v.ValueString())
		}
		return v.ValueString()
	}
	return v.String()
}
