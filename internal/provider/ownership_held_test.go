package provider

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// A subscription this run holds is never adopted by, nor handed out to, a create (issue 37
// item 1). Each test creates `a`, then, in a later apply (a new provider process, as every
// Terraform command and walk is), a create whose subscription is identical to a's: a twin `b`,
// or a's own replacement (create_before_destroy). The service dates a's subscription half a
// second before that create arrives (recentBeforeCreates), inside the adoption window's second
// of margin, so only what the apply's provider instance read can tell it apart.

// recentBeforeCreates fronts m with a server that, as each create (a POST of the collection)
// arrives, dates every subscription of the account `ago` before the service's clock: they
// look made just before the create, as when the previous apply ended a moment ago.
func recentBeforeCreates(t *testing.T, m *testMock, ago time.Duration) *testMock {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/subscriptions") {
			for _, s := range m.Subscriptions(testAccount) {
				m.ModifySubscription(testAccount, s.SubscriptionID, func(s *mockserver.Subscription) {
					s.CreatedDate = time.Now().Add(-ago).UnixMilli()
				})
			}
		}
		m.ServeHTTP(rw, r)
	}))
	t.Cleanup(ts.Close)
	return &testMock{Server: m.Server, URL: ts.URL}
}

// heldCases are the faults of the create that follows a's: its 201 lists the whole account (as
// the collection's PUT answers), or it is answered 502 or 503 before any work.
var heldCases = []struct {
	name  string
	fault mockserver.Fault
	// fired fails when the fault did not act as the case means.
	fired func(m *testMock) error
}{
	{
		name:  "create answer lists the whole account",
		fault: mockserver.Fault{AfterWork: true, ListAccount: true, Count: 1},
		fired: func(m *testMock) error {
			if n := m.Count(http.MethodPost, mockserver.RouteSubscriptions); n != 2 {
				return fmt.Errorf("%d create requests, want 2 (one per apply)", n)
			}
			return nil
		},
	},
	{
		name:  "create answered 502 before any work",
		fault: mockserver.Fault{Status: http.StatusBadGateway, Count: 1},
		fired: func(m *testMock) error {
			if n := m.statusCount(http.MethodPost, mockserver.RouteSubscriptions, http.StatusBadGateway); n != 1 {
				return fmt.Errorf("%d creates answered 502, want 1: the fault did not fire", n)
			}
			return nil
		},
	},
	{
		name:  "create answered 503 before any work",
		fault: mockserver.Fault{Status: http.StatusServiceUnavailable, Count: 1},
		fired: func(m *testMock) error {
			if n := m.statusCount(http.MethodPost, mockserver.RouteSubscriptions, http.StatusServiceUnavailable); n != 1 {
				return fmt.Errorf("%d creates answered 503, want 1: the fault did not fire", n)
			}
			return nil
		},
	},
}

// TestAccOwnership_heldTwinNeverAdopted adds b, identical to a, in the apply after a's: b gets
// a subscription of its own whatever the fault, and removing b then leaves a's alone.
func TestAccOwnership_heldTwinNeverAdopted(t *testing.T) {
	for _, tc := range heldCases {
		t.Run(tc.name, func(t *testing.T) {
			base := newTestMock(t)
			m := recentBeforeCreates(t, base, 500*time.Millisecond)
			var aID string
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: settleFactories(nil),
				CheckDestroy:             m.checkMockEmpty(),
				Steps: []resource.TestStep{
					// a alone.
					{
						Config: m.providerBlock() + twinConfig("a"),
						Check: resource.ComposeTestCheckFunc(m.checkStateMatchesMock(1), func(s *terraform.State) error {
							aID = stateID(s, "a")
							return nil
						}),
					},
					// b added, its create meeting the fault: b's own subscription, a's kept.
					{
						PreConfig: func() {
							f := tc.fault
							f.Method, f.Route = http.MethodPost, mockserver.RouteSubscriptions
							m.InjectFault(f)
						},
						Config: m.providerBlock() + twinConfig("a", "b"),
						Check: resource.ComposeTestCheckFunc(m.checkStateMatchesMock(2), func(s *terraform.State) error {
							if a, b := stateID(s, "a"), stateID(s, "b"); a != aID || b == aID {
								return fmt.Errorf("a holds %s (was %s) and b %s: b took a's subscription", a, aID, b)
							}
							return tc.fired(m)
						}),
					},
					// a removed: b's subscription is what remains; then b removed by destroy.
					{
						Config: m.providerBlock() + twinConfig("b"),
						Check: resource.ComposeTestCheckFunc(m.checkStateMatchesMock(1), func(s *terraform.State) error {
							if _, ok := m.Subscription(testAccount, stateID(s, "b")); !ok {
								return fmt.Errorf("b's subscription %s is gone after a was removed", stateID(s, "b"))
							}
							return nil
						}),
					},
				},
			})
		})
	}
}

// cbdConfig is one create_before_destroy subscription, named test.
const cbdConfig = `
resource "eventnotify_subscription" "test" {
  event_name          = "ATOM.STATUS"
  destination_type    = "EVENT_STREAMS"
  log_level           = "ERROR"
  event_streams_topic = "twins"
  lifecycle {
    create_before_destroy = true
  }
}
`

