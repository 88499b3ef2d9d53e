package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// Deliveries: the mock's reading of who is notified. The service cannot be asked to send a
// test notification, and its description does not show what a delivery looks like; it does
// state the rule: a subscription binds an event to a destination with the minimum log level
// that triggers a notification (INFO < WARNING < ERROR), and a disabled subscription notifies
// nobody. FireEvent applies that rule to the store and records one Delivery per subscription
// notified, so that users' tests can fire an event at the mock and see which destinations
// hear it. A Delivery is this mock's record, not the service's delivery format.
//
// This is a second implementation of the rule, written apart from the provider's
// (internal/provider/notified_for.go) on purpose: the package imports neither the provider nor
// internal/client, so that a misreading on either side fails a test.

// levelOrder ranks the log levels, lowest first: a subscription hears its minimum level and
// every level ranked above it.
var levelOrder = []string{"INFO", "WARNING", "ERROR"}

// Event is an event fired at the mock: the body of POST /_mock/events.
type Event struct {
	AccountID string `json:"accountId"`
	EventName string `json:"eventName"`
	LogLevel  string `json:"logLevel"`
}

// Delivery is one notification the mock records for a fired event: the subscription that
// hears it and where it goes.
type Delivery struct {
	SubscriptionID          string `json:"subscriptionId"`
	AccountID               string `json:"accountId"`
	DestinationType         string `json:"destinationType"`
	DestinationEmail        string `json:"destinationEmail,omitempty"`
	EventStreamsEnvironment string `json:"eventStreamsEnvironment,omitempty"`
	EventStreamsTopic       string `json:"eventStreamsTopic,omitempty"`
	// EventName and LogLevel are the event's, as fired (the name as the request spelled it).
	EventName string `json:"eventName"`
	LogLevel  string `json:"logLevel"`
}

// deliveriesBody is the body of a POST /_mock/events answer.
type deliveriesBody struct {
	Deliveries []Delivery `json:"deliveries"`
}

// Errors of FireEvent; the HTTP handler answers them with 400 or 404.
var (
	// ErrUnknownAccount: no subscription is stored in the account and no user of the mock may
	// access it.
	ErrUnknownAccount = errors.New("unknown account")
	// ErrInvalidEvent: a member of the event is missing or is not valid.
	ErrInvalidEvent = errors.New("invalid event")
)

// notifies reports whether sub hears eventName fired at level: it is enabled, its event is the
// same name without regard to case, and its minimum level ranks at or below level.
func notifies(sub Subscription, eventName, level string) bool {
	minimum, fired := slices.Index(levelOrder, sub.LogLevel), slices.Index(levelOrder, level)
	return sub.Enabled && minimum >= 0 && fired >= 0 && minimum <= fired && strings.EqualFold(sub.EventName, eventName)
}

// FireEvent records and returns one delivery per subscription of the account that the event
// notifies, in subscription id order. An event that notifies no one records nothing and
// returns an empty slice.
func (s *Server) FireEvent(e Event) ([]Delivery, error) {
	if err := e.validate(); err != nil {
		return nil, err
	}
	subs := s.Subscriptions(e.AccountID)
	if len(subs) == 0 && !s.accountKnown(e.AccountID) {
		return nil, fmt.Errorf("%w %q: no user of the mock may access it", ErrUnknownAccount, e.AccountID)
	}
	slices.SortFunc(subs, func(a, b Subscription) int { return strings.Compare(a.SubscriptionID, b.SubscriptionID) })
	found := []Delivery{}
	for _, sub := range subs {
		if notifies(sub, e.EventName, e.LogLevel) {
			found = append(found, Delivery{
				SubscriptionID: sub.SubscriptionID, AccountID: e.AccountID,
				DestinationType: sub.DestinationType, DestinationEmail: sub.DestinationEmail,
				EventStreamsEnvironment: sub.EventStreamsEnvironment, EventStreamsTopic: sub.EventStreamsTopic,
				EventName: e.EventName, LogLevel: e.LogLevel,
			})
		}
	}
	s.mu.Lock()
	s.recordLocked(found)
	s.mu.Unlock()
	return found, nil
}

// validate checks the three members: each present; the level one of levelOrder, exactly.
func (e Event) validate() error {
	for _, m := range []struct{ name, value string }{
		{"accountId", e.AccountID}, {"eventName", e.EventName}, {"logLevel", e.LogLevel},
	} {
		if strings.TrimSpace(m.value) == "" {
			return fmt.Errorf("%w: %s is required", ErrInvalidEvent, m.name)
		}
	}
	if !slices.Contains(levelOrder, e.LogLevel) {
		return fmt.Errorf("%w: logLevel %q is not a log level: use %s", ErrInvalidEvent, e.LogLevel, strings.Join(levelOrder, ", "))
	}
	return nil
}

// accountKnown reports whether a user of the mock may access the account (a user with no
// account list may access every one).
func (s *Server) accountKnown(accountID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, u := range s.users {
		if len(u.Accounts) == 0 || slices.Contains(u.Accounts, accountID) {
			return true
		}
	}
	return false
}

// recordLocked keeps found after the recorded deliveries, then drops the oldest beyond
// maxDeliveries, counting them. The caller holds s.mu.
func (s *Server) recordLocked(found []Delivery) {
	s.deliveries = append(s.deliveries, found...)
	if over := len(s.deliveries) - s.maxDeliveries; over > 0 {
		// A reslice: the next append that grows the slice copies only the kept ones, so the
		// array stays within a small multiple of maxDeliveries, at no copy per event.
		s.deliveries = s.deliveries[over:]
		s.droppedDeliveries += over
	}
}

