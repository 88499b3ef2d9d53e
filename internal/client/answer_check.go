package client

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// An id the service returns enters the caller's state and, later, a request path: every
// subscription of an answer is checked before it reaches the caller (httpapi/ids.go says why
// ids are checked at all). Nothing is ever repaired silently.

// maxSubscriptionFieldBytes bounds each text field of a subscription the service returns
// before it may enter state: names, topics and e-mail addresses are far shorter (a topic name
// has at most 249 characters, an e-mail address 254).
const maxSubscriptionFieldBytes = 4096

// checkAnswer checks the subscriptions of an answer about accountID before they reach the
// caller: each id is a UUID (required when requireID is set; an answer to a create may leave
// one out, which create_adopt.go handles), each text field is within
// maxSubscriptionFieldBytes and holds no control or invisible character (answer_text.go), and
// an account the service names is accountID, byte for byte (httpapi.SameAccount). The account
// of each is then set to accountID, so that the account the caller holds is the one it asked about,
// never one the service substituted.
func checkAnswer(accountID string, subs []Subscription, requireID bool) error {
	for i := range subs {
		s := &subs[i]
		switch {
		case s.ID == "" && requireID:
			return httpapi.NewIDError(fmt.Sprintf("the answer holds a subscription without a subscriptionId (event %s)", httpapi.Quoted(s.EventName)))
		case s.ID != "" && !httpapi.IsUUID(s.ID):
			return httpapi.NewIDError(fmt.Sprintf("the answer holds the subscription id %s, which is not a UUID", httpapi.Quoted(s.ID)))
		case s.AccountID != "" && !httpapi.SameAccount(s.AccountID, accountID):
			return httpapi.NewIDError(fmt.Sprintf("the answer about account %s holds subscription %s of account %s",
				httpapi.Quoted(accountID), s.ID, httpapi.Quoted(s.AccountID)))
		}
		if name, n := longestField(s); n > maxSubscriptionFieldBytes {
			return httpapi.NewIDError(fmt.Sprintf("the answer holds subscription %s whose %s is %d bytes long; at most %d are accepted",
				httpapi.Quoted(s.ID), name, n, maxSubscriptionFieldBytes))
		}
		if err := checkSubscriptionText(s); err != nil {
			return err
		}
		s.AccountID = accountID
	}
	return nil
}

// longestField returns the JSON name and length of the longest text field of s.
func longestField(s *Subscription) (string, int) {
	name, n := "", 0
	v := reflect.ValueOf(s).Elem()
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.String && f.Len() > n {
			name, _, _ = strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
			n = f.Len()
		}
	}
	return name, n
}
