package client

// The service's clock, as its answers tell it.
//
// A create whose answer is lost is settled by reading the account (create_reconcile.go). A
// subscription that existed before the create was sent can never be what it created, and the
// service dates every subscription (createdDate, its clock, in milliseconds). So the question
// "did this exist before the request was sent?" is asked of the service's clock, never of this
// machine's, which may be minutes off:
//
//   - every 2xx answer of the service (not of the JWT endpoint, which may run elsewhere)
//     carries a Date header: the service's time, rounded down to the second, when it
//     answered. Any later instant on the service's clock is at least that;
//   - so an answer dated D that came in at local instant r shows that at local instant t the
//     service's clock read at least D + (t - r), before r as well as after it (both clocks
//     run at the same rate; the difference is measured on this machine's monotonic clock);
//   - the bound used is the largest over the answers that the settling reads receive, for
//     the local instant at which the lost request was last sent (the start of its last
//     attempt, after any wait for the rate limiter).
//
// A subscription dated earlier than that bound, less serviceClockSkew, existed before the
// request was sent. The bound is low by the Date header's rounding (under a second) and by the
// time the answer took to come back; serviceClockSkew allows for the Date header and
// createdDate coming from different machines of the service (clocks kept in step by NTP
// differ by milliseconds; one second is a wide margin). Between them, a subscription of the
// same content created by the same user less than about two seconds before the request was
// sent cannot be told from this request's.

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// serviceClockSkew is how much earlier than the bound derived from Date headers the service
// may date a subscription that a request created (see above).
const serviceClockSkew = time.Second

// clockProbeKey is the context key of a *clockProbe.
type clockProbeKey struct{}

// clockProbe records, for the requests made with a context that carries it, when the last
// attempt was sent and the best evidence of the service's clock among their answers.
type clockProbe struct {
	mu     sync.Mutex
	sentAt time.Time // local start of the last attempt
	seen   bool      // an answer carried a Date header
	date   time.Time // the service's time of the best answer
	at     time.Time // the local instant that answer came in
}

// withClockProbe returns ctx carrying p.
func withClockProbe(ctx context.Context, p *clockProbe) context.Context {
	return context.WithValue(ctx, clockProbeKey{}, p)
}

// probeFrom returns the probe that ctx carries, or nil.
func probeFrom(ctx context.Context) *clockProbe {
	p, _ := ctx.Value(clockProbeKey{}).(*clockProbe)
	return p
}

// sending records that an attempt starts now.
func (p *clockProbe) sending(now time.Time) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sentAt = now
}

// lastSent returns when the last attempt started, or fallback when none did.
func (p *clockProbe) lastSent(fallback time.Time) time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sentAt.IsZero() {
		return fallback
	}
	return p.sentAt
}

// answered records the Date header of a 2xx answer of the service that came in at local
// instant at; an answer without a readable Date header tells nothing.
func (p *clockProbe) answered(h http.Header, at time.Time) {
	if p == nil {
		return
	}
	date, err := http.ParseTime(h.Get("Date"))
	if err != nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	// Keep the answer that bounds the clock highest: the largest date - at.
	if !p.seen || date.Sub(p.date) > at.Sub(p.at) {
		p.seen, p.date, p.at = true, date, at
	}
}

// serviceTimeAt returns a lower bound of the service's clock at local instant t, and false
// when no answer has told the service's time.
func (p *clockProbe) serviceTimeAt(t time.Time) (time.Time, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.seen {
		return time.Time{}, false
	}
	return p.date.Add(t.Sub(p.at)), true
}
