package provider

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// Issue 30, item 1, with both answers lost: two provider instances on one account (two
// Terraform runs with one user, see ownership_race_cli_test.go), A's create answered before any
// work, B's carried out and its answer lost.

// clockJump is how much the service's clock moves between A's failed answer and B's create: more
// than httpapi.ServiceClockSkew plus the second a Date header may run low, so that B's create is
// dated past A's adoption window.
const clockJump = 2 * time.Second

// subscriptionsRequest is a request on the account's subscriptions collection as the mock saw it.
type subscriptionsRequest struct {
	method string
	status int
}

// subscriptionsRequests returns, oldest first, the mock's requests on the account's
// subscriptions collection from the first create on: the apply's creates and the reads that
// settle them, without the plan's reads before them.
func subscriptionsRequests(m *testMock) []subscriptionsRequest {
	var out []subscriptionsRequest
	for _, r := range m.Requests() {
		if r.Route != mockserver.RouteSubscriptions || (len(out) == 0 && r.Method != http.MethodPost) {
			continue
		}
		out = append(out, subscriptionsRequest{r.Method, r.Status})
	}
	return out
}

// cliDiagnostic is a diagnostic of a -json run's output.
type cliDiagnostic struct {
	Severity, Summary, Detail, Address string
}

// String is the diagnostic's resource and summary.
func (d cliDiagnostic) String() string { return d.Address + ": " + d.Summary }

// createDiagnostics returns the diagnostics of a -json run's output about who holds a created
// subscription (see createWarnings), each once, with the resource it is about.
func createDiagnostics(jsonOut string) []cliDiagnostic {
	var got []cliDiagnostic
	sc := bufio.NewScanner(strings.NewReader(jsonOut))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			Type       string        `json:"type"`
			Diagnostic cliDiagnostic `json:"diagnostic"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || line.Type != "diagnostic" {
			continue
		}
		if len(createWarnings("Warning: "+line.Diagnostic.Summary+"\n")) > 0 {
			got = append(got, line.Diagnostic)
		}
	}
	return got
}

// TestAccOwnership_twoConfigurationsRaceBothLost applies two provider configurations of one
// account (two provider instances), each with a subscription of the same content. A's create is
// answered 502 before any work (nothing is created); B's create goes out only once A's answer has
// come back, is carried out, and its answer is lost (504). Two seconds pass on the service's
// clock between A's answer and B's create, without waiting: the clock jumps before B sends, so
// that B's create and B's settling read are dated after the jump, and the Date headers step back
// once B's read is served, so that A's reads still show the clock A knew (each settlement bounds
// the service's clock from its own reads only: to B its send, its create and its read are one
// span; to A, B's create comes two seconds after A's failed answer).
//
// Expected (DESIGN.md#lost-answers-and-ownership, adoption_window.go): B finds its subscription
// inside its adoption window and adopts it silently; A finds the same subscription dated after
// its window and adopts it only with the late-adoption warning that names it. Afterwards the mock
// holds exactly the one subscription both states hold, the id the warning named (no other
// warning); the requests are 2 creates (502, 504) and 3 reads (A's first, B's, A's second);
// the next plan is empty; destroy leaves nothing.
func TestAccOwnership_twoConfigurationsRaceBothLost(t *testing.T) {
	m := newTestMock(t)
	w := newBareCLIWorkspace(t, m)
	w.write("main.tf", twoRunsConfig(m))

	bSettled := make(chan struct{})
	// The first wait of A's grace period (after the read at once) is when B creates; A reads
	// again once B has settled.
	providers, _ := racingProviders(func() { m.SetClockOffset(clockJump) }, bSettled)
	// The first create to reach the service is A's (B's waits for A's answer): answered 502
	// before any work. The first to succeed is B's: carried out, its answer replaced by a 504.
	m.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
		Status: http.StatusBadGateway, Count: 1})
	m.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
		Status: http.StatusGatewayTimeout, Count: 1, AfterWork: true})
	m.OnServed(http.MethodPost, mockserver.RouteSubscriptions, func() {
		// The next read of the collection is B's settling read (A waits for bSettled): its Date
		// header is already set, after the jump; the reads after it show the clock without it.
		m.OnServed(http.MethodGet, mockserver.RouteSubscriptions, func() {
			m.SetDateOffset(-clockJump)
			close(bSettled)
		})
	})

	out := w.mustRunInProcess(providers, "apply", "-auto-approve", "-input=false", "-json")
	wantRequests := []subscriptionsRequest{
		{http.MethodPost, http.StatusBadGateway},     // A's create, nothing done
		{http.MethodGet, http.StatusNoContent},       // A's read at once: nothing there
		{http.MethodPost, http.StatusGatewayTimeout}, // B's create, done, its answer lost
		{http.MethodGet, http.StatusOK},              // B's read: B's own, in B's window
		{http.MethodGet, http.StatusOK},              // A's second read: B's, after A's window
	}
	if got := subscriptionsRequests(m); !slices.Equal(got, wantRequests) {
		t.Fatalf("the apply's requests on the subscriptions collection are %v, want %v:\n%s", got, wantRequests, out)
	}
	held := m.mockIDs(testAccount)
	if len(held) != 1 {
		t.Fatalf("the mock holds %v, want B's subscription only:\n%s", held, out)
	}
	id := held[0]
	if inState := w.stateSubscriptionIDs(); !slices.Equal(inState, []string{id, id}) {
		t.Fatalf("state holds %v, want a and b holding %s (the mock's only subscription):\n%s", inState, id, out)
	}
	sub, _ := m.Subscription(testAccount, id)
	late, _, _ := createWarning(&client.LateAdoptionWarning{SubscriptionID: id}, "")
	// The plain output merges warnings of one summary into the first ("and one more similar
	// warning elsewhere"); the -json output gives each with its resource.
	want := []cliDiagnostic{{Severity: "warning", Summary: late, Address: "eventnotify_subscription.a"}}
	if got := createDiagnostics(out); !slices.EqualFunc(got, want, func(g, w cliDiagnostic) bool {
		return g.Severity == w.Severity && g.Summary == w.Summary && g.Address == w.Address
	}) {
		t.Fatalf("the apply's create warnings are %v, want %v: A's late adoption only (B adopts its own silently):\n%s", got, want, out)
	}
	expectOutput(t, "the late-adoption warning", createDiagnostics(out)[0].Detail, true,
		fmt.Sprintf("took subscription %s in account %q as what the request created", id, testAccount),
		"the service dates it "+time.UnixMilli(sub.CreatedDate).UTC().Format(time.RFC3339)+", after the failed answer came back",
		"looking for id "+id, "terraform state rm")
	expectOutput(t, "the apply", out, true, "Apply complete! Resources: 2 added")

	if out, code := w.runInProcess(providers, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("the plan after the apply exited %d, want 0:\n%s", code, out)
	}
	w.mustRunInProcess(providers, "destroy", "-auto-approve", "-input=false", "-no-color")
	if left := m.mockIDs(testAccount); len(left) != 0 {
		t.Fatalf("destroy left %v on the service", left)
	}
}
