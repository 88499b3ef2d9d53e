package provider

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// Fault tests: the provider keeps working through the faults a service it
// does not control can show (the mock's fault injection), and never loses
// track of what it created. Retry waits are the client's defaults (1s..30s)
// or the service's Retry-After, so the faults below are few, or carry a
// Retry-After of one second, to keep each test within a few seconds.
//
// Drift between two plans (one subscription deleted, one changed outside
// Terraform) is TestAccSubscriptionResource_drift.

// TestAccFault_throttled429 answers 30% of all requests with 429 and a
// Retry-After of one second: an apply of 20 subscriptions, its refresh and its
// destroy all succeed, and the mock holds exactly the 20 in state.
func TestAccFault_throttled429(t *testing.T) {
	m := newTestMock(t)
	m.InjectFault(mockserver.Fault{Status: http.StatusTooManyRequests, Ratio: 0.3, RetryAfter: time.Second})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{{
			Config: m.providerBlockRetries(5, "max_batch_size = 1") + manyConfig(20),
			Check: resource.ComposeTestCheckFunc(
				m.checkStateMatchesMock(20),
				func(*terraform.State) error {
					if n := m.statusCount(http.MethodPost, mockserver.RouteSubscriptions, http.StatusTooManyRequests); n == 0 {
						return fmt.Errorf("no create was answered with 429: the fault did not fire")
					}
					return nil
				},
			),
		}},
	})
}

// TestAccFault_readErrors answers reads of the subscriptions (the listing a
// refresh reads them with) with 502, 503, 504 and dropped connections: refresh
// and plan succeed and find nothing to change.
func TestAccFault_readErrors(t *testing.T) {
	m := newTestMock(t)
	inject := func(faults ...mockserver.Fault) func() {
		return func() {
			m.ResetCounters()
			for _, f := range faults {
				f.Method, f.Route, f.Count = http.MethodGet, mockserver.RouteSubscriptions, 1
				m.InjectFault(f)
			}
		}
	}
	sawEach := func(statuses ...int) resource.TestCheckFunc {
		return func(*terraform.State) error {
			for _, status := range statuses {
				if m.statusCount(http.MethodGet, mockserver.RouteSubscriptions, status) == 0 {
					return fmt.Errorf("no read was answered with status %d (0: dropped): the fault did not fire", status)
				}
			}
			return nil
		}
	}
	config := m.providerBlockRetries(4) + manyConfig(3)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, Check: m.checkStateMatchesMock(3)},
			{
				// A dropped connection first: the retry after it waits the
				// client's 1s minimum back-off; the statuses carry Retry-After.
				PreConfig: inject(
					mockserver.Fault{Drop: true},
					mockserver.Fault{Status: http.StatusBadGateway, RetryAfter: time.Second},
				),
				RefreshState: true,
				Check:        resource.ComposeTestCheckFunc(sawEach(0, http.StatusBadGateway), m.checkStateMatchesMock(3)),
			},
			{
				PreConfig: inject(
					mockserver.Fault{Status: http.StatusServiceUnavailable, RetryAfter: time.Second},
					mockserver.Fault{Status: http.StatusGatewayTimeout, RetryAfter: time.Second},
				),
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				Check: resource.ComposeTestCheckFunc(sawEach(http.StatusServiceUnavailable, http.StatusGatewayTimeout), m.checkStateMatchesMock(3)),
			},
		},
	})
}

// TestAccFault_createServerError answers two creates with the service's 500
// without acting: the provider reads the account after the first, finds
// nothing and creates once more; when that answer is lost too, the apply fails
// with the service's message, its error id and how to find and import what may
// exist (never "try again"), and nothing exists that state does not hold. The
// next apply creates the subscription once.
func TestAccFault_createServerError(t *testing.T) {
	m := newTestMock(t)
	const errorID = "5f0c7a2e-93d1-4b8e-a6f4-0d2c9e1b7a35"
	config := m.providerBlock() + subscriptionConfig(minimalArgs...)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: settleFactories(nil), // two grace periods, without waiting for them
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					m.InjectFault(mockserver.Fault{
						Method: http.MethodPost, Route: mockserver.RouteSubscriptions, Status: http.StatusInternalServerError, Count: 2,
						Body: `{"error":"Internal server error","messages":["Subscription store unavailable"],` +
							`"path":"/rest/v1/accounts/acc-test/subscriptions","errorId":"` + errorID + `"}`,
					})
				},
				Config: config,
				ExpectError: errorPattern("Unable to create subscription", "was lost or unreadable", "HTTP 500",
					"Subscription store unavailable", "error ID "+errorID, "terraform import eventnotify_subscription.<name> acc-test/<id>"),
			},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					countActions{creates: 1, noops: 0},
				}},
				Check: resource.ComposeTestCheckFunc(
					m.checkStateMatchesMock(1),
					func(*terraform.State) error {
						if n := m.Count(http.MethodPost, mockserver.RouteSubscriptions); n != 3 {
							return fmt.Errorf("%d create requests, want 3 (2 in the failed apply, 1 in the next)", n)
						}
						return nil
					},
				),
			},
		},
	})
}

