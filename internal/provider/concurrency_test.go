package provider

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// TestAccConcurrency_apply100 applies, refreshes and destroys 100
// subscriptions at -parallelism=32 through the Terraform CLI, with the
// provider built with -race: its client, JWT cache, listing cache and rate
// limiter run under the race detector in the provider process (a report fails
// the test), and the mock under the test binary's own (`go test -race`, as
// `make test` runs it). The mock's handler counts the requests in flight to
// show that the parallelism took effect.
func TestAccConcurrency_apply100(t *testing.T) {
	t.Parallel()
	const n = 100
	m := newTestMock(t)
	m.SetLatency(100 * time.Millisecond)
	var inFlight, busiest atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		now := inFlight.Add(1)
		defer inFlight.Add(-1)
		for b := busiest.Load(); now > b && !busiest.CompareAndSwap(b, now); b = busiest.Load() {
		}
		m.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)

	w := newCLIWorkspace(t, &testMock{Server: m.Server, URL: ts.URL})
	rc := writeDevOverrides(t, t.TempDir(), raceProviderBuild.get(t))
	raceLogs := filepath.Join(t.TempDir(), "race")
	// Every write on its own, so that the requests in flight show the parallelism.
	w.env = append(w.env, "TF_CLI_CONFIG_FILE="+rc, "GORACE=log_path="+raceLogs, envMaxBatchSize+"=1")
	w.write("main.tf", requiredProviders+manyConfig(n))

	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=32")
	if ids := m.mockIDs(testAccount); len(ids) != n || !slices.Equal(w.stateSubscriptionIDs(), ids) {
		t.Fatalf("after the apply the mock holds %d subscriptions, want the %d in state", len(ids), n)
	}
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color", "-parallelism=32"); code != 0 {
		t.Fatalf("plan after the apply is not empty (exit %d):\n%s", code, out)
	}
	w.mustRun(nil, "destroy", "-auto-approve", "-input=false", "-no-color", "-parallelism=32")
	if left := len(m.Subscriptions(testAccount)); left != 0 {
		t.Errorf("the mock still holds %d subscriptions after destroy", left)
	}

	reports, _ := filepath.Glob(raceLogs + ".*")
	for _, r := range reports {
		body, _ := os.ReadFile(r)
		t.Errorf("the provider reported a data race:\n%s", body)
	}
	t.Logf("up to %d requests in flight at once", busiest.Load())
	if b := busiest.Load(); b <= 10 {
		t.Errorf("at most %d requests in flight: -parallelism=32 did not take effect (Terraform's default is 10)", b)
	}
}
