package httpapi

import (
	"math"
	"time"

	"golang.org/x/time/rate"
)

// limiterBurst is the limiter's bucket size: 1, so that requests are spread evenly and no
// one-second window ever carries more than the configured rate plus one.
const limiterBurst = 1

// newLimiter returns the Client's rate limiter, or nil when rps is 0 (unlimited). Every HTTP
// attempt of the Client waits on it, JWT fetches and retries included (see transport).
func newLimiter(rps float64) *rate.Limiter {
	if rps <= 0 || math.IsNaN(rps) {
		return nil
	}
	if math.IsInf(rps, 1) {
		return nil
	}
	return rate.NewLimiter(rate.Limit(rps), limiterBurst)
}

// limiterDelay is how long a request that asked the limiter at now would wait for its slot,
// without taking one: the time the bucket needs to refill to one token.
func limiterDelay(l *rate.Limiter, now time.Time) time.Duration {
	tokens := l.TokensAt(now)
	if tokens >= 1 || l.Limit() <= 0 {
		return 0
	}
	return time.Duration((1 - tokens) / float64(l.Limit()) * float64(time.Second))
}
