package httpapi

import (
	"net/http"
	"testing"
	"time"
)

// The Date headers bound the service's clock from both sides: an answer dated D (whole seconds)
// that came in at r, to a request sent at s, shows that at t the clock read at least D + (t - r)
// and less than D + 1s + (t - s). Answers spread over time narrow the upper bound, and answers
// on either side of a second's turn raise the lower one: together, to milliseconds.
func TestClockProbeBounds(t *testing.T) {
	t.Parallel()
	base := time.Now()
	// The service's clock runs 0.3 s past a whole second at base.
	service := base.Truncate(time.Second).Add(time.Second).Add(300 * time.Millisecond)
	at := func(local time.Duration) time.Time { return base.Add(local) }
	date := func(local time.Duration) http.Header {
		return http.Header{"Date": {service.Add(local).UTC().Format(http.TimeFormat)}}
	}
	tests := []struct {
		name string
		// answers, by local offsets from base: sent, the Date header written, came in.
		answers   [][3]time.Duration
		wantWidth time.Duration // upper bound less lower bound
	}{
		{name: "one answer", answers: [][3]time.Duration{{0, time.Millisecond, 2 * time.Millisecond}},
			wantWidth: time.Second + 2*time.Millisecond},
		// The later send shows the same second 0.1 s later: the clock was not yet 0.9 s past it
		// at base.
		{name: "a tenth of a second apart", answers: [][3]time.Duration{
			{0, time.Millisecond, 2 * time.Millisecond},
			{100 * time.Millisecond, 101 * time.Millisecond, 102 * time.Millisecond}},
			wantWidth: 902 * time.Millisecond},
		// One answer written 1 ms before the service's next whole second, one 20 ms after it.
		{name: "either side of a second's turn", answers: [][3]time.Duration{
			{698 * time.Millisecond, 699 * time.Millisecond, 700 * time.Millisecond},
			{719 * time.Millisecond, 720 * time.Millisecond, 721 * time.Millisecond}},
			wantWidth: 23 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := &ClockProbe{}
			for _, a := range tt.answers {
				p.sending(at(a[0]))
				p.answered(date(a[1]), at(a[2]))
			}
			lo, ok1 := p.ServiceTimeAt(base)
			hi, ok2 := p.ServiceTimeAtMost(base)
			if !ok1 || !ok2 {
				t.Fatal("no bound after the answers")
			}
			if lo.After(service) || !hi.After(service) {
				t.Errorf("bounds %v to %v do not hold the service's time %v", lo, hi, service)
			}
			if got := hi.Sub(lo); got != tt.wantWidth {
				t.Errorf("bounds %v apart, want %v", got, tt.wantWidth)
			}
		})
	}
}
