package mockserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"

	"github.com/google/uuid"
)

// Faults that change an answer rather than replace it: a listing page that misreports
// (ClaimLast), a listing that shifts between pages (ShiftPages), a 207 that misses statuses
// (DropStatuses), subscriptions with a forged member (ForgeMember), a body cut short
// (Truncate). They are deterministic:
// what they change depends only on the store and the request.

// tampers reports whether f changes an answer rather than replacing it.
func (f Fault) tampers() bool {
	return f.ClaimLast || f.ShiftPages > 0 || f.DropStatuses > 0 || f.ForgeMember != "" || f.Truncate > 0
}

// afterWork reports whether f acts once the operation has answered with success.
func (f Fault) afterWork() bool {
	if f.DropStatuses > 0 {
		return f.AfterWork
	}
	return f.AfterWork || f.ClaimLast || f.ShiftPages > 0 || f.ForgeMember != "" || f.Truncate > 0
}

// firesOn reports whether f may fire on a request: a fault that changes an answer fires only
// on the operation whose answer it changes.
func (f Fault) firesOn(method, route string) bool {
	switch {
	case !f.tampers():
		return true
	case f.DropStatuses > 0:
		return method == http.MethodPatch && route == RouteSubscriptions
	case f.ForgeMember != "":
		return route == RouteSubscriptions || route == RouteSubscription
	case f.Truncate > 0:
		return true
	}
	return method == http.MethodGet && route == RouteSubscriptions
}

// trimRequest applies DropStatuses before the work: the request's last DropStatuses items are
// taken out of the body, so that the service neither acts on them nor answers for them. A
// body that is not a bulk request is left as it is (the operation rejects it).
func (f Fault) trimRequest(r *http.Request) *http.Request {
	if f.DropStatuses <= 0 || r.Body == nil {
		return r
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes))
	_ = r.Body.Close()
	out := r.Clone(r.Context())
	out.Body, out.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
	var body map[string]json.RawMessage
	if err != nil || json.Unmarshal(b, &body) != nil {
		return out
	}
	for _, list := range []string{"subscriptionIds", "subscriptions"} {
		var items []json.RawMessage
		if json.Unmarshal(body[list], &items) != nil || len(items) == 0 {
			continue
		}
		// At least one item stays: an empty list is a different request (400).
		items = items[:max(1, len(items)-f.DropStatuses)]
		body[list], _ = json.Marshal(items)
	}
	trimmed, err := json.Marshal(body)
	if err != nil {
		return out
	}
	out.Body, out.ContentLength = io.NopCloser(bytes.NewReader(trimmed)), int64(len(trimmed))
	return out
}

// tamperAnswer applies f to the held success answer of the request matched as m.
func (s *Server) tamperAnswer(held *heldResponse, m routeMatch, f Fault) {
	switch {
	case f.DropStatuses > 0:
		var resp patchResponse
		if json.Unmarshal(held.body.Bytes(), &resp) != nil {
			return
		}
		resp.OperationStatuses = resp.OperationStatuses[:max(0, len(resp.OperationStatuses)-f.DropStatuses)]
		rewriteJSON(held, resp)
	case f.ForgeMember != "":
		forgeSubscriptions(held, f.ForgeMember, f.ForgeValue)
	case f.Truncate > 0:
		if held.body.Len() > f.Truncate {
			held.body.Truncate(f.Truncate)
			held.header.Del("Content-Length")
		}
	default:
		if f.ClaimLast {
			var page subscriptionWrapper
			if json.Unmarshal(held.body.Bytes(), &page) == nil && page.PaginationMetadata != nil {
				page.PaginationMetadata.Last = true
				rewriteJSON(held, page)
			}
		}
		if f.ShiftPages > 0 {
			s.shiftListing(m.accountID, f.ShiftPages, f.ShiftReplace)
		}
	}
}

// rewriteJSON replaces the held answer's body with v.
func rewriteJSON(held *heldResponse, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	held.body.Reset()
	held.body.Write(b)
}

// shiftListing deletes the account's first n subscriptions in the default listing order;
// with replace, each is stored again under a new id, dated after every other one so that it
// comes last.
func (s *Server) shiftListing(accountID string, n int, replace bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.accountLocked(accountID, false)
	sorted := a.sortedBy("")
	if len(sorted) == 0 {
		return
	}
	latest := sorted[len(sorted)-1].CreatedDate
	victims := make([]Subscription, 0, n)
	for _, sub := range sorted[:min(n, len(sorted))] {
		victims = append(victims, *sub)
	}
	for i, v := range victims {
		a.remove(v.SubscriptionID)
		if replace {
			v.SubscriptionID = uuid.NewString()
			v.CreatedDate = latest + int64(i) + 1
			v.LastUpdatedDate = v.CreatedDate
			a.put(&v)
		}
	}
}

// forgeSubscriptions sets member to value in every subscription of the held answer: the items
// of "subscriptions", the "subscription" object, or the body itself when it is one
// subscription. Other members, numbers included, are served as they were.
func forgeSubscriptions(held *heldResponse, member, value string) {
	dec := json.NewDecoder(bytes.NewReader(held.body.Bytes()))
	dec.UseNumber()
	var body map[string]any
	if dec.Decode(&body) != nil {
		return
	}
	set := func(v any) {
		if sub, ok := v.(map[string]any); ok {
			sub[member] = value
		}
	}
	if list, ok := body["subscriptions"].([]any); ok {
		for _, item := range list {
			set(item)
		}
	}
	set(body["subscription"])
	if _, ok := body["subscriptionId"]; ok {
		set(body)
	}
	rewriteJSON(held, body)
}
