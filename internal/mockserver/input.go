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

// createFields are the fields of the spec's SubscriptionCreate.
func createFields() []string {
	return []string{"eventName", "destinationType", "logLevel", "eventStreamsEnvironment",
		"eventStreamsEnvironmentName", "eventStreamsTopic", "enabled"}
}

// managedFields are the server-managed fields of a Subscription.
func managedFields() []string {
	return []string{"subscriptionId", "accountId", "createdDate", "lastUpdatedDate", "createdBy", "lastUpdatedUserId"}
}

func validEventName(v string) bool       { return strings.TrimSpace(v) != "" }
func validDestinationType(v string) bool { return v == "EVENT_STREAMS" || v == "EMAIL" }
func validLogLevel(v string) bool        { return v == "INFO" || v == "WARNING" || v == "ERROR" }

// subscriptionInput is a validated SubscriptionCreate.
type subscriptionInput struct {
	eventName, destinationType, logLevel string
	env, envName, topic                  string
	enabled                              bool
}

// parseCreate validates one SubscriptionCreate (updateSubscriptions, createSubscriptions and updateSubscription)
// and returns its value or the 400 messages: the spec's "Must provide a
// valid ..." ones first, in the spec's order, then type errors of the
// optional fields, then server-managed fields, then unknown fields.
func parseCreate(o object) (subscriptionInput, []string) {
	var in subscriptionInput
	var msgs []string
	required := []struct {
		name  string
		valid func(string) bool
		msg   string
		dst   *string
	}{
		{"eventName", validEventName, msgInvalidEventName, &in.eventName},
		{"destinationType", validDestinationType, msgInvalidDestType, &in.destinationType},
		{"logLevel", validLogLevel, msgInvalidLogLevel, &in.logLevel},
	}
	for _, f := range required {
		v, present, ok := o.str(f.name)
		if !present || !ok || !f.valid(v) {
			msgs = append(msgs, f.msg)
			continue
		}
		*f.dst = v
	}
	optional := []struct {
		name string
		dst  *string
	}{
		{"eventStreamsEnvironment", &in.env},
		{"eventStreamsEnvironmentName", &in.envName},
		{"eventStreamsTopic", &in.topic},
	}
	for _, f := range optional {
		v, _, ok := o.str(f.name)
		if !ok {
			msgs = append(msgs, "Invalid value for "+f.name+": must be a string")
		}
		*f.dst = v
	}
	in.enabled = true
	if v, present, ok := o.boolean("enabled"); !ok {
		msgs = append(msgs, "Invalid value for enabled: must be a boolean")
	} else if present {
		in.enabled = v
	}
	msgs = append(msgs, managedFieldMessages(o)...)
	msgs = append(msgs, o.unknownFields(append(createFields(), managedFields()...)...)...)
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
func parseCreateList(o object) ([]subscriptionInput, []string) {
	msgs := o.unknownFields("subscriptions")
	items, present, ok := o.array("subscriptions")
	switch {
	case !present:
		return nil, append([]string{"subscriptions is required"}, msgs...)
	case !ok:
		return nil, append([]string{"subscriptions must be an array"}, msgs...)
	}
	out := make([]subscriptionInput, 0, len(items))
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
