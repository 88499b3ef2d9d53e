package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
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

// deliveriesBody is the body of GET /_mock/deliveries and of a POST /_mock/events answer.
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
	s.deliveries = append(s.deliveries, found...)
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

// Deliveries returns the deliveries recorded since start or the last ResetDeliveries, in the
// order they were recorded.
func (s *Server) Deliveries() []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Delivery{}, s.deliveries...)
}

// ResetDeliveries forgets the recorded deliveries.
func (s *Server) ResetDeliveries() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deliveries = nil
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

// HandleDeliveries serves GET /_mock/deliveries: 200 with {"deliveries": [...]}, every
// delivery recorded since start or the last reset, in the order recorded; 405 for another
// method.
func (s *Server) HandleDeliveries(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		writeError(w, r, http.StatusMethodNotAllowed, errMethodNotAllowed)
		return
	}
	writeJSON(w, r, http.StatusOK, deliveriesBody{Deliveries: s.Deliveries()})
}
