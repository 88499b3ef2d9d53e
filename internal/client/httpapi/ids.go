package httpapi

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
)

// Identifiers cross two boundaries: an account or subscription id becomes a segment of a
// request path, and an id the service returns enters the caller's state and, later, a path.
// Dot segments pass url.PathEscape unchanged, and a proxy that normalises paths resolves
// ".../accounts/../subscriptions" or ".../subscriptions/." elsewhere (for a delete: to the
// collection, every subscription of the account). So the client refuses such a segment before
// anything is sent, and package client checks the ids of every subscription the service
// returns (its answer_check.go). Nothing is ever repaired silently.

// ErrInvalidID matches the error of an account or subscription id that cannot be sent as a
// path segment, or of an answer whose subscription ids or account are not acceptable.
var ErrInvalidID = errors.New("invalid identifier")

// maxIDBytes bounds an account or subscription id; the service's ids are far shorter.
const maxIDBytes = 256

// idError is an id refused by CheckAccountID or CheckPathSegment.
type idError struct{ msg string }

// Error says what is wrong with the id.
func (e *idError) Error() string { return e.msg }

// Is makes errors.Is(err, ErrInvalidID) work.
func (e *idError) Is(target error) bool { return target == ErrInvalidID }

// NewIDError returns an error with the message msg that matches ErrInvalidID: package client
// refuses an answer's ids and accounts with it.
func NewIDError(msg string) error { return &idError{msg: msg} }

// Quoted shows a value from outside (configuration or service) between quotes, through
// ServiceText.
func Quoted(s string) string { return `"` + ServiceText(s) + `"` }

// CheckAccountID accepts an account id that can be sent as one path segment: not empty, not a
// dot segment ("." or ".."), without "/" or "\" (which a proxy may decode or treat as a
// separator), without control, format (bidirectional) or separator characters, valid UTF-8,
// and at most 256 bytes. It is the check behind every account_id argument and the client's
// own check before any request.
func CheckAccountID(id string) error {
	return CheckPathSegment("account id", id)
}

// CheckPathSegment applies CheckAccountID's rules to an id of the given kind.
func CheckPathSegment(what, id string) error {
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
	case HasUnsafeRune(id):
		i := strings.IndexFunc(id, UnsafeRune)
		r, _ := utf8.DecodeRuneInString(id[i:])
		problem = fmt.Sprintf("contains the control or invisible character %U", r)
	case len(id) > maxIDBytes:
		problem = fmt.Sprintf("is %d bytes long; at most %d are accepted", len(id), maxIDBytes)
	default:
		return nil
	}
	return &idError{msg: fmt.Sprintf("the %s %s %s", what, Quoted(id), problem)}
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
