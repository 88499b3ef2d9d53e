package provider

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// topicLostPhrases are what the diagnostic of a topic create that may have taken effect says.
var topicLostPhrases = []string{
	`Unable to create event streams topic "alerts"`,
	`topic "alerts" and its subscription "ops-alerts" in environment "env-1" may exist`,
	"No read can check it",
	"another apply sends the request again",
	"adds another subscription on the topic",
	"a topic cannot be imported",
}

// TestAccEventStreamsTopicResource_lostAnswer loses the answer of a topic create, before the
// service acted (500) and after (502 and a dropped connection once the topic is made), with
// the real CLI: the apply fails with the diagnostic that says the topic and subscription may
// exist, that no read can check it and that another apply adds another subscription; the mock
// holds the topic exactly where the service acted, and the create was sent once.
func TestAccEventStreamsTopicResource_lostAnswer(t *testing.T) {
	cases := []struct {
		name  string
		fault mockserver.Fault
		want  []string // the mock's topics after the failed apply
	}{
		{name: "500 before any work", fault: mockserver.Fault{Status: http.StatusInternalServerError}},
		{name: "502 after the work", fault: mockserver.Fault{Status: http.StatusBadGateway, AfterWork: true},
			want: []string{"env-1/alerts ops-alerts"}},
		{name: "connection dropped after the work", fault: mockserver.Fault{Drop: true, AfterWork: true},
			want: []string{"env-1/alerts ops-alerts"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			f := tc.fault
			f.Method, f.Route, f.Count = http.MethodPost, mockserver.RouteTopic, 1
			m.InjectFault(f)
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				CheckDestroy:             m.checkMockTopics(testAccount, tc.want...),
				Steps: []resource.TestStep{{
					Config:      m.providerBlock() + topicConfig(topicArgs...),
					ExpectError: errorPattern(topicLostPhrases...),
				}},
			})
			if n := m.Count(http.MethodPost, mockserver.RouteTopic); n != 1 {
				t.Errorf("%d requests to createEventStreamTopicAndSubscription, want 1 (a create that may have taken effect is never sent again)", n)
			}
		})
	}
}

// TestTopicCreateErrorDetail renders each kind of failure: one that may have taken effect says
// the topic may exist and never leads to another apply ("terraform plan", "try again"); one the
// service declined or that was never sent keeps the usual detail.
func TestTopicCreateErrorDetail(t *testing.T) {
	in := client.TopicInput{EnvironmentID: "env-1", SubscriptionName: "ops-alerts", TopicName: "alerts"}
	api := func(status int) error {
		return &httpapi.APIError{Operation: "createEventStreamTopicAndSubscription", Method: http.MethodPost, StatusCode: status}
	}
	dial := &url.Error{Op: "Post", URL: "https://x", Err: &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}}
	reset := &url.Error{Op: "Post", URL: "https://x", Err: &net.OpError{Op: "read", Net: "tcp", Err: errors.New("connection reset by peer")}}
	cases := []struct {
		name     string
		err      error
		mayExist bool
		want     string // a phrase of the detail
	}{
		{"500", api(http.StatusInternalServerError), true, "HTTP 500"},
		{"502", api(http.StatusBadGateway), true, "HTTP 502"},
		{"408", api(http.StatusRequestTimeout), true, "HTTP 408"},
		{"connection reset", reset, true, "connection reset by peer"},
		{"timeout", fmt.Errorf("create: %w", context.DeadlineExceeded), true, "deadline exceeded"},
		{"cancelled", fmt.Errorf("create: %w", context.Canceled), true, "canceled"},
		{"unreadable answer", fmt.Errorf("create: %w", httpapi.ErrMalformedResponse), true, "create"},
		{"400", api(http.StatusBadRequest), false, "correct the values the messages name"},
		{"403", api(http.StatusForbidden), false, "no access"},
		{"never sent", dial, false, "connection refused"},
		{"untrusted certificate", fmt.Errorf("create: %w", httpapi.ErrUntrustedCertificate), false, "certificate"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := topicCreateErrorDetail(tc.err, in)
			if !strings.Contains(got, tc.want) {
				t.Errorf("detail lacks %q:\n%s", tc.want, got)
			}
			if says := strings.Contains(got, "may exist"); says != tc.mayExist {
				t.Errorf("detail says the topic may exist: %t, want %t:\n%s", says, tc.mayExist, got)
			}
			if !tc.mayExist {
				return
			}
			for _, phrase := range topicLostPhrases[1:] {
				if !strings.Contains(strings.Join(strings.Fields(got), " "), phrase) {
					t.Errorf("detail lacks %q:\n%s", phrase, got)
				}
			}
			for _, banned := range []string{"terraform plan", "try again", "Try again", "apply again;"} {
				if strings.Contains(got, banned) {
					t.Errorf("detail says %q, which leads to another subscription on the topic:\n%s", banned, got)
				}
			}
		})
	}
}
