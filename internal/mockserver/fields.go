package mockserver

import (
	"cmp"
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// fieldRole is what a client may do with a member of a Subscription.
type fieldRole int

const (
	// required members are client-settable, and every SubscriptionCreate gives them.
	required fieldRole = iota
	// optional members are client-settable, and default when a SubscriptionCreate leaves them out.
	optional
	// bulkOnly members are carried by a bulk update item only (shapeBulkItem), never by a
	// SubscriptionCreate.
	bulkOnly
	// managed members are set by the service: a SubscriptionCreate that carries one is rejected,
	// a bulk update item may carry it unchanged.
	managed
)

// subscriptionFieldTable is the mock's one list of a subscription's members: every JSON name
// of Subscription (wire.go), in its order, with what a client may do with it and, for a
// required one, the rule of its value and the spec's message that rejects it. The input
// validation (readFields, knownFields, managedFields, applyInput) and the list's sortBy values
// (sortComparator, sortFields) derive from it. A member of Subscription missing here, or a
// name here that Subscription does not have, fails TestFieldTable naming it.
var subscriptionFieldTable = []fieldSpec{
	{name: "subscriptionId", role: managed},
	{name: "eventName", role: required, valid: validEventName, msg: msgInvalidEventName},
	{name: "destinationType", role: required, valid: validDestinationType, msg: msgInvalidDestType},
	{name: "logLevel", role: required, valid: validLogLevel, msg: msgInvalidLogLevel},
	{name: "accountId", role: managed},
	{name: "destinationEmail", role: bulkOnly},
	{name: "eventStreamsEnvironment", role: optional},
	{name: "eventStreamsEnvironmentName", role: optional},
	{name: "eventStreamsTopic", role: optional},
	{name: "enabled", role: optional},
	{name: "createdDate", role: managed},
	{name: "lastUpdatedDate", role: managed},
	{name: "createdBy", role: managed},
	{name: "lastUpdatedUserId", role: managed},
}

// fieldSpec is one member of a Subscription as subscriptionFieldTable describes it.
type fieldSpec struct {
	name  string // the JSON name
	role  fieldRole
	valid func(string) bool // the rule of a required member's value
	msg   string            // the spec's message that rejects a required member
}

// field is a member of a Subscription with the place of its value.
type field struct {
	fieldSpec
	index []int        // of the Subscription field with this JSON name
	kind  reflect.Kind // string, bool or int64
}

// subscriptionFields is subscriptionFieldTable with the place of each value in Subscription.
// It panics on a name that no field of Subscription has, or a field of another kind.
var subscriptionFields = sync.OnceValue(func() []field {
	byName := make(map[string]reflect.StructField)
	for _, sf := range reflect.VisibleFields(reflect.TypeFor[Subscription]()) {
		byName[jsonName(sf)] = sf
	}
	out := make([]field, len(subscriptionFieldTable))
	for i, spec := range subscriptionFieldTable {
		sf, ok := byName[spec.name]
		if !ok {
			panic(fmt.Sprintf("mockserver: subscriptionFieldTable names %q, which no field of Subscription has as its JSON name", spec.name))
		}
		switch k := sf.Type.Kind(); k {
		case reflect.String, reflect.Bool, reflect.Int64:
			out[i] = field{fieldSpec: spec, index: sf.Index, kind: k}
		default:
			panic(fmt.Sprintf("mockserver: Subscription.%s is a %s; the field table knows string, bool and int64", sf.Name, k))
		}
	}
	return out
})

// jsonName is the JSON name of a struct field.
func jsonName(sf reflect.StructField) string {
	name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
	return name
}

// settable reports whether a client may set the member in an input of shape.
func (f field) settable(shape inputShape) bool {
	return f.role == required || f.role == optional || f.role == bulkOnly && shape == shapeBulkItem
}

// value is the member's value in sub.
func (f field) value(sub *Subscription) reflect.Value {
	return reflect.ValueOf(sub).Elem().FieldByIndex(f.index)
}

// compare orders two subscriptions by the member.
func (f field) compare(x, y *Subscription) int {
	a, b := f.value(x), f.value(y)
	switch f.kind {
	case reflect.Bool:
		return cmp.Compare(boolInt(a.Bool()), boolInt(b.Bool()))
	case reflect.Int64:
		return cmp.Compare(a.Int(), b.Int())
	}
	return strings.Compare(a.String(), b.String())
}

// read sets the member from o on sub when o carries it (not null), and returns the message
// that rejects its value, if any.
func (f field) read(o object, sub *Subscription, shape inputShape) (msg string) {
	dst := f.value(sub)
	if f.kind == reflect.Bool {
		switch v, present, ok := o.boolean(f.name); {
		case !ok:
			return "Invalid value for " + f.name + ": must be a boolean"
		case present:
			dst.SetBool(v)
		}
		return ""
	}
	v, present, ok := o.str(f.name)
	switch {
	case !ok && f.valid != nil:
		return f.msg
	case !ok:
		return "Invalid value for " + f.name + ": must be a string"
	case !present:
		if f.role == required && shape == shapeCreate {
			return f.msg
		}
	case f.valid != nil && !f.valid(v):
		return f.msg
	default:
		dst.SetString(v)
	}
	return ""
}