// Deliveries returns the deliveries recorded since start or the last ResetDeliveries, in the
// order they were recorded: the latest Config.MaxDeliveries (DroppedDeliveries counts the older
// ones).
func (s *Server) Deliveries() []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Delivery{}, s.deliveries...)
}

// DroppedDeliveries is the number of deliveries recorded since start or the last
// ResetDeliveries and then dropped, the oldest first, to keep Config.MaxDeliveries.
func (s *Server) DroppedDeliveries() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.droppedDeliveries
}

// ResetDeliveries forgets the recorded deliveries and the count of dropped ones.
func (s *Server) ResetDeliveries() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deliveries, s.droppedDeliveries = nil, 0
}

// maxEventBytes bounds the body of POST /_mock/events.
const maxEventBytes = 64 << 10

// HandleEvents serves POST /_mock/events: a JSON object {"accountId", "eventName", "logLevel"}
// (no other member). It answers 200 with {"deliveries": [...]}, the deliveries the event
// recorded (an empty list when it notifies no one); 400 with the service's error body for a
// body that is not such an object or a level that is not INFO, WARNING or ERROR (exactly);
// 404 for an unknown account; 405 for another method.
func (s *Server) HandleEvents(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, r, http.StatusMethodNotAllowed, errMethodNotAllowed)
		return
	}
	var e Event
	if msg := decodeEvent(w, r, &e); msg != "" {
		writeSpecError(w, r, http.StatusBadRequest, msg)
		return
	}
	found, err := s.FireEvent(e)
	switch {
	case errors.Is(err, ErrUnknownAccount):
		writeError(w, r, http.StatusNotFound, errRouteNotFound, err.Error())
	case err != nil:
		writeSpecError(w, r, http.StatusBadRequest, err.Error())
	default:
		writeJSON(w, r, http.StatusOK, deliveriesBody{Deliveries: found})
	}
}

// decodeEvent reads the body strictly; it returns the 400 message, or "".
func decodeEvent(w http.ResponseWriter, r *http.Request, e *Event) string {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxEventBytes))
	if err != nil {
		return "Request body is missing or too large"
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(e); err != nil {
		return "Malformed event: want a JSON object {\"accountId\", \"eventName\", \"logLevel\"} of strings: " + err.Error()
	}
	if dec.More() {
		return "Malformed event: more than one JSON value"
	}
	return ""
}

// deliveriesPage is the body of GET /_mock/deliveries: deliveries numbered from 1 in the order
// recorded since start or the last reset, those after number After, at most Limit of them.
type deliveriesPage struct {
	Deliveries []Delivery `json:"deliveries"`
	// Dropped is how many of the oldest were dropped to keep the latest (Config.MaxDeliveries):
	// the first one kept is number Dropped+1.
	Dropped int `json:"dropped"`
	// Next is the number of the last delivery answered (after when none is): the after of the
	// next page.
	Next int `json:"next"`
	// More is whether deliveries after Next are kept.
	More bool `json:"more"`
}

// deliveriesQuery reads after (an integer >= 0, default 0) and limit (1 to MaxDeliveriesPage,
// default MaxDeliveriesPage); it returns the 400 message, or "".
func deliveriesQuery(r *http.Request) (after, limit int, msg string) {
	after, limit = 0, MaxDeliveriesPage
	q := r.URL.Query()
	if v := q.Get("after"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return 0, 0, fmt.Sprintf("after must be an integer greater than or equal to 0, got %q", v)
		}
		after = n
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxDeliveriesPage {
			return 0, 0, fmt.Sprintf("limit must be an integer from 1 to %d, got %q", MaxDeliveriesPage, v)
		}
		limit = n
	}
	return after, limit, ""
}

// deliveriesAfter returns the page of the kept deliveries numbered after after, at most limit.
func (s *Server) deliveriesAfter(after, limit int) deliveriesPage {
	s.mu.Lock()
	defer s.mu.Unlock()
	first := min(max(after-s.droppedDeliveries, 0), len(s.deliveries)) // index of number after+1
	end := min(first+limit, len(s.deliveries))
	return deliveriesPage{
		Deliveries: append([]Delivery{}, s.deliveries[first:end]...),
		Dropped:    s.droppedDeliveries,
		Next:       max(after, s.droppedDeliveries+end),
		More:       end < len(s.deliveries),
	}
}

// HandleDeliveries serves GET /_mock/deliveries: 200 with {"deliveries": [...], "dropped",
// "next", "more"} (deliveriesPage), the deliveries recorded since start or the last reset, in the
// order recorded, after number ?after= (default 0), at most ?limit= (default and most
// MaxDeliveriesPage); 400 with the service's error body for a bad after or limit; 405 for another
// method. Only the latest Config.MaxDeliveries are kept: dropped counts the others.
func (s *Server) HandleDeliveries(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		writeError(w, r, http.StatusMethodNotAllowed, errMethodNotAllowed)
		return
	}
	after, limit, msg := deliveriesQuery(r)
	if msg != "" {
		writeSpecError(w, r, http.StatusBadRequest, msg)
		return
	}
	writeJSON(w, r, http.StatusOK, s.deliveriesAfter(after, limit))
}
