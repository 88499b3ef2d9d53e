package mockserver

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/google/uuid"
)

// Not-found messages (the spec: the message names the account, or the id).
func msgAccountEmpty(accountID string) string {
	return "No subscriptions found for account " + accountID
}

func msgSubscriptionNotFound(id string) string {
	return "No subscription found with id " + id
}

// msgInvalidID rejects a {subscriptionId} that is not a uuid.
func msgInvalidID(id string) string {
	return "Invalid subscriptionId " + strconv.Quote(id) + ": must be a uuid"
}

// listQuery is the validated query of listSubscribedEventsForAccount.
type listQuery struct {
	pageNumber int
	pageSize   int
	sortBy     string
	desc       bool
}

// parseListQuery validates pageNumber, pageSize, sortBy and
// sortDirection. Empty values count as absent. sortByOK tells whether a sortBy value is
// accepted, and gives the accepted ones for the message that refuses it.
func parseListQuery(q url.Values, defaultSize, maxSize int, sortByOK func(string) (bool, []string)) (listQuery, string, bool) {
	lq := listQuery{pageSize: defaultSize}
	if v := q.Get("pageNumber"); v != "" {
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil || n < 0 {
			return lq, "pageNumber must be an integer greater than or equal to 0, got " + strconv.Quote(v), false
		}
		lq.pageNumber = int(n)
	}
	if v := q.Get("pageSize"); v != "" {
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil || n < 1 {
			return lq, "pageSize must be an integer greater than or equal to 1, got " + strconv.Quote(v), false
		}
		lq.pageSize = min(int(n), maxSize)
	}
	if v := q.Get("sortBy"); v != "" {
		if ok, accepted := sortByOK(v); !ok {
			return lq, "Invalid sortBy " + strconv.Quote(v) + ". Supported values are: " + strings.Join(accepted, ", "), false
		}
		lq.sortBy = v
	}
	switch v := q.Get("sortDirection"); strings.ToUpper(v) {
	case "", "ASC":
	case "DESC":
		lq.desc = true
	default:
		return lq, "Invalid sortDirection " + strconv.Quote(v) + ". Supported values are: ASC, DESC", false
	}
	return lq, "", true
}

// listSubscriptions serves listSubscribedEventsForAccount.
func (s *Server) listSubscriptions(w http.ResponseWriter, r *http.Request, c call) {
	s.mu.Lock()
	defaultSize, maxSize := s.defaultPageSize, s.maxPageSize
	s.mu.Unlock()
	q, msg, ok := parseListQuery(r.URL.Query(), defaultSize, maxSize, s.sortByAccepted)
	if !ok {
		writeSpecError(w, r, http.StatusBadRequest, msg)
		return
	}

	s.mu.Lock()
	a := s.accountLocked(c.accountID, false)
	total := a.size()
	if total == 0 {
		status := s.emptyListStatus
		s.mu.Unlock()
		switch status {
		case http.StatusNotFound:
			writeSpecError(w, r, status, msgAccountEmpty(c.accountID))
		case http.StatusOK:
			writeJSON(w, r, status, subscriptionWrapper{
				Subscriptions:      []Subscription{},
				PaginationMetadata: pageMetadata(q, 0, 0),
			})
		default:
			writeNoContent(w)
		}
		return
	}
	sorted := a.sortedBy(q.sortBy)
	start := int64(q.pageNumber) * int64(q.pageSize)
	n := int(max(0, min(int64(total)-start, int64(q.pageSize))))
	page := make([]Subscription, n)
	for i := range page {
		idx := int(start) + i
		if q.desc {
			idx = total - 1 - idx
		}
		page[i] = *sorted[idx]
	}
	transform := s.transform
	s.mu.Unlock()

	applyTransform(transform, page)
	writeJSON(w, r, http.StatusOK, subscriptionWrapper{
		Subscriptions:      page,
		PaginationMetadata: pageMetadata(q, total, n),
	})
}

