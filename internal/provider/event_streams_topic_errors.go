package provider

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// topicCreateErrorDetail renders a failed createEventStreamTopicAndSubscription. Where the
// request may have reached the service (a 5xx, an answer lost or unreadable, a timeout or a
// cancel in flight), the service may have made the topic and its subscription, and nothing
// can check it: the service reads no topic back. The detail says so, and that another apply
// sends the request again and adds another subscription on the topic; never "plan" or "try
// again", which would lead to that copy. An answer that declined the request (a 4xx, a
// redirect) or a request never sent keeps the usual detail.
func topicCreateErrorDetail(err error, in client.TopicInput) string {
	if !topicMayExist(err) {
		return clientErrorDetail(err)
	}
	facts := err.Error()
	var apiErr *httpapi.APIError
	if errors.As(err, &apiErr) {
		facts = apiErrorFacts(apiErr)
	}
	return fmt.Sprintf("%s\n\nThe request may have reached the service, so topic %q and its subscription %q in "+
		"environment %q may exist. No read can check it: the service offers no operation that reads a topic or its "+
		"subscriptions back, so neither a plan nor the provider can tell. Nothing was recorded in state, so another "+
		"apply sends the request again, and if the first one took effect the service adds another subscription on "+
		"the topic.\n\nBefore applying again, look at the topic in the Event Streams environment itself. If the "+
		"topic and subscription %q exist, remove this resource from the configuration (a topic cannot be imported) "+
		"instead of applying it again.", facts, in.TopicName, in.SubscriptionName, in.EnvironmentID, in.SubscriptionName)
}

// topicMayExist reports whether a failed create of a topic may have taken effect: anything
// but an answer that declined it (3xx, 4xx other than 408) and a request that was never sent.
// A cancel or timeout counts as sent: the client cannot tell how far the request got.
func topicMayExist(err error) bool {
	var apiErr *httpapi.APIError
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode >= 500 || apiErr.StatusCode == http.StatusRequestTimeout
	}
	switch {
	case httpapi.NotSent(err), errors.Is(err, httpapi.ErrUntrustedCertificate), errors.Is(err, httpapi.ErrPreIssuedJWTAccount),
		errors.Is(err, httpapi.ErrInvalidID):
		return false
	}
	return err != nil
}
