package client

// The grace period of a lost create answer: while something is missing, the account is read at
// 0, 1, 3, 7 and 15 seconds after the loss (lostCreateGrace), and only then is the rest created,
// once. A caller cancelled during the grace period ends it: nothing more is created, and the
// create fails with an *UnknownOutcomeError. Why, and what stays ambiguous:
// DESIGN.md#lost-answers-and-ownership.

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

const (
	// lostCreateGrace is how long after a create's answer was lost the account is still
	// read for what it created, before the rest is created again.
	lostCreateGrace = 15 * time.Second
	// settleFirstWait is the wait before the second read; each further wait doubles.
	settleFirstWait = time.Second
)

// settleWaits returns the waits between the reads of a settlement: 1s, 2s, 4s, 8s.
func settleWaits() []time.Duration {
	var waits []time.Duration
	total := time.Duration(0)
	for d := settleFirstWait; total+d <= lostCreateGrace; d *= 2 {
		waits = append(waits, d)
		total += d
	}
	return waits
}

// settle finds what a create of in, sent in span and failed with cause, has made, and
// fills the nil entries of result (and st, see adopt) with it, reading the
// account until nothing is missing or the grace period is over. It returns an
// *UnknownOutcomeError when a read fails or the evidence is ambiguous. The reads run even
// when the caller is cancelled (the create may have acted), each bounded by
// settleReadTimeout; the waits between them end with the caller's cancellation.
func (c *Client) settle(ctx context.Context, accountID string, in []SubscriptionInput, result []*Subscription, st *settlement, span sendSpan, cause error) error {
	probe := &httpapi.ClockProbe{}
	waits := settleWaits()
	for read := 0; ; read++ {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), settleReadTimeout)
		err := c.adopt(rctx, accountID, in, result, st, span, probe, cause)
		cancel()
		if err != nil || countNil(result) == 0 || read == len(waits) {
			return err
		}
		tflog.Info(ctx, "The lost create's subscriptions are not all there yet; reading the account again",
			map[string]any{"account_id": accountID, "missing": countNil(result), "wait": waits[read].String(), "read": read + 1})
		if c.wait(ctx, waits[read]) != nil {
			return nil // cancelled: the caller creates nothing more
		}
	}
}

// settlement is what settling a lost create found besides the subscriptions it adopted.
type settlement struct {
	// warns holds, per input, a *LateAdoptionWarning for a subscription adopted although
	// the service dates it after the span of the request.
	warns []error
	// doubtful lists, as of the last read, unclaimed subscriptions of a missing content and
	// of the caller that the service dates up to settleSkew before the request: its clock
	// may be off, so they may be the request's.
	doubtful []string
	// hold counts what this settlement still looks for among the Client's lost creates.
	hold *lostHold
}

// wait blocks for d, or until ctx is done; Config.SettleWait replaces it in tests.
func (c *Client) wait(ctx context.Context, d time.Duration) error {
	if c.cfg.SettleWait != nil {
		return c.cfg.SettleWait(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// handOut fills the entries of result whose input has the content of one of created, each
// subscription (with an ID) given once: an answer that lists fewer subscriptions than were
// sent still says which contents it created. Subscriptions of no input's content are left
// for the account's reading to judge.
func handOut(in []SubscriptionInput, created []Subscription, result []*Subscription) {
	used := make([]bool, len(created))
	for i, input := range in {
		if result[i] != nil {
			continue
		}
		k := input.key()
		for j, s := range created {
			if !used[j] && s.ID != "" && s.key() == k {
				s := s
				result[i], used[j] = &s, true
				break
			}
		}
	}
}

// derefs returns copies of the non-nil entries of subs.
func derefs(subs []*Subscription) []Subscription {
	var out []Subscription
	for _, s := range subs {
		if s != nil {
			out = append(out, *s)
		}
	}
	return out
}
