package provider

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// Issue 37, item 5: two CI pipelines apply identical configurations of 20 subscriptions to one
// account at once, each with its own state, with the provider's default batching, and a create
// of one of them is answered 502 before any work. Two working directories stand in for the two
// pipelines, each with its own provider instance (served from this process, see
// cli_inprocess_test.go) and its own state; the other pipeline's apply runs while the first one's
// lost create waits for its second read, so that the other's batches are placed on the service's
// clock where the test chose, without waiting: StopClock holds the service's clock at that
// instant for the other apply.

// pipelineSubscriptions is how many subscriptions each pipeline applies.
const pipelineSubscriptions = 20

// pipelineConfig renders a pipeline's configuration: a provider of the mock's account served as
// eventnotify/<name>, and pipelineSubscriptions subscriptions of distinct content (the same in
// every pipeline).
func pipelineConfig(m *testMock, name string) string {
	p := m.providerConfig()
	p.localName = name
	return fmt.Sprintf(`
terraform {
  required_providers {
    %[1]s = {
      source = "eventnotify/%[1]s"
    }
  }
}
`, name) + p.String() + fmt.Sprintf(`
resource "eventnotify_subscription" "s" {
  provider            = %s
  count               = %d
  event_name          = "ATOM.STATUS"
  destination_type    = "EVENT_STREAMS"
  log_level           = "ERROR"
  event_streams_topic = "pipeline-${count.index}"
}
`, name, pipelineSubscriptions)
}

// jsonDiagnostics returns the diagnostics of a -json run's output.
func jsonDiagnostics(jsonOut string) []cliDiagnostic {
	var got []cliDiagnostic
	sc := bufio.NewScanner(strings.NewReader(jsonOut))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			Type       string        `json:"type"`
			Diagnostic cliDiagnostic `json:"diagnostic"`
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Type == "diagnostic" {
			got = append(got, line.Diagnostic)
		}
	}
	return got
}

// named reports whether one of diags of severity names id.
func named(diags []cliDiagnostic, severity, id string) bool {
	return slices.ContainsFunc(diags, func(d cliDiagnostic) bool {
		return d.Severity == severity && strings.Contains(d.Summary+"\n"+d.Detail, id)
	})
}

