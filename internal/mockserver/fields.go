package mockserver

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// fieldRole is what a client may do with a member of a Subscription: the role tag of its field
// in wire.go.
type fieldRole string

const (
	// required members are client-settable, and every SubscriptionCreate gives them; each has a
	// rule (requiredRules).
	required fieldRole = "required"
	// optional members are client-settable, and default when a SubscriptionCreate leaves them out.
	optional fieldRole = "optional"
	// bulkOnly members are carried by a bulk update item only (shapeBulkItem), never by a
	// SubscriptionCreate.
	bulkOnly fieldRole = "bulk"
	// managed members are set by the service: a SubscriptionCreate that carries one is rejected,
	// a bulk update item may carry it unchanged.
	managed fieldRole = "managed"
)

// rule is the rule of a required member's value, with the spec's message that rejects it.
type rule struct {
	valid func(string) bool
	msg   string
}

// requiredRules are the rules of the required members, by JSON name.
var requiredRules = map[string]rule{
	"eventName":       {validEventName, msgInvalidEventName},
	"destinationType": {validDestinationType, msgInvalidDestType},
	"logLevel":        {validLogLevel, msgInvalidLogLevel},
}

// field is a member of a Subscription: its JSON name, its role, the rule of its value (a
// required member's; nil: any value of its kind) and the place of its value.
type field struct {
	name  string
	role  fieldRole
	valid func(string) bool
	msg   string
	index []int
	kind  reflect.Kind // string, bool or int64
}

// subscriptionFields are the members of a Subscription in field order, from the fields of
// Subscription (wire.go), the mock's one table of them: the input validation (readFields,
// knownFields, managedFields, applyInput) and the list's sortBy values (sortComparator,
// sortFields) derive from it. It panics on a field without a known role, of a kind the mock
// cannot read, or required without a rule; TestFieldTable names it.
var subscriptionFields = sync.OnceValue(func() []field {
	fields, err := buildFields()
	if err != nil {
		panic("mockserver: " + err.Error())
	}
	return fields
})

// buildFields reads the members of a Subscription from its fields' tags.
func buildFields() ([]field, error) {
	var out []field
	for _, sf := range reflect.VisibleFields(reflect.TypeFor[Subscription]()) {
		f := field{name: jsonName(sf), role: fieldRole(sf.Tag.Get("role")), index: sf.Index, kind: sf.Type.Kind()}
		switch f.role {
		case required, optional, bulkOnly, managed:
		default:
			return nil, fmt.Errorf("field %s of Subscription (wire.go) has role %q: tag it role:\"required\", \"optional\", \"bulk\" or \"managed\"", sf.Name, f.role)
		}
		switch f.kind {
		case reflect.String, reflect.Bool, reflect.Int64:
		default:
			return nil, fmt.Errorf("field %s of Subscription (wire.go) is a %s; the mock reads and sorts string, bool and int64 members", sf.Name, f.kind)
		}
		r, ok := requiredRules[f.name]
		if ok != (f.role == required) || ok && f.kind != reflect.String {
			return nil, fmt.Errorf("field %s of Subscription (wire.go) is %s, and requiredRules (fields.go) has a rule of it: %t; "+
				"a required string member has one, no other member has", sf.Name, f.role, ok)
		}
		f.valid, f.msg = r.valid, r.msg
		out = append(out, f)
	}
	return out, nil
}

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

// sortKey is a member's value as the list sorts by it: text for a string, number for a bool
// (false first) or an int64.
type sortKey struct {
	text   string
	number int64
}

// sortKey is the member's value in sub as the list sorts by it.
func (f field) sortKey(sub *Subscription) sortKey {
	v := f.value(sub)
	switch f.kind {
	case reflect.Bool:
		return sortKey{number: int64(boolInt(v.Bool()))}
	case reflect.Int64:
		return sortKey{number: v.Int()}
	}
	return sortKey{text: v.String()}
}

// read sets the member from o on sub when o carries it (not null), and returns the message
// that rejects its value, if any.
func (f field) read(o object, sub *Subscription, shape inputShape) (msg string) {
	dst := f.value(sub)
	switch f.kind {
	case reflect.Bool:
		switch v, present, ok := o.boolean(f.name); {
		case !ok:
			return "Invalid value for " + f.name + ": must be a boolean"
		case present:
			dst.SetBool(v)
		}
		return ""
	case reflect.Int64:
		return "" // no client-settable member is a number
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
