package client

// The adoption window of a lost create: the span of the service's createdDate clock in which the
// request could have created a subscription. A subscription dated inside it is adopted silently;
// one dated later is adopted with a *LateAdoptionWarning that names it; one dated earlier is
// never adopted (create_adopt.go: up to settleSkew earlier, by the caller, it leaves the outcome
// unknown instead of a second create).
//
//   - Calibrated (this Client has made a create whose answer came back whole, created_clock.go):
//     the request's own flight, from its send to its failed answer, on the createdDate clock as
//     those creates calibrated it, to the millisecond. No margin: a subscription another writer
//     created 71 ms before the send, or 376 ms after the failed answer, is outside it. The
//     calibration is the one that stood when the answer was lost (a later step of the service's
//     clock does not move the window), or, if there was none yet, the one that stands when the
//     account is read: the creates that were in flight with the lost one have come back by then
//     (create_gate.go).
//   - Not calibrated yet (the lost create is the Client's first): from the send, less
//     httpapi.ServiceClockSkew, by the lower bound of the service's clock that the Date headers
//     give, to the failed answer by their upper bound (httpapi/service_clock.go): about two
//     seconds and the flight. Another writer's subscription in it cannot be told from the
//     request's and is adopted silently: the ambiguity that stays.
//
// Why: DESIGN.md#lost-answers-and-ownership.

import (
	"fmt"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// sendSpan is when, by this machine's clock, a create was first and last sent and its answer came
// back, the calibration of the createdDate clock as it stood then, and, when that answer was lost,
// what the create still looks for.
type sendSpan struct {
	start      time.Time // when the create was first sent: what the Client read before is not its (seen.go)
	sent       time.Time
	answered   time.Time
	cal        calibration
	calibrated bool
	lost       *lostHold
}

// adoptionWindow is a span of the service's clock, in Unix milliseconds.
type adoptionWindow struct {
	earliest int64
	latest   int64
}

// window returns the adoption window of span: its flight on the calibrated createdDate clock,
// or else as probe knows the service's clock from Date headers; false when neither tells that
// clock: then the window is this machine's clock, widened by settleSkew on both sides, and no
// candidate in it can be confirmed.
func (sp sendSpan) window(probe *httpapi.ClockProbe) (adoptionWindow, bool) {
	if sp.calibrated {
		return sp.cal.flight(sp.sent, sp.answered), true
	}
	from, known := probe.ServiceTimeAt(sp.sent)
	if !known {
		return adoptionWindow{
			earliest: sp.sent.Add(-settleSkew).UnixMilli(),
			latest:   sp.answered.Add(settleSkew).UnixMilli(),
		}, false
	}
	to, _ := probe.ServiceTimeAtMost(sp.answered)
	return adoptionWindow{
		earliest: from.Add(-httpapi.ServiceClockSkew).UnixMilli(),
		latest:   to.UnixMilli(),
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
