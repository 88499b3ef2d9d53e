package client

// Settling updates whose answer did not tell their outcome: a PUT or a bulk update answered
// with a 2xx whose body cannot be read, a 5xx or a lost connection after the retries
// (outcomeUnknown), or a 207 that holds no status for some items. The service may have
// applied them, so they are read back: what the service holds decides. Settings equal to the
// update's mean updated; other settings mean not updated (ErrNotUpdated); the service's 404
// means gone; a read that fails leaves the outcome unknown (ErrOutcomeUnknown). An update is
// never sent again because of its answer beyond the retries of the HTTP layer (httpapi's
// retryPolicy: 429, 502, 503, 504 and network errors). The cost: one GET for one update, one
// listing of the account for many (DESIGN.md#lost-answers-and-ownership).

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// ErrNotUpdated matches the error of an update whose answer did not tell its outcome and whose
// subscription, read back, holds other settings than the update's: the service had not
// applied it when it was read.
var ErrNotUpdated = errors.New("not updated")

// readBackGetsAtMost is the number of subscriptions up to which a read-back reads each one
// (one round of readWorkers reads in parallel, about the time of one request); more are read
// from one listing of the account, ceil(M / 100) requests for M subscriptions whatever their
// number.
const readBackGetsAtMost = readWorkers

// ReadBackError is the error of an update whose answer did not tell its outcome, once its
// subscription was read back: the service holds other settings than the update's (ReadErr nil;
// matches ErrNotUpdated), or the read failed too (matches ErrOutcomeUnknown).
type ReadBackError struct {
	// Operation is "update subscription" (a PUT) or "bulk update subscriptions".
	Operation string
	// AccountID and SubscriptionID name the subscription.
	AccountID, SubscriptionID string
	// Cause is why the answer did not tell: the request's error, or nil when a bulk answer
	// simply held no status for the subscription.
	Cause error
	// ReadErr is the failure of the read-back, nil when it read the subscription.
	ReadErr error
	// Listed tells that the read-back was one listing of the account rather than a GET each.
	Listed bool
}

// Error says what was sent, why its answer did not tell, and what the read-back showed.
func (e *ReadBackError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: subscription %s: ", e.Operation, e.SubscriptionID)
	if e.ReadErr != nil {
		b.WriteString(ErrOutcomeUnknown.Error())
	} else {
		b.WriteString(ErrNotUpdated.Error())
	}
	fmt.Fprintf(&b, ": the answer did not tell whether the update was applied (%s)", e.Reason())
	if e.ReadErr != nil {
		fmt.Fprintf(&b, ", and reading the subscription back failed: %v", e.ReadErr)
	} else {
		b.WriteString(", and read back, the service holds other settings than the update's")
	}
	return b.String()
}

// Reason says why the answer did not tell the outcome: the request's error, or that the
// answer held no status for the subscription.
func (e *ReadBackError) Reason() string {
	if e.Cause == nil {
		return "the answer held no status for the subscription"
	}
	return e.Cause.Error()
}

// Is matches ErrOutcomeUnknown when the read-back failed, ErrNotUpdated when it did not.
func (e *ReadBackError) Is(target error) bool {
	return target == ErrOutcomeUnknown && e.ReadErr != nil || target == ErrNotUpdated && e.ReadErr == nil
}

// Unwrap returns the cause and the read's error, those that are set.
func (e *ReadBackError) Unwrap() []error {
	var out []error
	for _, err := range []error{e.Cause, e.ReadErr} {
		if err != nil {
			out = append(out, err)
		}
	}
	return out
}

// openUpdate is an update whose answer did not tell its outcome: its index among the
// updates, and the request's error (nil when a 207 held no status for it).
type openUpdate struct {
	index int
	cause error
}

// settleUpdates reads back the subscriptions of open (indexes into updates) and sets their
// results from what the service holds. With the caller's context done nothing can be read,
// and their outcome stays unknown.
func (c *Client) settleUpdates(ctx context.Context, op, accountID string, updates []SubscriptionUpdate, open []openUpdate, results []BulkUpdateResult) {
	if len(open) == 0 {
		return
	}
	ids := make([]string, len(open))
	for j, o := range open {
		ids[j] = updates[o.index].ID
	}
	var subs []*Subscription
	var errs []error
	listed := false
	if ctx.Err() != nil {
		errs = make([]error, len(ids))
		for j := range errs {
			errs[j] = ctx.Err()
		}
		subs = make([]*Subscription, len(ids))
	} else {
		subs, errs, listed = c.readBack(ctx, accountID, ids)
	}
	updated := 0
	for j, o := range open {
		u := updates[o.index]
		r := &results[o.index]
		r.ReadBack, r.Err = true, nil
		switch err := errs[j]; {
		case errors.Is(err, httpapi.ErrNotFound) && op == opUpdateSubscription:
			r.Err = err // the read's own 404, as a PUT's would be
		case errors.Is(err, httpapi.ErrNotFound):
			r.Err = &ItemError{Operation: op, AccountID: accountID, SubscriptionID: u.ID, HTTPEquivalentCode: http.StatusNotFound,
				Message: "Subscription not found (read back after the update's answer did not tell its outcome)"}
		case err != nil:
			r.Err = &ReadBackError{Operation: op, AccountID: accountID, SubscriptionID: u.ID, Cause: o.cause, ReadErr: err, Listed: listed}
		case !holdsInput(*subs[j], u.Input):
			r.Err = &ReadBackError{Operation: op, AccountID: accountID, SubscriptionID: u.ID, Cause: o.cause, Listed: listed}
		default:
			r.read = subs[j]
			updated++
		}
	}
	tflog.Warn(ctx, "An update's answer did not tell its outcome; the subscriptions were read back", map[string]any{
		"account_id": accountID, "operation": op, "read_back": len(open), "updated": updated, "sent": len(updates), "listed": listed})
}

// readBack reads the subscriptions of ids, in their order: a GET each for at most
// readBackGetsAtMost of them, otherwise one listing of the account and a GET for each id the
// listing lacks (only the service's 404 says that a subscription is gone; a listing may miss
// one that shifted between its pages). listed tells that the account was listed.
func (c *Client) readBack(ctx context.Context, accountID string, ids []string) (subs []*Subscription, errs []error, listed bool) {
	if len(ids) <= readBackGetsAtMost {
		subs, errs = c.GetSubscriptions(ctx, accountID, ids)
		return subs, errs, false
	}
	list, err := c.AccountSubscriptions(ctx, accountID)
	var incomplete *IncompleteListingError
	if errors.As(err, &incomplete) {
		// Every subscription it shows is the service's; what it misses is read on its own.
		list, err = incomplete.Subscriptions, nil
	}
	subs, errs = make([]*Subscription, len(ids)), make([]error, len(ids))
	if err != nil {
		for i := range errs {
			errs[i] = err
		}
		return subs, errs, true
	}
	byID := make(map[string]*Subscription, len(list))
	for i := range list {
		byID[listingKey(list[i].ID)] = &list[i]
	}
	var missing []string
	var at []int
	for i, id := range ids {
		if s, ok := byID[listingKey(id)]; ok {
			subs[i] = s
			continue
		}
		missing, at = append(missing, id), append(at, i)
	}
	got, gotErrs := c.GetSubscriptions(ctx, accountID, missing)
	for j, i := range at {
		subs[i], errs[i] = got[j], gotErrs[j]
	}
	return subs, errs, true
}
