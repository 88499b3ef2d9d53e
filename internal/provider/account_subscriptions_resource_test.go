package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// acctAddr is the address of the resource under test.
const acctAddr = "eventnotify_account_subscriptions.all"

// acctEntry is one entry of the resource's map in a test configuration.
type acctEntry struct {
	key, event, level, topic, environment string
	disabled                              bool
}

// acctConfig renders the resource with entries.
func acctConfig(entries ...acctEntry) string {
	var b strings.Builder
	b.WriteString("resource \"eventnotify_account_subscriptions\" \"all\" {\n  subscriptions = {\n")
	for _, e := range entries {
		fmt.Fprintf(&b, "    %q = {\n      event_name       = %q\n      destination_type = \"EVENT_STREAMS\"\n      log_level        = %q\n",
			e.key, e.event, e.level)
		if e.topic != "" {
			fmt.Fprintf(&b, "      event_streams_topic = %q\n", e.topic)
		}
		if e.environment != "" {
			fmt.Fprintf(&b, "      event_streams_environment_id = %q\n", e.environment)
		}
		if e.disabled {
			b.WriteString("      enabled = false\n")
		}
		b.WriteString("    }\n")
	}
	b.WriteString("  }\n}\n")
	return b.String()
}

// acctSubPath is the path of an attribute of the entry under key.
func acctSubPath(key, name string) tfjsonpath.Path {
	return tfjsonpath.New("subscriptions").AtMapKey(key).AtMapKey(name)
}

// writeCounts counts the mock's write requests by method, whatever the route
// and the outcome.
type writeCounts struct{ post, put, patch, del int }

// total is the number of write requests.
func (w writeCounts) total() int { return w.post + w.put + w.patch + w.del }

// minus is the difference since an earlier count.
func (w writeCounts) minus(o writeCounts) writeCounts {
	return writeCounts{w.post - o.post, w.put - o.put, w.patch - o.patch, w.del - o.del}
}

// String shows the counts.
func (w writeCounts) String() string {
	return fmt.Sprintf("%d writes (POST %d, PUT %d, PATCH %d, DELETE %d)", w.total(), w.post, w.put, w.patch, w.del)
}

// writes returns the mock's write counts so far.
func (m *testMock) writes() writeCounts {
	return writeCounts{m.Count(http.MethodPost, ""), m.Count(http.MethodPut, ""), m.Count(http.MethodPatch, ""), m.Count(http.MethodDelete, "")}
}

// stepWrites measures the write requests of one test step: mark in PreConfig,
// check in Check.
type stepWrites struct {
	t    *testing.T
	m    *testMock
	base writeCounts
}

// mark records the counts before the step.
func (s *stepWrites) mark() { s.base = s.m.writes() }

// expect checks the step's writes against want (per method) and logs them.
func (s *stepWrites) expect(name string, want writeCounts) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got := s.m.writes().minus(s.base)
		s.t.Logf("%s: %s", name, got)
		if got != want {
			return fmt.Errorf("%s made %s, want %s", name, got, want)
		}
		return nil
	}
}

// acctStateIDs returns the subscription ids the resource holds in state, sorted.
func acctStateIDs(s *terraform.State) []string {
	var ids []string
	if r, ok := s.RootModule().Resources[acctAddr]; ok {
		for k, v := range r.Primary.Attributes {
			if parts := strings.Split(k, "."); len(parts) == 3 && parts[0] == "subscriptions" && parts[2] == "id" {
				ids = append(ids, v)
			}
		}
	}
	slices.Sort(ids)
	return ids
}

// acctStateID returns the id of the entry under key in state.
func acctStateID(s *terraform.State, key string) string {
	if r, ok := s.RootModule().Resources[acctAddr]; ok {
		return r.Primary.Attributes["subscriptions."+key+".id"]
	}
	return ""
}

// checkAcctStateMatchesMock asserts that the resource's state and the mock
// hold the same n subscriptions.
func (m *testMock) checkAcctStateMatchesMock(n int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		inState, inMock := acctStateIDs(s), m.mockIDs(testAccount)
		if len(inMock) != n || !slices.Equal(inState, inMock) {
			return fmt.Errorf("state holds %d subscriptions %v, the mock %d %v; want the same %d", len(inState), inState, len(inMock), inMock, n)
		}
		return nil
	}
}

// planCheck adapts a function to plancheck.PlanCheck.
type planCheck func(ctx context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse)

// CheckPlan implements plancheck.PlanCheck.
func (f planCheck) CheckPlan(ctx context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	f(ctx, req, resp)
}

