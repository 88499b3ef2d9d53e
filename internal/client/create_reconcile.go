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
//   - the same content (event name without regard to case, destination type, log level with
//     the service's alternative spellings, environment id and name, topic, enabled);
//   - created no earlier than reconcileSkew before the request was sent (the service's clock
//     may differ from this machine's);
//   - not already returned by this Client to another caller (created, adopted or read);
//   - created by the caller: createdBy equal to the JWT's subject or the configured user name.
//
// Exact matches are adopted as the result of the create, and only what is still missing is
// created, once. The evidence is ambiguous, and the create fails with an *UnknownOutcomeError
// that lists the candidates, when a content has more candidates than were sent, when a
// candidate's creation time or creator cannot be confirmed, or when the account cannot be read.
//
// Limits: the read must see the create once its answer has come back (read-after-write
// consistency); a subscription created by the same user with the same content within
// reconcileSkew of the request, through another tool, is indistinguishable from the lost one.

import (
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
)

const (
	// reconcileSkew is how much earlier than the request was sent, by this machine's clock,
	// the service may date a subscription that the request created.
	reconcileSkew = 2 * time.Minute
	// reconcileTimeout bounds the read that settles a lost answer. It runs even when the
	// caller has been cancelled: the create it settles may have taken effect.
	reconcileTimeout = 2 * time.Minute
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

// lostAnswerError marks a transport failure of a create or bulk request that may have reached
// the service: a timeout or a reset after the request was written.
type lostAnswerError struct{ err error }

// Error is the underlying error's.
func (e *lostAnswerError) Error() string { return e.err.Error() }

// Unwrap returns the underlying error.
func (e *lostAnswerError) Unwrap() error { return e.err }

// mayHaveReachedServer reports whether a failed request may have reached the service: not a
// failed dial, a refused wait for the rate limiter, an untrusted certificate, or the caller's
// cancellation before the request went out (a sent create is detached from the caller's
// cancellation, see transport, so such an error comes from before sending or from the wait
// between attempts, which follows only answers that did nothing).
func mayHaveReachedServer(ctx context.Context, err error) bool {
	if notSent(err) || !retryableTransportError(err) {
		return false
	}
	if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
		return false
	}
	return true
}

// outcomeUnknown reports whether a failed create may have taken effect.
func outcomeUnknown(err error) bool {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode >= 500 && !apiErr.Throttled
	}
	var lost *lostAnswerError
	return errors.Is(err, ErrMalformedResponse) || errors.As(err, &lost)
}

// claimSet holds the subscription IDs that the Client has handed to a caller, so that a
// reconciliation never gives one subscription to two resources.
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

// contentKey is what identifies a subscription's content, as the service may spell it back.
func contentKey(eventName, destinationType, logLevel, env, envName, topic string, enabled bool) string {
	return strings.Join([]string{
		strings.ToLower(strings.TrimSpace(eventName)),
		strings.ToUpper(strings.TrimSpace(destinationType)),
		canonicalLogLevel(logLevel),
		env, envName, topic,
		fmt.Sprint(enabled),
	}, "\x00")
}

// key is the content key of an input; an unset Enabled is the service's default, true.
func (in SubscriptionInput) key() string {
	enabled := in.Enabled == nil || *in.Enabled
	return contentKey(in.EventName, in.DestinationType, in.LogLevel, in.EventStreamsEnvironment,
		in.EventStreamsEnvironmentName, in.EventStreamsTopic, enabled)
}

