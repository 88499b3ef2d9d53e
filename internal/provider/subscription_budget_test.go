package provider

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/testsupport"
)

// Request budgets of eventnotify_subscription at scale, checked through the mock's counters
// (counts, not times, so they hold on any machine).
//
// Every terraform command that configures the provider starts a new provider instance, with a
// new client: a new JWT cache and a new listing cache. The budgets are therefore stated per
// command, and the tests count the commands that terraform-plugin-testing runs for each step
// (v1.16, helper/resource/testing_new_config.go):
//
//   - a Config step runs `plan` (refresh) and `apply` of the saved plan (no refresh); its
//     Check runs after the apply. It then runs `plan -refresh=false` and `plan` (refresh),
//     which the next step's PreConfig sees;
//   - a Destroy step runs `plan -destroy` (refresh), `apply`, `plan -destroy -refresh=false`
//     and `plan -destroy` (refresh of an empty state, so no reads).
//
// The budgets, with pages = ceil(N / page size) and the page size the service accepts:
//
//   - create N: exactly N creates, no single read, at most one JWT fetch per command, and one
//     listing of the account per command that plans or applies a create (the look-alikes of
//     the plan, and what the apply's creates must never adopt: subscription_held.go),
//     shared by all its creates and with its refresh, if any;
//   - a refresh of N unchanged subscriptions: no single read, at most `pages` list requests,
//     and at most pages + 2 requests in all per refresh-bearing command (the JWT fetch and one
//     spare); a command that refreshes nothing sends at most its JWT fetch (in fact nothing:
//     the client fetches a JWT only for a request);
//   - update k of N: exactly k updates, and the refresh budget;
//   - destroy N: exactly N deletes, and no listing beyond the one refresh of the destroy plan;
//   - drift (one subscription deleted, one changed outside Terraform): both still detected,
//     the deleted one at the cost of one single read (its 404);
//   - the events catalogue: exactly one read per command whose plan writes an event name (a
//     create, or a changed name), whatever the number of subscriptions, and none otherwise.

// budgetCounts is a snapshot of the mock's counters.
type budgetCounts struct {
	creates, updates, deletes, lists, reads, jwt, total int
	catalogues                                          int
}

func (m *testMock) budgetCounts() budgetCounts {
	return budgetCounts{
		creates:    m.Count(http.MethodPost, mockserver.RouteSubscriptions),
		updates:    m.Count(http.MethodPut, mockserver.RouteSubscription),
		deletes:    m.Count(http.MethodDelete, mockserver.RouteSubscription),
		lists:      m.Count(http.MethodGet, mockserver.RouteSubscriptions),
		reads:      m.Count(http.MethodGet, mockserver.RouteSubscription),
		jwt:        m.JWTFetches(),
		total:      m.Count("", ""),
		catalogues: m.Count(http.MethodGet, mockserver.RouteEvents),
	}
}

func (c budgetCounts) minus(o budgetCounts) budgetCounts {
	return budgetCounts{c.creates - o.creates, c.updates - o.updates, c.deletes - o.deletes,
		c.lists - o.lists, c.reads - o.reads, c.jwt - o.jwt, c.total - o.total, c.catalogues - o.catalogues}
}

func (c budgetCounts) String() string {
	return fmt.Sprintf("%d creates, %d updates, %d deletes, %d list pages, %d single reads, %d catalogue reads, %d JWT fetches, %d requests in all",
		c.creates, c.updates, c.deletes, c.lists, c.reads, c.catalogues, c.jwt, c.total)
}

// budget is the allowance of an interval of terraform commands.
type budget struct {
	pages          int // ceil(N / page size)
	refreshes      int // commands that refresh the subscriptions
	others         int // other commands that configure the provider
	creates        int // exact numbers of writes
	updates        int
	deletes        int
	reads          int // exact number of single reads
	emptyRefreshes int // refresh-bearing commands with nothing to read (no list allowed)
	catalogues     int // exact number of events catalogue reads: commands whose plan writes a name
	createLists    int // commands whose creates list the account beyond any refresh (at most `pages` each)
}

// check compares the interval's counts with the budget.
func (b budget) check(step string, d budgetCounts) error {
	writes := d.creates + d.updates + d.deletes
	maxOther := b.refreshes*(b.pages+2) + b.createLists*b.pages + b.others + b.emptyRefreshes + b.reads + b.catalogues
	switch {
	case d.creates != b.creates || d.updates != b.updates || d.deletes != b.deletes:
		return fmt.Errorf("%s: %s; want exactly %d creates, %d updates and %d deletes", step, d, b.creates, b.updates, b.deletes)
	case d.reads != b.reads:
		return fmt.Errorf("%s: %s; want exactly %d single reads", step, d, b.reads)
	case d.catalogues != b.catalogues:
		return fmt.Errorf("%s: %s; want exactly %d catalogue reads", step, d, b.catalogues)
	case d.lists > (b.refreshes+b.createLists)*b.pages:
		return fmt.Errorf("%s: %s; want at most %d list pages (%d refreshes and %d create listings of %d pages)",
			step, d, (b.refreshes+b.createLists)*b.pages, b.refreshes, b.createLists, b.pages)
	case d.jwt > b.refreshes+b.others+b.emptyRefreshes:
		return fmt.Errorf("%s: %s; want at most one JWT fetch per command (%d)", step, d, b.refreshes+b.others+b.emptyRefreshes)
	case d.total-writes > maxOther:
		return fmt.Errorf("%s: %s; want at most %d requests besides the writes", step, d, maxOther)
	}
	return nil
}