// planSubscriptions returns the resource's subscriptions map before (the
// state as refreshed) and after the plan, and before the refresh.
func planSubscriptions(req plancheck.CheckPlanRequest) (before, after, unrefreshed map[string]any, err error) {
	subs := func(v any) map[string]any {
		obj, _ := v.(map[string]any)
		m, _ := obj["subscriptions"].(map[string]any)
		return m
	}
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address == acctAddr {
			before, after = subs(rc.Change.Before), subs(rc.Change.After)
		}
	}
	if before == nil {
		return nil, nil, nil, fmt.Errorf("%s has no prior state in the plan", acctAddr)
	}
	unrefreshed = before
	for _, rc := range req.Plan.ResourceDrift {
		if rc.Address == acctAddr {
			unrefreshed = subs(rc.Change.Before)
		}
	}
	return before, after, unrefreshed, nil
}

// ids returns the sorted ids of a subscriptions map of a plan.
func ids(subs map[string]any) []string {
	var out []string
	for _, v := range subs {
		if e, ok := v.(map[string]any); ok {
			if id, ok := e["id"].(string); ok {
				out = append(out, id)
			}
		}
	}
	slices.Sort(out)
	return out
}

// expectIDKept asserts that the plan gives the entry under to the
// subscription that the entry under from holds in state.
func expectIDKept(from, to string) plancheck.PlanCheck {
	return planCheck(func(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
		before, after, _, err := planSubscriptions(req)
		if err != nil {
			resp.Error = err
			return
		}
		b, _ := before[from].(map[string]any)
		a, _ := after[to].(map[string]any)
		if b["id"] == nil || a["id"] != b["id"] {
			resp.Error = fmt.Errorf("planned id of %q is %v (unknown when nil), want %q's id %v", to, a["id"], from, b["id"])
		}
	})
}

// expectStateAgreedWithService asserts that the state before this plan's
// refresh held exactly the subscriptions that the mock holds: a refresh that
// finds nothing to change shows no drift.
func (m *testMock) expectStateAgreedWithService() plancheck.PlanCheck {
	return planCheck(func(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
		_, _, unrefreshed, err := planSubscriptions(req)
		if err != nil {
			resp.Error = err
			return
		}
		if inState, inMock := ids(unrefreshed), m.mockIDs(testAccount); !slices.Equal(inState, inMock) {
			resp.Error = fmt.Errorf("state held %v, the service %v", inState, inMock)
		}
	})
}

// seedAccount puts n subscriptions of varied content into the mock and
// returns them: every fifth has every input set (fillInputs).
func seedAccount(m *testMock, n int) []mockserver.Subscription {
	levels := []string{"INFO", "WARNING", "ERROR"}
	out := make([]mockserver.Subscription, n)
	for i := range out {
		s := mockserver.Subscription{EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS", LogLevel: levels[i%3],
			EventStreamsTopic: fmt.Sprintf("topic-%d", i), Enabled: i%4 != 0, CreatedBy: "someone@example.com"}
		if i%5 == 0 {
			s.EventStreamsEnvironment, s.EventStreamsEnvironmentName = "env-1", "Production"
			fillInputs(&s, i)
		}
		out[i] = m.PutSubscription(testAccount, s)
	}
	return out
}

// configFor renders a configuration that holds the seeded subscriptions,
// keyed by id as an import keys them, each with every input it has (entryHCL).
func configFor(seeded []mockserver.Subscription) string {
	var b strings.Builder
	b.WriteString("resource \"eventnotify_account_subscriptions\" \"all\" {\n  subscriptions = {\n")
	for _, s := range seeded {
		fmt.Fprintf(&b, "    %q = {\n%s    }\n", s.SubscriptionID, entryHCL(s, "      "))
	}
	b.WriteString("  }\n}\n")
	return b.String()
}

