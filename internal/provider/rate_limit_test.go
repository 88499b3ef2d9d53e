package provider

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestAccRateLimit_apply applies 30 subscriptions at -parallelism=10 with
// max_requests_per_second = 5, and checks the mock's own arrival times: no
// one-second window holds more than 6 requests. The client's limiter is a
// token bucket of rate 5/s and burst 1 (limiterBurst), so any interval of T
// seconds releases at most 1 + 5·T requests: 6 in a closed one-second window,
// 5 in a half-open one when the releases are exactly 200ms apart. The mock
// stamps arrivals, which lag the releases by a varying few milliseconds, so
// the exact bound is 6 (rate plus burst). Without the limit, the apply sends
// its 31 requests within about a second.
func TestAccRateLimit_apply(t *testing.T) {
	const (
		n     = 30
		rps   = 5
		burst = 1
	)
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	w.write("main.tf", requiredProviders+fmt.Sprintf("provider \"eventnotify\" {\n  max_requests_per_second = %d\n}\n", rps)+manyConfig(n))
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=10")

	times := make([]time.Time, 0, n+1)
	for _, r := range m.Requests() {
		times = append(times, r.Time)
	}
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	busiest, at := 0, 0
	for i := range times {
		j := i
		for j < len(times) && times[j].Sub(times[i]) < time.Second {
			j++
		}
		if j-i > busiest {
			busiest, at = j-i, i
		}
	}
	span := times[len(times)-1].Sub(times[0])
	t.Logf("%d requests over %s; the busiest one-second window holds %d (bound %d)", len(times), span.Round(time.Millisecond), busiest, rps+burst)
	if busiest > rps+burst {
		t.Errorf("the one-second window from %s holds %d requests, over max_requests_per_second = %d plus the burst of %d",
			times[at].Format("15:04:05.000"), busiest, rps, burst)
	}
	if ids := m.mockIDs(testAccount); len(ids) != n || !slices.Equal(w.stateSubscriptionIDs(), ids) {
		t.Errorf("the mock holds %d subscriptions, want the %d in state", len(ids), n)
	}
}