// budgetConfig renders n subscriptions, the first k of them at log level INFO,
// with every write on its own (max_batch_size = 1): the budgets of batched
// writes are in subscription_batch_test.go.
func budgetConfig(m *testMock, n, k int) string {
	return m.providerBlock("max_batch_size = 1") + fmt.Sprintf(`
resource "eventnotify_subscription" "test" {
  count               = %d
  event_name          = "ATOM.STATUS"
  destination_type    = "EVENT_STREAMS"
  log_level           = count.index < %d ? "INFO" : "ERROR"
  event_streams_topic = "topic-${count.index}"
}
`, n, k)
}

func TestAccSubscriptionResource_requestBudgets(t *testing.T) {
	cases := []struct {
		name     string
		n        int
		maxPage  int // the mock's largest page (the client asks for 100)
		wantPage int
	}{
		{"50 subscriptions, one page", 50, 0, 100},
		{"45 subscriptions, service pages of 20", 45, 20, 20},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := fromHarness(t, testsupport.Start(t, mockserver.Config{MaxPageSize: tc.maxPage}))

			const k, deleted, changed = 5, 10, 20
			n := tc.n
			pages := (n + tc.wantPage - 1) / tc.wantPage
			addr := func(i int) string { return fmt.Sprintf("%s[%d]", subAddr, i) }
			var last budgetCounts
			// interval checks the counts since the last snapshot and takes a new one.
			interval := func(step string, b budget) error {
				now := m.budgetCounts()
				d := now.minus(last)
				last = now
				b.pages = pages
				t.Logf("%s: %s", step, d)
				return b.check(step, d)
			}
			// Checks run inside plugin-testing; PreConfig cannot return an error.
			preConfig := func(step string, b budget, then func()) func() {
				return func() {
					if err := interval(step, b); err != nil {
						t.Error(err)
					}
					if then != nil {
						then()
					}
				}
			}
			check := func(step string, b budget) resource.TestCheckFunc {
				return func(*terraform.State) error { return interval(step, b) }
			}
			postApply := budget{refreshes: 1, others: 1} // plan -refresh=false, plan

			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				Steps: []resource.TestStep{
					{
						// Create N: N creates; the plan and the apply list the (empty) account once each.
						Config: budgetConfig(m, n, 0),
						Check: resource.ComposeTestCheckFunc(
							check("create: plan + apply", budget{others: 2, creates: n, catalogues: 2, createLists: 2}),
							m.checkMockHolds(testAccount, n),
						),
					},
					{
						// Refresh N unchanged: ceil(N / page size) list pages per refresh.
						PreConfig: preConfig("after create: plan -refresh=false + plan", postApply, nil),
						Config:    budgetConfig(m, n, 0),
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectEmptyPlan(),
						}},
						Check: check("unchanged: plan + apply", budget{refreshes: 1, others: 1}),
					},
					{
						// Update k of N: k updates.
						PreConfig: preConfig("after unchanged: plan -refresh=false + plan", postApply, nil),
						Config:    budgetConfig(m, n, k),
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(addr(0), plancheck.ResourceActionUpdate),
							plancheck.ExpectResourceAction(addr(k-1), plancheck.ResourceActionUpdate),
							plancheck.ExpectResourceAction(addr(k), plancheck.ResourceActionNoop),
							plancheck.ExpectResourceAction(addr(n-1), plancheck.ResourceActionNoop),
						}},
						Check: check("update k: plan + apply", budget{refreshes: 1, others: 1, updates: k}),
					},
					{
						// Drift with the budget in force: one subscription deleted and one
						// changed outside Terraform are both detected and repaired.
						PreConfig: preConfig("after update: plan -refresh=false + plan", postApply, func() {
							m.DeleteSubscriptionDirect(testAccount, m.subscriptionByTopic(t, fmt.Sprintf("topic-%d", deleted)).SubscriptionID)
							m.ModifySubscription(testAccount, m.subscriptionByTopic(t, fmt.Sprintf("topic-%d", changed)).SubscriptionID,
								func(s *mockserver.Subscription) { s.LogLevel = "WARNING" })
						}),
						Config: budgetConfig(m, n, k),
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(addr(deleted), plancheck.ResourceActionCreate),
							plancheck.ExpectResourceAction(addr(changed), plancheck.ResourceActionUpdate),
							plancheck.ExpectKnownValue(addr(changed), tfjsonpath.New("log_level"), knownvalue.StringExact("ERROR")),
							plancheck.ExpectResourceAction(addr(changed+1), plancheck.ResourceActionNoop),
						}},
						Check: resource.ComposeTestCheckFunc(
							// The deleted subscription is missing from the listing: one
							// single read, whose 404 removes it from state.
							// The apply lists once for its create.
							check("drift: plan + apply", budget{refreshes: 1, others: 1, reads: 1, creates: 1, updates: 1, catalogues: 2, createLists: 1}),
							m.checkMockHolds(testAccount, n),
							func(*terraform.State) error {
								if s := m.subscriptionByTopic(t, fmt.Sprintf("topic-%d", changed)); s.LogLevel != "ERROR" {
									return fmt.Errorf("drift not repaired: log level %q", s.LogLevel)
								}
								return nil
							},
						),
					},
					{
						// Destroy N: N deletes; only the destroy plan's refresh lists.
						PreConfig: preConfig("after drift: plan -refresh=false + plan", postApply, nil),
						Config:    budgetConfig(m, n, k),
						Destroy:   true,
					},
				},
			})
			// plan -destroy (refresh), apply, plan -destroy -refresh=false, plan -destroy
			// (refresh of an empty state).
			if err := interval("destroy", budget{refreshes: 1, others: 2, emptyRefreshes: 1, deletes: n}); err != nil {
				t.Error(err)
			}
			if err := m.checkMockEmpty()(nil); err != nil {
				t.Error(err)
			}
		})
	}
}
