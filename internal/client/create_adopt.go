package client

// Lost answers of createSubscriptions.
//
// A create (POST) is never repeated blindly: the service may have carried it out before its
// answer was lost, and a repeat would create a second copy that nobody tracks and that keeps
// sending notifications. When the outcome of a create is unknown (a 5xx that is not a
// throttle answer, a 2xx whose body cannot be read, an answer that does not account for every
// subscription sent, or a timeout or reset after the request may have been sent), the client
// reads the account and looks for what the request would have created:
//
//   - the same content (every field of contentFields, content_fields.go, compared as the
//     service may spell it back: event name and destination type without regard to case, log
//     level with the service's alternative spellings);
//   - not existing before the request was sent: dated by the service no earlier than its own
//     clock showed when the request was sent (from the Date headers of its answers, less
//     httpapi.ServiceClockSkew; see httpapi/service_clock.go). This machine's clock is never the
//     judge;
//   - not already returned by this Client to another caller (created, adopted or read), nor
//     read by this Client before the request was first sent (seen.go);
//   - created by the caller: createdBy equal to the JWT's subject or the configured user name.
//
// Exact matches are adopted as the result of the create. While something is still missing,
// the account is read again for a grace period, since the service may still be carrying the
// request out (create_settle.go); only then is the rest created, once. An answer that lists
// fewer subscriptions than were sent hands those it lists to the inputs of their content,
// and only the rest is settled this way. The evidence is ambiguous, and the create fails
// with an *UnknownOutcomeError that lists the candidates (only subscriptions that may be this
// request's), when a content has more candidates than were sent, when a candidate's creation
// time or creator cannot be confirmed (no Date header from the service included), or when the
// account cannot be read.
//
// A candidate dated after the request's failed answer came back (the adoption window,
// adoption_window.go) is adopted with a *LateAdoptionWarning; after the grace period, one of the
// caller dated up to settleSkew before the send leaves the outcome unknown instead of a
// second create (the date alone never decides "not created"); lost creates of one content are
// settled together (lost_pending.go).
//
// Limits: the read must see the create once it has been carried out (read-after-write consistency);
// a subscription created by the same user with the same content inside the adoption window (the
// request's flight on the createdDate clock that this Client's creates calibrated, to the
// millisecond; before any create of this Client came back whole, from httpapi.ServiceClockSkew
// before the send to the failed answer, by the Date headers' bounds of the service's clock), through
// another tool or another provider instance, is indistinguishable from the lost one.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

const (
	// settleSkew is how far this machine's clock may be off the service's: when no answer
	// of the service tells its time, subscriptions dated from settleSkew before the
	// request was sent, by this machine's clock, are candidates that cannot be confirmed.
	settleSkew = 2 * time.Minute
	// settleReadTimeout bounds each read that settles a lost answer. It runs even when the
	// caller has been cancelled: the create it settles may have taken effect.
	settleReadTimeout = 2 * time.Minute
)

// UnknownOutcomeError is the error of a create whose answer was lost and whose outcome could
// not be established by reading the account. Subscriptions may exist that nobody tracks: the
// caller should show the candidates and how to import them.
type UnknownOutcomeError struct {
	// Operation names the call, such as "create subscriptions".
	Operation string
	// AccountID is the account the subscriptions were to be created in.
	AccountID string
	// Candidates are the IDs of subscriptions that the request may have created: more of one
	// content than were sent, or ones whose creator or creation time could not be confirmed.
	Candidates []string
	// ClockUnknown is true when no answer of the service carried a Date header: the candidates
	// are then those dated within settleSkew of the request by this machine's clock.
	ClockUnknown bool
	// Missing is how many of the subscriptions sent could be neither found nor created.
	Missing int
	// Cause is the failure that lost the answer.
	Cause error
	// ReadErr is the failure of the read that was to settle the outcome, if it failed.
	ReadErr error
}