// TestAccAccountSubscriptions_importAccount imports an account of 40
// subscriptions made outside Terraform: `terraform import` with the account
// id fills the map keyed by subscription id, a configuration with those keys
// plans no change, nothing is written, a second import verifies against the
// state, and an import block plans a no-op. A malformed import id is refused.
// Moving the 40 entries to keys of the user's choice writes nothing and keeps
// every id. Destroy empties the account in one request.
func TestAccAccountSubscriptions_importAccount(t *testing.T) {
	m := newTestMock(t)
	seeded := seedAccount(m, 40)
	config := m.providerBlock() + configFor(seeded)
	renamedConfig := configFor(seeded)
	for i, sub := range seeded {
		renamedConfig = strings.Replace(renamedConfig, fmt.Sprintf("%q", sub.SubscriptionID), fmt.Sprintf(`"sub-%d"`, i), 1)
	}
	sw := &stepWrites{t: t, m: m}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy: resource.ComposeTestCheckFunc(m.checkMockEmpty(), func(*terraform.State) error {
			if n := m.Count(http.MethodDelete, mockserver.RouteSubscriptions); n != 1 {
				return fmt.Errorf("destroy sent %d deleteSubscriptionForAccount requests, want 1", n)
			}
			return nil
		}),
		Steps: []resource.TestStep{
			{
				Config:             config,
				ResourceName:       acctAddr,
				ImportState:        true,
				ImportStateId:      testAccount,
				ImportStatePersist: true,
			},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acctAddr, tfjsonpath.New("id"), knownvalue.StringExact(testAccount)),
					statecheck.ExpectKnownValue(acctAddr, tfjsonpath.New("account_id"), knownvalue.StringExact(testAccount)),
					statecheck.ExpectKnownValue(acctAddr, tfjsonpath.New("subscriptions"), knownvalue.MapSizeExact(40)),
					statecheck.ExpectKnownValue(acctAddr, acctSubPath(seeded[0].SubscriptionID, "enabled"), knownvalue.Bool(false)),
				},
				Check: resource.ComposeTestCheckFunc(m.checkAcctStateMatchesMock(40), func(*terraform.State) error {
					if w := m.writes(); w.total() != 0 {
						return fmt.Errorf("importing the account made %s, want none", w)
					}
					return nil
				}),
			},
			{ResourceName: acctAddr, ImportState: true, ImportStateVerify: true},
			{ResourceName: acctAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID},
			{
				Config:        config,
				ResourceName:  acctAddr,
				ImportState:   true,
				ImportStateId: testAccount + "/" + seeded[0].SubscriptionID,
				ExpectError:   errorPattern("Invalid import id", "an account id"),
			},
			{
				// The user's own keys: entries move to them without a request.
				PreConfig: sw.mark,
				Config:    m.providerBlock() + renamedConfig,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(acctAddr, plancheck.ResourceActionUpdate),
					expectIDKept(seeded[7].SubscriptionID, "sub-7"),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acctAddr, acctSubPath("sub-7", "id"), knownvalue.StringExact(seeded[7].SubscriptionID)),
				},
				Check: resource.ComposeTestCheckFunc(sw.expect("rename 40 imported keys", writeCounts{}), m.checkAcctStateMatchesMock(40)),
			},
		},
	})
}

// TestAccAccountSubscriptions_generateConfig imports an account with an
// import block and -generate-config-out: the generated configuration plans no
// change. OpenTofu 1.12 writes map keys that are not identifiers (the
// subscription ids) unquoted, so its generated file does not parse: the test
// runs where the CLI quotes them.
func TestAccAccountSubscriptions_generateConfig(t *testing.T) {
	m := newTestMock(t)
	seedAccount(m, 6)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureGeneratedMapKeys)},
		ProtoV6ProviderFactories: testProviderFactories,
		Steps: []resource.TestStep{{
			Config:          m.providerBlock(),
			ResourceName:    acctAddr,
			ImportState:     true,
			ImportStateKind: resource.ImportBlockWithID,
			ImportStateId:   testAccount,
			GenerateConfig:  true,
			ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(acctAddr, tfjsonpath.New("subscriptions"), knownvalue.MapSizeExact(6)),
			}},
		}},
	})
	if w := m.writes(); w.total() != 0 {
		t.Errorf("importing with generated configuration made %s, want none", w)
	}
}

// convergeEntries are the entries of the TestAccAccountSubscriptions_converge* tests: a is
// like a subscription the account may already hold (in another spelling); bInfo is b with
// another log level; c2 is c under another key; d, e and f replace a and c2.
type convergeEntries struct{ a, b, bInfo, c, c2, d, e, f acctEntry }

// newConvergeEntries returns the entries of the TestAccAccountSubscriptions_converge* tests.
func newConvergeEntries() convergeEntries {
	x := convergeEntries{
		a: acctEntry{key: "a", event: "ATOM.STATUS", level: "ERROR", topic: "alerts"},
		b: acctEntry{key: "b", event: "PROCESS.EXECUTION", level: "WARNING", topic: "processes"},
		c: acctEntry{key: "c", event: "ATOM.STATUS", level: "INFO", topic: "audit", disabled: true},
		d: acctEntry{key: "d", event: "ENVIRONMENT.ALERT", level: "ERROR", topic: "d"},
		e: acctEntry{key: "e", event: "ENVIRONMENT.ALERT", level: "INFO", topic: "e"},
		f: acctEntry{key: "f", event: "ATOM.DEPLOYMENT", level: "INFO"},
	}
	x.bInfo, x.c2 = x.b, x.c
	x.bInfo.level, x.c2.key = "INFO", "c2"
	return x
}

