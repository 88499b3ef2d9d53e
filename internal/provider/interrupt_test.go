package provider

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestAccInterrupt_apply interrupts `terraform apply` of 20 subscriptions, as
// Ctrl-C does (SIGINT to the process group, provider plugin included), while
// the fifth create is in flight: nothing panics, and the state holds exactly
// the subscriptions the mock holds (the provider cancels the calls in flight,
// and the service acts on none of them). The next apply creates the rest.
func TestAccInterrupt_apply(t *testing.T) {
	const n = 20
	m := newTestMock(t)
	// The fifth create to arrive, still inside the mock's latency, is the
	// moment to interrupt.
	inFlight := make(chan struct{})
	var creates atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && creates.Add(1) == 5 {
			close(inFlight)
		}
		m.ServeHTTP(rw, r)
	}))
	t.Cleanup(ts.Close)
	w := newCLIWorkspace(t, &testMock{Server: m.Server, URL: ts.URL})
	w.write("main.tf", requiredProviders+manyConfig(n))
	m.SetLatency(500 * time.Millisecond)

	cmd := exec.Command(w.tf, "-chdir="+w.dir, "apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=2")
	cmd.Env = w.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	killGroup := func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }

	select {
	case <-inFlight:
	case err := <-done:
		t.Fatalf("apply ended (%v) before it could be interrupted:\n%s", err, out.String())
	case <-time.After(time.Minute):
		killGroup()
		<-done
		t.Fatalf("the mock saw no fifth create within a minute:\n%s", out.String())
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	var exitErr error
	select {
	case exitErr = <-done:
	case <-time.After(time.Minute):
		killGroup()
		<-done
		t.Fatalf("apply did not stop within a minute of SIGINT:\n%s", out.String())
	}
	output := out.String()
	t.Logf("the interrupted apply exited with %v", exitErr)
	if strings.Contains(strings.ToLower(output), "panic") {
		t.Fatalf("the interrupted apply panicked:\n%s", output)
	}
	if !strings.Contains(output, "Interrupt received") {
		t.Errorf("terraform did not report the interrupt:\n%s", output)
	}

	m.SetLatency(0)
	inMock := m.mockIDs(testAccount)
	inState := w.stateSubscriptionIDs()
	if !slices.Equal(inState, inMock) {
		t.Fatalf("after the interrupt, state holds %d subscriptions %v and the mock %d %v\n%s",
			len(inState), inState, len(inMock), inMock, output)
	}
	if len(inMock) == 0 || len(inMock) == n {
		t.Fatalf("the interrupt left %d of %d subscriptions: not mid-way", len(inMock), n)
	}
	t.Logf("the interrupt left %d of %d subscriptions, in state and in the mock alike", len(inMock), n)

	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("plan after the second apply is not empty (exit %d):\n%s", code, out)
	}
	if ids := m.mockIDs(testAccount); len(ids) != n || !slices.Equal(w.stateSubscriptionIDs(), ids) {
		t.Fatalf("after the second apply the mock holds %d subscriptions, state %d; want %d in both", len(ids), len(w.stateSubscriptionIDs()), n)
	}
}

// stateSubscriptionIDs returns the ids of the subscriptions in the working
// directory's state file, sorted.
func (w *cliWorkspace) stateSubscriptionIDs() []string {
	w.t.Helper()
	var state struct {
		Resources []struct {
			Mode      string `json:"mode"`
			Type      string `json:"type"`
			Instances []struct {
				Attributes struct {
					ID string `json:"id"`
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
	var ids []string
	for _, r := range state.Resources {
		if r.Mode == "managed" && r.Type == "eventnotify_subscription" {
			for _, in := range r.Instances {
				ids = append(ids, in.Attributes.ID)
			}
		}
	}
	slices.Sort(ids)
	return ids
}