// stateIDsByAddress returns the subscription ids in the working directory's state, by resource
// instance address (eventnotify_subscription.s[3]).
func (w *cliWorkspace) stateIDsByAddress(providers []inProcessProvider) map[string]string {
	w.t.Helper()
	out := w.mustRunInProcess(providers, "show", "-json")
	var show struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string `json:"address"`
					Values  struct {
						ID string `json:"id"`
					} `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &show); err != nil {
		w.t.Fatalf("decoding terraform show -json: %v\n%s", err, out)
	}
	ids := make(map[string]string)
	for _, r := range show.Values.RootModule.Resources {
		ids[r.Address] = r.Values.ID
	}
	return ids
}

// TestAccOwnership_twoPipelines applies the same 20 subscriptions from two pipelines (two
// working directories, two states, two provider instances, default batching). B's first batch is
// created, and its next create is answered 502 before any work; between B's first read of the
// account and its second, A's whole apply runs, with A's subscriptions dated by the service
// where the case places them:
//
//   - 71 ms before B's lost request came in: B's creates have calibrated the createdDate clock,
//     so A's subscriptions are dated before B's request was sent: B adopts none of them, and its
//     apply fails with the unknown outcome that names them (no second copy);
//   - 376 ms after B's 502 was answered: B adopts those of its lost batch's content, each with the
//     late-adoption warning naming it;
//   - 30 % of the POSTs answered 502 before any work (every third, a Ratio fault: no
//     randomness; B's third is its first loss), A's apply running on the service's real clock
//     at B's first loss, B creating one subscription at a time: each lost create of either run
//     ends as the evidence says (adopted with the warning, failed as unknown, or created again
//     with the warning that the first may still land).
//
// In every case (the "Done when"): no id is in both states unless the run that holds it
// second (B, whose adoption came after A's create) printed a warning naming it; the mock holds
// exactly the union of the two states; destroying both leaves nothing. Before the calibration
// (the ±1 s of the Date headers), both applies printed "Apply complete! 20 added" and 10 ids were
// in both states without a word.
func TestAccOwnership_twoPipelines(t *testing.T) {
	tests := []struct {
		name string
		// place, when not zero, stops the service's clock for A's apply this long before B's
		// lost request came in (negative) or after its 502 was answered (positive).
		place time.Duration
		// ratio, when not zero, answers this share of all POSTs 502 before any work, from
		// the first one (B's third POST is its first loss); else only B's first create after
		// its first batch is lost.
		ratio float64
		// parallelismB is B's -parallelism (A's is Terraform's default, 10): with 1, B has no
		// create in flight while A applies, nor A while B goes on, so that no create of one
		// run is carried out during a lost request of the other (the ambiguity that stays).
		parallelismB string
		wantB        string // "fails" (unknown outcome), "warns" (late adoptions), "" (either)
	}{
		{name: "71 ms before the lost request", place: -71 * time.Millisecond, parallelismB: "10", wantB: "fails"},
		{name: "376 ms after its 502", place: 376 * time.Millisecond, parallelismB: "10", wantB: "warns"},
		{name: "30 percent of POSTs lost", ratio: 0.34, parallelismB: "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newTestMock(t)
			wA, wB := newBareCLIWorkspace(t, m), newBareCLIWorkspace(t, m)
			wA.write("main.tf", pipelineConfig(m, "eventnotify"))
			wB.write("main.tf", pipelineConfig(m, "eventnotify-b"))
			passAtOnce := func(c *client.Config) {
				c.SettleWait = func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
			}
			providersA := []inProcessProvider{{source: "eventnotify/eventnotify", factory: parityServerFor(func() *EventNotifyProvider {
				return &EventNotifyProvider{version: "test", adjustClient: passAtOnce}
			})}}
			argsA := []string{"apply", "-auto-approve", "-input=false", "-json"}
			argsB := append(slices.Clone(argsA), "-parallelism="+tt.parallelismB)

			var (
				mu       sync.Mutex
				faulted  mockserver.FaultedRequest
				outA     string
				codeA    = -1
				aApplied sync.Once
			)
			// B's lost request, as the service's clock saw it.
			m.OnFaulted(http.MethodPost, mockserver.RouteSubscriptions, func(f mockserver.FaultedRequest) {
				mu.Lock()
				defer mu.Unlock()
				faulted = f
			})
			providersB := []inProcessProvider{{source: "eventnotify/eventnotify-b", factory: parityServerFor(func() *EventNotifyProvider {
				return &EventNotifyProvider{version: "test", adjustClient: func(c *client.Config) {
					// The first wait of B's first lost create (after its read at once) is when A
					// applies; the later waits pass at once.
					c.SettleWait = func(ctx context.Context, _ time.Duration) error {
						aApplied.Do(func() {
							mu.Lock()
							f := faulted
							mu.Unlock()
							switch {
							case tt.place < 0:
								m.StopClock(f.Received.Add(tt.place))
							case tt.place > 0:
								m.StopClock(f.Answered.Add(tt.place))
							}
							out, code := wA.runInProcess(providersA, argsA...)
							m.ResumeClock()
							mu.Lock()
							outA, codeA = out, code
							mu.Unlock()
						})
						return ctx.Err()
					}
				}}
			})}}

			if tt.ratio > 0 {
				m.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
					Status: http.StatusBadGateway, Ratio: tt.ratio})
			} else {
				// Once B's first batch is carried out, B's next create is answered 502 before
				// any work: B's first batch has calibrated B's clock by then.
				var arm func()
				arm = func() {
					m.OnServed(http.MethodPost, mockserver.RouteSubscriptions, func() {
						if len(m.Subscriptions(testAccount)) < 10 {
							arm()
							return
						}
						m.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
							Status: http.StatusBadGateway, Count: 1})
					})
				}
				arm()
			}

			outB, codeB := wB.runInProcess(providersB, argsB...)
			mu.Lock()
			defer mu.Unlock() // A's apply is over: nothing else writes outA, codeA
			if codeA < 0 {
				t.Fatalf("B never lost a create, so A never applied:\n%s", outB)
			}
			m.ClearFaults()
			t.Logf("A exited %d, B exited %d; %d POSTs, %d answered 502", codeA, codeB,
				m.Count(http.MethodPost, mockserver.RouteSubscriptions), m.statusCount(http.MethodPost, mockserver.RouteSubscriptions, http.StatusBadGateway))

			idsA, idsB := wA.stateIDsByAddress(providersA), wB.stateIDsByAddress(providersB)
			diagsA, diagsB := jsonDiagnostics(outA), jsonDiagnostics(outB)
			union := map[string]bool{}
			inA := map[string]bool{}
			for _, id := range idsA {
				union[id], inA[id] = true, true
			}
			var shared []string
			for _, id := range idsB {
				union[id] = true
				if inA[id] {
					shared = append(shared, id)
					// B adopted it after A created it: B's run must say so, naming it.
					if !named(diagsB, "warning", id) {
						t.Errorf("subscription %s is in both states, and B's run printed no warning naming it:\n%s", id, outB)
					}
				}
			}
			var unionIDs []string
			for id := range union {
				unionIDs = append(unionIDs, id)
			}
			slices.Sort(unionIDs)
			if held := m.mockIDs(testAccount); !slices.Equal(held, unionIDs) {
				t.Errorf("the mock holds %d subscriptions, the two states %d between them; want the same:\nmock %v\nstates %v", len(held), len(unionIDs), held, unionIDs)
			}
			t.Logf("A holds %d, B %d, both %d; the mock %d", len(idsA), len(idsB), len(shared), len(m.mockIDs(testAccount)))

			switch tt.wantB {
			case "fails":
				if codeB == 0 || len(shared) != 0 {
					t.Errorf("B exited %d with %d ids in both states; want a failure and none shared:\n%s", codeB, len(shared), outB)
				}
				// Every subscription of A whose content B lacks is named in B's error.
				missing := 0
				for address, id := range idsA {
					if _, ok := idsB[address]; !ok {
						missing++
						if !named(diagsB, "error", id) {
							t.Errorf("B lacks %s, and its errors do not name %s, A's subscription of that content:\n%s", address, id, outB)
						}
					}
				}
				if missing == 0 {
					t.Errorf("B holds all of %d: its lost create was not left unknown:\n%s", len(idsB), outB)
				}
			case "warns":
				if codeB != 0 || len(shared) == 0 {
					t.Errorf("B exited %d with %d ids in both states; want success with its lost batch adopted late:\n%s", codeB, len(shared), outB)
				}
				expectOutput(t, "B's apply", outB, true, fmt.Sprintf("Apply complete! Resources: %d added", pipelineSubscriptions))
			}
			for _, id := range shared {
				if named(diagsA, "warning", id) {
					t.Logf("A's run also named %s", id)
				}
			}

			wB.mustRunInProcess(providersB, "destroy", "-auto-approve", "-input=false", "-no-color")
			wA.mustRunInProcess(providersA, "destroy", "-auto-approve", "-input=false", "-no-color")
			if left := m.mockIDs(testAccount); len(left) != 0 {
				t.Fatalf("destroy left %v on the service", left)
			}
		})
	}
}
