package client

import (
	"strconv"
	"strings"
)

// contentFields is the one list of a subscription's content: every field of
// SubscriptionInput, how to read it from an input and to set it from a Subscription, with how
// the service may spell it back. The content key, by which a lost create answer is settled
// (create_adopt.go), a short answer is handed out (create_settle.go) and an unanswered
// bulk update item is checked (holdsInput), derives from it, and so do a subscription's
// settings (Subscription.Settings).
//
// A field of SubscriptionInput or Subscription that is neither here nor server-managed fails
// TestContentFields, naming it.
var contentFields = []contentField{
	{name: "EventName", compare: caseInsensitive,
		input: func(in *SubscriptionInput) string { return in.EventName },
		set:   func(in *SubscriptionInput, s *Subscription) { in.EventName = s.EventName }},
	{name: "DestinationType", compare: caseInsensitive,
		input: func(in *SubscriptionInput) string { return in.DestinationType },
		set:   func(in *SubscriptionInput, s *Subscription) { in.DestinationType = s.DestinationType }},
	{name: "LogLevel", compare: logLevelSpelling,
		input: func(in *SubscriptionInput) string { return in.LogLevel },
		set:   func(in *SubscriptionInput, s *Subscription) { in.LogLevel = s.LogLevel }},
	{name: "EventStreamsEnvironment", compare: exact,
		input: func(in *SubscriptionInput) string { return in.EventStreamsEnvironment },
		set:   func(in *SubscriptionInput, s *Subscription) { in.EventStreamsEnvironment = s.EventStreamsEnvironment }},
	{name: "EventStreamsEnvironmentName", compare: exact,
		input: func(in *SubscriptionInput) string { return in.EventStreamsEnvironmentName },
		set: func(in *SubscriptionInput, s *Subscription) {
			in.EventStreamsEnvironmentName = s.EventStreamsEnvironmentName
		}},
	{name: "EventStreamsTopic", compare: exact,
		input: func(in *SubscriptionInput) string { return in.EventStreamsTopic },
		set:   func(in *SubscriptionInput, s *Subscription) { in.EventStreamsTopic = s.EventStreamsTopic }},
	// An unset Enabled is the service's default, true.
	{name: "Enabled", compare: exact,
		input: func(in *SubscriptionInput) string { return strconv.FormatBool(in.Enabled == nil || *in.Enabled) },
		set:   func(in *SubscriptionInput, s *Subscription) { in.Enabled = &s.Enabled }},
}

// contentField is one field of a subscription's content.
type contentField struct {
	name    string // the field's Go name, the same in SubscriptionInput and Subscription
	compare comparison
	input   func(*SubscriptionInput) string         // the value of an input
	set     func(*SubscriptionInput, *Subscription) // sets an input's value to the subscription's
}

// comparison is how the service may spell a value back.
type comparison int

const (
	// exact values come back as sent.
	exact comparison = iota
	// caseInsensitive values may come back in another letter case, or padded.
	caseInsensitive
	// logLevelSpelling values may come back in another spelling of the level (WARN, lower
	// case): canonicalLogLevel.
	logLevelSpelling
)

// normal is v as the comparison sees it.
func (c comparison) normal(v string) string {
	switch c {
	case caseInsensitive:
		return strings.ToLower(strings.TrimSpace(v))
	case logLevelSpelling:
		return canonicalLogLevel(v)
	}
	return v
}

// contentKey joins the normal values of a content, in the order of contentFields.
func contentKey(value func(contentField) string) string {
	var b strings.Builder
	for i, f := range contentFields {
		if i > 0 {
			b.WriteByte(0)
		}
		b.WriteString(f.compare.normal(value(f)))
	}
	return b.String()
}

// key is the content key of an input.
func (in SubscriptionInput) key() string {
	return contentKey(func(f contentField) string { return f.input(&in) })
}

// key is the content key of a subscription: the key of its settings.
func (s Subscription) key() string {
	return s.Settings().key()
}

// Settings returns the input that gives a subscription the settings of s (every field of
// SubscriptionInput, Enabled set): for an update that changes some of them and keeps the rest.
func (s Subscription) Settings() SubscriptionInput {
	var in SubscriptionInput
	for _, f := range contentFields {
		f.set(&in, &s)
	}
	return in
}
