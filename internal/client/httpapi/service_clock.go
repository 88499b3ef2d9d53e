package httpapi

// The service's clock, as its answers tell it. Every 2xx answer of the service (not of the JWT
// endpoint) carries a Date header; an answer dated D that came in at local instant r shows that
// at local instant t the service's clock read at least D + (t - r) (ClockProbe.ServiceTimeAt,
// the largest bound over the answers seen). The header has whole seconds and was written after
// the request was sent, at local instant s: at t the clock read less than D + 1s + (t - s)
// (ClockProbe.ServiceTimeAtMost, the smallest bound over the answers seen), so that answers
// on either side of a second's turn narrow it below the second. A subscription dated earlier
// than the lower bound at the instant a lost create was last sent, less ServiceClockSkew,
// existed before the create and is never its result. This machine's wall clock is never the
// judge; the client's own creates calibrate the createdDate clock further
// (internal/client/created_clock.go). Why, and the limits: DESIGN.md#lost-answers-and-ownership.

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// ServiceClockSkew is how much earlier than the bound derived from Date headers the service
// may date a subscription that a request created: the Date header and createdDate may come from
// different machines of the service.
const ServiceClockSkew = time.Second

// clockProbeKey is the context key of a *ClockProbe.
type clockProbeKey struct{}

// ClockProbe records, for the requests made with a context that carries it, when the last
// attempt was sent and the best evidence of the service's clock among their answers.
type ClockProbe struct {
	mu     sync.Mutex
	sentAt time.Time // local start of the last attempt
	seen   bool      // an answer carried a Date header
	date   time.Time // the service's time of the best answer
	at     time.Time // the local instant that answer came in
	// The upper bound: at local instant upAt (an attempt's start) the service's clock read
	// less than upDate (a Date header of its answer plus a second).
	upDate time.Time
	upAt   time.Time
}

// WithClockProbe returns ctx carrying p.
func WithClockProbe(ctx context.Context, p *ClockProbe) context.Context {
	return context.WithValue(ctx, clockProbeKey{}, p)
}

// probeFrom returns the probe that ctx carries, or nil.
func probeFrom(ctx context.Context) *ClockProbe {
	p, _ := ctx.Value(clockProbeKey{}).(*ClockProbe)
	return p
}

// sending records that an attempt starts now.
func (p *ClockProbe) sending(now time.Time) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sentAt = now
}

// LastSent returns when the last attempt started, or fallback when none did.
func (p *ClockProbe) LastSent(fallback time.Time) time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sentAt.IsZero() {
		return fallback
	}
	return p.sentAt
}

// answered records the Date header of a 2xx answer of the service that came in at local
// instant at; an answer without a readable Date header tells nothing.
func (p *ClockProbe) answered(h http.Header, at time.Time) {
	if p == nil {
		return
	}
	date, err := http.ParseTime(h.Get("Date"))
	if err != nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	// Keep the answer that bounds the clock highest from below: the largest date - at, and the
	// one that bounds it lowest from above: the smallest date + 1s - the attempt's start.
	up, upAt := date.Add(time.Second), p.sentAt
	if upAt.IsZero() || upAt.After(at) {
		upAt = at
	}
	if !p.seen || up.Sub(p.upDate) < upAt.Sub(p.upAt) {
		p.upDate, p.upAt = up, upAt
	}
	if !p.seen || date.Sub(p.date) > at.Sub(p.at) {
		p.seen, p.date, p.at = true, date, at
	}
}

// ServiceTimeAt returns a lower bound of the service's clock at local instant t, and false
// when no answer has told the service's time.
func (p *ClockProbe) ServiceTimeAt(t time.Time) (time.Time, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.seen {
		return time.Time{}, false
	}
	return p.date.Add(t.Sub(p.at)), true
}

// ServiceTimeAtMost returns an upper bound of the service's clock at local instant t, and false
// when no answer has told the service's time. The bound holds for the clock that writes the
// Date headers; the one that dates subscriptions may run apart from it (ServiceClockSkew).
func (p *ClockProbe) ServiceTimeAtMost(t time.Time) (time.Time, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.seen {
		return time.Time{}, false
	}
	return p.upDate.Add(t.Sub(p.upAt)), true
}
