package mockserver

import (
	"cmp"
	"net/http"
	"slices"
	"strings"
)

// Topic is an event-streams topic created by createEventStreamTopicAndSubscription, with the names
// of the event-streams subscriptions created on it (in creation order).
type Topic struct {
	AccountID, EnvironmentID, Name, Description string
	SubscriptionNames                           []string
}

// topicKey identifies a topic within an account.
type topicKey struct{ environmentID, name string }

// Topics returns copies of the account's topics sorted by environment ID,
// then name.
func (s *Server) Topics(accountID string) []Topic {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Topic, 0, len(s.topics[accountID]))
	for _, t := range s.topics[accountID] {
		c := *t
		c.SubscriptionNames = slices.Clone(t.SubscriptionNames)
		out = append(out, c)
	}
	slices.SortFunc(out, func(x, y Topic) int {
		return cmp.Or(strings.Compare(x.EnvironmentID, y.EnvironmentID), strings.Compare(x.Name, y.Name))
	})
	return out
}

// createTopicSubscription serves createEventStreamTopicAndSubscription. The topic is created the
// first time an environment and topic name are seen for the account;
// every call adds a subscription to it, so subscriptionCount counts the
// calls. A non-empty topicDescription replaces the stored one.
func (s *Server) createTopicSubscription(w http.ResponseWriter, r *http.Request, c call) {
	o, msg, ok := readObject(w, r)
	if !ok {
		writeSpecError(w, r, http.StatusBadRequest, msg)
		return
	}
	fields := []string{"eventStreamsEnvironmentId", "eventStreamsSubscriptionName", "topicName", "topicDescription"}
	values := make(map[string]string, len(fields))
	var msgs []string
	for i, name := range fields {
		v, _, isStr := o.str(name)
		switch {
		case !isStr:
			msgs = append(msgs, "Invalid value for "+name+": must be a string")
		case i < 3 && strings.TrimSpace(v) == "":
			msgs = append(msgs, name+" cannot be blank")
		}
		values[name] = v
	}
	msgs = append(msgs, o.unknownFields(fields...)...)
	if len(msgs) > 0 {
		writeSpecError(w, r, http.StatusBadRequest, msgs...)
		return
	}

	key := topicKey{environmentID: values["eventStreamsEnvironmentId"], name: values["topicName"]}
	subName := values["eventStreamsSubscriptionName"]
	s.mu.Lock()
	if msg := s.overLimitLocked(c.accountID, s.topicSubs[c.accountID]+1, true); msg != "" {
		s.mu.Unlock()
		writeSpecError(w, r, http.StatusConflict, msg)
		return
	}
	s.topicSubs[c.accountID]++
	byKey := s.topics[c.accountID]
	if byKey == nil {
		byKey = make(map[topicKey]*Topic)
		s.topics[c.accountID] = byKey
	}
	t := byKey[key]
	if t == nil {
		t = &Topic{AccountID: c.accountID, EnvironmentID: key.environmentID, Name: key.name}
		byKey[key] = t
	}
	if d := values["topicDescription"]; d != "" {
		t.Description = d
	}
	t.SubscriptionNames = append(t.SubscriptionNames, subName)
	count := len(t.SubscriptionNames)
	s.mu.Unlock()

	writeJSON(w, r, http.StatusCreated, topicResponse{Data: topicResponseData{
		EventStreamsSubscriptionCreate: topicSubscription{
			Name: subName,
			Topic: topicInfo{
				Name:              key.name,
				Environment:       topicEnvironment{ID: key.environmentID},
				SubscriptionCount: int32(min(count, 1<<31-1)),
			},
		},
	}})
}