// TestAccAccountSubscriptions_converge takes over an account that holds two
// other subscriptions and one like an entry (in another spelling), and
// follows the configuration through changes made in Terraform, counting the
// write requests of every step. Drift from outside Terraform is
// TestAccAccountSubscriptions_convergeDrift; adding and removing several
// entries at once, and destroy, TestAccAccountSubscriptions_convergeAddRemove.
func TestAccAccountSubscriptions_converge(t *testing.T) {
	m := newTestMock(t)
	others := seedAccount(m, 2)
	existingA := m.PutSubscription(testAccount, mockserver.Subscription{EventName: "Atom.Status", DestinationType: "EVENT_STREAMS",
		LogLevel: "ERROR", EventStreamsTopic: "alerts", Enabled: true})
	sw := &stepWrites{t: t, m: m}
	x := newConvergeEntries()
	config := func(entries ...acctEntry) string { return m.providerBlock() + acctConfig(entries...) }
	sameB := statecheck.CompareValue(compare.ValuesSame())
	sameC := statecheck.CompareValue(compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{
				// Step 1, create with 3 entries: the one alike is taken over, one create
				// and one bulk delete do the rest (at most 3 writes).
				PreConfig: sw.mark,
				Config:    config(x.a, x.b, x.c),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(acctAddr, plancheck.ResourceActionCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					sameB.AddStateValue(acctAddr, acctSubPath("b", "id")),
					sameC.AddStateValue(acctAddr, acctSubPath("c", "id")),
					statecheck.ExpectKnownValue(acctAddr, acctSubPath("c", "enabled"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(acctAddr, acctSubPath("a", "enabled"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(acctAddr, acctSubPath("a", "id"), knownvalue.StringExact(existingA.SubscriptionID)),
					statecheck.ExpectKnownValue(acctAddr, acctSubPath("a", "event_name"), knownvalue.StringExact("ATOM.STATUS")),
				},
				Check: resource.ComposeTestCheckFunc(
					sw.expect("converge 3 over 2 others and 1 alike", writeCounts{post: 1, patch: 1}),
					m.checkAcctStateMatchesMock(3),
					func(*terraform.State) error {
						for _, o := range others {
							if _, ok := m.Subscription(testAccount, o.SubscriptionID); ok {
								return fmt.Errorf("subscription %s made outside Terraform still exists", o.SubscriptionID)
							}
						}
						return nil
					},
				),
			},
			{
				// Step 2, one entry's log level changed: one update, the id kept.
				PreConfig: sw.mark,
				Config:    config(x.a, x.bInfo, x.c),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(acctAddr, plancheck.ResourceActionUpdate),
					expectIDKept("b", "b"),
					expectIDKept("a", "a"),
					plancheck.ExpectKnownValue(acctAddr, acctSubPath("b", "log_level"), knownvalue.StringExact("INFO")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					sameB.AddStateValue(acctAddr, acctSubPath("b", "id")),
					statecheck.ExpectKnownValue(acctAddr, acctSubPath("b", "log_level"), knownvalue.StringExact("INFO")),
				},
				Check: resource.ComposeTestCheckFunc(sw.expect("change one entry", writeCounts{patch: 1}), m.checkAcctStateMatchesMock(3),
					func(s *terraform.State) error {
						if sub, _ := m.Subscription(testAccount, acctStateID(s, "b")); sub.LogLevel != "INFO" {
							return fmt.Errorf("the service holds log level %q for b, want INFO", sub.LogLevel)
						}
						return nil
					}),
			},
			{
				// Step 3, a key renamed: no write, the id kept.
				PreConfig: sw.mark,
				Config:    config(x.a, x.bInfo, x.c2),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(acctAddr, plancheck.ResourceActionUpdate),
					expectIDKept("c", "c2"),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					sameC.AddStateValue(acctAddr, acctSubPath("c2", "id")),
				},
				Check: resource.ComposeTestCheckFunc(sw.expect("rename a key", writeCounts{}), m.checkAcctStateMatchesMock(3)),
			},
			{
				// Step 4, no change: no write.
				PreConfig: sw.mark,
				Config:    config(x.a, x.bInfo, x.c2),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				Check: sw.expect("no change", writeCounts{}),
			},
		},
	})
}

// TestAccAccountSubscriptions_convergeDrift follows the account resource through changes
// made outside Terraform, counting the write requests of every step:
//   - a subscription added outside Terraform: the plan shows its removal, one
//     bulk delete removes it;
//   - a subscription deleted outside Terraform: one create brings it back.
func TestAccAccountSubscriptions_convergeDrift(t *testing.T) {
	m := newTestMock(t)
	sw := &stepWrites{t: t, m: m}
	x := newConvergeEntries()
	config := m.providerBlock() + acctConfig(x.a, x.bInfo, x.c2)
	var outOfBand mockserver.Subscription
	var deletedID string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{
				// Step 1, the starting point: 3 entries on an empty account.
				Config: config,
				Check:  m.checkAcctStateMatchesMock(3),
			},
			{
				// Step 2, a subscription added outside Terraform: the refreshed state holds it
				// under its id, the plan removes it, one bulk delete does.
				PreConfig: func() {
					sw.mark()
					outOfBand = m.PutSubscription(testAccount, mockserver.Subscription{EventName: "ATOM.STATUS",
						DestinationType: "EVENT_STREAMS", LogLevel: "ERROR", EventStreamsTopic: "rogue", Enabled: true})
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(acctAddr, plancheck.ResourceActionUpdate),
					planCheck(func(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
						before, after, unrefreshed, err := planSubscriptions(req)
						switch {
						case err != nil:
							resp.Error = err
						case before[outOfBand.SubscriptionID] == nil:
							resp.Error = fmt.Errorf("the refreshed state does not hold the subscription made outside Terraform under its id: %v", before)
						case after[outOfBand.SubscriptionID] != nil || len(after) != 3:
							resp.Error = fmt.Errorf("the plan keeps the subscription made outside Terraform: %v", after)
						case len(unrefreshed) != 3:
							resp.Error = fmt.Errorf("the drift does not show the state before refresh: %v", unrefreshed)
						}
					}),
				}},
				Check: resource.ComposeTestCheckFunc(
					sw.expect("remove an out-of-band addition", writeCounts{patch: 1}),
					m.checkAcctStateMatchesMock(3),
					func(s *terraform.State) error {
						deletedID = acctStateID(s, "a")
						return nil
					},
				),
			},
			{
				// Step 3, a subscription deleted outside Terraform: the plan gives its entry an
				// unknown id, one create brings it back under a new id.
				PreConfig: func() {
					sw.mark()
					if !m.DeleteSubscriptionDirect(testAccount, deletedID) {
						t.Errorf("subscription %s of entry a did not exist", deletedID)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(acctAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(acctAddr, acctSubPath("a", "id")),
				}},
				Check: resource.ComposeTestCheckFunc(
					sw.expect("re-create an out-of-band deletion", writeCounts{post: 1}),
					m.checkAcctStateMatchesMock(3),
					func(s *terraform.State) error {
						if id := acctStateID(s, "a"); id == deletedID || id == "" {
							return fmt.Errorf("entry a holds %q, want a new subscription", id)
						}
						return nil
					},
				),
			},
		},
	})
}

