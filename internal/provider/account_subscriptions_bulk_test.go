package provider

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// levelEntries are n entries k0.. with log level INFO, those of changed ERROR.
func levelEntries(n int, changed ...int) []acctEntry {
	out := make([]acctEntry, n)
	for i := range out {
		out[i] = acctEntry{key: fmt.Sprintf("k%d", i), event: "ATOM.STATUS", level: "INFO", topic: fmt.Sprintf("t%d", i)}
	}
	for _, i := range changed {
		out[i].level = "ERROR"
	}
	return out
}

// checkLevels checks that the service holds log level ERROR for the entries of
// errorKeys and INFO for the others of state.
func (m *testMock) checkLevels(errorKeys ...string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		want := make(map[string]string)
		for _, k := range errorKeys {
			want[k] = "ERROR"
		}
		for i := range 5 {
			k := fmt.Sprintf("k%d", i)
			id := acctStateID(s, k)
			if id == "" {
				continue
			}
			sub, _ := m.Subscription(testAccount, id)
			if w := want[k]; w == "" && sub.LogLevel != "INFO" || w != "" && sub.LogLevel != w {
				return fmt.Errorf("the service holds log level %q for %s", sub.LogLevel, k)
			}
		}
		return nil
	}
}

// TestAccAccountSubscriptions_bulkUpdate changes entries in place: three
// changed entries at max_batch_size 2 take two bulk updates and nothing else;
// then, in one apply, the service refuses one item (400) and another's
// subscription is deleted between plan and apply (404): the apply fails naming
// both, the third changed entry is written, and state holds what the service
// holds (the refused entry's old values, the deleted one gone), so that the next
// apply converges.
func TestAccAccountSubscriptions_bulkUpdate(t *testing.T) {
	m := newTestMock(t)
	sw := &stepWrites{t: t, m: m}
	config := func(entries ...acctEntry) string {
		return m.providerBlock("max_batch_size = 2") + acctConfig(entries...)
	}
	var refusedID, goneID string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{
				Config: config(levelEntries(5)...),
				Check: resource.ComposeTestCheckFunc(m.checkAcctStateMatchesMock(5), func(s *terraform.State) error {
					refusedID, goneID = acctStateID(s, "k3"), acctStateID(s, "k4")
					return nil
				}),
			},
			{
				PreConfig: sw.mark,
				Config:    config(levelEntries(5, 0, 1, 2)...),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(acctAddr, plancheck.ResourceActionUpdate),
					expectIDKept("k0", "k0"), expectIDKept("k2", "k2"),
				}},
				Check: resource.ComposeTestCheckFunc(sw.expect("change 3 entries at max_batch_size 2", writeCounts{patch: 2}),
					m.checkAcctStateMatchesMock(5), m.checkLevels("k0", "k1", "k2")),
			},
			{
				PreConfig: func() {
					sw.mark()
					m.RefuseBulkUpdateItems(refusedID)
				},
				Config: config(levelEntries(5, 0, 1, 3, 4)...),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					planCheck(func(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse) {
						if !m.DeleteSubscriptionDirect(testAccount, goneID) {
							t.Errorf("subscription %s of k4 did not exist", goneID)
						}
					}),
				}},
				ExpectError: errorPattern("Unable to update subscription", "HTTP 400", "refused by the service"),
			},
			{
				PreConfig: func() {
					m.RefuseBulkUpdateItems()
					// k4's subscription, deleted since the plan, is created again (one POST), not updated.
					if n := m.Count(http.MethodPatch, "") - sw.base.patch; n != 1 {
						t.Errorf("the failing apply made %d PATCH requests, want 1 (2 changed entries at max_batch_size 2)", n)
					}
					if n := m.Count(http.MethodPost, "") - sw.base.post; n != 1 {
						t.Errorf("the failing apply made %d POST requests, want 1 (k4 created again)", n)
					}
					if n := m.Count(http.MethodPut, "") - sw.base.put; n != 0 {
						t.Errorf("the failing apply made %d PUT requests, want none", n)
					}
				},
				Config: config(levelEntries(5, 0, 1, 3, 4)...),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					m.expectStateAgreedWithService(),
					plancheck.ExpectResourceAction(acctAddr, plancheck.ResourceActionUpdate),
					expectIDKept("k4", "k4"), // created again by the failing apply, at the planned level
					expectIDKept("k3", "k3"),
				}},
				Check: resource.ComposeTestCheckFunc(m.checkAcctStateMatchesMock(5), m.checkLevels("k0", "k1", "k3", "k4")),
			},
		},
	})
}

// TestAccAccountSubscriptions_bulkUpdateFallback changes entries of a service
// that refuses every bulk update as a whole: the provider writes them with one
// PUT each, and state and service agree.
func TestAccAccountSubscriptions_bulkUpdateFallback(t *testing.T) {
	m := newTestMock(t)
	sw := &stepWrites{t: t, m: m}
	config := func(entries ...acctEntry) string { return m.providerBlock() + acctConfig(entries...) }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{Config: config(levelEntries(5)...), Check: m.checkAcctStateMatchesMock(5)},
			{
				PreConfig: func() {
					sw.mark()
					m.SetBulkUpdateRefused(true)
				},
				Config: config(levelEntries(5, 1, 2, 4)...),
				Check: resource.ComposeTestCheckFunc(sw.expect("change 3 entries, bulk update refused", writeCounts{patch: 1, put: 3}),
					m.checkAcctStateMatchesMock(5), m.checkLevels("k1", "k2", "k4"),
					func(*terraform.State) error {
						if n := m.statusCount(http.MethodPatch, mockserver.RouteSubscriptions, http.StatusBadRequest); n != 1 {
							return fmt.Errorf("%d bulk updates were refused, want 1", n)
						}
						return nil
					}),
			},
		},
	})
}

// TestAccAccountSubscriptions_bulkUpdateDefaultBatch changes 100 entries of 150 at the default
// max_batch_size (100): one write request, a bulk update.
func TestAccAccountSubscriptions_bulkUpdateDefaultBatch(t *testing.T) {
	m := newTestMock(t)
	sw := &stepWrites{t: t, m: m}
	changed := make([]int, 100)
	for i := range changed {
		changed[i] = i + 25
	}
	config := func(entries ...acctEntry) string { return m.providerBlock() + acctConfig(entries...) }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{Config: config(levelEntries(150)...), Check: m.checkAcctStateMatchesMock(150)},
			{
				PreConfig: sw.mark,
				Config:    config(levelEntries(150, changed...)...),
				Check: resource.ComposeTestCheckFunc(sw.expect("change 100 of 150 entries", writeCounts{patch: 1}),
					m.checkAcctStateMatchesMock(150), func(*terraform.State) error {
						atError := 0
						for _, s := range m.Subscriptions(testAccount) {
							if s.LogLevel == "ERROR" {
								atError++
							}
						}
						if atError != 100 {
							return fmt.Errorf("the service holds %d subscriptions at ERROR, want 100", atError)
						}
						return nil
					}),
			},
		},
	})
}
