package provider

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// Ownership under lost create answers: no subscription is claimed by two resources, left
// behind, or created twice. The service has no idempotency key, so the provider reasons from
// what it says: its clock (Date headers) against the candidates' createdDate, the
// subscriptions a create answer lists, and the grace period in which a lost create may still
// land.

// twinConfig renders subscriptions with identical inputs, one per name.
func twinConfig(names ...string) string {
	out := ""
	for _, n := range names {
		out += fmt.Sprintf(`
resource "eventnotify_subscription" %q {
  event_name          = "ATOM.STATUS"
  destination_type    = "EVENT_STREAMS"
  log_level           = "ERROR"
  event_streams_topic = "twins"
}
`, n)
	}
	return out
}

// stateID returns the id in state of the subscription resource named name.
func stateID(s *terraform.State, name string) string {
	if r := s.RootModule().Resources["eventnotify_subscription."+name]; r != nil {
		return r.Primary.ID
	}
	return ""
}

// TestAccOwnership_failedCreateNeverClaimsATwin gives two resources identical inputs; the
// second is created in a later apply (a fresh provider process, which has never seen the
// first), and its create is answered 502 or 503 before any work. The first resource's
// subscription, same content, same user, three minutes old by the service's clock, is not adopted:
// the second gets its own, and removing the first leaves the second's alone.
func TestAccOwnership_failedCreateNeverClaimsATwin(t *testing.T) {
	for _, status := range []int{http.StatusBadGateway, http.StatusServiceUnavailable} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			m := newTestMock(t)
			var bID string
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: settleFactories(nil),
				CheckDestroy:             m.checkMockEmpty(),
				Steps: []resource.TestStep{
					{Config: m.providerBlock() + twinConfig("a"), Check: m.checkStateMatchesMock(1)},
					{
						PreConfig: func() {
							// Three minutes pass on the service: a twin within two minutes of the
							// request leaves the outcome unknown (TestAccOwnership_dateAheadNoSecondCopy).
							m.SetClockOffset(3 * time.Minute)
							m.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions, Status: status, Count: 1})
						},
						Config: m.providerBlock() + twinConfig("a", "b"),
						Check: resource.ComposeTestCheckFunc(
							m.checkStateMatchesMock(2),
							func(s *terraform.State) error {
								bID = stateID(s, "b")
								if n := m.statusCount(http.MethodPost, mockserver.RouteSubscriptions, status); n != 1 {
									return fmt.Errorf("%d creates answered %d, want 1: the fault did not fire", n, status)
								}
								return nil
							},
						),
					},
					{
						Config: m.providerBlock() + twinConfig("b"),
						Check: resource.ComposeTestCheckFunc(
							m.checkStateMatchesMock(1),
							func(s *terraform.State) error {
								if got := stateID(s, "b"); got != bID {
									return fmt.Errorf("b holds %s after a was removed, want %s", got, bID)
								}
								return nil
							},
						),
					},
				},
			})
		})
	}
}

// TestAccOwnership_createBeforeDestroyReplace replaces a create_before_destroy subscription
// (tainted, as -replace does) while the new one's create meets a fault: the old subscription,
// which is about to be destroyed, is never taken as the new one; the apply ends with the new
// subscription on the service and in state, and destroy leaves nothing.
func TestAccOwnership_createBeforeDestroyReplace(t *testing.T) {
	tests := []struct {
		name  string
		fault mockserver.Fault
		// fired fails when the fault did not act as the case means.
		fired func(m *testMock) error
	}{
		{
			// The old subscription is not adopted as the lost create's.
			name:  "create answered 503 before any work",
			fault: mockserver.Fault{Status: http.StatusServiceUnavailable, Count: 1},
			fired: func(m *testMock) error {
				if n := m.statusCount(http.MethodPost, mockserver.RouteSubscriptions, http.StatusServiceUnavailable); n != 1 {
					return fmt.Errorf("%d creates answered 503, want 1: the fault did not fire", n)
				}
				return nil
			},
		},
		{
			// The create's answer lists the whole account, the old subscription included: the
			// new resource keeps its own subscription, never the one about to be deleted.
			name:  "create answer lists the whole account",
			fault: mockserver.Fault{AfterWork: true, ListAccount: true, Count: 1},
			fired: func(m *testMock) error {
				if c := m.Count(http.MethodPost, mockserver.RouteSubscriptions); c != 2 {
					return fmt.Errorf("%d create requests, want 2 (one per apply)", c)
				}
				return nil
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			config := m.providerBlock() + `
resource "eventnotify_subscription" "test" {
  event_name       = "ATOM.STATUS"
  destination_type = "EVENT_STREAMS"
  log_level        = "ERROR"
  lifecycle {
    create_before_destroy = true
  }
}
`
			var oldID string
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: settleFactories(nil),
				CheckDestroy:             m.checkMockEmpty(),
				Steps: []resource.TestStep{
					{
						Config: config,
						Check: resource.ComposeTestCheckFunc(m.checkStateMatchesMock(1), func(s *terraform.State) error {
							oldID = stateID(s, "test")
							return nil
						}),
					},
					{
						PreConfig: func() {
							// Three minutes after the first create: within two minutes the old
							// subscription would leave the lost create's outcome unknown, and one
							// dated within the second before the request cannot be told from
							// the request's own.
							m.SetClockOffset(3 * time.Minute)
							f := tc.fault
							f.Method, f.Route = http.MethodPost, mockserver.RouteSubscriptions
							m.InjectFault(f)
						},
						Taint:  []string{"eventnotify_subscription.test"},
						Config: config,
						Check: resource.ComposeTestCheckFunc(
							m.checkStateMatchesMock(1),
							func(s *terraform.State) error {
								if id := stateID(s, "test"); id == oldID {
									return fmt.Errorf("state holds the replaced (deleted) subscription %s", id)
								}
								return tc.fired(m)
							},
						),
					},
				},
			})
		})
	}
}

