package provider

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// The state of a restapi_object (mastercard/restapi) that manages one subscription, as the
// REST provider writes it (testdata/restapi/ holds states that Terraform and OpenTofu wrote):
// `path` is the account's subscriptions collection below the provider's uri, `id` the
// subscription id (id_attribute = "subscriptions/0/subscriptionId"), `data` the JSON body of
// the create, `api_response` and `create_response` the service's answers, and `api_data` their
// top-level fields as strings.

// restapiSubscription is what a move takes from a restapi_object's state.
type restapiSubscription struct {
	AccountID string
	ID        string
}

// parseRestapiSubscription reads the account and the subscription id from the raw state of
// a restapi_object. The account comes from the path; the id from `id`, else `object_id`, else
// the path's last segment (a restapi_object imported by its object's path), else the
// service's answer. It refuses, saying why, a state that is not of one subscription: another
// path, no id or one that is not a subscription id, a body of several subscriptions, answers
// that name another subscription or account.
func parseRestapiSubscription(raw []byte) (restapiSubscription, error) {
	var attrs map[string]any
	if err := json.Unmarshal(raw, &attrs); err != nil || attrs == nil {
		return restapiSubscription{}, errors.New("the restapi_object's state is not a JSON object: there is no object to move")
	}
	account, pathID, err := restapiSubscriptionPath(stringAttr(attrs, "path"))
	if err != nil {
		return restapiSubscription{}, err
	}
	if n := restapiBodySubscriptions(stringAttr(attrs, "data")); n > 1 {
		return restapiSubscription{}, fmt.Errorf("the restapi_object's data holds %d subscriptions, and its state the id "+
			"of the first only: a move takes one subscription", n)
	}
	answered, answeredAccount := restapiAnswered(attrs)
	id := cmp.Or(stringAttr(attrs, "id"), stringAttr(attrs, "object_id"), pathID, answered)
	if id == "" {
		return restapiSubscription{}, errors.New("the restapi_object's state has no id: the object was deleted, or " +
			"never created")
	}
	if !isUUID(id) {
		return restapiSubscription{}, fmt.Errorf("the restapi_object's id %s is not a subscription id (a UUID): its "+
			"id_attribute does not name subscriptions/0/subscriptionId", quoteBounded(id))
	}
	id = strings.ToLower(id)
	if answered != "" && !strings.EqualFold(answered, id) {
		return restapiSubscription{}, fmt.Errorf("the restapi_object's id %s is not the subscription %s that the "+
			"service's answer in its state holds", id, quoteBounded(answered))
	}
	if answeredAccount != "" && answeredAccount != account {
		return restapiSubscription{}, fmt.Errorf("the restapi_object's path names account %q but the service's "+
			"answer in its state names account %s", account, quoteBounded(answeredAccount))
	}
	return restapiSubscription{AccountID: account, ID: id}, nil
}

// restapiSubscriptionPath reads the account from a restapi_object's path, which ends in
// accounts/<account_id>/subscriptions, or in accounts/<account_id>/subscriptions/<id> for an
// object imported by its own path (the id is returned too). What comes before (/rest/v1, or
// nothing when the provider's uri holds it), a query string and a trailing slash do not count.
func restapiSubscriptionPath(p string) (account, id string, err error) {
	wrong := fmt.Errorf("the restapi_object's path %s is not an account's subscriptions collection "+
		"(/rest/v1/accounts/<account_id>/subscriptions)", quoteBounded(p))
	clean, _, _ := strings.Cut(p, "?")
	segments := strings.Split(strings.Trim(clean, "/"), "/")
	n := len(segments)
	switch {
	case n >= 3 && segments[n-3] == "accounts" && segments[n-1] == "subscriptions":
		account = segments[n-2]
	case n >= 4 && segments[n-4] == "accounts" && segments[n-2] == "subscriptions":
		account, id = segments[n-3], segments[n-1]
	default:
		return "", "", wrong
	}
	account, err = url.PathUnescape(account)
	if err != nil || strings.TrimSpace(account) == "" {
		return "", "", wrong
	}
	if err := httpapi.CheckAccountID(account); err != nil {
		return "", "", fmt.Errorf("in the restapi_object's path %s, %s", quoteBounded(p), accountIDAdvice(err))
	}
	return account, id, nil
}

// restapiBodySubscriptions counts the subscriptions of a createSubscriptions body
// ({"subscriptions": [...]}); 0 for any other text.
func restapiBodySubscriptions(data string) int {
	var body struct {
		Subscriptions []json.RawMessage `json:"subscriptions"`
	}
	if json.Unmarshal([]byte(data), &body) != nil {
		return 0
	}
	return len(body.Subscriptions)
}

// restapiAnswered reads the subscription id and account of the service's answers in a
// restapi_object's state: api_response (the last read), else create_response, in any of the
// service's shapes (one subscription at the top level, under "subscription", or the only one
// under "subscriptions"), else api_data's subscriptionId and accountId.
func restapiAnswered(attrs map[string]any) (id, account string) {
	for _, name := range []string{"api_response", "create_response"} {
		if s, ok := subscriptionInAnswer(stringAttr(attrs, name)); ok {
			return s.SubscriptionID, s.AccountID
		}
	}
	apiData, _ := attrs["api_data"].(map[string]any)
	return stringAttr(apiData, "subscriptionId"), stringAttr(apiData, "accountId")
}

// answeredSubscription is the part of a subscription that a move checks.
type answeredSubscription struct {
	SubscriptionID string `json:"subscriptionId"`
	AccountID      string `json:"accountId"`
}

// subscriptionInAnswer finds the one subscription of an answer of the service.
func subscriptionInAnswer(body string) (answeredSubscription, bool) {
	var answer struct {
		answeredSubscription
		Subscription  *answeredSubscription  `json:"subscription"`
		Subscriptions []answeredSubscription `json:"subscriptions"`
	}
	if body == "" || json.Unmarshal([]byte(body), &answer) != nil {
		return answeredSubscription{}, false
	}
	switch {
	case answer.SubscriptionID != "":
		return answer.answeredSubscription, true
	case answer.Subscription != nil && answer.Subscription.SubscriptionID != "":
		return *answer.Subscription, true
	case len(answer.Subscriptions) == 1 && answer.Subscriptions[0].SubscriptionID != "":
		return answer.Subscriptions[0], true
	}
	return answeredSubscription{}, false
}

// stringAttr is a string attribute of a decoded JSON object; "" when it is absent, null or
// not a string.
func stringAttr(attrs map[string]any, name string) string {
	s, _ := attrs[name].(string)
	return strings.TrimSpace(s)
}
