package provider

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// accountEntry is one subscription of the map: the inputs of the subscription
// resource's attributes and its id (isEntryAttribute). The server-managed audit
// values of subscriptionFields stay null in an entry: they are on
// eventnotify_subscription and the data sources, and a bulk update could not
// refresh them without reading the account again.
type accountEntry subscriptionFields

// isEntryAttribute reports whether an attribute of the table is one of an
// entry's: the id and the inputs.
func isEntryAttribute(a subscriptionAttribute) bool {
	return a.name == "id" || a.required || a.optional
}

// accountEntryAttributes builds the attributes of one map entry from the
// subscription attribute table, so that every description is written once.
// The entries carry no plan modifiers: the framework cannot follow a value
// across map keys, so ModifyPlan plans the ids of the whole map.
func accountEntryAttributes() map[string]schema.Attribute {
	attrs := make(map[string]schema.Attribute)
	for _, a := range subscriptionAttributes() {
		if a.name == "account_id" || !isEntryAttribute(a) {
			continue
		}
		switch v := a.resourceAttribute().(type) {
		case schema.StringAttribute:
			v.PlanModifiers = nil
			attrs[a.name] = v
		case schema.Int64Attribute:
			v.PlanModifiers = nil
			attrs[a.name] = v
		default:
			attrs[a.name] = v
		}
	}
	return attrs
}

// entryFields are the indexes in subscriptionFields of an entry's attributes
// (accountEntryAttributes), by attribute name.
var entryFields = sync.OnceValue(func() map[string]int {
	out := make(map[string]int)
	for _, f := range subscriptionFieldTable() {
		if f.model >= 0 && isEntryAttribute(f.attr) {
			out[f.attr.name] = f.model
		}
	}
	return out
})

// accountEntryType is the object type of one map entry.
var accountEntryType = sync.OnceValue(func() types.ObjectType {
	attrTypes := make(map[string]attr.Type)
	for name, a := range accountEntryAttributes() {
		attrTypes[name] = a.GetType()
	}
	return types.ObjectType{AttrTypes: attrTypes}
})

// The entries are converted without the framework's reflection, which costs
// about a millisecond per entry that a map of thousands of entries would feel in
// every plan: each attribute goes to the field of its tfsdk tag
// (entryFields).

// entryFromObject reads an entry from its object value.
func entryFromObject(obj types.Object) (accountEntry, diag.Diagnostics) {
	return entryFromAttributes(obj.Attributes())
}

// entryFromAttributes reads an entry from the attributes of its object value.
func entryFromAttributes(attrs map[string]attr.Value) (accountEntry, diag.Diagnostics) {
	var diags diag.Diagnostics
	var e accountEntry
	ev := reflect.ValueOf(&e).Elem()
	for name, i := range entryFields() {
		v, dst := reflect.ValueOf(attrs[name]), ev.Field(i)
		if !v.IsValid() || v.Type() != dst.Type() {
			diags.AddError("Unexpected subscription value", fmt.Sprintf("Attribute %s of a subscription is %T. This is a bug in "+
				"the provider; please report it.", name, attrs[name]))
			continue
		}
		dst.Set(v)
	}
	return e, diags
}

// object returns the entry's object value.
func (e accountEntry) object() (types.Object, diag.Diagnostics) {
	return types.ObjectValue(accountEntryType().AttrTypes, e.attributes())
}

// attributes returns the attributes of the entry's object value.
func (e accountEntry) attributes() map[string]attr.Value {
	ev := reflect.ValueOf(e)
	attrs := make(map[string]attr.Value, len(entryFields()))
	for name, i := range entryFields() {
		attrs[name], _ = ev.Field(i).Interface().(attr.Value)
	}
	return attrs
}

// sameInputs reports whether two entries ask for the same subscription.
func sameInputs(a, b accountEntry) bool {
	x, okA := a.inputs()
	y, okB := b.inputs()
	return okA && okB && x == y
}

// input returns the request body of a create or update.
func (e accountEntry) input() client.SubscriptionInput { return subscriptionFields(e).input() }

