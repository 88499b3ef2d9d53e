package provider

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// Look-alikes of a planned create (issue 37 item 7): a plan that creates a subscription next to
// an unheld one of the same settings, made by the same user in the last day, names it in a
// warning whose summary carries its id, with the import command and the way to delete it.

// lookalikeWarnings returns, from a -json run's output, the ids the look-alike warnings name,
// by the address of the resource each is about, and the warnings themselves.
func lookalikeWarnings(t *testing.T, jsonOut string) (map[string][]string, []cliDiagnostic) {
	t.Helper()
	named := map[string][]string{}
	var all []cliDiagnostic
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
		d := line.Diagnostic
		rest, prefixed := strings.CutPrefix(d.Summary, "Subscription ")
		id, suffixed := strings.CutSuffix(rest, " already has this resource's settings")
		if prefixed && suffixed && d.Severity == "warning" {
			named[d.Address] = append(named[d.Address], id)
			all = append(all, d)
		}
	}
	return named, all
}

// TestAccLookalikes_plan plans creates next to subscriptions of the account and checks which
// the plan names: only a same-settings subscription of the same user, made in the last day,
// that no resource holds.
func TestAccLookalikes_plan(t *testing.T) {
	seed := func(m *testMock, createdBy, topic string) string {
		t.Helper()
		subs, err := m.SeedSubscriptions(testAccount, createdBy, []byte(fmt.Sprintf(
			`[{"eventName":"ATOM.STATUS","destinationType":"EVENT_STREAMS","logLevel":"ERROR","eventStreamsTopic":%q}]`, topic)))
		if err != nil {
			t.Fatal(err)
		}
		return subs[0].SubscriptionID
	}
	one := func(name, topic string, extra ...string) string {
		return fmt.Sprintf(`
resource "eventnotify_subscription" %q {
  event_name          = "ATOM.STATUS"
  destination_type    = "EVENT_STREAMS"
  log_level           = "ERROR"
  event_streams_topic = %q
%s}
`, name, topic, strings.Join(extra, "\n"))
	}
	tests := []struct {
		name string
		// prepare seeds the mock and returns the configuration (after a first apply of
		// `held`, when not empty) and the ids the plan must name.
		held    string
		prepare func(m *testMock) (config string, want []string)
	}{
		{"same user, an hour ago: named", "", func(m *testMock) (string, []string) {
			id := seed(m, testUser, "t1")
			m.ModifySubscription(testAccount, id, func(s *mockserver.Subscription) { s.CreatedDate -= time.Hour.Milliseconds() })
			return one("s", "t1"), []string{id}
		}},
		{"two of the same settings: both named", "", func(m *testMock) (string, []string) {
			a, b := seed(m, testUser, "t1"), seed(m, testUser, "t1")
			return one("s", "t1"), slices.Sorted(slices.Values([]string{a, b}))
		}},
		{"another user: not named", "", func(m *testMock) (string, []string) {
			seed(m, "someone-else@example.com", "t1")
			return one("s", "t1"), nil
		}},
		{"older than a day: not named", "", func(m *testMock) (string, []string) {
			id := seed(m, testUser, "t1")
			m.ModifySubscription(testAccount, id, func(s *mockserver.Subscription) {
				s.CreatedDate -= (client.LookalikeAge + time.Minute).Milliseconds()
			})
			return one("s", "t1"), nil
		}},
		{"other settings: not named", "", func(m *testMock) (string, []string) {
			seed(m, testUser, "t2")
			return one("s", "t1"), nil
		}},
		{"held by a twin read first: not named", one("a", "t1"), func(*testMock) (string, []string) {
			return one("a", "t1") + one("b", "t1", "  depends_on = [eventnotify_subscription.a]\n"), nil
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			w := newBareCLIWorkspace(t, m)
			providers := []inProcessProvider{{source: "eventnotify/eventnotify", factory: testProviderFactories["eventnotify"]}}
			if tc.held != "" {
				w.write("main.tf", requiredProviders+m.providerBlock()+tc.held)
				w.mustRunInProcess(providers, "apply", "-auto-approve", "-input=false", "-no-color")
			}
			config, want := tc.prepare(m)
			w.write("main.tf", requiredProviders+m.providerBlock()+config)
			lists := m.listRequests()
			out := w.mustRunInProcess(providers, "plan", "-input=false", "-json")
			named, warnings := lookalikeWarnings(t, out)
			var got []string
			for _, ids := range named {
				got = append(got, ids...)
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("the plan names %v, want %v:\n%s", named, want, out)
			}
			for _, d := range warnings {
				id := strings.TrimSuffix(strings.TrimPrefix(d.Summary, "Subscription "), " already has this resource's settings")
				expectOutput(t, "the look-alike warning", d.Detail, true,
					fmt.Sprintf("terraform import <this resource's address> %s/%s", testAccount, id),
					fmt.Sprintf("DELETE /rest/v1/accounts/%s/subscriptions/%s", testAccount, id),
					"interrupted apply", "terraform state list")
			}
			// One listing of the account for the whole plan, shared with the refresh.
			if n := m.listRequests() - lists; n != 1 {
				t.Fatalf("the plan listed the account %d times, want 1", n)
			}
		})
	}
}

