package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// This file holds the JSON shapes of the service, written from its specification, and the
// conversions between them and the exported types. Unknown members are ignored everywhere.

// wireSubscription is the service's Subscription. Its omitempty tags matter only for the bulk
// update, the one request that sends whole subscriptions.
type wireSubscription struct {
	SubscriptionID              string    `json:"subscriptionId,omitempty"`
	AccountID                   string    `json:"accountId,omitempty"`
	EventName                   string    `json:"eventName,omitempty"`
	DestinationType             string    `json:"destinationType,omitempty"`
	LogLevel                    string    `json:"logLevel,omitempty"`
	DestinationEmail            string    `json:"destinationEmail,omitempty"`
	EventStreamsEnvironment     string    `json:"eventStreamsEnvironment,omitempty"`
	EventStreamsEnvironmentName string    `json:"eventStreamsEnvironmentName,omitempty"`
	EventStreamsTopic           string    `json:"eventStreamsTopic,omitempty"`
	Enabled                     *bool     `json:"enabled,omitempty"`
	CreatedDate                 flexInt64 `json:"createdDate,omitempty"`
	LastUpdatedDate             flexInt64 `json:"lastUpdatedDate,omitempty"`
	CreatedBy                   string    `json:"createdBy,omitempty"`
	LastUpdatedUserID           string    `json:"lastUpdatedUserId,omitempty"`
}

// present reports whether the object carried a subscription at all.
func (w *wireSubscription) present() bool {
	return w.SubscriptionID != "" || w.EventName != ""
}

// wireSubscriptionCreate is the service's SubscriptionCreate: never any server-managed field.
type wireSubscriptionCreate struct {
	EventName                   string `json:"eventName"`
	DestinationType             string `json:"destinationType"`
	LogLevel                    string `json:"logLevel"`
	EventStreamsEnvironment     string `json:"eventStreamsEnvironment,omitempty"`
	EventStreamsEnvironmentName string `json:"eventStreamsEnvironmentName,omitempty"`
	EventStreamsTopic           string `json:"eventStreamsTopic,omitempty"`
	Enabled                     *bool  `json:"enabled,omitempty"`
}

// wireSubscriptionCreateRequest is SubscriptionCreateRequest (operations 2 and 3).
type wireSubscriptionCreateRequest struct {
	Subscriptions []wireSubscriptionCreate `json:"subscriptions"`
}

// wireSubscriptionUpdateSingleRequest is SubscriptionUpdateSingleRequest (operation 7).
type wireSubscriptionUpdateSingleRequest struct {
	Subscription wireSubscriptionCreate `json:"subscription"`
}

// wirePagination is PaginationMetadata.
type wirePagination struct {
	PageNumber       *flexInt64 `json:"pageNumber"`
	PageSize         *flexInt64 `json:"pageSize"`
	TotalPages       *flexInt64 `json:"totalPages"`
	TotalElements    *flexInt64 `json:"totalElements"`
	NumberOfElements *flexInt64 `json:"numberOfElements"`
	First            *bool      `json:"first"`
	Last             *bool      `json:"last"`
}

// wireSubscriptionWrapper is SubscriptionWrapper. It embeds one Subscription as well, because
// operations 6 and 7 are documented with the subscription at the top level (rule 5).
type wireSubscriptionWrapper struct {
	wireSubscription
	Subscriptions      []wireSubscription `json:"subscriptions"`
	Subscription       *wireSubscription  `json:"subscription"`
	PaginationMetadata *wirePagination    `json:"paginationMetadata"`
}

// wireBulkDeleteRequest is SubscriptionPatchRequest for operation "delete".
type wireBulkDeleteRequest struct {
	Operation       string   `json:"operation"`
	SubscriptionIDs []string `json:"subscriptionIds"`
}

// wireBulkUpdateRequest is SubscriptionPatchRequest for operation "update".
type wireBulkUpdateRequest struct {
	Operation     string             `json:"operation"`
	Subscriptions []wireSubscription `json:"subscriptions"`
}

// wireOperationStatus is OperationStatus.
type wireOperationStatus struct {
	SubscriptionID     string    `json:"subscriptionId"`
	HTTPEquivalentCode flexInt64 `json:"httpEquivalentCode"`
	Message            string    `json:"message"`
}

// wirePatchResponse is SubscriptionPatchResponseWrapper.
type wirePatchResponse struct {
	OperationStatuses []wireOperationStatus `json:"operationStatuses"`
}

// wireTopicRequest is CreateEventStreamTopicAndSubscriptionDto.
type wireTopicRequest struct {
	EventStreamsEnvironmentID    string `json:"eventStreamsEnvironmentId"`
	EventStreamsSubscriptionName string `json:"eventStreamsSubscriptionName"`
	TopicName                    string `json:"topicName"`
	TopicDescription             string `json:"topicDescription,omitempty"`
}

// wireTopicResponse is CreateESSubscriptionResponse.
type wireTopicResponse struct {
	Data *struct {
		EventStreamsSubscriptionCreate *struct {
			Name  string `json:"name"`
			Topic *struct {
				Name        string `json:"name"`
				Environment *struct {
					ID string `json:"id"`
				} `json:"environment"`
				SubscriptionCount flexInt64 `json:"subscriptionCount"`
			} `json:"topic"`
		} `json:"eventStreamsSubscriptionCreate"`
	} `json:"data"`
}

// flexInt64 decodes an integer that may arrive as a JSON number (also in exponent or
// fractional notation), as a numeric string, or as null.
type flexInt64 int64

