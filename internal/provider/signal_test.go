package provider

import (
	"bytes"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// TestAccSignal_writeInFlight cancels `terraform apply` of 3 subscriptions as a CI system
// does, by signalling the whole process group (the provider plugin included), while the
// service has carried out a create and holds its answer back. Once Terraform has reported
// the interrupt, the answer is released: the plugin, still serving, hands it to Terraform,
// so the state records every subscription the mock holds, and a destroy leaves none.
// Before the plugin caught SIGTERM, it died with the answer unread: subscriptions on the
// service, none in state.
func TestAccSignal_writeInFlight(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			m := newTestMock(t)
			w := newCLIWorkspace(t, m)
			w.write("main.tf", requiredProviders+manyConfig(3))
			hold := m.HoldAnswers(http.MethodPost, mockserver.RouteSubscriptions)
			t.Cleanup(hold.Release)

			cmd := exec.Command(w.tf, "-chdir="+w.dir, "apply", "-auto-approve", "-input=false", "-no-color")
			cmd.Env = w.env
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			out := newWatchedOutput("Interrupt received")
			cmd.Stdout, cmd.Stderr = out, out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			killGroup := func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
			// await waits for c, failing the test (and killing the run) when the
			// apply ends first or nothing happens within a minute (a hang, not a
			// measurement).
			await := func(c <-chan struct{}, what string) {
				t.Helper()
				select {
				case <-c:
				case err := <-done:
					t.Fatalf("apply ended (%v) before %s:\n%s", err, what, out)
				case <-time.After(time.Minute):
					killGroup()
					t.Fatalf("no %s within a minute (the killed apply: %v):\n%s", what, <-done, out)
				}
			}

			await(hold.Arrived(), "create reached the mock")
			if err := syscall.Kill(-cmd.Process.Pid, sig); err != nil {
				t.Fatal(err)
			}
			await(out.seen, "report of the interrupt")
			held := m.mockIDs(testAccount)
			if len(held) == 0 {
				t.Fatalf("the mock holds no subscription while the create's answer is held")
			}
			hold.Release()
			released := time.Now()

			var exitErr error
			select {
			case exitErr = <-done:
			case <-time.After(time.Minute):
				killGroup()
				t.Fatalf("apply did not end within a minute of the release (killed: %v):\n%s", <-done, out)
			}
			output := out.String()
			t.Logf("the cancelled apply exited with %v %s after the release; the mock held %d subscription(s) from %d create request(s) when the answer was released",
				exitErr, time.Since(released).Round(time.Millisecond), len(held), m.Count(http.MethodPost, mockserver.RouteSubscriptions))
			if strings.Contains(strings.ToLower(output), "panic") || strings.Contains(output, "plugin exited") {
				t.Fatalf("the plugin did not survive %v:\n%s", sig, output)
			}
			inMock, inState := m.mockIDs(testAccount), w.stateSubscriptionIDs()
			if !slices.Equal(inState, inMock) {
				t.Fatalf("after %v, state holds %d subscriptions %v and the mock %d %v\n%s",
					sig, len(inState), inState, len(inMock), inMock, output)
			}
			for _, id := range held {
				if !slices.Contains(inState, id) {
					t.Fatalf("subscription %s, created before %v, is not in state %v\n%s", id, sig, inState, output)
				}
			}

			w.mustRun(nil, "destroy", "-auto-approve", "-input=false", "-no-color")
			if ids := m.mockIDs(testAccount); len(ids) != 0 {
				t.Fatalf("after destroy the mock still holds %v", ids)
			}
		})
	}
}

// watchedOutput collects a command's output and closes seen once it contains want.
type watchedOutput struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
}

// newWatchedOutput returns a watchedOutput that waits for want.
func newWatchedOutput(want string) *watchedOutput {
	return &watchedOutput{want: want, seen: make(chan struct{})}
}

// Write appends p and closes seen the first time the output holds want.
func (o *watchedOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.buf.Write(p)
	if !isClosed(o.seen) && strings.Contains(o.buf.String(), o.want) {
		close(o.seen)
	}
	return len(p), nil
}

// String returns the output so far.
func (o *watchedOutput) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}