// pageMetadata describes page q of total elements holding n of them.
func pageMetadata(q listQuery, total, n int) *paginationMetadata {
	pages := (total + q.pageSize - 1) / q.pageSize
	return &paginationMetadata{
		PageNumber:       int32(q.pageNumber),
		PageSize:         int32(q.pageSize),
		TotalPages:       int32(pages),
		TotalElements:    int64(total),
		NumberOfElements: int32(n),
		First:            q.pageNumber == 0,
		Last:             q.pageNumber >= pages-1,
	}
}

// newSubscription builds a stored subscription from validated input.
func newSubscription(accountID, username string, in Subscription, now int64) *Subscription {
	sub := &Subscription{
		SubscriptionID: uuid.NewString(),
		AccountID:      accountID,
		CreatedDate:    now,
		CreatedBy:      username,
	}
	applyInput(sub, in, username, now)
	return sub
}

// applyInput sets the fields of a SubscriptionCreate on sub from in (parseCreate's value).
func applyInput(sub *Subscription, in Subscription, username string, now int64) {
	for _, f := range subscriptionFields() {
		if f.settable(shapeCreate) {
			f.value(sub).Set(f.value(&in))
		}
	}
	touch(sub, username, now)
}

// addAll stores a new subscription of c's account for each of ins, created by c's user at now,
// and returns them as stored. The caller holds s.mu.
func addAll(a *account, c call, ins []Subscription, now int64) []Subscription {
	out := make([]Subscription, len(ins))
	for i, in := range ins {
		sub := newSubscription(c.accountID, c.username, in, now)
		a.put(sub)
		out[i] = *sub
	}
	return out
}

// touch records an update by username at now.
func touch(sub *Subscription, username string, now int64) {
	sub.LastUpdatedDate = max(now, sub.CreatedDate)
	sub.LastUpdatedUserID = username
}

// readCreateList reads and validates the body of updateSubscriptions and createSubscriptions,
// answering 400 itself when it is not valid.
func readCreateList(w http.ResponseWriter, r *http.Request) ([]Subscription, bool) {
	o, msg, ok := readObject(w, r)
	if !ok {
		writeSpecError(w, r, http.StatusBadRequest, msg)
		return nil, false
	}
	ins, msgs := parseCreateList(o)
	if len(msgs) > 0 {
		writeSpecError(w, r, http.StatusBadRequest, msgs...)
		return nil, false
	}
	return ins, true
}

// replaceSubscriptions serves updateSubscriptions: the account's whole set is
// replaced by the supplied one (new ids).
func (s *Server) replaceSubscriptions(w http.ResponseWriter, r *http.Request, c call) {
	ins, ok := readCreateList(w, r)
	if !ok {
		return
	}
	now := s.nowMillis()
	s.mu.Lock()
	if msg := s.overLimitLocked(c.accountID, len(ins), false); msg != "" {
		s.mu.Unlock()
		writeSpecError(w, r, http.StatusConflict, msg)
		return
	}
	a := s.accountLocked(c.accountID, true)
	had := a.size()
	a.clear()
	out := addAll(a, c, ins, now)
	transform := s.transform
	s.mu.Unlock()

	status := http.StatusOK
	switch {
	case had == 0 && len(ins) == 0:
		writeNoContent(w)
		return
	case had == 0:
		status = http.StatusCreated
	}
	applyTransform(transform, out)
	writeJSON(w, r, status, subscriptionWrapper{Subscriptions: out})
}

// createSubscriptions serves createSubscriptions.
func (s *Server) createSubscriptions(w http.ResponseWriter, r *http.Request, c call) {
	ins, ok := readCreateList(w, r)
	if !ok {
		return
	}
	if len(ins) == 0 {
		writeNoContent(w)
		return
	}
	now := s.nowMillis()
	s.mu.Lock()
	a := s.accountLocked(c.accountID, true)
	if msg := s.overLimitLocked(c.accountID, a.size()+len(ins), false); msg != "" {
		s.mu.Unlock()
		writeSpecError(w, r, http.StatusConflict, msg)
		return
	}
	out := addAll(a, c, ins, now)
	transform := s.transform
	s.mu.Unlock()

	applyTransform(transform, out)
	writeJSON(w, r, http.StatusCreated, subscriptionWrapper{Subscriptions: out})
}

