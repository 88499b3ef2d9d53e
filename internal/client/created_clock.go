package client

// The calibrated createdDate clock. Every subscription that a create of this Client made, and
// whose answer came back whole, was dated by the service between the instant that request was
// sent and the instant its answer came in, both read on this machine's monotonic clock. Each such
// create therefore bounds the offset between the local monotonic clock and the service's
// createdDate clock from both sides:
//
//	createdDate - answered <= offset <= createdDate + 1ms - sent
//
// (createdDate is whole milliseconds, cut down). The bounds of every create are intersected, so
// that the offset is known to within the shortest flight of a create on this machine, to the
// millisecond on a near network. A lost create's adoption window is then its own flight on that
// clock (adoption_window.go): a subscription the service dates outside it was not made by the
// request while the service's clock ran as calibrated. Why, and what stays ambiguous:
// DESIGN.md#lost-answers-and-ownership.

import (
	"sync"
	"time"
)

// createdClock is what this Client's successful creates tell about the clock by which the
// service dates subscriptions: the offset, in nanoseconds, of createdDate (Unix nanoseconds) over
// the local monotonic instant (measured from anchor) lies in [lo, hi].
type createdClock struct {
	mu    sync.Mutex
	cal   calibration
	known bool
}

// calibration is a snapshot of a createdClock: the service's createdDate clock reads between
// t.Sub(anchor)+lo and t.Sub(anchor)+hi Unix nanoseconds at local instant t.
type calibration struct {
	anchor  time.Time
	lo, hi  time.Duration
	samples int // created subscriptions intersected since the clock was last found to have stepped
	steps   int // how often a create's bounds did not meet the others' (the service's clock stepped)
}

// record intersects the bounds that the subscriptions of a create, sent at local instant sent and
// answered at answered, give. A create whose bounds do not meet the calibration's shows that the
// service's clock stepped (or that an answer listed a subscription it did not make): the
// calibration starts again from it, the newest evidence.
func (cc *createdClock) record(sent, answered time.Time, subs []Subscription) {
	if sent.IsZero() || answered.Before(sent) {
		return
	}
	cc.mu.Lock()
	defer cc.mu.Unlock()
	for _, s := range subs {
		if s.CreatedDate <= 0 {
			continue
		}
		if !cc.known {
			cc.cal = calibration{anchor: sent, lo: minDuration, hi: maxDuration}
			cc.known = true
		}
		date := time.Duration(s.CreatedDate) * time.Millisecond
		lo := date - answered.Sub(cc.cal.anchor)
		hi := date + time.Millisecond - 1 - sent.Sub(cc.cal.anchor)
		if lo > cc.cal.hi || hi < cc.cal.lo {
			cc.cal.lo, cc.cal.hi, cc.cal.samples = lo, hi, 0
			cc.cal.steps++
		} else {
			cc.cal.lo, cc.cal.hi = max(cc.cal.lo, lo), min(cc.cal.hi, hi)
		}
		cc.cal.samples++
	}
}

// snapshot returns the calibration as it stands, and false when no create has calibrated it.
func (cc *createdClock) snapshot() (calibration, bool) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	return cc.cal, cc.known
}

// flight returns the span of the createdDate clock, in Unix milliseconds, in which a request sent
// at local instant sent and answered at answered can have dated what it created.
func (cal calibration) flight(sent, answered time.Time) adoptionWindow {
	return adoptionWindow{
		earliest: int64((sent.Sub(cal.anchor) + cal.lo) / time.Millisecond),
		latest:   int64((answered.Sub(cal.anchor) + cal.hi) / time.Millisecond),
	}
}

// width is how far apart the bounds of the offset are: how precisely the clock is known.
func (cal calibration) width() time.Duration { return cal.hi - cal.lo }

const (
	minDuration = time.Duration(-1 << 63)
	maxDuration = time.Duration(1<<63 - 1)
)
