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

// Ownership through listings that cannot be trusted: the account is listed in pages of 100,
// numbered, and a listing disturbed between two pages, or a page that misreports, must never
// make the resource plan a second copy of a subscription it holds.

// manyAcctEntries returns n entries, each on its own topic.
func manyAcctEntries(n int) []acctEntry {
	out := make([]acctEntry, n)
	for i := range out {
		out[i] = acctEntry{key: fmt.Sprintf("s%03d", i), event: "ATOM.STATUS", level: "ERROR", topic: fmt.Sprintf("topic-%03d", i)}
	}
	return out
}

// checkNoTwins asserts that no two subscriptions of the mock's account share a topic: the
// entries of these tests differ by topic, so a twin is a duplicate the provider made.
func (m *testMock) checkNoTwins() resource.TestCheckFunc {
	return func(*terraform.State) error {
		seen := make(map[string]string)
		for _, s := range m.Subscriptions(testAccount) {
			if other, ok := seen[s.EventStreamsTopic]; ok {
				return fmt.Errorf("subscriptions %s and %s both hold topic %q: a duplicate", other, s.SubscriptionID, s.EventStreamsTopic)
			}
			seen[s.EventStreamsTopic] = s.SubscriptionID
		}
		return nil
	}
}

// checkReads asserts that the step read at least min single subscriptions with the answer
// status (after the counters were reset in PreConfig).
func (m *testMock) checkReads(status, min int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if n := m.statusCount(http.MethodGet, mockserver.RouteSubscription, status); n < min {
			return fmt.Errorf("%d reads of single subscriptions answered %d, want at least %d", n, status, min)
		}
		return nil
	}
}

// TestAccAccountSubscriptions_listingShifts holds 150 subscriptions (two pages) while the
// listing is disturbed, once per step: a subscription deleted out of band between page 0 and
// page 1 (the counts change: the account is listed again, and the deleted one is created
// again); one deleted and another created between the pages (no count changes: the
// subscription that moved to page 0 is never listed, and the read that confirms it keeps it;
// the one deleted after page 0 listed it is created again by the next apply); and a page 0
// that once claims to be the last (listed again: nothing changes). After each apply the mock
// holds exactly what state holds (but for the subscription deleted during the refresh, until
// the next apply), and never two subscriptions for one entry.
func TestAccAccountSubscriptions_listingShifts(t *testing.T) {
	m := newTestMock(t)
	entries := manyAcctEntries(150)
	config := m.providerBlock() + acctConfig(entries...)
	inject := func(f mockserver.Fault) func() {
		return func() {
			m.ResetCounters()
			f.Count = 1
			m.InjectFault(f)
		}
	}
	sw := &stepWrites{t: t, m: m}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{Config: config, Check: resource.ComposeTestCheckFunc(m.checkAcctSameAsMock(150), m.checkNoTwins())},
			{
				PreConfig: inject(mockserver.Fault{ShiftPages: 1}),
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(acctAddr, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(m.checkAcctSameAsMock(150), m.checkNoTwins(), m.checkReads(http.StatusNotFound, 1)),
			},
			{
				// The subscription deleted after page 0 listed it is kept by the plan; the
				// apply finds it gone (its update starts from the service: heldAsListed), creates
				// it again and fails naming both ids, so that no deleted id stays in state; the
				// one created is removed, as the plan shows. The next step's plan is empty.
				PreConfig:   inject(mockserver.Fault{ShiftPages: 1, ShiftReplace: true}),
				Config:      config,
				ExpectError: errorPattern("was deleted since the plan"),
			},
			{
				Config: config,
				Check:  resource.ComposeTestCheckFunc(m.checkAcctSameAsMock(150), m.checkNoTwins()),
			},
			{
				PreConfig: func() { inject(mockserver.Fault{ClaimLast: true})(); sw.mark() },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				Check: resource.ComposeTestCheckFunc(m.checkAcctSameAsMock(150), m.checkNoTwins(), sw.expect("a misreported page", writeCounts{})),
			},
		},
	})
}

