package mockserver

import "fmt"

// The mock's memory limits: what clients can make it hold is bounded (the request log, in
// counters.go, is the third bound; request bodies are bounded by maxBodyBytes).
//
// An account holds at most MaxSubscriptions subscriptions written by the service's operations
// (and, apart, as many subscriptions of its topics): a create, a replacement or a topic call that
// would make it hold more is answered 409 with the spec's error body and stores nothing. The
// mock refuses rather than drops the oldest because a subscription is what a client holds in its
// state: one deleted behind its back would be a lie of the service. It answers 409, not 429,
// because 429 says "too many requests, try later" and clients retry it as a throttle that
// lifts (the provider does), while a full account stays full until something is deleted; and not
// 400, which says the request itself is wrong (a client may split a batch to find the bad item).
//
// Deliveries are the mock's own record, read by tests: it keeps the latest MaxDeliveries and
// drops the oldest, counting them, as the request log does; refusing an event would fail the
// test that fires it, and the latest are the ones a test reads. GET /_mock/deliveries answers
// a page of at most MaxDeliveriesPage of them (deliveries.go).

// Defaults of the limits, far above what the tests and benchmarks store (10,000 subscriptions).
const (
	DefaultMaxSubscriptions = 100_000
	DefaultMaxDeliveries    = 100_000
	// MaxDeliveriesPage is the most deliveries one GET /_mock/deliveries answers, and its default.
	MaxDeliveriesPage = 10_000
)

// msgTooManySubscriptions is the 409 message of a request that would store more than limit
// subscriptions (of topics when topic is set) in the account.
func msgTooManySubscriptions(accountID string, would, limit int, topic bool) string {
	what := "subscriptions"
	if topic {
		what = "topic subscriptions"
	}
	return fmt.Sprintf("Account %s would hold %d %s: the mock keeps at most %d per account "+
		"(eventnotify-mock -max-subscriptions); delete some first. Nothing was stored", accountID, would, what, limit)
}

// overLimitLocked returns the 409 message of a request that would make the account hold would
// subscriptions (of topics when topic is set), more than the limit, or "". The caller holds s.mu;
// it writes the answer once it has released it.
func (s *Server) overLimitLocked(accountID string, would int, topic bool) string {
	if would <= s.maxSubscriptions {
		return ""
	}
	return msgTooManySubscriptions(accountID, would, s.maxSubscriptions, topic)
}
