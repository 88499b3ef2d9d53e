package client

// The adoption window of a lost create: the span of the service's clock in which the request could
// have created a subscription, from when it was sent, less httpapi.ServiceClockSkew, to when its
// failed answer came back, plus httpapi.ServiceClockSkew, both by the lower bound of the service's
// clock that its Date headers give (httpapi/service_clock.go). A subscription dated inside it is
// adopted silently; one dated later is adopted with a *LateAdoptionWarning that names it (a bound
// that runs low, by up to the Date header's second, only adds a warning). Why:
// DESIGN.md#lost-answers-and-ownership.

import (
	"fmt"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// sendSpan is when, by this machine's clock, a create was first and last sent and its answer came back,
// and, when that answer was lost, what the create still looks for.
type sendSpan struct {
	start    time.Time // when the create was first sent: what the Client read before is not its (seen.go)
	sent     time.Time
	answered time.Time
	lost     *lostHold
}

// adoptionWindow is a span of the service's clock, in Unix milliseconds.
type adoptionWindow struct {
	earliest int64
	latest   int64
}

// window returns the adoption window of span as probe knows the service's clock, and false
// when no answer told that clock: then the window is this machine's clock, widened by
// settleSkew on both sides, and no candidate in it can be confirmed.
func (sp sendSpan) window(probe *httpapi.ClockProbe) (adoptionWindow, bool) {
	from, known := probe.ServiceTimeAt(sp.sent)
	if !known {
		return adoptionWindow{
			earliest: sp.sent.Add(-settleSkew).UnixMilli(),
			latest:   sp.answered.Add(settleSkew).UnixMilli(),
		}, false
	}
	to, _ := probe.ServiceTimeAt(sp.answered)
	return adoptionWindow{
		earliest: from.Add(-httpapi.ServiceClockSkew).UnixMilli(),
		latest:   to.Add(httpapi.ServiceClockSkew).UnixMilli(),
	}, true
}

// LateAdoptionWarning is not a failure: it comes with a subscription that settling a lost
// create answer adopted although the service dates it after the request's failed answer came
// back. It is the request's own late landing or another writer's subscription of the same
// content and user (another Terraform run, another provider configuration): the service cannot
// tell them apart, so the caller should say so.
type LateAdoptionWarning struct {
	// AccountID is the account of the subscription.
	AccountID string
	// SubscriptionID is the adopted subscription.
	SubscriptionID string
	// CreatedDate is its createdDate, Unix milliseconds of the service's clock.
	CreatedDate int64
	// WindowEnd is the end of the adoption window, Unix milliseconds of the service's clock.
	WindowEnd int64
}

// Error names the subscription and when it was created.
func (w *LateAdoptionWarning) Error() string {
	return fmt.Sprintf("create subscriptions in account %q: adopted subscription %s as the lost create's, although the service "+
		"dates it %s, %s after the request's failed answer came back",
		w.AccountID, w.SubscriptionID, w.Created().Format(time.RFC3339), time.Duration(w.CreatedDate-w.WindowEnd)*time.Millisecond)
}

// Created is the subscription's createdDate.
func (w *LateAdoptionWarning) Created() time.Time {
	return time.UnixMilli(w.CreatedDate).UTC()
}

// RecreatedWarning is not a failure: it comes with a subscription created again once the grace
// period of a lost create answer was over and nothing of the first create was found. The first
// create may still land later and make a copy that nobody tracks.
type RecreatedWarning struct {
	// AccountID is the account of the subscription.
	AccountID string
	// SubscriptionID is the subscription created again.
	SubscriptionID string
	// Cause is the failure that lost the first create's answer.
	Cause error
}

// Error says that the first create may still land.
func (w *RecreatedWarning) Error() string {
	return fmt.Sprintf("create subscriptions in account %q: created subscription %s again after the first create's answer "+
		"was lost (%v) and nothing of it was found within %s; the first create may still land as a copy",
		w.AccountID, w.SubscriptionID, w.Cause, lostCreateGrace)
}