// Error says what is known and what is not.
func (e *UnknownOutcomeError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s in account %q: the answer was lost and the outcome is unknown: %v", e.Operation, e.AccountID, e.Cause)
	if e.ReadErr != nil {
		fmt.Fprintf(&b, "; reading the account to find out failed: %v", e.ReadErr)
	}
	if len(e.Candidates) > 0 {
		fmt.Fprintf(&b, "; subscriptions that the request may have created: %s", strings.Join(e.Candidates, ", "))
	}
	return b.String()
}

// Unwrap returns the cause and the read error.
func (e *UnknownOutcomeError) Unwrap() []error {
	if e.ReadErr != nil {
		return []error{e.Cause, e.ReadErr}
	}
	return []error{e.Cause}
}

// outcomeUnknown reports whether a failed write (a create, an update, a bulk change) may have
// taken effect: a 5xx of the service that did not decline the request, a 2xx whose body could
// not be read, or an answer lost after the request may have reached the service. A failure of
// the JWT endpoint comes before the write is sent.
func outcomeUnknown(err error) bool {
	var apiErr *httpapi.APIError
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode >= 500 && !apiErr.Throttled && !apiErr.JWTEndpoint
	}
	return errors.Is(err, httpapi.ErrMalformedResponse) || httpapi.AnswerLost(err)
}

// claimSet holds the subscription IDs that the Client has handed to a caller, so that a
// settling a lost create never adopts one subscription for two resources.
type claimSet struct {
	mu  sync.Mutex
	ids map[string]struct{}
}

// claim records subs as handed out.
func (cs *claimSet) claim(subs ...Subscription) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.ids == nil {
		cs.ids = make(map[string]struct{})
	}
	for _, s := range subs {
		if s.ID != "" {
			cs.ids[listingKey(s.ID)] = struct{}{}
		}
	}
}

// claimed reports whether id was handed out.
func (cs *claimSet) claimed(id string) bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	_, ok := cs.ids[listingKey(id)]
	return ok
}

// matchCreated pairs the subscriptions of a create's answer with the inputs that asked for
// them: by content first (identical inputs are interchangeable), then the rest in order. It
// returns the subscriptions in the order of in, and false when the answer does not account for
// every input with an ID.
func matchCreated(in []SubscriptionInput, created []Subscription) ([]Subscription, bool) {
	if len(created) != len(in) {
		return nil, false
	}
	out := make([]Subscription, len(in))
	used := make([]bool, len(created))
	filled := make([]bool, len(in))
	for i, input := range in {
		k := input.key()
		for j, s := range created {
			if !used[j] && s.key() == k {
				out[i], used[j], filled[i] = s, true, true
				break
			}
		}
	}
	j := 0
	for i := range in {
		if filled[i] {
			continue
		}
		for used[j] {
			j++
		}
		out[i], used[j] = created[j], true
	}
	for _, s := range out {
		if s.ID == "" {
			return nil, false
		}
	}
	return out, true
}