// TestAccAccountSubscriptions_convergeAddRemove adds 3 entries and removes 2 in one apply
// (one create and one bulk delete), then destroys the resource: the account is empty, also of
// what was added since the last refresh.
func TestAccAccountSubscriptions_convergeAddRemove(t *testing.T) {
	m := newTestMock(t)
	sw := &stepWrites{t: t, m: m}
	x := newConvergeEntries()
	config := func(entries ...acctEntry) string { return m.providerBlock() + acctConfig(entries...) }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{
				// Step 1, the starting point: 3 entries on an empty account.
				Config: config(x.a, x.bInfo, x.c2),
				Check:  m.checkAcctStateMatchesMock(3),
			},
			{
				// Step 2, 3 entries added and 2 removed: one create and one bulk delete.
				PreConfig: sw.mark,
				Config:    config(x.bInfo, x.d, x.e, x.f),
				Check:     resource.ComposeTestCheckFunc(sw.expect("add 3, remove 2", writeCounts{post: 1, patch: 1}), m.checkAcctStateMatchesMock(4)),
			},
			{
				// Step 3, destroy takes the whole account, also what was added since the last
				// refresh (CheckDestroy: the account is empty).
				PreConfig: func() {
					m.PutSubscription(testAccount, mockserver.Subscription{EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS",
						LogLevel: "INFO", Enabled: true})
				},
				Config:  config(x.bInfo, x.d, x.e, x.f),
				Destroy: true,
			},
		},
	})
}

