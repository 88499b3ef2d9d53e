package provider

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// Lost answers: the mock does the work of a request, then loses its answer
// (a 5xx or a dropped connection). State still converges to the service.

// TestAccStateTruth_lostCreateAnswers loses 30% of the create answers after
// the mock has created the subscription, every create on its own
// (max_batch_size = 1; TestAccBatch_lostBatchAnswers loses batches): one apply
// converges to exactly 20 subscriptions, all in state, and the next plan is
// empty.
func TestAccStateTruth_lostCreateAnswers(t *testing.T) {
	faults := []struct {
		name  string
		fault mockserver.Fault
	}{
		{"504", mockserver.Fault{Status: http.StatusGatewayTimeout}},
		{"502", mockserver.Fault{Status: http.StatusBadGateway}},
		{"500", mockserver.Fault{Status: http.StatusInternalServerError}},
		{"dropped connection", mockserver.Fault{Drop: true}},
	}
	for _, tc := range faults {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			f := tc.fault
			f.Method, f.Route, f.Ratio, f.AfterWork = http.MethodPost, mockserver.RouteSubscriptions, 0.3, true
			m.InjectFault(f)
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				CheckDestroy:             m.checkMockEmpty(),
				Steps: []resource.TestStep{
					{
						Config: m.providerBlock("max_batch_size = 1") + manyConfig(20),
						Check: resource.ComposeTestCheckFunc(
							m.checkStateMatchesMock(20),
							func(*terraform.State) error {
								if n := m.lostAnswers(http.MethodPost); n == 0 {
									return fmt.Errorf("no create answer was lost: the fault did not fire")
								}
								return nil
							},
						),
					},
					{
						Config:             m.providerBlock("max_batch_size = 1") + manyConfig(20),
						PlanOnly:           true,
						ExpectNonEmptyPlan: false,
					},
				},
			})
		})
	}
}

// TestAccStateTruth_lostUpdateAndDeleteAnswers loses three update and three
// delete answers after the mock acted, every write on its own: the idempotent
// PUT and DELETE are retried (a repeated DELETE meets the service's 404,
// which means done), the update converges to the new values and destroy
// leaves nothing behind.
func TestAccStateTruth_lostUpdateAndDeleteAnswers(t *testing.T) {
	m := newTestMock(t)
	levels := func(level string) string {
		return m.providerBlockRetries(5, "max_batch_size = 1") + strings.Replace(manyConfig(6), `"ERROR"`, fmt.Sprintf("%q", level), 1)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{Config: levels("ERROR"), Check: m.checkStateMatchesMock(6)},
			{
				PreConfig: func() {
					m.InjectFault(mockserver.Fault{Method: http.MethodPut, Route: mockserver.RouteSubscription,
						Status: http.StatusGatewayTimeout, Ratio: 0.5, Count: 3, AfterWork: true})
					m.InjectFault(mockserver.Fault{Method: http.MethodDelete, Route: mockserver.RouteSubscription,
						Status: http.StatusBadGateway, Ratio: 0.5, Count: 3, AfterWork: true})
				},
				Config: levels("INFO"),
				Check: resource.ComposeTestCheckFunc(
					m.checkStateMatchesMock(6),
					func(*terraform.State) error {
						for _, s := range m.Subscriptions(testAccount) {
							if s.LogLevel != "INFO" {
								return fmt.Errorf("subscription %s has log level %s on the service, want INFO", s.SubscriptionID, s.LogLevel)
							}
						}
						if m.lostAnswersOn(http.MethodPut) == 0 {
							return fmt.Errorf("no update answer was lost: the fault did not fire")
						}
						return nil
					},
				),
			},
			{Config: levels("INFO"), PlanOnly: true},
			{
				Config:  levels("INFO"),
				Destroy: true,
				Check: func(*terraform.State) error {
					if m.lostAnswersOn(http.MethodDelete) == 0 {
						return fmt.Errorf("no delete answer was lost: the fault did not fire")
					}
					return nil
				},
			},
		},
	})
}

// TestAccBatch_lostBatchAnswers loses the answer of half of the create
// batches after the mock created their subscriptions: the provider reads the
// account, adopts them, and one apply converges to exactly 20, all in state.
func TestAccBatch_lostBatchAnswers(t *testing.T) {
	m := newTestMock(t)
	gate := &batchGate{size: 5}
	m.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
		Status: http.StatusGatewayTimeout, Ratio: 0.5, AfterWork: true})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: gate.factories(),
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{
				PreConfig: func() { gate.expect(20) },
				Config:    m.providerBlock() + manyConfig(20),
				Check: resource.ComposeTestCheckFunc(
					m.checkStateMatchesMock(20),
					func(*terraform.State) error {
						if n := m.lostAnswers(http.MethodPost); n == 0 {
							return fmt.Errorf("no batch answer was lost: the fault did not fire")
						}
						return nil
					},
				),
			},
			{Config: m.providerBlock() + manyConfig(20), PlanOnly: true},
			{
				// The first bulk delete's answer is lost too: it is repeated, and the
				// items already gone answer 404, which means deleted.
				PreConfig: func() {
					gate.expect(20)
					m.InjectFault(mockserver.Fault{Method: http.MethodPatch, Route: mockserver.RouteSubscriptions,
						Status: http.StatusBadGateway, Count: 1, AfterWork: true})
				},
				Config:  m.providerBlock() + manyConfig(20),
				Destroy: true,
				Check: func(*terraform.State) error {
					if n := m.statusCount(http.MethodPatch, mockserver.RouteSubscriptions, http.StatusBadGateway); n != 1 {
						return fmt.Errorf("%d bulk delete answers were lost, want 1", n)
					}
					return nil
				},
			},
		},
	})
}
