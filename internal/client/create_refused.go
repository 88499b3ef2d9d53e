package client

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// A create whose answer is refused for its text alone (answer_text.go: a control or invisible
// character in a field) did create what it lists, and the answer's ids are still readable: the
// settling of a lost answer reads the account, whose listing the service's saved text makes
// it refuse too when the text is the service's own. Then the outcome is not unknown: the
// error names the ids created. Nothing of the text is saved, escaped or not: an escaped value
// would differ from the service's, so every refresh would plan a change, and an update would
// write the escaped text back over the service's value.

// CreatedUnreadableError is the error of a create that the service carried out, but whose
// subscriptions the client refuses to hand out because their text holds a control or
// invisible character: they exist at the service under IDs, and nothing of them is saved.
type CreatedUnreadableError struct {
	// Operation names the call, such as "create subscriptions".
	Operation string
	// AccountID is the account the subscriptions were created in.
	AccountID string
	// IDs are the subscriptions created that the caller does not hold.
	IDs []string
	// Cause is the refusal of the create's answer (it matches httpapi.ErrMalformedResponse).
	Cause error
	// ReadErr is the failure of the read that was to find them, if it failed.
	ReadErr error
}

// Error names what was created and why it is refused.
func (e *CreatedUnreadableError) Error() string {
	s := fmt.Sprintf("%s in account %q created subscriptions %s, but %v", e.Operation, e.AccountID, strings.Join(e.IDs, ", "), e.Cause)
	if e.ReadErr != nil {
		s += fmt.Sprintf("; reading the account failed too: %v", e.ReadErr)
	}
	return s
}

// Unwrap returns the cause and the read error.
func (e *CreatedUnreadableError) Unwrap() []error {
	if e.ReadErr != nil {
		return []error{e.Cause, e.ReadErr}
	}
	return []error{e.Cause}
}

// textRefusedAnswer is the error of a write's answer refused for the text of its
// subscriptions alone, each of which carries a UUID of the account asked about: ids.
type textRefusedAnswer struct {
	ids []string
	err error // httpapi.MalformedResponse of the refusal
}

// Error is the refusal's.
func (e *textRefusedAnswer) Error() string { return e.err.Error() }

// Unwrap returns the refusal.
func (e *textRefusedAnswer) Unwrap() error { return e.err }

// refusedAnswer is the error of an answer about accountID that checkAnswer refused with err: the
// answer's subscription ids go with it when only their text was refused.
func refusedAnswer(op, accountID string, subs []Subscription, err error) error {
	malformed := httpapi.MalformedResponse(op, err)
	var text *unsafeTextError
	if !errors.As(err, &text) {
		return malformed
	}
	ids := make([]string, 0, len(subs))
	for _, s := range subs {
		if !httpapi.IsUUID(s.ID) || s.AccountID != "" && !httpapi.SameAccount(s.AccountID, accountID) {
			return malformed
		}
		ids = append(ids, s.ID)
	}
	return &textRefusedAnswer{ids: ids, err: malformed}
}

// createdUnreadable returns the exact outcome of a create whose answer, cause, was refused for
// its text alone, when settling it (uerr: its error, if any) did not hand every input out:
// the ids the answer listed that result does not hold, and that no caller holds nor this
// Client read before the create was first sent at start. It returns nil for any other cause.
func (c *Client) createdUnreadable(accountID string, cause, uerr error, result []*Subscription, start time.Time) error {
	var refused *textRefusedAnswer
	if !errors.As(cause, &refused) {
		return nil
	}
	held := map[string]bool{}
	for _, s := range result {
		if s != nil {
			held[listingKey(s.ID)] = true
		}
	}
	var ids []string
	for _, id := range refused.ids {
		if !held[listingKey(id)] && !c.heldFrom(id, start) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	out := &CreatedUnreadableError{Operation: opCreateSubscriptions, AccountID: accountID, IDs: ids, Cause: cause}
	var unknown *UnknownOutcomeError
	switch {
	case errors.As(uerr, &unknown):
		out.ReadErr = unknown.ReadErr
	case uerr != nil:
		out.ReadErr = uerr
	}
	return out
}