// TestAccAccountSubscriptions_lostAnswers loses the answers of a create and a
// bulk delete after the mock did the work, in one converge that keeps one
// entry, changes one, removes two and adds three (one of them with the same
// content as the kept entry), then the answer of a bulk update: the create is
// settled without adopting the kept entry, the delete and update are repeated,
// and state and service agree.
func TestAccAccountSubscriptions_lostAnswers(t *testing.T) {
	m := newTestMock(t)
	a := acctEntry{key: "a", event: "ATOM.STATUS", level: "ERROR", topic: "alerts"}
	b := acctEntry{key: "b", event: "PROCESS.EXECUTION", level: "WARNING"}
	c := acctEntry{key: "c", event: "ATOM.STATUS", level: "INFO", topic: "c"}
	d := acctEntry{key: "d", event: "ATOM.STATUS", level: "INFO", topic: "d"}
	e := a
	e.key = "e"
	f := acctEntry{key: "f", event: "ATOM.STATUS", level: "WARNING", topic: "f"}
	g := acctEntry{key: "g", event: "ATOM.STATUS", level: "WARNING", topic: "g", disabled: true}
	bError := b
	bError.level = "ERROR"
	config := func(entries ...acctEntry) string { return m.providerBlock() + acctConfig(entries...) }
	sameA := statecheck.CompareValue(compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{
				Config:            config(a, b, c, d),
				ConfigStateChecks: []statecheck.StateCheck{sameA.AddStateValue(acctAddr, acctSubPath("a", "id"))},
				Check:             m.checkAcctStateMatchesMock(4),
			},
			{
				PreConfig: func() {
					for _, method := range []string{http.MethodPost, http.MethodPatch} {
						m.InjectFault(mockserver.Fault{Method: method, Route: mockserver.RouteSubscriptions,
							Status: http.StatusGatewayTimeout, Count: 1, AfterWork: true})
					}
				},
				Config:            config(a, bError, e, f, g),
				ConfigStateChecks: []statecheck.StateCheck{sameA.AddStateValue(acctAddr, acctSubPath("a", "id"))},
				Check: resource.ComposeTestCheckFunc(
					m.checkAcctStateMatchesMock(5),
					func(s *terraform.State) error {
						for _, method := range []string{http.MethodPost, http.MethodPatch} {
							if m.statusCount(method, "", http.StatusGatewayTimeout) == 0 {
								return fmt.Errorf("no %s answer was lost: the fault did not fire", method)
							}
						}
						if acctStateID(s, "a") == acctStateID(s, "e") {
							return fmt.Errorf("entries a and e hold the same subscription %s", acctStateID(s, "a"))
						}
						return nil
					},
				),
			},
			{
				// The bulk update's answer is lost after the work: the update is repeated.
				PreConfig: func() {
					m.InjectFault(mockserver.Fault{Method: http.MethodPatch, Route: mockserver.RouteSubscriptions,
						Status: http.StatusBadGateway, Count: 1, AfterWork: true})
				},
				Config: config(a, b, e, f, g),
				Check: resource.ComposeTestCheckFunc(
					m.checkAcctStateMatchesMock(5),
					func(s *terraform.State) error {
						if m.statusCount(http.MethodPatch, "", http.StatusBadGateway) == 0 {
							return fmt.Errorf("no bulk update answer was lost: the fault did not fire")
						}
						if sub, _ := m.Subscription(testAccount, acctStateID(s, "b")); sub.LogLevel != "WARNING" {
							return fmt.Errorf("the service holds log level %q for b, want WARNING", sub.LogLevel)
						}
						return nil
					},
				),
			},
		},
	})
}

// rejectingProxy stands in front of the mock and rejects the items of bulk
// deletes whose ids it is told to: it forwards the rest, then adds a 500
// status for each rejected item, as a service that fails some items does.
type rejectingProxy struct {
	next   http.Handler
	mu     sync.Mutex
	reject map[string]bool
	hits   int
}

// setReject sets the ids whose deletion fails.
func (p *rejectingProxy) setReject(ids ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reject = make(map[string]bool)
	for _, id := range ids {
		p.reject[strings.ToLower(id)] = true
	}
}

// ServeHTTP forwards the request, rejecting the chosen bulk delete items.
func (p *rejectingProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPatch {
		p.next.ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Operation       string   `json:"operation"`
		SubscriptionIDs []string `json:"subscriptionIds"`
	}
	_ = json.Unmarshal(body, &req)
	type status struct {
		SubscriptionID     string `json:"subscriptionId"`
		HTTPEquivalentCode int    `json:"httpEquivalentCode"`
		Message            string `json:"message"`
	}
	var keep []string
	var rejected []status
	p.mu.Lock()
	for _, id := range req.SubscriptionIDs {
		if p.reject[strings.ToLower(id)] {
			rejected = append(rejected, status{id, http.StatusInternalServerError, "Internal server error"})
			p.hits++
		} else {
			keep = append(keep, id)
		}
	}
	p.mu.Unlock()
	if req.Operation != "delete" || len(rejected) == 0 {
		r.Body = io.NopCloser(bytes.NewReader(body))
		p.next.ServeHTTP(w, r)
		return
	}
	var out struct {
		OperationStatuses []status `json:"operationStatuses"`
	}
	if len(keep) > 0 {
		fwd, _ := json.Marshal(map[string]any{"operation": "delete", "subscriptionIds": keep})
		r2 := r.Clone(r.Context())
		r2.Body, r2.ContentLength = io.NopCloser(bytes.NewReader(fwd)), int64(len(fwd))
		rec := httptest.NewRecorder()
		p.next.ServeHTTP(rec, r2)
		if rec.Code != http.StatusMultiStatus {
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			_, _ = w.Write(rec.Body.Bytes())
			return
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &out)
	}
	out.OperationStatuses = append(out.OperationStatuses, rejected...)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusMultiStatus)
	_ = json.NewEncoder(w).Encode(out)
}