// chainConfig renders n subscriptions that depend on each other in a chain,
// so that an apply creates them one after the other at any parallelism.
func chainConfig(n int) string {
	var b strings.Builder
	for i := range n {
		dependsOn := ""
		if i > 0 {
			dependsOn = fmt.Sprintf("depends_on = [eventnotify_subscription.chain%d]", i-1)
		}
		fmt.Fprintf(&b, `
resource "eventnotify_subscription" "chain%d" {
  event_name          = "ATOM.STATUS"
  destination_type    = "EVENT_STREAMS"
  log_level           = "ERROR"
  event_streams_topic = "chain-%d"
  %s
}
`, i, i, dependsOn)
	}
	return b.String()
}

// TestAccFault_shortJWTLifetime issues JWTs that live 2 seconds and delays
// every request by 100ms: an apply of 40 chained subscriptions, which spans more
// than two JWT lifetimes, succeeds (no 401 reaches the user), and the client
// fetches far fewer JWTs than it sends requests (one per lifetime, not one per
// request). The client refreshes a token min(30s, 20% of its lifetime) before
// it expires, which is more than the latency, so the mock's log normally holds
// no 401 at all; a 401 would be refreshed and repeated once by the client.
func TestAccFault_shortJWTLifetime(t *testing.T) {
	const (
		ttl     = 2 * time.Second
		latency = 100 * time.Millisecond
		n       = 40 // at least n × latency = 4s of requests, over 2 × ttl
	)
	m := newTestMock(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		Steps: []resource.TestStep{{
			PreConfig: func() {
				m.SetJWTTTL(ttl)
				m.SetLatency(latency)
				m.ResetCounters()
			},
			Config: m.providerBlock() + chainConfig(n),
			Check: func(s *terraform.State) error {
				m.SetLatency(0)
				log := m.Requests()
				span := log[len(log)-1].Time.Sub(log[0].Time)
				fetches, requests := m.JWTFetches(), len(log)
				t.Logf("apply of %d chained subscriptions: requests over %s, %d requests, %d JWT fetches, %d answers 401",
					n, span.Round(time.Millisecond), requests, fetches, m.statusCount("", "", http.StatusUnauthorized))
				switch {
				case span < 2*ttl:
					return fmt.Errorf("the apply's requests span %s, not more than two JWT lifetimes (%s)", span, 2*ttl)
				case fetches < 2:
					return fmt.Errorf("%d JWT fetches during requests over %s with %s JWTs: the token was never refreshed", fetches, span, ttl)
				case fetches*4 > requests:
					return fmt.Errorf("%d JWT fetches for %d requests: tokens are not reused", fetches, requests)
				}
				return m.checkStateMatchesMock(n)(s)
			},
		}},
	})
}

// TestAccFault_serviceUnavailableEverywhere answers the first request of
// every route the provider uses with 503 and a Retry-After (how the platform
// signals its limit), creates, reads, updates and deletes included: every
// step succeeds.
func TestAccFault_serviceUnavailableEverywhere(t *testing.T) {
	m := newTestMock(t)
	routes := []struct{ method, route string }{
		{http.MethodGet, mockserver.RouteJWT},
		{http.MethodPost, mockserver.RouteSubscriptions},
		{http.MethodGet, mockserver.RouteSubscriptions},
		{http.MethodGet, mockserver.RouteSubscription},
		{http.MethodPut, mockserver.RouteSubscription},
		{http.MethodDelete, mockserver.RouteSubscription},
		{http.MethodPost, mockserver.RouteTopic},
		{http.MethodGet, mockserver.RouteLogLevels},
		{http.MethodGet, mockserver.RouteEvents},
		{http.MethodGet, mockserver.RouteDestinationTypes},
	}
	for _, r := range routes {
		m.InjectFault(mockserver.Fault{Method: r.method, Route: r.route, Status: http.StatusServiceUnavailable, Count: 1, RetryAfter: time.Second})
	}
	config := func(logLevel string) string {
		return m.providerBlock() + subscriptionConfig(`event_name = "ATOM.STATUS"`, `destination_type = "EVENT_STREAMS"`, `log_level = "`+logLevel+`"`) +
			topicConfig(topicArgs...) + `
data "eventnotify_subscription" "one" {
  id = eventnotify_subscription.test.id
}
data "eventnotify_log_levels" "all" {}
data "eventnotify_events" "all" {}
data "eventnotify_destination_types" "all" {}
`
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy: func(s *terraform.State) error {
			for _, r := range routes {
				if m.statusCount(r.method, r.route, http.StatusServiceUnavailable) != 1 {
					return fmt.Errorf("%s %s was not answered 503 once: the fault did not fire", r.method, r.route)
				}
			}
			return m.checkMockEmpty()(s)
		},
		Steps: []resource.TestStep{
			{Config: config("ERROR"), Check: m.checkMockHolds(testAccount, 1)},
			{Config: config("INFO"), Check: m.checkMockHolds(testAccount, 1)},
		},
	})
}