// UnmarshalJSON implements json.Unmarshaler.
func (n *flexInt64) UnmarshalJSON(b []byte) error {
	if len(b) == 0 || string(b) == "null" {
		return nil
	}
	if b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if s == "" {
			return nil
		}
		b = []byte(s)
	}
	if i, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		*n = flexInt64(i)
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("%q is not a number", excerpt(b, 40))
	}
	*n = flexInt64(f)
	return nil
}

// toSubscription converts the wire form; an absent "enabled" means true.
func (w *wireSubscription) toSubscription() Subscription {
	return Subscription{
		ID:                          w.SubscriptionID,
		AccountID:                   w.AccountID,
		EventName:                   w.EventName,
		DestinationType:             w.DestinationType,
		LogLevel:                    w.LogLevel,
		DestinationEmail:            w.DestinationEmail,
		EventStreamsEnvironment:     w.EventStreamsEnvironment,
		EventStreamsEnvironmentName: w.EventStreamsEnvironmentName,
		EventStreamsTopic:           w.EventStreamsTopic,
		Enabled:                     w.Enabled == nil || *w.Enabled,
		CreatedDate:                 int64(w.CreatedDate),
		LastUpdatedDate:             int64(w.LastUpdatedDate),
		CreatedBy:                   w.CreatedBy,
		LastUpdatedUserID:           w.LastUpdatedUserID,
	}
}

// toWireSubscription converts a whole subscription for the bulk update.
func toWireSubscription(s Subscription) wireSubscription {
	enabled := s.Enabled
	return wireSubscription{
		SubscriptionID:              s.ID,
		AccountID:                   s.AccountID,
		EventName:                   s.EventName,
		DestinationType:             s.DestinationType,
		LogLevel:                    s.LogLevel,
		DestinationEmail:            s.DestinationEmail,
		EventStreamsEnvironment:     s.EventStreamsEnvironment,
		EventStreamsEnvironmentName: s.EventStreamsEnvironmentName,
		EventStreamsTopic:           s.EventStreamsTopic,
		Enabled:                     &enabled,
		CreatedDate:                 flexInt64(s.CreatedDate),
		LastUpdatedDate:             flexInt64(s.LastUpdatedDate),
		CreatedBy:                   s.CreatedBy,
		LastUpdatedUserID:           s.LastUpdatedUserID,
	}
}

// toWireCreate converts an input; empty optional strings and a nil Enabled are omitted.
func toWireCreate(in SubscriptionInput) wireSubscriptionCreate {
	w := wireSubscriptionCreate{
		EventName:                   in.EventName,
		DestinationType:             in.DestinationType,
		LogLevel:                    in.LogLevel,
		EventStreamsEnvironment:     in.EventStreamsEnvironment,
		EventStreamsEnvironmentName: in.EventStreamsEnvironmentName,
		EventStreamsTopic:           in.EventStreamsTopic,
	}
	if in.Enabled != nil {
		enabled := *in.Enabled
		w.Enabled = &enabled
	}
	return w
}

// toWireCreateRequest wraps inputs; an empty input is sent as an empty array, never null.
func toWireCreateRequest(in []SubscriptionInput) wireSubscriptionCreateRequest {
	req := wireSubscriptionCreateRequest{Subscriptions: make([]wireSubscriptionCreate, 0, len(in))}
	for _, s := range in {
		req.Subscriptions = append(req.Subscriptions, toWireCreate(s))
	}
	return req
}

// errNoBody is returned when a body that must carry a value is empty.
var errNoBody = errors.New("the response body is empty")

// decodeSubscriptionWrapper decodes a SubscriptionWrapper, or a bare array of subscriptions.
// An empty body or null decodes to an empty wrapper.
func decodeSubscriptionWrapper(body []byte) (*wireSubscriptionWrapper, error) {
	var w wireSubscriptionWrapper
	data := bytes.TrimSpace(body)
	if len(data) == 0 || string(data) == "null" {
		return &w, nil
	}
	if data[0] == '[' {
		if err := json.Unmarshal(data, &w.Subscriptions); err != nil {
			return nil, err
		}
		if w.Subscriptions == nil {
			w.Subscriptions = []wireSubscription{}
		}
		return &w, nil
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, err
	}
	return &w, nil
}

// list returns the subscriptions a wrapper carries: its list, else its single member, else a
// subscription at the top level.
func (w *wireSubscriptionWrapper) list() []Subscription {
	switch {
	case w.Subscriptions != nil:
		out := make([]Subscription, 0, len(w.Subscriptions))
		for i := range w.Subscriptions {
			out = append(out, w.Subscriptions[i].toSubscription())
		}
		return out
	case w.Subscription != nil && w.Subscription.present():
		return []Subscription{w.Subscription.toSubscription()}
	case w.wireSubscription.present():
		return []Subscription{w.wireSubscription.toSubscription()}
	}
	return []Subscription{}
}

// single returns the one subscription of a response of operation 6 or 7, accepting it under
// "subscription" or at the top level (rule 5), or as the only member of "subscriptions".
func (w *wireSubscriptionWrapper) single() (*Subscription, error) {
	switch {
	case w.Subscription != nil && w.Subscription.present():
		s := w.Subscription.toSubscription()
		return &s, nil
	case w.wireSubscription.present():
		s := w.wireSubscription.toSubscription()
		return &s, nil
	case len(w.Subscriptions) == 1 && w.Subscriptions[0].present():
		s := w.Subscriptions[0].toSubscription()
		return &s, nil
	}
	return nil, errors.New("the response carries no subscription")
}

// decodeSingleSubscription decodes the body of operation 6 or 7.
func decodeSingleSubscription(body []byte) (*Subscription, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, errNoBody
	}
	w, err := decodeSubscriptionWrapper(body)
	if err != nil {
		return nil, err
	}
	return w.single()
}