// TestAccAccountSubscriptions_rejectedItems fails part of a converge: the
// service rejects one item of the bulk delete and the update of one entry,
// while the creates succeed. The apply fails naming both; the state it leaves
// holds exactly what the service holds (the created entries, the subscription
// not deleted, the old values of the one not updated), and the next apply
// converges.
func TestAccAccountSubscriptions_rejectedItems(t *testing.T) {
	m := newTestMock(t)
	proxy := &rejectingProxy{next: m.Server}
	ts := httptest.NewServer(proxy)
	t.Cleanup(ts.Close)
	pm := &testMock{Server: m.Server, URL: ts.URL}
	a := acctEntry{key: "a", event: "ATOM.STATUS", level: "ERROR", topic: "alerts"}
	b := acctEntry{key: "b", event: "PROCESS.EXECUTION", level: "WARNING"}
	c := acctEntry{key: "c", event: "ATOM.STATUS", level: "INFO", topic: "c"}
	d := acctEntry{key: "d", event: "ATOM.STATUS", level: "INFO", topic: "d"}
	e := acctEntry{key: "e", event: "ATOM.STATUS", level: "WARNING", topic: "e"}
	bError := b
	bError.level = "ERROR"
	config := func(entries ...acctEntry) string { return pm.providerBlock() + acctConfig(entries...) }
	var rejectedID, bID string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{
				Config: config(a, b, c, d),
				Check: resource.ComposeTestCheckFunc(m.checkAcctStateMatchesMock(4), func(s *terraform.State) error {
					rejectedID, bID = acctStateID(s, "c"), acctStateID(s, "b")
					return nil
				}),
			},
			{
				PreConfig: func() {
					proxy.setReject(rejectedID)
					m.RefuseBulkUpdateItems(bID)
				},
				Config:      config(a, bError, e),
				ExpectError: errorPattern("Unable to delete subscription", "HTTP 500"),
			},
			{
				PreConfig: func() {
					if proxy.hits == 0 {
						t.Error("the proxy rejected no delete")
					}
					if sub, _ := m.Subscription(testAccount, rejectedID); sub.SubscriptionID == "" {
						t.Errorf("the rejected subscription %s was deleted", rejectedID)
					}
					proxy.setReject()
					m.RefuseBulkUpdateItems()
				},
				Config: config(a, bError, e),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					m.expectStateAgreedWithService(),
					plancheck.ExpectResourceAction(acctAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(acctAddr, acctSubPath("e", "id"), knownvalue.NotNull()),
					plancheck.ExpectKnownValue(acctAddr, acctSubPath("b", "log_level"), knownvalue.StringExact("ERROR")),
				}},
				Check: resource.ComposeTestCheckFunc(m.checkAcctStateMatchesMock(3), func(s *terraform.State) error {
					if sub, _ := m.Subscription(testAccount, acctStateID(s, "b")); sub.LogLevel != "ERROR" {
						return fmt.Errorf("the service holds log level %q for b, want ERROR", sub.LogLevel)
					}
					return nil
				}),
			},
		},
	})
}

