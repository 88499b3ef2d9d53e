package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
)

// SeedSubscriptions stores the subscriptions that body describes in the account, as though
// createdBy had created them through the API, and returns what was stored, in body's order.
// It is how a test or cmd/eventnotify-mock -seed starts with subscriptions that exist
// outside Terraform.
//
// body is a SubscriptionCreateRequest ({"subscriptions": [...]}, the body of
// createSubscriptions) or a JSON array of SubscriptionCreate objects. Each object is
// validated as createSubscriptions validates it, and may also carry a subscriptionId (a
// uuid not yet in the account nor repeated in body), so that a test can import a
// subscription it knows the id of; without one, the subscription gets a new uuid. The
// subscriptions are created one millisecond apart, in body's order, so that a listing
// sorted by createdDate shows them in that order. When any object is invalid nothing is
// stored, and the error names each invalid object by its index.
func (s *Server) SeedSubscriptions(accountID, createdBy string, body []byte) ([]Subscription, error) {
	items, err := seedItems(body)
	if err != nil {
		return nil, err
	}
	subs := make([]*Subscription, 0, len(items))
	seen := make(map[string]bool, len(items))
	var problems []string
	for i, raw := range items {
		sub, msgs := seedSubscription(accountID, createdBy, raw, seen)
		for _, m := range msgs {
			problems = append(problems, fmt.Sprintf("subscriptions[%d]: %s", i, m))
		}
		subs = append(subs, sub)
	}
	if len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "; "))
	}

	now := s.nowMillis()
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.accountLocked(accountID, true)
	for i, sub := range subs {
		if sub.SubscriptionID != "" && a.get(sub.SubscriptionID) != nil {
			return nil, fmt.Errorf("subscriptions[%d]: subscriptionId %s already exists in account %q", i, sub.SubscriptionID, accountID)
		}
	}
	out := make([]Subscription, len(subs))
	for i, sub := range subs {
		created := now - int64(len(subs)-1-i)
		if sub.SubscriptionID == "" {
			sub.SubscriptionID = uuid.NewString()
		}
		sub.CreatedDate = created
		touch(sub, createdBy, created)
		a.put(sub)
		out[i] = *sub
	}
	return out, nil
}

// seedItems splits body into its SubscriptionCreate objects.
func seedItems(body []byte) ([]json.RawMessage, error) {
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		var items []json.RawMessage
		if err := json.Unmarshal(body, &items); err != nil {
			return nil, fmt.Errorf("not a JSON array of subscriptions: %w", err)
		}
		return items, nil
	}
	if !json.Valid(body) {
		return nil, errors.New(`not JSON: want {"subscriptions": [...]} or a JSON array of subscriptions`)
	}
	o, ok := asObject(body)
	if !ok {
		return nil, errors.New(`want {"subscriptions": [...]} or a JSON array of subscriptions`)
	}
	if unknown := o.unknownFields("subscriptions"); len(unknown) > 0 {
		return nil, errors.New(strings.Join(unknown, "; "))
	}
	items, present, ok := o.array("subscriptions")
	if !present || !ok {
		return nil, errors.New(`"subscriptions" must be an array of subscriptions`)
	}
	return items, nil
}

// seedSubscription validates one object of a seed: a SubscriptionCreate with an optional
// subscriptionId. The returned subscription's id is canonical, or "" for a new one.
func seedSubscription(accountID, createdBy string, raw json.RawMessage, seen map[string]bool) (*Subscription, []string) {
	o, ok := asObject(raw)
	if !ok {
		return nil, []string{msgItemNotObject}
	}
	var msgs []string
	id := ""
	if o.has("subscriptionId") {
		v, _, isString := o.str("subscriptionId")
		canonical, isUUID := canonicalID(v)
		switch {
		case !isString || !isUUID:
			msgs = append(msgs, "subscriptionId must be a uuid")
		case seen[canonical]:
			msgs = append(msgs, "subscriptionId "+canonical+" is repeated")
		default:
			seen[canonical] = true
			id = canonical
		}
		delete(o, "subscriptionId")
	}
	in, inputMsgs := parseCreate(o)
	msgs = append(msgs, inputMsgs...)
	if len(msgs) > 0 {
		return nil, msgs
	}
	sub := &Subscription{SubscriptionID: id, AccountID: accountID, CreatedBy: createdBy}
	applyInput(sub, in, createdBy, 0)
	return sub, nil
}
