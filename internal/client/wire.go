package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// This file holds the JSON shapes of the service, as SERVICE.md describes them, and the
// conversions between them and the exported types. Unknown members are ignored everywhere.

// wireSubscriptionCreateRequest is SubscriptionCreateRequest (updateSubscriptions and createSubscriptions).
type wireSubscriptionCreateRequest struct {
	Subscriptions []SubscriptionInput `json:"subscriptions"`
}

// wireSubscriptionUpdateSingleRequest is SubscriptionUpdateSingleRequest (updateSubscription).
type wireSubscriptionUpdateSingleRequest struct {
	Subscription SubscriptionInput `json:"subscription"`
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

// wireSubscriptionWrapper is SubscriptionWrapper. A subscription at the top level of the body
// is kept too, because getSubscribedEventForAccount and updateSubscription are documented with
// the subscription at the top level (see SERVICE.md).
type wireSubscriptionWrapper struct {
	Subscriptions      []Subscription  `json:"subscriptions"`
	Subscription       *Subscription   `json:"subscription"`
	PaginationMetadata *wirePagination `json:"paginationMetadata"`
	top                Subscription    // the body read as one subscription, when it carries no other
}

// wireBulkDeleteRequest is SubscriptionPatchRequest for operation "delete".
type wireBulkDeleteRequest struct {
	Operation       string   `json:"operation"`
	SubscriptionIDs []string `json:"subscriptionIds"`
}

// wireBulkUpdateRequest is SubscriptionPatchRequest for operation "update".
type wireBulkUpdateRequest struct {
	Operation     string         `json:"operation"`
	Subscriptions []Subscription `json:"subscriptions"`
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
		return fmt.Errorf("%q is not a number", httpapi.Excerpt(b, 40))
	}
	*n = flexInt64(f)
	return nil
}

// toWireCreateRequest wraps inputs; an empty input is sent as an empty array, never null.
func toWireCreateRequest(in []SubscriptionInput) wireSubscriptionCreateRequest {
	if in == nil {
		in = []SubscriptionInput{}
	}
	return wireSubscriptionCreateRequest{Subscriptions: in}
}

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
			w.Subscriptions = []Subscription{}
		}
		return &w, nil
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, err
	}
	if w.Subscriptions == nil && (w.Subscription == nil || !w.Subscription.present()) {
		if err := json.Unmarshal(data, &w.top); err != nil {
			return nil, err
		}
	}
	return &w, nil
}

// list returns the subscriptions a wrapper carries: its list, else its single member, else a
// subscription at the top level.
func (w *wireSubscriptionWrapper) list() []Subscription {
	switch {
	case w.Subscriptions != nil:
		return w.Subscriptions
	case w.Subscription != nil && w.Subscription.present():
		return []Subscription{*w.Subscription}
	case w.top.present():
		return []Subscription{w.top}
	}
	return []Subscription{}
}

// single returns the one subscription of an answer of getSubscribedEventForAccount or
// updateSubscription, accepting it under "subscription" or at the top level, or as the only
// member of "subscriptions".
func (w *wireSubscriptionWrapper) single() (*Subscription, error) {
	switch {
	case w.Subscription != nil && w.Subscription.present():
		return w.Subscription, nil
	case w.top.present():
		return &w.top, nil
	case len(w.Subscriptions) == 1 && w.Subscriptions[0].present():
		return &w.Subscriptions[0], nil
	}
	return nil, errors.New("the response carries no subscription")
}

// decodeSingleSubscription decodes the body of getSubscribedEventForAccount or
// updateSubscription.
func decodeSingleSubscription(body []byte) (*Subscription, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, httpapi.ErrNoBody
	}
	w, err := decodeSubscriptionWrapper(body)
	if err != nil {
		return nil, err
	}
	return w.single()
}