// planEntries runs ModifyPlan on a state of n entries (keys k0..) and a plan
// that renames the first half of the keys, changes the log level of every
// fourth of the rest, and adds n/10 entries; it returns the planned entries
// and the state's.
func planEntries(t *testing.T, n int) (planned, held map[string]accountEntry) {
	t.Helper()
	ctx := context.Background()
	r := &AccountSubscriptionsResource{data: &providerData{accountID: testAccount}}
	var sr fwresource.SchemaResponse
	r.Schema(ctx, fwresource.SchemaRequest{}, &sr)
	if sr.Diagnostics.HasError() {
		t.Fatal(sr.Diagnostics)
	}
	held = make(map[string]accountEntry, n)
	next := make(map[string]accountEntry, n+n/10)
	for i := range n {
		e := accountEntryFromAPI(&client.Subscription{ID: fmt.Sprintf("id-%d", i), EventName: "ATOM.STATUS",
			DestinationType: "EVENT_STREAMS", LogLevel: "ERROR", EventStreamsTopic: fmt.Sprintf("t-%d", i), Enabled: true,
			CreatedDate: int64(1000 + i), LastUpdatedDate: int64(2000 + i), CreatedBy: "demo", LastUpdatedUserID: "demo"})
		held[fmt.Sprintf("k%d", i)] = e
		p := e
		key := fmt.Sprintf("k%d", i)
		switch {
		case i < n/2:
			key = fmt.Sprintf("renamed%d", i)
		case i%4 == 0:
			p.LogLevel = types.StringValue("INFO")
		}
		next[key] = p
	}
	for i := range n / 10 {
		next[fmt.Sprintf("new%d", i)] = accountEntry{EventName: newEventName("NEW.EVENT"), DestinationType: types.StringValue("EVENT_STREAMS"),
			LogLevel: types.StringValue("INFO"), EventStreamsEnvironmentID: types.StringNull(), EventStreamsEnvironmentName: types.StringNull(),
			EventStreamsTopic: types.StringValue(fmt.Sprintf("n-%d", i)), Enabled: types.BoolValue(true)}.withUnknownID()
	}
	model := func(m map[string]accountEntry) *accountSubscriptionsModel {
		subs, diags := entriesMap(m, nil)
		if diags.HasError() {
			t.Fatal(diags)
		}
		return &accountSubscriptionsModel{ID: types.StringValue(testAccount), AccountID: types.StringValue(testAccount), Subscriptions: subs,
			Takeover: types.ObjectNull(takeoverAttrTypes), Timeouts: nullTimeouts()}
	}
	state := tfsdk.State{Schema: sr.Schema}
	plan := tfsdk.Plan{Schema: sr.Schema}
	if diags := append(state.Set(ctx, model(held)), plan.Set(ctx, model(next))...); diags.HasError() {
		t.Fatal(diags)
	}
	req := fwresource.ModifyPlanRequest{Config: tfsdk.Config{Schema: sr.Schema, Raw: plan.Raw}, Plan: plan, State: state}
	resp := &fwresource.ModifyPlanResponse{Plan: plan}
	r.ModifyPlan(ctx, req, resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	var out accountSubscriptionsModel
	if diags := resp.Plan.Get(ctx, &out); diags.HasError() {
		t.Fatal(diags)
	}
	planned, _, diags := entries(out.Subscriptions)
	if diags.HasError() {
		t.Fatal(diags)
	}
	return planned, held
}

// TestAccountSubscriptionsModifyPlan plans 1000 entries: renamed keys keep
// their subscription, changed entries keep their id, new entries plan an
// unknown id; an entry holds no other computed value. How the
// plan's cost grows with the entries is measured by BenchmarkAccountSubscriptions1000,
// not here: a test holds no timing threshold.
func TestAccountSubscriptionsModifyPlan(t *testing.T) {
	const n = 1000
	planned, held := planEntries(t, n)
	for i := range n {
		h := held[fmt.Sprintf("k%d", i)]
		switch p := planned[fmt.Sprintf("renamed%d", i)]; {
		case i < n/2:
			if !p.ID.Equal(h.ID) {
				t.Fatalf("renamed entry %d planned %+v, want the id of %+v", i, p, h)
			}
		case i%4 == 0:
			p = planned[fmt.Sprintf("k%d", i)]
			if !p.ID.Equal(h.ID) || !p.LogLevel.Equal(types.StringValue("INFO")) {
				t.Fatalf("changed entry %d planned %+v, want its id kept and the new log level", i, p)
			}
		default:
			if p = planned[fmt.Sprintf("k%d", i)]; p != h {
				t.Fatalf("unchanged entry %d planned %+v, want %+v", i, p, h)
			}
		}
	}
	for i := range n / 10 {
		if p := planned[fmt.Sprintf("new%d", i)]; !p.ID.IsUnknown() {
			t.Fatalf("new entry %d planned %+v, want an unknown id", i, p)
		}
	}
}

// TestAccAccountSubscriptions_createPartialFailure fails the first apply
// partway: the account holds two other subscriptions, and the service rejects
// the deletion of one. The state holds what exists (the entries created and
// the subscription not deleted, under its id); Terraform marks the resource
// tainted, so the next apply replaces it (destroy, then create) and the
// account ends with exactly the configured subscriptions.
func TestAccAccountSubscriptions_createPartialFailure(t *testing.T) {
	m := newTestMock(t)
	others := seedAccount(m, 2)
	proxy := &rejectingProxy{next: m.Server}
	proxy.setReject(others[0].SubscriptionID)
	ts := httptest.NewServer(proxy)
	t.Cleanup(ts.Close)
	pm := &testMock{Server: m.Server, URL: ts.URL}
	a := acctEntry{key: "a", event: "ATOM.STATUS", level: "ERROR", topic: "alerts"}
	b := acctEntry{key: "b", event: "PROCESS.EXECUTION", level: "WARNING"}
	config := pm.providerBlock() + acctConfig(a, b)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{
				Config:      config,
				ExpectError: errorPattern("Unable to delete subscription "+others[0].SubscriptionID, "HTTP 500"),
			},
			{
				PreConfig: func() {
					if _, ok := m.Subscription(testAccount, others[0].SubscriptionID); !ok {
						t.Error("the rejected subscription was deleted")
					}
					proxy.setReject()
					m.RefuseBulkUpdateItems()
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					m.expectStateAgreedWithService(),
					plancheck.ExpectResourceAction(acctAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: m.checkAcctStateMatchesMock(2),
			},
		},
	})
}
