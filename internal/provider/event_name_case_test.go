package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// A difference in the letter case of an event name only, between the
// configuration, the state and the service, is no change: the plan keeps the
// state's spelling, both ways (a subscription imported in the service's
// spelling under a configuration in another, and a case-only edit of an
// applied configuration), for both subscription resources.

// expectNoWrites checks that the mock received no write since the step's mark.
func expectNoWrites(sw *stepWrites, name string) resource.TestCheckFunc {
	return sw.expect(name, writeCounts{})
}

func TestAccSubscriptionResource_eventNameCaseImported(t *testing.T) {
	m := newTestMock(t)
	sub := m.PutSubscription(testAccount, mockserver.Subscription{
		EventName: "Process.Execution", DestinationType: "EVENT_STREAMS", LogLevel: "ERROR", Enabled: true,
	})
	config := m.providerBlock() + subscriptionConfig(`event_name = "PROCESS.EXECUTION"`, `destination_type = "EVENT_STREAMS"`, `log_level = "ERROR"`)
	sw := &stepWrites{t: t, m: m}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{Config: config, ResourceName: subAddr, ImportState: true, ImportStateId: sub.SubscriptionID, ImportStatePersist: true},
			{
				PreConfig: sw.mark,
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("event_name"), knownvalue.StringExact("Process.Execution")),
				},
				Check: expectNoWrites(sw, "plan of the imported subscription"),
			},
			{
				// The import block plans a no-op too.
				Config:          config,
				ResourceName:    subAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
				ImportStateId:   sub.SubscriptionID,
			},
		},
	})
}

func TestAccSubscriptionResource_eventNameCaseEdit(t *testing.T) {
	m := newTestMock(t)
	config := func(name, level string) string {
		return m.providerBlock() + subscriptionConfig(`event_name = "`+name+`"`, `destination_type = "EVENT_STREAMS"`, `log_level = "`+level+`"`)
	}
	sw := &stepWrites{t: t, m: m}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{Config: config("PROCESS.EXECUTION", "ERROR")},
			{
				PreConfig: sw.mark,
				Config:    config("process.execution", "ERROR"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("event_name"), knownvalue.StringExact("PROCESS.EXECUTION")),
				},
				Check: expectNoWrites(sw, "a case-only edit"),
			},
			{
				// With a real change beside it, the update keeps the state's spelling.
				Config: config("Process.Execution", "INFO"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(subAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(subAddr, tfjsonpath.New("event_name"), knownvalue.StringExact("PROCESS.EXECUTION")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("event_name"), knownvalue.StringExact("PROCESS.EXECUTION")),
					statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("log_level"), knownvalue.StringExact("INFO")),
				},
			},
			{
				// Another event is a change, in the configured spelling.
				Config: config("Atom.Status", "INFO"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(subAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("event_name"), knownvalue.StringExact("Atom.Status")),
				},
			},
		},
	})
}

func TestAccAccountSubscriptions_eventNameCaseImported(t *testing.T) {
	m := newTestMock(t)
	seeded := []mockserver.Subscription{
		m.PutSubscription(testAccount, mockserver.Subscription{EventName: "Process.Execution", DestinationType: "EVENT_STREAMS",
			LogLevel: "ERROR", EventStreamsTopic: "procs", Enabled: true}),
		m.PutSubscription(testAccount, mockserver.Subscription{EventName: "atom.status", DestinationType: "EVENT_STREAMS",
			LogLevel: "INFO", EventStreamsTopic: "atoms", Enabled: true}),
	}
	configured := slicesMap(seeded, func(s mockserver.Subscription) mockserver.Subscription {
		s.EventName = strings.ToUpper(s.EventName)
		return s
	})
	config := m.providerBlock() + configFor(configured)
	sw := &stepWrites{t: t, m: m}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{Config: config, ResourceName: acctAddr, ImportState: true, ImportStateId: testAccount, ImportStatePersist: true},
			{
				PreConfig: sw.mark,
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acctAddr, acctSubPath(seeded[0].SubscriptionID, "event_name"), knownvalue.StringExact("Process.Execution")),
					statecheck.ExpectKnownValue(acctAddr, acctSubPath(seeded[1].SubscriptionID, "event_name"), knownvalue.StringExact("atom.status")),
				},
				Check: expectNoWrites(sw, "plan of the imported account"),
			},
		},
	})
}

func TestAccAccountSubscriptions_eventNameCaseEdit(t *testing.T) {
	m := newTestMock(t)
	config := func(proc, atom string) string {
		return m.providerBlock() + acctConfig(acctEntry{key: "procs", event: proc, level: "ERROR"}, acctEntry{key: "atoms", event: atom, level: "INFO"})
	}
	sw := &stepWrites{t: t, m: m}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{Config: config("PROCESS.EXECUTION", "ATOM.STATUS")},
			{
				PreConfig: sw.mark,
				Config:    config("process.execution", "Atom.Status"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acctAddr, acctSubPath("procs", "event_name"), knownvalue.StringExact("PROCESS.EXECUTION")),
					statecheck.ExpectKnownValue(acctAddr, acctSubPath("atoms", "event_name"), knownvalue.StringExact("ATOM.STATUS")),
				},
				Check: expectNoWrites(sw, "a case-only edit"),
			},
			{
				// Beside a real change of another entry, the case-only entry keeps the state's spelling.
				PreConfig: sw.mark,
				Config: m.providerBlock() + acctConfig(acctEntry{key: "procs", event: "Process.Execution", level: "ERROR"},
					acctEntry{key: "atoms", event: "atom.status", level: "WARNING"}),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(acctAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(acctAddr, acctSubPath("procs", "event_name"), knownvalue.StringExact("PROCESS.EXECUTION")),
					plancheck.ExpectKnownValue(acctAddr, acctSubPath("atoms", "event_name"), knownvalue.StringExact("ATOM.STATUS")),
				}},
				Check: func(*terraform.State) error {
					if w := m.writes().minus(sw.base); w.total() != 1 || w.put+w.patch != 1 {
						return fmt.Errorf("one entry's log level made %s, want one update", w)
					}
					for _, s := range m.Subscriptions(testAccount) {
						if s.EventName != strings.ToUpper(s.EventName) {
							return fmt.Errorf("the service holds %q, want the state's spelling", s.EventName)
						}
					}
					return nil
				},
			},
		},
	})
}

// slicesMap maps a slice.
func slicesMap[T, U any](in []T, f func(T) U) []U {
	out := make([]U, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}