// TestAccAccountSubscriptions_bulkDeleteUnanswered removes entries while the bulk delete's
// 207 leaves items without a status: items deleted whose statuses were lost, and a body that
// is not JSON, are read, found gone, and leave state (the apply succeeds); an item the service
// neither deleted nor answered for is read, found, and stays in state with an error, and the
// next apply deletes it. After each apply the mock holds exactly what state holds.
func TestAccAccountSubscriptions_bulkDeleteUnanswered(t *testing.T) {
	m := newTestMock(t)
	entries := manyAcctEntries(10)
	config := func(n int) string { return m.providerBlock() + acctConfig(entries[:n]...) }
	inject := func(f mockserver.Fault) func() {
		return func() {
			m.ResetCounters()
			f.Method, f.Route, f.Count = http.MethodPatch, mockserver.RouteSubscriptions, 1
			m.InjectFault(f)
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{Config: config(10), Check: m.checkAcctSameAsMock(10)},
			{
				PreConfig: inject(mockserver.Fault{DropStatuses: 2, AfterWork: true}),
				Config:    config(6),
				Check:     resource.ComposeTestCheckFunc(m.checkAcctSameAsMock(6), m.checkReads(http.StatusNotFound, 2)),
			},
			{
				PreConfig: inject(mockserver.Fault{Status: http.StatusMultiStatus, Body: "<html><body>Done</body></html>",
					ContentType: "text/html", AfterWork: true}),
				Config: config(4),
				Check:  resource.ComposeTestCheckFunc(m.checkAcctSameAsMock(4), m.checkReads(http.StatusNotFound, 2)),
			},
			{
				PreConfig:   inject(mockserver.Fault{DropStatuses: 1}),
				Config:      config(2),
				ExpectError: errorPattern("Unable to delete subscription", "no status", "did not find it gone", "stays in state"),
			},
			{
				PreConfig: func() {
					if n := len(m.Subscriptions(testAccount)); n != 3 {
						t.Errorf("after the failed apply the mock holds %d subscriptions, want 3", n)
					}
				},
				Config: config(2),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					m.expectStateAgreedWithService(),
					plancheck.ExpectResourceAction(acctAddr, plancheck.ResourceActionUpdate),
				}},
				Check: m.checkAcctSameAsMock(2),
			},
		},
	})
}

// checkAcctSameAsMock asserts that the resource's state and the mock hold the same n
// subscriptions, naming the differences.
func (m *testMock) checkAcctSameAsMock(n int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		inState, inMock := acctStateIDs(s), m.mockIDs(testAccount)
		onlyState, onlyMock := difference(inState, inMock), difference(inMock, inState)
		if len(inState) != n || len(inMock) != n || len(onlyState)+len(onlyMock) > 0 {
			return fmt.Errorf("state holds %d subscriptions, the mock %d, want the same %d; only in state: %v, only in the mock: %v",
				len(inState), len(inMock), n, onlyState, onlyMock)
		}
		return nil
	}
}

// difference returns the elements of a that b does not hold (duplicates in a included).
func difference(a, b []string) []string {
	in := make(map[string]int)
	for _, x := range b {
		in[x]++
	}
	var out []string
	for _, x := range a {
		if in[x] == 0 {
			out = append(out, x)
			continue
		}
		in[x]--
	}
	return out
}

// TestAccAccountSubscriptions_createListingMisreports creates the resource on an account that
// already holds its 150 subscriptions, while page 0 of the listing once claims to be the
// last: the account is listed again, every subscription is taken over, and nothing is written
// (a create that trusted page 0 would make a second copy of the 50 on page 1).
func TestAccAccountSubscriptions_createListingMisreports(t *testing.T) {
	m := newTestMock(t)
	seeded := seedAccount(m, 150)
	m.InjectFault(mockserver.Fault{ClaimLast: true, Count: 1})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{{
			Config: m.providerBlock() + configFor(seeded),
			Check: resource.ComposeTestCheckFunc(m.checkAcctSameAsMock(150), m.checkNoTwins(), func(*terraform.State) error {
				if w := m.writes(); w.total() != 0 {
					return fmt.Errorf("taking over the account made %s, want none", w)
				}
				return nil
			}),
		}},
	})
}