// createSubscriptions runs createSubscriptions and settles a lost answer by reading the
// account (see the top of this file and create_settle.go). On success the result holds one
// subscription per input, in the order of in. On failure it holds the subscriptions that are
// known to exist for some of the inputs (adopted or created), which the caller must keep track
// of, and nil entries for the others.
func (c *Client) createSubscriptions(ctx context.Context, accountID string, in []SubscriptionInput) ([]*Subscription, []error, error) {
	result := make([]*Subscription, len(in))
	st := &settlement{warns: make([]error, len(in))}
	late := st.warns
	span, err := c.sendCreate(ctx, accountID, in, result)
	if err == nil || len(in) == 0 || !outcomeUnknown(err) {
		// A create of nothing created nothing, whatever became of its answer.
		return result, late, err
	}
	tflog.Warn(ctx, "The answer of a create was lost; reading the account to find what it created",
		map[string]any{"account_id": accountID, "subscriptions": len(in), "found": len(in) - countNil(result), "error": err.Error()})
	// The reads run to their end even if the caller is cancelled: the create may have acted.
	st.hold = span.lost
	uerr := c.settle(ctx, accountID, in, result, st, span, err)
	st.hold.release()
	if exact := c.createdUnreadable(accountID, err, uerr, result, span.start); exact != nil {
		// The answer named what was created: never create it again, nor call it unknown.
		return result, late, exact
	}
	if uerr != nil || !slices.Contains(result, nil) {
		return result, late, uerr
	}
	if len(st.doubtful) > 0 {
		// The service dates these before the request, but its clock may be off: never create
		// a second copy on the strength of a date alone.
		return result, late, &UnknownOutcomeError{Operation: opCreateSubscriptions, AccountID: accountID, Cause: err,
			Candidates: st.doubtful, Missing: countNil(result)}
	}
	if ctx.Err() != nil {
		// The caller is gone: create nothing more, and say what may exist.
		return result, late, &UnknownOutcomeError{Operation: opCreateSubscriptions, AccountID: accountID, Cause: err, Missing: countNil(result)}
	}
	// The grace period is over and the rest was not created: create it, once.
	var missing []SubscriptionInput
	var slots []int
	for i, s := range result {
		if s == nil {
			missing, slots = append(missing, in[i]), append(slots, i)
		}
	}
	tflog.Info(ctx, "Creating the subscriptions that the lost create did not create",
		map[string]any{"account_id": accountID, "missing": len(missing), "found": len(in) - len(missing)})
	sub := make([]*Subscription, len(missing))
	subSt := &settlement{warns: make([]error, len(missing))}
	cause := err
	span, err = c.sendCreate(ctx, accountID, missing, sub)
	if err != nil && outcomeUnknown(err) {
		// The second answer was lost too: find what it created, but create nothing more.
		subSt.hold = span.lost
		uerr = c.settle(ctx, accountID, missing, sub, subSt, span, err)
		subSt.hold.release()
		if uerr == nil && slices.Contains(sub, nil) {
			uerr = &UnknownOutcomeError{Operation: opCreateSubscriptions, AccountID: accountID, Cause: err, Missing: countNil(sub)}
		}
		err = uerr
	}
	for k, s := range sub {
		result[slots[k]], late[slots[k]] = s, subSt.warns[k]
		if s != nil && late[slots[k]] == nil {
			// The first create may still land: say so, and how to find a copy.
			late[slots[k]] = &RecreatedWarning{AccountID: accountID, SubscriptionID: s.ID, Cause: cause}
		}
	}
	return result, late, err
}

// sendCreate sends one createSubscriptions request for in and fills the entries of result
// that its answer accounts for, matched by content. It returns the span in which the request
// could have acted (sendSpan), and an error that outcomeUnknown reports for an answer that was
// lost or that does not account for every input.
func (c *Client) sendCreate(ctx context.Context, accountID string, in []SubscriptionInput, result []*Subscription) (span sendSpan, err error) {
	probe := &httpapi.ClockProbe{}
	gate := c.createGate.of(accountID)
	gate.RLock()
	defer gate.RUnlock()
	before := c.now()
	created, err := c.writeSubscriptions(httpapi.WithClockProbe(ctx, probe), opCreateSubscriptions, http.MethodPost, accountID, in)
	span = sendSpan{start: before, sent: probe.LastSent(before), answered: c.now()}
	span.cal, span.calibrated = c.createdClock.snapshot()
	defer func() {
		if err != nil && outcomeUnknown(err) {
			// Counted before the gate is released: a settling read of another create of
			// the same content knows that this one looks for it too.
			span.lost = c.lost.hold(accountID, in, result)
		}
	}()
	if err != nil {
		return span, err
	}
	// Only new subscriptions that no caller holds, and that this Client did not read before
	// the request, can be this request's: an answer that lists more than was sent (the whole
	// account, as the collection's PUT answers) hands out none of the others.
	fresh := c.unclaimed(created, before)
	if len(fresh) > len(in) {
		// More than was sent: what the service dates before the request is not its.
		fresh = newSince(fresh, probe, span.sent)
	}
	if subs, ok := matchCreated(in, fresh); ok && len(fresh) == len(created) {
		// What this request made, dated between its send and its answer: it calibrates the
		// createdDate clock (created_clock.go).
		c.createdClock.record(span.sent, span.answered, subs)
		c.claims.claim(subs...)
		copy(result, pointers(subs))
		return span, nil
	}
	// The answer lists fewer (or other) subscriptions than were sent: those it lists go to
	// the inputs of their content, and the rest is settled like a lost answer.
	handOut(in, fresh, result)
	c.claims.claim(derefs(result)...)
	return span, httpapi.MalformedResponse(opCreateSubscriptions, fmt.Errorf("the answer holds %d subscriptions with an ID for %d sent", countIDs(created), len(in)))
}