// accountEntryFromAPI maps a subscription of the service to an entry: its id
// and inputs.
func accountEntryFromAPI(s *client.Subscription) accountEntry {
	full := accountEntry(subscriptionFromAPI("", s).subscriptionFields)
	var e accountEntry
	ev, fv := reflect.ValueOf(&e).Elem(), reflect.ValueOf(full)
	for _, i := range entryFields() {
		ev.Field(i).Set(fv.Field(i))
	}
	return e
}

// withSpelling keeps the event name spelled as want when the service spells
// it differently only in case.
func (e accountEntry) withSpelling(want eventNameValue) accountEntry {
	if !want.IsNull() && !want.IsUnknown() && strings.EqualFold(want.ValueString(), e.EventName.ValueString()) {
		e.EventName = want
	}
	return e
}

// withInputsOf returns e with the inputs of planned: the values a matched
// subscription takes in state (they differ at most in the event name's case).
func (e accountEntry) withInputsOf(planned accountEntry) accountEntry {
	e = e.withSpelling(planned.EventName)
	e.Enabled = types.BoolValue(e.Enabled.IsNull() || e.Enabled.ValueBool())
	return e
}

// withUnknownID returns the entry of a subscription yet to be created: its id
// unknown.
func (e accountEntry) withUnknownID() accountEntry {
	e.ID = types.StringUnknown()
	return e
}

// withHeldID returns planned on the existing subscription held: its id.
func withHeldID(planned, held accountEntry) accountEntry {
	planned.ID = held.ID
	return planned
}

// entries decodes a map of entries; unknown or null elements are left out and
// reported in opaque, which keeps them as they are.
func entries(m types.Map) (known map[string]accountEntry, opaque map[string]attr.Value, diags diag.Diagnostics) {
	known = make(map[string]accountEntry, len(m.Elements()))
	opaque = make(map[string]attr.Value)
	for key, v := range m.Elements() {
		obj, ok := v.(types.Object)
		if !ok || obj.IsNull() || obj.IsUnknown() {
			opaque[key] = v
			continue
		}
		e, d := entryFromObject(obj)
		diags.Append(d...)
		known[key] = e
	}
	return known, opaque, diags
}

// entriesMap encodes entries (and opaque elements, as they are) as the
// subscriptions attribute.
func entriesMap(known map[string]accountEntry, opaque map[string]attr.Value) (types.Map, diag.Diagnostics) {
	return entriesMapOf(accountEntryType(), known, opaque)
}

// entriesMapOf encodes entries (and opaque elements, as they are) as a map of objType: each
// entry keeps the attributes that objType names (all of them for the account resource, those
// of a topic entry for the topic resource).
func entriesMapOf(objType types.ObjectType, known map[string]accountEntry, opaque map[string]attr.Value) (types.Map, diag.Diagnostics) {
	var diags diag.Diagnostics
	elems := make(map[string]attr.Value, len(known)+len(opaque))
	maps.Copy(elems, opaque)
	for key, e := range known {
		all := e.attributes()
		attrs := make(map[string]attr.Value, len(objType.AttrTypes))
		for name := range objType.AttrTypes {
			attrs[name] = all[name]
		}
		obj, d := types.ObjectValue(objType.AttrTypes, attrs)
		diags.Append(d...)
		elems[key] = obj
	}
	m, d := types.MapValue(objType, elems)
	diags.Append(d...)
	return m, diags
}

// sortedKeys returns a map's keys in order, so that every pass is deterministic.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// freeKey returns the first of candidates that m does not hold as a key, or
// the last candidate with a numeric suffix.
func freeKey[V any](m map[string]V, candidates ...string) string {
	for _, k := range candidates {
		if _, taken := m[k]; !taken {
			return k
		}
	}
	last := candidates[len(candidates)-1]
	for n := 2; ; n++ {
		k := last + "-" + strconv.Itoa(n)
		if _, taken := m[k]; !taken {
			return k
		}
	}
}
