package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
)

// object is a decoded JSON object whose members are still raw.
type object map[string]json.RawMessage

// readObject reads the request body as a JSON object. On failure it
// returns the 400 message to answer with.
func readObject(w http.ResponseWriter, r *http.Request) (object, string, bool) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, msgBodyTooLarge, false
		}
		return nil, msgBodyMissing, false
	}
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		return nil, msgBodyMissing, false
	}
	if !json.Valid(b) {
		return nil, "Malformed JSON request body", false
	}
	o, ok := asObject(b)
	if !ok {
		return nil, msgBodyNotObject, false
	}
	return o, "", true
}

// asObject decodes raw as a JSON object.
func asObject(raw json.RawMessage) (object, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	var o object
	if json.Unmarshal(raw, &o) != nil {
		return nil, false
	}
	return o, true
}

func isNull(raw json.RawMessage) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}

// has reports whether name is present with a non-null value (null counts
// as absent everywhere).
func (o object) has(name string) bool {
	raw, ok := o[name]
	return ok && !isNull(raw)
}

// str returns the string member name; present is false when it is absent
// or null, ok is false when it is present but not a string.
func (o object) str(name string) (v string, present, ok bool) {
	if !o.has(name) {
		return "", false, true
	}
	if json.Unmarshal(o[name], &v) != nil {
		return "", true, false
	}
	return v, true, true
}

// boolean returns the boolean member name, like str.
func (o object) boolean(name string) (v bool, present, ok bool) {
	if !o.has(name) {
		return false, false, true
	}
	if json.Unmarshal(o[name], &v) != nil {
		return false, true, false
	}
	return v, true, true
}

// array returns the array member name, like str.
func (o object) array(name string) (v []json.RawMessage, present, ok bool) {
	if !o.has(name) {
		return nil, false, true
	}
	if json.Unmarshal(o[name], &v) != nil {
		return nil, true, false
	}
	return v, true, true
}

// unknownFields returns the members of o not in known, sorted, as
// "Unknown field: <name>" messages.
func (o object) unknownFields(known ...string) []string {
	var out []string
	for name := range o {
		if !slices.Contains(known, name) {
			out = append(out, "Unknown field: "+name)
		}
	}
	slices.Sort(out)
	return out
}

// inputShape is one of the spec's two input shapes of a subscription.
type inputShape int

const (
	// shapeCreate is SubscriptionCreate (createSubscriptions, updateSubscriptions and
	// updateSubscription): every required field is given, and the others default.
	shapeCreate inputShape = iota
	// shapeBulkItem is a Subscription in a bulk update: the fields it carries change, the others
	// are kept; it may also carry destinationEmail and the server-managed fields.
	shapeBulkItem
)

// knownFields are the members an input of shape may carry: its client-settable fields and the
// server-managed fields (rejected or checked by the caller, never unknown).
func knownFields(shape inputShape) []string {
	var names []string
	for _, f := range subscriptionFields() {
		if f.settable(shape) || f.role == managed {
			names = append(names, f.name)
		}
	}
	return names
}

// managedFields are the server-managed fields of a Subscription.
func managedFields() []string {
	var names []string
	for _, f := range subscriptionFields() {
		if f.role == managed {
			names = append(names, f.name)
		}
	}
	return names
}

func validEventName(v string) bool       { return strings.TrimSpace(v) != "" }
func validDestinationType(v string) bool { return v == "EVENT_STREAMS" || v == "EMAIL" }
func validLogLevel(v string) bool        { return v == "INFO" || v == "WARNING" || v == "ERROR" }

// readFields sets the client-settable fields o carries on sub, and returns the messages that
// reject o's values: the spec's "Must provide a valid ..." ones of the required fields first,
// then type errors of the others, each in field order. A field o does not carry (or carries
// as null) keeps sub's value; a required one is then rejected in shapeCreate.
func readFields(o object, sub *Subscription, shape inputShape) []string {
	var msgs []string
	for _, requiredPass := range []bool{true, false} {
		for _, f := range subscriptionFields() {
			if !f.settable(shape) || (f.role == required) != requiredPass {
				continue
			}
			if msg := f.read(o, sub, shape); msg != "" {
				msgs = append(msgs, msg)
			}
		}
	}
	return msgs
}

// parseCreate validates one SubscriptionCreate (updateSubscriptions, createSubscriptions and
// updateSubscription) and returns its client-settable fields (enabled defaults to true), or the
// 400 messages: those of readFields, then server-managed fields, then unknown fields.
func parseCreate(o object) (Subscription, []string) {
	in := Subscription{Enabled: true}
	msgs := readFields(o, &in, shapeCreate)
	msgs = append(msgs, managedFieldMessages(o)...)
	msgs = append(msgs, o.unknownFields(knownFields(shapeCreate)...)...)
	return in, msgs
}

// managedFieldMessages rejects server-managed fields on input.
func managedFieldMessages(o object) []string {
	var msgs []string
	for _, name := range managedFields() {
		if o.has(name) {
			msgs = append(msgs, name+" is managed by the service and cannot be provided")
		}
	}
	return msgs
}

// parseCreateList validates the body of updateSubscriptions and createSubscriptions
// (SubscriptionCreateRequest).
func parseCreateList(o object) ([]Subscription, []string) {
	msgs := o.unknownFields("subscriptions")
	items, present, ok := o.array("subscriptions")
	switch {
	case !present:
		return nil, append([]string{"subscriptions is required"}, msgs...)
	case !ok:
		return nil, append([]string{"subscriptions must be an array"}, msgs...)
	}
	out := make([]Subscription, 0, len(items))
	var itemMsgs []string
	for _, raw := range items {
		item, isObj := asObject(raw)
		if !isObj {
			itemMsgs = append(itemMsgs, msgItemNotObject)
			continue
		}
		in, m := parseCreate(item)
		itemMsgs = append(itemMsgs, m...)
		out = append(out, in)
	}
	msgs = append(itemMsgs, msgs...)
	if len(msgs) > 0 {
		return nil, msgs
	}
	return out, nil
}