// unclaimed returns the subscriptions of created that carry an ID that no caller of this
// Client holds and that this Client had not read before start (heldFrom).
func (c *Client) unclaimed(created []Subscription, start time.Time) []Subscription {
	var out []Subscription
	for _, s := range created {
		if s.ID != "" && !c.heldFrom(s.ID, start) {
			out = append(out, s)
		}
	}
	return out
}

// newSince returns the subscriptions of subs that the service does not date before its clock showed
// at local instant sentAt, less httpapi.ServiceClockSkew, as far as probe knows that clock. The
// date alone never decides that a subscription is not the request's (the Date header may run ahead
// of the clock that dates subscriptions): it only sorts out an answer that lists more than was
// sent.
func newSince(subs []Subscription, probe *httpapi.ClockProbe, sentAt time.Time) []Subscription {
	serviceSent, known := probe.ServiceTimeAt(sentAt)
	if !known {
		return subs
	}
	earliest := serviceSent.Add(-httpapi.ServiceClockSkew).UnixMilli()
	var out []Subscription
	for _, s := range subs {
		if s.CreatedDate == 0 || s.CreatedDate >= earliest {
			out = append(out, s)
		}
	}
	return out
}

// adopt reads the account and fills the nil entries of result with the subscriptions that a
// create of in, sent in span and failed with cause, has made; a subscription the service dates
// after the span (a late landing, or another writer's: the service cannot tell them apart) is
// adopted with a warning in the matching entry of st.warns, and one dated up to settleSkew
// before the span by the same creator is put in st.doubtful. It returns an *UnknownOutcomeError
// when the account cannot be read or the evidence is ambiguous; entries of contents that are
// not ambiguous are filled all the same. probe gathers the service's clock from the answers of
// this and earlier reads of the same settlement.
func (c *Client) adopt(ctx context.Context, accountID string, in []SubscriptionInput, result []*Subscription, st *settlement, span sendSpan, probe *httpapi.ClockProbe, cause error) error {
	// No create of this Client is in flight while the account is read (create_gate.go).
	gate := c.createGate.of(accountID)
	gate.Lock()
	defer gate.Unlock()
	c.listings.invalidate(accountID)
	list, err := c.ListSubscriptions(httpapi.WithClockProbe(ctx, probe), accountID, ListOptions{PageSize: c.cfg.ListPageSize})
	if err != nil {
		return &UnknownOutcomeError{Operation: opCreateSubscriptions, AccountID: accountID, Cause: cause, ReadErr: err, Missing: countNil(result)}
	}
	callers := c.callerNames(ctx, accountID)
	// What existed before the request was sent is never its result: the service's clock
	// says what that was (httpapi/service_clock.go). Without a Date header from the service, this
	// machine's clock can only narrow the candidates, never confirm one.
	if !span.calibrated {
		// No create had come back whole when this one was lost: the creates that were in
		// flight with it have by now (the gate), and may calibrate the clock.
		span.cal, span.calibrated = c.createdClock.snapshot()
	}
	window, clockKnown := span.window(probe)
	var doubtful []string
	type candidates struct {
		subs    []Subscription
		unsure  bool // a candidate's creator or creation time is not known to be the caller's
		wanted  int
		indexes []int
	}
	byKey := make(map[string]*candidates)
	for i, input := range in {
		if result[i] != nil {
			continue
		}
		k := input.key()
		if byKey[k] == nil {
			byKey[k] = &candidates{}
		}
		byKey[k].wanted++
		byKey[k].indexes = append(byKey[k].indexes, i)
	}
	for _, s := range list {
		cand := byKey[s.key()]
		if cand == nil || s.ID == "" || c.heldFrom(s.ID, span.start) {
			continue
		}
		if s.CreatedDate != 0 && s.CreatedDate < window.earliest {
			if s.CreatedDate >= window.earliest-settleSkew.Milliseconds() && createdBy(s, callers) {
				doubtful = append(doubtful, s.ID)
			}
			continue
		}
		cand.subs = append(cand.subs, s)
		if s.CreatedDate == 0 || !clockKnown || !createdBy(s, callers) {
			cand.unsure = true
		}
	}
	var ambiguous []string
	for key, cand := range byKey {
		// Other lost creates of this content in this Client are settled with this one: as
		// many candidates as all of them miss are theirs, the earliest for the earliest.
		if cand.unsure || len(cand.subs) > max(cand.wanted, c.lost.count(accountID, key)) {
			for _, s := range cand.subs {
				ambiguous = append(ambiguous, s.ID)
			}
			continue
		}
		slices.SortStableFunc(cand.subs, func(a, b Subscription) int { return cmp.Compare(a.CreatedDate, b.CreatedDate) })
		cand.subs = cand.subs[:min(len(cand.subs), cand.wanted)]
		c.claims.claim(cand.subs...)
		for k, s := range cand.subs {
			result[cand.indexes[k]] = &s
			st.hold.filled(cand.indexes[k])
			if s.CreatedDate > window.latest {
				st.warns[cand.indexes[k]] = &LateAdoptionWarning{AccountID: accountID, SubscriptionID: s.ID,
					CreatedDate: s.CreatedDate, WindowEnd: window.latest}
			}
		}
	}
	slices.Sort(doubtful)
	st.doubtful = doubtful
	tflog.Info(ctx, "Read the account after a lost create answer",
		map[string]any{"account_id": accountID, "sent": len(in), "adopted": len(in) - countNil(result), "ambiguous": len(ambiguous),
			"window_earliest": window.earliest, "window_latest": window.latest, "window_calibrated": span.calibrated,
			"calibration_width": span.cal.width().String(), "calibration_subscriptions": span.cal.samples, "calibration_restarts": span.cal.steps})
	if len(ambiguous) > 0 {
		slices.Sort(ambiguous)
		return &UnknownOutcomeError{Operation: opCreateSubscriptions, AccountID: accountID, Cause: cause,
			Candidates: ambiguous, ClockUnknown: !clockKnown, Missing: countNil(result)}
	}
	return nil
}