// TestAccOwnership_createAnswerListsFewer sends ten creates in one request, whose 201 lists
// only three of the ten subscriptions the service created: the three go to the resources of
// their content, the other seven are found by one read of the account, and nothing is
// created twice.
func TestAccOwnership_createAnswerListsFewer(t *testing.T) {
	const n = 10
	m := newTestMock(t)
	gate := &batchGate{size: n}
	m.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions, AfterWork: true, Omit: n - 3, Count: 1})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: settleFactories(gate),
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{
				PreConfig: func() { gate.expect(n) },
				Config:    m.providerBlock() + manyConfig(n),
				Check: resource.ComposeTestCheckFunc(
					m.checkStateMatchesMock(n),
					func(*terraform.State) error {
						if c := m.Count(http.MethodPost, mockserver.RouteSubscriptions); c != 1 {
							return fmt.Errorf("%d create requests, want 1", c)
						}
						return nil
					},
				),
			},
			{Config: m.providerBlock() + manyConfig(n), PlanOnly: true},
			{PreConfig: func() { gate.expect(n) }, Config: m.providerBlock() + manyConfig(n), Destroy: true},
		},
	})
}

// TestAccOwnership_createLandsLater loses the answer of the first create, or of every create
// (a gateway's 504, or a connection that ends as a client-side timeout does), while the
// service is still working on it: each one's work lands only at the third read of the account
// that follows it.
// The provider keeps reading for its grace period instead of creating again: the service
// holds exactly the subscriptions in state, no create is repeated, and the next plan is
// empty.
func TestAccOwnership_createLandsLater(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		fault mockserver.Fault
	}{
		{"504, 3 subscriptions", 3, mockserver.Fault{Status: http.StatusGatewayTimeout, Count: 1}},
		{"timeout, 5 subscriptions", 5, mockserver.Fault{Drop: true, Count: 1}},
		{"every create times out, 5 subscriptions", 5, mockserver.Fault{Drop: true, Count: 5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			f := tc.fault
			f.Method, f.Route, f.Later = http.MethodPost, mockserver.RouteSubscriptions, 3
			m.InjectFault(f)
			config := m.providerBlock("max_batch_size = 1") + manyConfig(tc.n)
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: settleFactories(nil),
				CheckDestroy:             m.checkMockEmpty(),
				Steps: []resource.TestStep{
					{
						Config: config,
						Check: resource.ComposeTestCheckFunc(
							m.checkStateMatchesMock(tc.n),
							func(*terraform.State) error {
								if lost := m.lostAnswers(http.MethodPost); lost != tc.fault.Count || m.PendingLater() != 0 {
									return fmt.Errorf("%d create answers lost, %d creates not landed; want %d and 0: the fault did not fire as meant",
										lost, m.PendingLater(), tc.fault.Count)
								}
								if c := m.Count(http.MethodPost, mockserver.RouteSubscriptions); c != tc.n {
									return fmt.Errorf("%d create requests for %d subscriptions: a create was repeated", c, tc.n)
								}
								return nil
							},
						),
					},
					{Config: config, PlanOnly: true},
				},
			})
		})
	}
}
