package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

const opCreateTopic = "create event streams topic"

// TopicInput is the request of createEventStreamTopicAndSubscription.
type TopicInput struct {
	// EnvironmentID is the event streams environment (eventStreamsEnvironmentId); required.
	EnvironmentID string
	// SubscriptionName is the event streams subscription name; required.
	SubscriptionName string
	// TopicName is the topic to create; required.
	TopicName string
	// TopicDescription is optional; "" is omitted.
	TopicDescription string
}

// TopicResult is what createEventStreamTopicAndSubscription reports about the topic and subscription it created.
type TopicResult struct {
	// SubscriptionName is data.eventStreamsSubscriptionCreate.name.
	SubscriptionName string
	// TopicName is ...topic.name.
	TopicName string
	// EnvironmentID is ...topic.environment.id.
	EnvironmentID string
	// SubscriptionCount is ...topic.subscriptionCount, the topic's total subscriptions.
	SubscriptionCount int
}

// CreateEventStreamTopic creates an event streams topic and a subscription on it for the
// account (createEventStreamTopicAndSubscription). The service offers no way to read, change or delete it afterwards.
func (c *Client) CreateEventStreamTopic(ctx context.Context, accountID string, in TopicInput) (*TopicResult, error) {
	accountID, err := c.account(accountID)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", opCreateTopic, err)
	}
	resp, err := c.call(ctx, httpapi.Call{
		Operation: opCreateTopic,
		Method:    http.MethodPost,
		AccountID: accountID,
		Path:      httpapi.AccountPath(accountID, "eventStreams", "topic", "subscription"),
		In: wireTopicRequest{
			EventStreamsEnvironmentID:    in.EnvironmentID,
			EventStreamsSubscriptionName: in.SubscriptionName,
			TopicName:                    in.TopicName,
			TopicDescription:             in.TopicDescription,
		},
	})
	if err != nil {
		return nil, err
	}
	res, err := decodeTopicResult(resp.Body)
	if err != nil {
		return nil, httpapi.MalformedResponse(opCreateTopic, err)
	}
	return res, nil
}

// decodeTopicResult reads CreateESSubscriptionResponse.
func decodeTopicResult(body []byte) (*TopicResult, error) {
	var w wireTopicResponse
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, err
	}
	if w.Data == nil || w.Data.EventStreamsSubscriptionCreate == nil {
		return nil, errors.New(`the response has no "data.eventStreamsSubscriptionCreate" object`)
	}
	created := w.Data.EventStreamsSubscriptionCreate
	res := &TopicResult{SubscriptionName: created.Name}
	if t := created.Topic; t != nil {
		res.TopicName = t.Name
		res.SubscriptionCount = int(t.SubscriptionCount)
		if t.Environment != nil {
			res.EnvironmentID = t.Environment.ID
		}
	}
	if err := checkTopicText(res); err != nil {
		return nil, err
	}
	return res, nil
}