// callerNames returns the names under which the service may record the caller as createdBy:
// the JWT's subject and e-mail claims, and the configured user name.
func (c *Client) callerNames(ctx context.Context, accountID string) []string {
	var names []string
	if c.cfg.Username != "" {
		names = append(names, strings.TrimPrefix(c.cfg.Username, httpapi.APITokenUserPrefix))
	}
	token, err := c.api.Token(ctx, accountID)
	if err != nil {
		return names
	}
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(token, claims); err != nil {
		return names
	}
	for _, k := range []string{"sub", "email", "preferred_username", "username"} {
		if v, ok := claims[k].(string); ok && v != "" {
			names = append(names, v)
		}
	}
	return names
}

// createdBy reports whether s was created by one of names; with no name known, or no creator
// recorded, nothing contradicts it.
func createdBy(s Subscription, names []string) bool {
	if s.CreatedBy == "" || len(names) == 0 {
		return true
	}
	for _, n := range names {
		if strings.EqualFold(s.CreatedBy, n) {
			return true
		}
	}
	return false
}

// pointers returns pointers to copies of subs' elements.
func pointers(subs []Subscription) []*Subscription {
	out := make([]*Subscription, len(subs))
	for i := range subs {
		s := subs[i]
		out[i] = &s
	}
	return out
}

// countIDs counts the subscriptions that carry an ID.
func countIDs(subs []Subscription) int {
	n := 0
	for _, s := range subs {
		if s.ID != "" {
			n++
		}
	}
	return n
}

// countNil counts the nil entries.
func countNil(subs []*Subscription) int {
	n := 0
	for _, s := range subs {
		if s == nil {
			n++
		}
	}
	return n
}
