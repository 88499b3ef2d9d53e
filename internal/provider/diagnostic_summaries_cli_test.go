package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// lateEntries is how many entries TestAccSummaries_eightLateAdoptions adopts late.
const lateEntries = 8

// lateEntry is the entry of the account resource under key n of TestAccSummaries_eightLateAdoptions:
// a topic of its own, so that each look-alike matches one entry only.
func lateEntry(n int) acctEntry {
	return acctEntry{key: fmt.Sprintf("e%d", n), event: "ATOM.STATUS", level: "ERROR", topic: fmt.Sprintf("late-%d", n),
		environment: topicTestEnv}
}

// acctStateEntryIDs returns the working directory's state of the account resource: entry key ->
// subscription id.
func (w *cliWorkspace) acctStateEntryIDs() map[string]string {
	w.t.Helper()
	var state struct {
		Resources []struct {
			Type      string `json:"type"`
			Instances []struct {
				Attributes struct {
					Subscriptions map[string]struct {
						ID string `json:"id"`
					} `json:"subscriptions"`
				} `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	body, err := os.ReadFile(filepath.Join(w.dir, "terraform.tfstate"))
	if err != nil {
		w.t.Fatalf("reading the state: %v", err)
	}
	if err := json.Unmarshal(body, &state); err != nil {
		w.t.Fatalf("decoding the state: %v", err)
	}
	ids := map[string]string{}
	for _, r := range state.Resources {
		if r.Type == accountResourceTypeName {
			for _, in := range r.Instances {
				for key, e := range in.Attributes.Subscriptions {
					ids[key] = e.ID
				}
			}
		}
	}
	return ids
}

// TestAccSummaries_eightLateAdoptions creates eventnotify_account_subscriptions with 8 entries,
// whose one create request is answered 502 before any work; during the grace period another
// writer (same user, same contents) creates the 8 subscriptions, dated after the failed answer
// came back, so each is adopted only with the late-adoption warning. Terraform prints warnings
// that share a summary as one ("and 7 more similar warnings elsewhere"): each warning's summary
// names its subscription and entry (diagnostic_summaries.go), so the plain output prints 8
// warnings, each naming the id that state holds under that entry, and the -json output 8
// diagnostics of the resource. State and the mock hold the same 8; destroy leaves nothing.
func TestAccSummaries_eightLateAdoptions(t *testing.T) {
	m := newTestMock(t)
	w := newBareCLIWorkspace(t, m)
	entries := make([]acctEntry, lateEntries)
	for i := range entries {
		entries[i] = lateEntry(i + 1)
	}
	w.write("main.tf", requiredProviders+m.providerBlock()+acctConfig(entries...))

	var mu sync.Mutex
	armed := false // the next settle wait creates the look-alikes
	providers := []inProcessProvider{{source: "eventnotify/eventnotify", factory: parityServerFor(func() *EventNotifyProvider {
		return &EventNotifyProvider{version: "test", adjustClient: func(c *client.Config) {
			c.SettleWait = func(ctx context.Context, _ time.Duration) error {
				mu.Lock()
				defer mu.Unlock()
				if armed {
					armed = false
					for _, e := range entries {
						// The other writer's, five seconds after the failed answer by the service's clock.
						m.PutSubscription(testAccount, mockserver.Subscription{EventName: e.event, DestinationType: "EVENT_STREAMS",
							LogLevel: e.level, EventStreamsEnvironment: e.environment, EventStreamsTopic: e.topic, Enabled: true,
							CreatedDate: time.Now().Add(5 * time.Second).UnixMilli(), CreatedBy: testUser, LastUpdatedUserID: testUser})
					}
				}
				return ctx.Err()
			}
		}}
	})}}
	// apply applies the configuration with its one create answered 502 before any work, and
	// returns the output and the state's entries.
	apply := func(args ...string) (string, map[string]string) {
		t.Helper()
		mu.Lock()
		armed = true
		mu.Unlock()
		posts := m.Count(http.MethodPost, mockserver.RouteSubscriptions)
		m.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
			Status: http.StatusBadGateway, Count: 1})
		out := w.mustRunInProcess(providers, append([]string{"apply", "-auto-approve", "-input=false"}, args...)...)
		if n := m.Count(http.MethodPost, mockserver.RouteSubscriptions) - posts; n != 1 {
			t.Fatalf("the apply made %d create requests, want 1 (answered 502, nothing created again):\n%s", n, out)
		}
		held := w.acctStateEntryIDs()
		var inState []string
		for _, id := range held {
			inState = append(inState, id)
		}
		slices.Sort(inState)
		if inMock := m.mockIDs(testAccount); len(held) != lateEntries || !slices.Equal(inState, inMock) {
			t.Fatalf("state holds %v, the mock %v; want the same %d (the look-alikes):\n%s", held, inMock, lateEntries, out)
		}
		return out, held
	}
	// want is the late-adoption warning of each entry, by its summary.
	want := func(held map[string]string) []string {
		var summaries []string
		for _, e := range entries {
			s, _, _ := createWarning(&client.LateAdoptionWarning{SubscriptionID: held[e.key]}, e.key)
			summaries = append(summaries, s)
		}
		slices.Sort(summaries)
		return summaries
	}

	// The plain output: 8 warnings, none folded into another.
	out, held := apply("-no-color")
	var got []string
	for _, s := range providerWarnings(out) {
		if strings.HasSuffix(s, lateAdoptionSuffix) {
			got = append(got, s)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want(held)) {
		t.Fatalf("the apply's late-adoption warnings are\n  %s\nwant one per entry:\n  %s\n%s",
			strings.Join(got, "\n  "), strings.Join(want(held), "\n  "), out)
	}
	expectOutput(t, "the apply", out, false, "more similar warning")
	expectOutput(t, "the apply", out, true, fmt.Sprintf("Subscription %s (entry \"e1\") adopted after a lost create answer", held["e1"]),
		"looking for id "+held["e1"], "looking for id "+held["e8"], "Apply complete! Resources: 1 added")
	if out, code := w.runInProcess(providers, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("the plan after the apply exited %d, want 0:\n%s", code, out)
	}
	w.mustRunInProcess(providers, "destroy", "-auto-approve", "-input=false", "-no-color")
	if left := m.mockIDs(testAccount); len(left) != 0 {
		t.Fatalf("destroy left %v on the service", left)
	}

	// The -json output: 8 diagnostics of the resource, one per entry.
	out, held = apply("-json")
	got = nil
	details := map[string]string{}
	for _, d := range createDiagnostics(out) {
		if d.Severity != "warning" || d.Address != accountResourceTypeName+".all" {
			t.Errorf("diagnostic %v is a %s, want a warning of %s.all", d, d.Severity, accountResourceTypeName)
		}
		got = append(got, d.Summary)
		details[d.Summary] = d.Detail
	}
	slices.Sort(got)
	if !slices.Equal(got, want(held)) {
		t.Fatalf("the -json apply's late-adoption warnings are\n  %s\nwant one per entry:\n  %s\n%s",
			strings.Join(got, "\n  "), strings.Join(want(held), "\n  "), out)
	}
	for _, e := range entries {
		summary, _, _ := createWarning(&client.LateAdoptionWarning{SubscriptionID: held[e.key]}, e.key)
		if !strings.Contains(details[summary], "looking for id "+held[e.key]) {
			t.Errorf("the detail of %q does not name its subscription:\n%s", summary, details[summary])
		}
	}
	w.mustRunInProcess(providers, "destroy", "-auto-approve", "-input=false", "-no-color")
	if left := m.mockIDs(testAccount); len(left) != 0 {
		t.Fatalf("destroy left %v on the service", left)
	}
}
