package client

import (
	"encoding/json"
	"errors"
	"strings"
)

// Subscription is a subscription as the service returns it (Subscription in SERVICE.md). Its
// JSON form is the service's: decoding is tolerant (integers may arrive as numbers in any
// notation or as numeric strings, an absent "enabled" means true, and a log level in another
// spelling, such as WARN, is read as INFO, WARNING or ERROR); encoding, used by the bulk
// update, omits empty strings and zero dates.
type Subscription struct {
	// ID is the service-assigned subscriptionId.
	ID string `json:"subscriptionId,omitempty"`
	// AccountID is the owning account.
	AccountID string `json:"accountId,omitempty"`
	// EventName is the event subscribed to.
	EventName string `json:"eventName,omitempty"`
	// DestinationType is EVENT_STREAMS or EMAIL.
	DestinationType string `json:"destinationType,omitempty"`
	// LogLevel is INFO, WARNING or ERROR.
	LogLevel string `json:"logLevel,omitempty"`
	// DestinationEmail is the e-mail destination, for EMAIL.
	DestinationEmail string `json:"destinationEmail,omitempty"`
	// EventStreamsEnvironment is the event streams environment ID.
	EventStreamsEnvironment string `json:"eventStreamsEnvironment,omitempty"`
	// EventStreamsEnvironmentName is the event streams environment name.
	EventStreamsEnvironmentName string `json:"eventStreamsEnvironmentName,omitempty"`
	// EventStreamsTopic is the event streams topic.
	EventStreamsTopic string `json:"eventStreamsTopic,omitempty"`
	// Enabled tells whether the subscription is active; absent on the wire means true.
	Enabled bool `json:"enabled"`
	// CreatedDate is the creation time in Unix milliseconds.
	CreatedDate int64 `json:"createdDate,omitempty"`
	// LastUpdatedDate is the last update time in Unix milliseconds.
	LastUpdatedDate int64 `json:"lastUpdatedDate,omitempty"`
	// CreatedBy is the e-mail of the creating user.
	CreatedBy string `json:"createdBy,omitempty"`
	// LastUpdatedUserID is the e-mail of the user who last updated the subscription.
	LastUpdatedUserID string `json:"lastUpdatedUserId,omitempty"`
}

// UnmarshalJSON reads the service's Subscription tolerantly (see Subscription).
func (s *Subscription) UnmarshalJSON(b []byte) error {
	type plain Subscription
	*s = Subscription{}
	// The outer fields win over the embedded ones of the same JSON name.
	aux := struct {
		*plain
		Enabled         *bool     `json:"enabled"`
		CreatedDate     flexInt64 `json:"createdDate"`
		LastUpdatedDate flexInt64 `json:"lastUpdatedDate"`
	}{plain: (*plain)(s)}
	if err := json.Unmarshal(b, &aux); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			// Name the member as the body does, not through the embedded helper type.
			typeErr.Field = strings.TrimPrefix(typeErr.Field, "plain.")
		}
		return err
	}
	s.Enabled = aux.Enabled == nil || *aux.Enabled
	s.CreatedDate, s.LastUpdatedDate = int64(aux.CreatedDate), int64(aux.LastUpdatedDate)
	s.LogLevel = canonicalLogLevel(s.LogLevel)
	return nil
}

// present reports whether the object carried a subscription at all.
func (s *Subscription) present() bool {
	return s.ID != "" || s.EventName != ""
}

// SubscriptionInput is what a caller may set on a subscription (SubscriptionCreate in
// SERVICE.md); it carries no server-managed field. Its JSON form is the service's: empty
// optional strings and a nil Enabled (the service's default, true) are omitted.
type SubscriptionInput struct {
	// EventName is required.
	EventName string `json:"eventName"`
	// DestinationType is required: EVENT_STREAMS or EMAIL.
	DestinationType string `json:"destinationType"`
	// LogLevel is required: INFO, WARNING or ERROR.
	LogLevel string `json:"logLevel"`
	// EventStreamsEnvironment is the environment ID.
	EventStreamsEnvironment string `json:"eventStreamsEnvironment,omitempty"`
	// EventStreamsEnvironmentName is the environment name.
	EventStreamsEnvironmentName string `json:"eventStreamsEnvironmentName,omitempty"`
	// EventStreamsTopic is the topic.
	EventStreamsTopic string `json:"eventStreamsTopic,omitempty"`
	// Enabled is omitted when nil (the service's default is true).
	Enabled *bool `json:"enabled,omitempty"`
}

// canonicalLogLevel maps the service's alternative spellings of a log level (WARN, lower
// case) to INFO, WARNING or ERROR; anything else is returned unchanged.
func canonicalLogLevel(s string) string {
	switch u := strings.ToUpper(strings.TrimSpace(s)); u {
	case "WARN", "WARNING":
		return "WARNING"
	case "INFO", "ERROR":
		return u
	}
	return s
}
