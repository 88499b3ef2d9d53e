package client

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
)

// Identifiers cross two boundaries: an account or subscription id becomes a segment of a
// request path, and an id the service returns enters the caller's state and, later, a path.
// Dot segments pass url.PathEscape unchanged, and a proxy that normalises paths resolves
// ".../accounts/../subscriptions" or ".../subscriptions/." elsewhere (for a delete: to the
// collection, every subscription of the account). So the client refuses such a segment before
// anything is sent, and checks the ids of every subscription the service returns. Nothing is
// ever repaired silently.

// ErrInvalidID matches the error of an account or subscription id that cannot be sent as a
// path segment, or of an answer whose subscription ids or account are not acceptable.
var ErrInvalidID = errors.New("invalid identifier")

// maxIDBytes bounds an account or subscription id; the service's ids are far shorter.
const maxIDBytes = 256

// maxSubscriptionFieldBytes bounds each text field of a subscription the service returns
// before it may enter state: names, topics and e-mail addresses are far shorter (a topic name
// has at most 249 characters, an e-mail address 254).
const maxSubscriptionFieldBytes = 4096

// idError is an id refused by CheckAccountID or checkPathSegment.
type idError struct{ msg string }

// Error says what is wrong with the id.
func (e *idError) Error() string { return e.msg }

// Is makes errors.Is(err, ErrInvalidID) work.
func (e *idError) Is(target error) bool { return target == ErrInvalidID }

// quoted shows a value from outside (configuration or service) between quotes, through
// ServiceText.
func quoted(s string) string { return `"` + ServiceText(s) + `"` }

// CheckAccountID accepts an account id that can be sent as one path segment: not empty, not a
// dot segment ("." or ".."), without "/" or "\" (which a proxy may decode or treat as a
// separator), without control, format (bidirectional) or separator characters, valid UTF-8,
// and at most 256 bytes. It is the check behind every account_id argument and the client's
// own check before any request.
func CheckAccountID(id string) error {
	return checkPathSegment("account id", id)
}

// checkPathSegment applies CheckAccountID's rules to an id of the given kind.
func checkPathSegment(what, id string) error {
	var problem string
	switch {
	case id == "":
		problem = "is empty"
	case id == "." || id == "..":
		problem = "is a dot segment, which a proxy may resolve to another path"
	case strings.ContainsAny(id, `/\`):
		problem = `contains "/" or "\", which a proxy may take as a path separator`
	case !utf8.ValidString(id):
		problem = "is not valid UTF-8"
	case hasUnsafeRune(id):
		i := strings.IndexFunc(id, unsafeRune)
		r, _ := utf8.DecodeRuneInString(id[i:])
		problem = fmt.Sprintf("contains the control or invisible character %U", r)
	case len(id) > maxIDBytes:
		problem = fmt.Sprintf("is %d bytes long; at most %d are accepted", len(id), maxIDBytes)
	default:
		return nil
	}
	return &idError{msg: fmt.Sprintf("the %s %s %s", what, quoted(id), problem)}
}

// SameAccount reports whether two account ids name the same account: they are equal byte for
// byte. The service's interface gives an account id as a plain string, in request paths and
// in the JWT issued for it, and says nothing of letter case; the mock server authorises
// accounts by exact comparison. So "ACC-1" and "acc-1" are two accounts everywhere: in the
// token cache, the listing cache, the pre-issued JWT's account and the check of an answer.
func SameAccount(a, b string) bool { return a == b }

// IsUUID accepts the canonical 8-4-4-4-12 form of a UUID, in either letter case: the form of
// the service's subscription ids.
func IsUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	_, err := uuid.Parse(s)
	return err == nil
}

// checkAnswer checks the subscriptions of an answer about accountID before they reach the
// caller: each id is a UUID (required when requireID is set; an answer to a create may leave
// one out, which create_reconcile.go handles), each text field is within
// maxSubscriptionFieldBytes and holds no control or invisible character (answer_text.go), and
// an account the service names is accountID, byte for byte (SameAccount). The account of each
// is then set to accountID, so that the account the caller holds is the one it asked about,
// never one the service substituted.
func checkAnswer(accountID string, subs []Subscription, requireID bool) error {
	for i := range subs {
		s := &subs[i]
		switch {
		case s.ID == "" && requireID:
			return &idError{msg: fmt.Sprintf("the answer holds a subscription without a subscriptionId (event %s)", quoted(s.EventName))}
		case s.ID != "" && !IsUUID(s.ID):
			return &idError{msg: fmt.Sprintf("the answer holds the subscription id %s, which is not a UUID", quoted(s.ID))}
		case s.AccountID != "" && !SameAccount(s.AccountID, accountID):
			return &idError{msg: fmt.Sprintf("the answer about account %s holds subscription %s of account %s",
				quoted(accountID), s.ID, quoted(s.AccountID))}
		}
		if name, n := longestField(s); n > maxSubscriptionFieldBytes {
			return &idError{msg: fmt.Sprintf("the answer holds subscription %s whose %s is %d bytes long; at most %d are accepted",
				quoted(s.ID), name, n, maxSubscriptionFieldBytes)}
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