// TestAccOwnership_replacedNeverAdopted replaces a create_before_destroy subscription (tainted,
// as -replace does) while the replacement's create meets the fault: the replacement never takes
// the subscription it replaces (which the destroy then deletes); state holds the new one, the
// service that one only.
func TestAccOwnership_replacedNeverAdopted(t *testing.T) {
	for _, tc := range heldCases {
		t.Run(tc.name, func(t *testing.T) {
			base := newTestMock(t)
			m := recentBeforeCreates(t, base, 500*time.Millisecond)
			var oldID string
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: settleFactories(nil),
				CheckDestroy:             m.checkMockEmpty(),
				Steps: []resource.TestStep{
					{
						Config: m.providerBlock() + cbdConfig,
						Check: resource.ComposeTestCheckFunc(m.checkStateMatchesMock(1), func(s *terraform.State) error {
							oldID = stateID(s, "test")
							return nil
						}),
					},
					{
						PreConfig: func() {
							f := tc.fault
							f.Method, f.Route = http.MethodPost, mockserver.RouteSubscriptions
							m.InjectFault(f)
						},
						Taint:  []string{"eventnotify_subscription.test"},
						Config: m.providerBlock() + cbdConfig,
						Check: resource.ComposeTestCheckFunc(m.checkStateMatchesMock(1), func(s *terraform.State) error {
							if id := stateID(s, "test"); id == oldID {
								return fmt.Errorf("state holds the replaced (deleted) subscription %s", id)
							}
							return tc.fired(m)
						}),
					},
				},
			})
		})
	}
}

// TestAccOwnership_heldNeverAdoptedSavedPlan is the same at the CLI, with saved plans (plan -out,
// then apply of the file), each command served by its own provider instance: the apply's
// instance reads and plans only what changes, and never saw a's subscription before it lists
// the account. Two flows: b added next to a, and a replaced with -replace (create_before_destroy).
func TestAccOwnership_heldNeverAdoptedSavedPlan(t *testing.T) {
	flows := []struct {
		name          string
		first, second string   // configurations of the two applies
		planArgs      []string // of the second plan
		keeps         string   // the resource whose id the second apply keeps ("" none)
		fresh         string   // the resource that must hold a new subscription
		after         int      // subscriptions after the second apply
	}{
		{"twin added", twinConfig("a"), twinConfig("a", "b"), nil, "a", "b", 2},
		{"create_before_destroy -replace", cbdConfig, cbdConfig, []string{"-replace=eventnotify_subscription.test"}, "", "test", 1},
	}
	for _, flow := range flows {
		for _, tc := range heldCases {
			t.Run(flow.name+"/"+tc.name, func(t *testing.T) {
				base := newTestMock(t)
				m := recentBeforeCreates(t, base, 500*time.Millisecond)
				w := newBareCLIWorkspace(t, m)
				providers := []inProcessProvider{{source: "eventnotify/eventnotify", factory: settleFactories(nil)["eventnotify"]}}
				w.write("main.tf", requiredProviders+m.providerBlock()+flow.first)
				w.mustRunInProcess(providers, "apply", "-auto-approve", "-input=false", "-no-color")
				before := stateIDsByName(t, w)

				w.write("main.tf", requiredProviders+m.providerBlock()+flow.second)
				w.mustRunInProcess(providers, append([]string{"plan", "-input=false", "-no-color", "-out=tfplan"}, flow.planArgs...)...)
				f := tc.fault
				f.Method, f.Route = http.MethodPost, mockserver.RouteSubscriptions
				m.InjectFault(f)
				out := w.mustRunInProcess(providers, "apply", "-input=false", "-no-color", "tfplan")
				if err := tc.fired(m); err != nil {
					t.Fatalf("%v:\n%s", err, out)
				}
				after := stateIDsByName(t, w)
				inMock := m.mockIDs(testAccount)
				if inState := w.stateSubscriptionIDs(); !slices.Equal(inState, inMock) || len(inMock) != flow.after {
					t.Fatalf("state holds %v, the mock %v; want the same %d:\n%s", inState, inMock, flow.after, out)
				}
				for name, id := range before {
					if id == after[flow.fresh] {
						t.Fatalf("%s holds %s, which %s held before the apply:\n%s", flow.fresh, id, name, out)
					}
				}
				if flow.keeps != "" && after[flow.keeps] != before[flow.keeps] {
					t.Fatalf("%s holds %s, want %s still", flow.keeps, after[flow.keeps], before[flow.keeps])
				}
				w.mustRunInProcess(providers, "destroy", "-auto-approve", "-input=false", "-no-color")
				if left := m.mockIDs(testAccount); len(left) != 0 {
					t.Fatalf("destroy left %v on the service", left)
				}
			})
		}
	}
}

// stateIDsByName returns the ids of the state file's eventnotify_subscription resources by
// name (an instance key, when there is one, after the name in brackets).
func stateIDsByName(t *testing.T, w *cliWorkspace) map[string]string {
	t.Helper()
	var state struct {
		Resources []struct {
			Mode      string `json:"mode"`
			Type      string `json:"type"`
			Name      string `json:"name"`
			Instances []struct {
				IndexKey   any `json:"index_key"`
				Attributes struct {
					ID string `json:"id"`
				} `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal([]byte(w.read("terraform.tfstate")), &state); err != nil {
		t.Fatalf("decoding the state: %v", err)
	}
	ids := map[string]string{}
	for _, r := range state.Resources {
		if r.Mode != "managed" || r.Type != "eventnotify_subscription" {
			continue
		}
		for _, in := range r.Instances {
			name := r.Name
			if in.IndexKey != nil {
				name += fmt.Sprintf("[%v]", in.IndexKey)
			}
			ids[name] = in.Attributes.ID
		}
	}
	return ids
}
