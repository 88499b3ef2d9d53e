package provider

import (
	"fmt"
	"strings"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// destinationEventStreams is the destination type of a subscription that delivers to an
// event-streams topic.
const destinationEventStreams = "EVENT_STREAMS"

// subscriptionScope is the part of an account that an authoritative resource holds: the whole
// account (eventnotify_account_subscriptions, the zero value), or one event-streams topic of
// one environment (eventnotify_topic_subscriptions). The matcher (matchEntries), the writer
// (converge, clientWriter), the refresh (refreshScope) and the takeover plan (takeoverScan)
// are the same for both; the scope decides which subscriptions of a listing they see, and how
// their messages name what is held. A subscription outside the scope is never read into
// state, changed or deleted.
type subscriptionScope struct {
	environmentID, topic string // both "" for the whole account
}

// topicScope is the scope of one topic of one environment.
func topicScope(environmentID, topic string) subscriptionScope {
	return subscriptionScope{environmentID: environmentID, topic: topic}
}

// isTopic reports whether the scope is one topic rather than the whole account.
func (s subscriptionScope) isTopic() bool { return s.environmentID != "" || s.topic != "" }

// holds reports whether a subscription of the account is in the scope: any, for the account;
// for a topic, destination type EVENT_STREAMS (in any letter case, as the service may spell it
// back), and the environment id and topic exactly, as the service compares them.
func (s subscriptionScope) holds(sub *client.Subscription) bool {
	if !s.isTopic() {
		return true
	}
	return strings.EqualFold(strings.TrimSpace(sub.DestinationType), destinationEventStreams) &&
		sub.EventStreamsEnvironment == s.environmentID && sub.EventStreamsTopic == s.topic
}

// filter returns the subscriptions of list in the scope.
func (s subscriptionScope) filter(list []client.Subscription) []client.Subscription {
	if !s.isTopic() {
		return list
	}
	out := make([]client.Subscription, 0, len(list))
	for i := range list {
		if s.holds(&list[i]) {
			out = append(out, list[i])
		}
	}
	return out
}

// typeName is the type of the resource authoritative for the scope.
func (s subscriptionScope) typeName() string {
	if s.isTopic() {
		return topicResourceTypeName
	}
	return accountResourceTypeName
}

// where names the scope in a message: `account "a"`, or `topic "t" of environment "e" in
// account "a"`.
func (s subscriptionScope) where(account string) string {
	if s.isTopic() {
		return fmt.Sprintf("topic %s of environment %s in account %q", quoteBounded(s.topic), quoteBounded(s.environmentID), account)
	}
	return fmt.Sprintf("account %q", account)
}

// holder is what holds the scope's subscriptions, at the start of a sentence.
func (s subscriptionScope) holder() string { return "The " + s.noun() }

// noun is what holds the scope's subscriptions: "account" or "topic".
func (s subscriptionScope) noun() string {
	if s.isTopic() {
		return "topic"
	}
	return "account"
}

// importID is the import id of the scope's resource.
func (s subscriptionScope) importID(account string) string {
	if s.isTopic() {
		return account + "/" + s.environmentID + "/" + s.topic
	}
	return account
}

// sameWhat says what an entry and a subscription of the scope have in common when the entry
// takes it over.
func (s subscriptionScope) sameWhat() string {
	if s.isTopic() {
		return "same event, log level, environment name and enabled"
	}
	return "same event, destination, log level, topic and enabled"
}

// shellQuoted is s as a shell word: as it is when it holds only characters no shell reads
// specially, else in single quotes.
func shellQuoted(s string) string {
	plain := func(r rune) bool {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-/:@+=,", r)
	}
	if s != "" && strings.IndexFunc(s, func(r rune) bool { return !plain(r) }) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
