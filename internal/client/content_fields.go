package client

import (
	"strconv"
	"strings"
)

// contentFields is the one list of a subscription's content: every field of
// SubscriptionInput, read from an input and from a Subscription, with how the service may
// spell it back. The content key, by which a lost create answer is settled
// (create_reconcile.go) and a short answer is handed out (create_settle.go), derives from it.
// A field of SubscriptionInput or Subscription that is neither here nor server-managed fails
// TestContentFields, naming it.
var contentFields = []contentField{
	{name: "EventName", compare: caseInsensitive,
		input: func(in *SubscriptionInput) string { return in.EventName },
		sub:   func(s *Subscription) string { return s.EventName }},
	{name: "DestinationType", compare: caseInsensitive,
		input: func(in *SubscriptionInput) string { return in.DestinationType },
		sub:   func(s *Subscription) string { return s.DestinationType }},
	{name: "LogLevel", compare: logLevelSpelling,
		input: func(in *SubscriptionInput) string { return in.LogLevel },
		sub:   func(s *Subscription) string { return s.LogLevel }},
	{name: "EventStreamsEnvironment", compare: exact,
		input: func(in *SubscriptionInput) string { return in.EventStreamsEnvironment },
		sub:   func(s *Subscription) string { return s.EventStreamsEnvironment }},
	{name: "EventStreamsEnvironmentName", compare: exact,
		input: func(in *SubscriptionInput) string { return in.EventStreamsEnvironmentName },
		sub:   func(s *Subscription) string { return s.EventStreamsEnvironmentName }},
	{name: "EventStreamsTopic", compare: exact,
		input: func(in *SubscriptionInput) string { return in.EventStreamsTopic },
		sub:   func(s *Subscription) string { return s.EventStreamsTopic }},
	// An unset Enabled is the service's default, true.
	{name: "Enabled", compare: exact,
		input: func(in *SubscriptionInput) string { return strconv.FormatBool(in.Enabled == nil || *in.Enabled) },
		sub:   func(s *Subscription) string { return strconv.FormatBool(s.Enabled) }},
}

// contentField is one field of a subscription's content.
type contentField struct {
	name    string // the field's Go name, the same in SubscriptionInput and Subscription
	compare comparison
	input   func(*SubscriptionInput) string
	sub     func(*Subscription) string
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

// key is the content key of a subscription.
func (s Subscription) key() string {
	return contentKey(func(f contentField) string { return f.sub(&s) })
}