// key is the content key of a subscription.
func (s Subscription) key() string {
	return contentKey(s.EventName, s.DestinationType, s.LogLevel, s.EventStreamsEnvironment,
		s.EventStreamsEnvironmentName, s.EventStreamsTopic, s.Enabled)
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
// account (see the top of this file). On success the result holds one subscription per input,
// in the order of in. On failure it holds the subscriptions that are known to exist for some
// of the inputs (adopted or created), which the caller must keep track of, and nil entries for
// the others.
func (c *Client) createSubscriptions(ctx context.Context, accountID string, in []SubscriptionInput) ([]*Subscription, error) {
	sentAt := c.now()
	created, err := c.writeSubscriptions(ctx, opCreateSubscriptions, http.MethodPost, accountID, in)
	if err == nil {
		if subs, ok := matchCreated(in, created); ok {
			c.claims.claim(subs...)
			return pointers(subs), nil
		}
		c.claims.claim(created...)
		err = decodeErr(opCreateSubscriptions, fmt.Errorf("the answer holds %d subscriptions with an ID for %d sent", countIDs(created), len(in)))
	}
	if len(in) == 0 || !outcomeUnknown(err) {
		// A create of nothing created nothing, whatever became of its answer.
		return make([]*Subscription, len(in)), err
	}
	tflog.Warn(ctx, "The answer of a create was lost; reading the account to find what it created",
		map[string]any{"account_id": accountID, "subscriptions": len(in), "error": err.Error()})
	// The read runs to its end even if the caller is cancelled: the create may have acted.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), reconcileTimeout)
	defer cancel()
	result := make([]*Subscription, len(in))
	uerr := c.adopt(rctx, accountID, in, result, sentAt, err)
	if uerr != nil || !slices.Contains(result, nil) {
		return result, uerr
	}
	// Create what is still missing, once.
	var missing []SubscriptionInput
	var slots []int
	for i, s := range result {
		if s == nil {
			missing, slots = append(missing, in[i]), append(slots, i)
		}
	}
	tflog.Info(ctx, "Creating the subscriptions that the lost create did not create",
		map[string]any{"account_id": accountID, "missing": len(missing), "found": len(in) - len(missing)})
	sentAt = c.now()
	created, err = c.writeSubscriptions(rctx, opCreateSubscriptions, http.MethodPost, accountID, missing)
	if err == nil {
		if subs, ok := matchCreated(missing, created); ok {
			c.claims.claim(subs...)
			for k, s := range subs {
				result[slots[k]] = &s
			}
			return result, nil
		}
		c.claims.claim(created...)
		err = decodeErr(opCreateSubscriptions, fmt.Errorf("the answer holds %d subscriptions with an ID for %d sent", countIDs(created), len(missing)))
	}
	if !outcomeUnknown(err) {
		return result, err
	}
	// The second answer was lost too: find what it created, but create nothing more.
	sub := make([]*Subscription, len(missing))
	uerr = c.adopt(rctx, accountID, missing, sub, sentAt, err)
	for k, s := range sub {
		result[slots[k]] = s
	}
	if uerr == nil && slices.Contains(sub, nil) {
		uerr = &UnknownOutcomeError{Operation: opCreateSubscriptions, AccountID: accountID, Cause: err, Missing: countNil(sub)}
	}
	return result, uerr
}

// adopt reads the account and fills the nil entries of result with the subscriptions that a
// create of in, sent at sentAt and failed with cause, has made. It returns an
// *UnknownOutcomeError when the account cannot be read or the evidence is ambiguous; entries
// of contents that are not ambiguous are filled all the same.
func (c *Client) adopt(ctx context.Context, accountID string, in []SubscriptionInput, result []*Subscription, sentAt time.Time, cause error) error {
	c.listings.invalidate(accountID)
	list, err := c.ListSubscriptions(ctx, accountID, ListOptions{PageSize: c.cfg.ListPageSize})
	if err != nil {
		return &UnknownOutcomeError{Operation: opCreateSubscriptions, AccountID: accountID, Cause: cause, ReadErr: err, Missing: len(in)}
	}
	callers := c.callerNames(ctx, accountID)
	earliest := sentAt.Add(-reconcileSkew).UnixMilli()
	type candidates struct {
		subs    []Subscription
		unsure  bool // a candidate's creator or creation time is not known to be the caller's
		wanted  int
		indexes []int
	}
	byKey := make(map[string]*candidates)
	for i, input := range in {
		k := input.key()
		if byKey[k] == nil {
			byKey[k] = &candidates{}
		}
		byKey[k].wanted++
		byKey[k].indexes = append(byKey[k].indexes, i)
	}
	for _, s := range list {
		cand := byKey[s.key()]
		if cand == nil || s.ID == "" || c.claims.claimed(s.ID) {
			continue
		}
		if s.CreatedDate != 0 && s.CreatedDate < earliest {
			continue
		}
		cand.subs = append(cand.subs, s)
		if s.CreatedDate == 0 || !createdBy(s, callers) {
			cand.unsure = true
		}
	}
	var ambiguous []string
	for _, cand := range byKey {
		if cand.unsure || len(cand.subs) > cand.wanted {
			for _, s := range cand.subs {
				ambiguous = append(ambiguous, s.ID)
			}
			continue
		}
		c.claims.claim(cand.subs...)
		for k, s := range cand.subs {
			result[cand.indexes[k]] = &s
		}
	}
	tflog.Info(ctx, "Read the account after a lost create answer",
		map[string]any{"account_id": accountID, "sent": len(in), "adopted": len(in) - countNil(result), "ambiguous": len(ambiguous)})
	if len(ambiguous) > 0 {
		slices.Sort(ambiguous)
		return &UnknownOutcomeError{Operation: opCreateSubscriptions, AccountID: accountID, Cause: cause,
			Candidates: ambiguous, Missing: countNil(result)}
	}
	return nil
}

// callerNames returns the names under which the service may record the caller as createdBy:
// the JWT's subject and e-mail claims, and the configured user name.
func (c *Client) callerNames(ctx context.Context, accountID string) []string {
	var names []string
	if c.cfg.Username != "" {
		names = append(names, strings.TrimPrefix(c.cfg.Username, apiTokenUserPrefix))
	}
	token, err := c.token(ctx, accountID)
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