// TestAccFault_malformedResponses answers with bodies a proxy or a broken
// service could send: each gives a diagnostic that says what was wrong, never
// a panic (the provider runs in this test process: a panic would end it), and
// nothing reaches state.
func TestAccFault_malformedResponses(t *testing.T) {
	const html = `<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>`
	create := subscriptionConfig(minimalArgs...)
	readOne := `data "eventnotify_subscription" "one" { id = "3fa85f64-5717-4562-b3fc-2c963f66afa6" }`
	cases := []struct {
		name   string
		fault  mockserver.Fault
		config func(m *testMock) string
		expect *regexp.Regexp
	}{
		{
			// A create is never repeated blindly: after each lost answer the
			// account is read, and one more create is tried.
			name:   "HTML 502 on create (settled by reading the account)",
			fault:  mockserver.Fault{Method: http.MethodPost, Status: http.StatusBadGateway, Body: html, ContentType: "text/html"},
			config: func(m *testMock) string { return m.providerBlock() + create },
			expect: errorPattern("Unable to create subscription", "was lost or unreadable", "HTTP 502 Bad Gateway", "<h1>502 Bad Gateway</h1>", "terraform import"),
		},
		{
			name: "HTML 502 on read, retries exhausted",
			fault: mockserver.Fault{Method: http.MethodGet, Route: mockserver.RouteLogLevels, Status: http.StatusBadGateway,
				Body: html, ContentType: "text/html", RetryAfter: time.Second},
			config: func(m *testMock) string { return m.providerBlockRetries(1) + `data "eventnotify_log_levels" "all" {}` },
			expect: errorPattern("Unable to read the log level catalogue", "HTTP 502 Bad Gateway", "not the service's JSON error format",
				"<h1>502 Bad Gateway</h1>", "Try again later"),
		},
		{
			name:   "truncated JSON on create",
			fault:  mockserver.Fault{Method: http.MethodPost, Status: http.StatusOK, Body: `{"subscriptions":[{"subscriptionId":"3fa85f64-5717-45`},
			config: func(m *testMock) string { return m.providerBlock() + create },
			expect: errorPattern("Unable to create subscription", "was lost or unreadable", "could not decode response of create subscriptions",
				"the body is not valid JSON: unexpected end of JSON input", "terraform import"),
		},
		{
			name:   "wrong type in a field on create",
			fault:  mockserver.Fault{Method: http.MethodPost, Status: http.StatusOK, Body: `{"subscriptions":[{"subscriptionId":42,"eventName":"ATOM.STATUS"}]}`},
			config: func(m *testMock) string { return m.providerBlock() + create },
			expect: errorPattern("Unable to create subscription", "was lost or unreadable", "could not decode response of create subscriptions",
				`the member "subscriptions.subscriptionId" holds a JSON number where a string is expected`, "terraform import"),
		},
		{
			name:   "wrong type in a field on read",
			fault:  mockserver.Fault{Method: http.MethodGet, Route: mockserver.RouteLogLevels, Status: http.StatusOK, Body: `{"logLevels":[{"name":7}]}`},
			config: func(m *testMock) string { return m.providerBlock() + `data "eventnotify_log_levels" "all" {}` },
			expect: errorPattern("Unable to read the log level catalogue", "could not decode response of list log levels", "record 0", "has no name"),
		},
		{
			name:   "empty body on 200 create",
			fault:  mockserver.Fault{Method: http.MethodPost, Status: http.StatusOK, Body: " "},
			config: func(m *testMock) string { return m.providerBlock() + create },
			expect: errorPattern("Unable to create subscription", "holds 0 subscriptions with an ID for 1 sent", "terraform import"),
		},
		{
			// Regression: the subscription went to state with an empty id and
			// "inconsistent result" errors, and could not be destroyed.
			name:   "create answer without an id",
			fault:  mockserver.Fault{Method: http.MethodPost, Status: http.StatusCreated, Body: `{"subscriptions":[{"eventName":"ATOM.STATUS"}]}`},
			config: func(m *testMock) string { return m.providerBlock() + create },
			expect: errorPattern("Unable to create subscription", "holds 0 subscriptions with an ID for 1 sent", "terraform import"),
		},
		{
			name:   "read answer without a subscription",
			fault:  mockserver.Fault{Method: http.MethodGet, Route: mockserver.RouteSubscription, Status: http.StatusOK, Body: `{"subscriptions":[{}]}`},
			config: func(m *testMock) string { return m.providerBlock() + readOne },
			expect: errorPattern("Unable to read subscription", "could not decode response of read subscription", "the response carries no subscription"),
		},
		{
			name:   "empty body on 200 read",
			fault:  mockserver.Fault{Method: http.MethodGet, Route: mockserver.RouteSubscription, Status: http.StatusOK, Body: " "},
			config: func(m *testMock) string { return m.providerBlock() + readOne },
			expect: errorPattern("Unable to read subscription", "could not decode response of read subscription", "the response body is empty"),
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			m.InjectFault(tc.fault)
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				CheckDestroy:             m.checkMockEmpty(),
				Steps: []resource.TestStep{{
					Config:      tc.config(m),
					ExpectError: tc.expect,
				}},
			})
		})
	}
}
