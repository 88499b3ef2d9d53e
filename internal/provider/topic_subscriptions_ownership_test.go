package provider

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// manyTopicEntries returns n entries: the four events at the three levels, then again.
func manyTopicEntries(n int) []topicEntry {
	events := []string{"ATOM.STATUS", "ATOM.DEPLOYMENT", "PROCESS.EXECUTION", "ENVIRONMENT.ALERT"}
	levels := []string{"INFO", "WARNING", "ERROR"}
	out := make([]topicEntry, n)
	for i := range out {
		out[i] = topicEntry{key: fmt.Sprintf("s%03d", i), event: events[i%4], level: levels[(i/4)%3]}
	}
	return out
}

// TestAccTopicSubscriptions_lostCreateAnswers loses create answers (a gateway's 504, or a
// dropped connection) while the service is still working: each create lands only at the third
// read of the account that follows it. The account holds decoys with an entry's event and
// level on another topic and on the same topic name in another environment: settling the lost
// answer adopts neither (the content compared holds the destination), no create is repeated,
// the topic holds exactly what state holds, and the next plan is empty.
func TestAccTopicSubscriptions_lostCreateAnswers(t *testing.T) {
	tests := []struct {
		name  string
		fault mockserver.Fault
	}{
		{"504", mockserver.Fault{Status: http.StatusGatewayTimeout, Count: 1}},
		{"every create times out", mockserver.Fault{Drop: true, Count: 5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			entries := manyTopicEntries(5)
			decoy := m.PutSubscription(testAccount, onTopic("billing", entries[0].event, entries[0].level))
			o := onTopic("orders", entries[1].event, entries[1].level)
			o.EventStreamsEnvironment = "env-2"
			otherEnv := m.PutSubscription(testAccount, o)
			f := tc.fault
			f.Method, f.Route, f.Later = http.MethodPost, mockserver.RouteSubscriptions, 3
			m.InjectFault(f)
			const addr = "eventnotify_topic_subscriptions.orders"
			config := m.providerBlock("max_batch_size = 1") + topicResourceConfig("orders", "orders", entries...)
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: settleFactories(nil),
				Steps: []resource.TestStep{
					{
						Config: config,
						Check: resource.ComposeTestCheckFunc(
							m.checkTopicMatchesMock(addr, "orders", 5),
							m.checkUntouched(&decoy),
							m.checkUntouched(&otherEnv),
							func(*terraform.State) error {
								if lost := m.lostAnswers(http.MethodPost); lost != tc.fault.Count || m.PendingLater() != 0 {
									return fmt.Errorf("%d create answers lost, %d creates not landed; want %d and 0: the fault did not fire as meant",
										lost, m.PendingLater(), tc.fault.Count)
								}
								if c := m.Count(http.MethodPost, mockserver.RouteSubscriptions); c != 5 {
									return fmt.Errorf("%d create requests for 5 subscriptions: a create was repeated", c)
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

// TestAccTopicSubscriptions_listingShifts holds a topic of 150 subscriptions (two pages, with
// the account's others after them) while the listing is disturbed, once per step, as the
// account resource's test does: a subscription of the topic deleted between page 0 and page 1
// (the one that moved to page 0 is confirmed by its own read; the deleted one is created
// again), and a page 0 that once claims to be the last (listed again: nothing changes). The
// topic always holds what state holds, and the other topics' subscriptions are untouched.
func TestAccTopicSubscriptions_listingShifts(t *testing.T) {
	m := newTestMock(t)
	const addr = "eventnotify_topic_subscriptions.orders"
	config := m.providerBlock() + topicResourceConfig("orders", "orders", manyTopicEntries(150)...)
	inject := func(f mockserver.Fault) func() {
		return func() {
			m.ResetCounters()
			f.Count = 1
			m.InjectFault(f)
		}
	}
	var others []mockserver.Subscription
	untouched := func(*terraform.State) error {
		for i := range others {
			if err := m.checkUntouched(&others[i])(nil); err != nil {
				return err
			}
		}
		return nil
	}
	sw := &stepWrites{t: t, m: m}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, Check: m.checkTopicMatchesMock(addr, "orders", 150)},
			{
				PreConfig: func() {
					for i := range 10 {
						others = append(others, m.PutSubscription(testAccount, onTopic(fmt.Sprintf("other-%d", i), "ATOM.STATUS", "INFO")))
					}
					inject(mockserver.Fault{ShiftPages: 1})()
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(m.checkTopicMatchesMock(addr, "orders", 150), untouched,
					m.checkReads(http.StatusNotFound, 1)),
			},
			{
				PreConfig: func() { inject(mockserver.Fault{ClaimLast: true})(); sw.mark() },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				Check: resource.ComposeTestCheckFunc(m.checkTopicMatchesMock(addr, "orders", 150), untouched,
					sw.expect("a misreported page", writeCounts{})),
			},
		},
	})
}