// deleteAllSubscriptions serves deleteSubscriptionForAccount.
func (s *Server) deleteAllSubscriptions(w http.ResponseWriter, r *http.Request, c call) {
	s.mu.Lock()
	a := s.accountLocked(c.accountID, false)
	had := a.size()
	if had > 0 {
		a.clear()
	}
	s.mu.Unlock()
	if had == 0 {
		writeSpecError(w, r, http.StatusNotFound, msgAccountEmpty(c.accountID))
		return
	}
	writeNoContent(w)
}

// pathID validates {subscriptionId}, answering 400 itself when it is not
// a uuid.
func pathID(w http.ResponseWriter, r *http.Request, c call) (string, bool) {
	id, ok := canonicalID(c.subscriptionID)
	if !ok {
		writeSpecError(w, r, http.StatusBadRequest, msgInvalidID(c.subscriptionID))
	}
	return id, ok
}

// getSubscription serves getSubscribedEventForAccount.
func (s *Server) getSubscription(w http.ResponseWriter, r *http.Request, c call) {
	if id, ok := pathID(w, r, c); ok {
		s.serveOne(w, r, c, id, nil)
	}
}

// updateSubscription serves updateSubscription: the client-settable fields are
// replaced (enabled defaults to true).
func (s *Server) updateSubscription(w http.ResponseWriter, r *http.Request, c call) {
	id, ok := pathID(w, r, c)
	if !ok {
		return
	}
	o, msg, ok := readObject(w, r)
	if !ok {
		writeSpecError(w, r, http.StatusBadRequest, msg)
		return
	}
	msgs := o.unknownFields("subscription")
	item, isObj := asObject(o["subscription"])
	switch {
	case !o.has("subscription"):
		msgs = append([]string{"subscription is required"}, msgs...)
	case !isObj:
		msgs = append([]string{"subscription must be a JSON object"}, msgs...)
	}
	var in Subscription
	if len(msgs) == 0 {
		in, msgs = parseCreate(item)
	}
	if len(msgs) > 0 {
		writeSpecError(w, r, http.StatusBadRequest, msgs...)
		return
	}

	s.serveOne(w, r, c, id, func(a *account, sub *Subscription) {
		applyInput(sub, in, c.username, s.nowMillis())
		a.changed()
	})
}

// serveOne answers getSubscribedEventForAccount and updateSubscription once the request is
// valid: under the lock it applies change (nil for a read) to c's account's subscription id, then
// answers it, or 404 when the account holds no such subscription.
func (s *Server) serveOne(w http.ResponseWriter, r *http.Request, c call, id string, change func(*account, *Subscription)) {
	s.mu.Lock()
	a := s.accountLocked(c.accountID, false)
	sub := a.get(id)
	var out Subscription
	if sub != nil {
		if change != nil {
			change(a, sub)
		}
		out = *sub
	}
	shape, transform := s.singleShape, s.transform
	s.mu.Unlock()
	if sub == nil {
		writeSpecError(w, r, http.StatusNotFound, msgSubscriptionNotFound(c.subscriptionID))
		return
	}
	writeSingle(w, r, shape, transform, out)
}

// deleteSubscription serves deleteSubscription.
func (s *Server) deleteSubscription(w http.ResponseWriter, r *http.Request, c call) {
	id, ok := pathID(w, r, c)
	if !ok {
		return
	}
	s.mu.Lock()
	a := s.accountLocked(c.accountID, false)
	found := a.remove(id)
	s.mu.Unlock()
	if !found {
		writeSpecError(w, r, http.StatusNotFound, msgSubscriptionNotFound(c.subscriptionID))
		return
	}
	writeNoContent(w)
}

// writeSingle answers 200 with one subscription in shape.
func writeSingle(w http.ResponseWriter, r *http.Request, shape SingleShape, transform func(*Subscription), sub Subscription) {
	if transform != nil {
		transform(&sub)
	}
	if shape == SingleWrapped {
		writeJSON(w, r, http.StatusOK, singleWrapper{Subscription: sub})
		return
	}
	writeJSON(w, r, http.StatusOK, sub)
}