// TestAccLookalikes_killedApply stands in for a cancelled CI job: `terraform apply` of 20
// subscriptions is killed (SIGKILL to terraform and its plugin) while four creates have been
// carried out by the service and their answers are still on their way. The next plan names
// every subscription the service holds and the state does not, each on the resource of its
// settings, with the import command; after importing them as it says, the apply creates only
// what was never created, and destroy leaves nothing.
func TestAccLookalikes_killedApply(t *testing.T) {
	const n, answered, held = 20, 6, 4
	m := newTestMock(t)
	var (
		mu               sync.Mutex
		creates, holding int
		// heldServed counts down as each held create's answer is written. It is counted up
		// before the server starts: a request that reaches the server after the kill must not
		// Add while the test Waits.
		heldServed sync.WaitGroup
	)
	heldServed.Add(held)
	allHeld, release := make(chan struct{}), make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/subscriptions") {
			m.ServeHTTP(rw, r)
			return
		}
		mu.Lock()
		creates++
		nth := creates
		mu.Unlock()
		if nth <= answered || nth > answered+held {
			m.ServeHTTP(rw, r)
			return
		}
		// Carried out by the service; the answer waits until terraform is gone.
		defer heldServed.Done()
		rec := httptest.NewRecorder()
		m.ServeHTTP(rec, r)
		mu.Lock()
		holding++
		if holding == held {
			close(allHeld)
		}
		mu.Unlock()
		<-release
		for k, v := range rec.Header() {
			rw.Header()[k] = v
		}
		rw.WriteHeader(rec.Code)
		_, _ = rw.Write(rec.Body.Bytes())
	}))
	t.Cleanup(ts.Close)
	front := &testMock{Server: m.Server, URL: ts.URL}
	w := newCLIWorkspace(t, front)
	w.write("main.tf", requiredProviders+manyConfig(n))
	env := []string{"EVENTNOTIFY_MAX_BATCH_SIZE=1"}

	// The interrupted apply: the 7th to 10th creates are carried out and never answered.
	cmd := exec.Command(w.tf, "-chdir="+w.dir, "apply", "-auto-approve", "-input=false", "-no-color", fmt.Sprintf("-parallelism=%d", held))
	cmd.Env = append(append([]string{}, w.env...), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-allHeld:
	case err := <-done:
		close(release)
		t.Fatalf("apply ended (%v) before four creates were held:\n%s", err, out.String())
	case <-time.After(2 * time.Minute):
		close(release)
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		t.Logf("apply killed: %v", <-done)
		t.Fatalf("four creates were not held within two minutes:\n%s", out.String())
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	t.Logf("apply killed: %v", <-done)
	close(release)
	heldServed.Wait()

	inState := stateIDsIfAny(t, w)
	var orphans []string
	for _, id := range m.mockIDs(testAccount) {
		if !slices.Contains(inState, id) {
			orphans = append(orphans, id)
		}
	}
	if len(orphans) < held {
		t.Fatalf("the killed apply left %d subscriptions outside state (%v), want at least %d:\n%s", len(orphans), orphans, held, out.String())
	}
	t.Logf("the killed apply left %d subscriptions on the service, %d of them in state", len(m.mockIDs(testAccount)), len(inState))

	// The next plan names each orphan on the resource of its settings (its topic).
	planOut := w.mustRun(env, "plan", "-input=false", "-json")
	named, _ := lookalikeWarnings(t, planOut)
	var got []string
	for addr, ids := range named {
		if len(ids) != 1 {
			t.Fatalf("%s is warned about %v, want one subscription", addr, ids)
		}
		sub, ok := m.Subscription(testAccount, ids[0])
		if !ok || fmt.Sprintf("eventnotify_subscription.many[%s]", strings.TrimPrefix(sub.EventStreamsTopic, "topic-")) != addr {
			t.Fatalf("%s is warned about %s (topic %q), which is not its look-alike", addr, ids[0], sub.EventStreamsTopic)
		}
		got = append(got, ids[0])
	}
	slices.Sort(got)
	if !slices.Equal(got, orphans) {
		t.Fatalf("the plan names %v, want every orphan %v:\n%s", got, orphans, planOut)
	}

	// Following the advice: import each one into the resource named, then apply.
	for addr, ids := range named {
		w.mustRun(env, "import", "-input=false", "-no-color", addr, testAccount+"/"+ids[0])
	}
	applyOut := w.mustRun(env, "apply", "-auto-approve", "-input=false", "-json")
	if named, _ := lookalikeWarnings(t, applyOut); len(named) != 0 {
		t.Fatalf("the apply after the imports still warns about %v", named)
	}
	if ids := m.mockIDs(testAccount); len(ids) != n || !slices.Equal(w.stateSubscriptionIDs(), ids) {
		t.Fatalf("after the apply the mock holds %d subscriptions, state %v; want the same %d", len(ids), w.stateSubscriptionIDs(), n)
	}
	w.mustRun(env, "destroy", "-auto-approve", "-input=false", "-no-color")
	if left := m.mockIDs(testAccount); len(left) != 0 {
		t.Fatalf("destroy left %v on the service", left)
	}
}

// stateIDsIfAny is stateSubscriptionIDs for a working directory that may have no state yet: no
// file, or an empty one (a CLI killed before it wrote a snapshot; OpenTofu creates the file
// first).
func stateIDsIfAny(t *testing.T, w *cliWorkspace) []string {
	t.Helper()
	if fi, err := os.Stat(filepath.Join(w.dir, "terraform.tfstate")); errors.Is(err, os.ErrNotExist) || err == nil && fi.Size() == 0 {
		return nil
	}
	return w.stateSubscriptionIDs()
}
