package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/probe"
)

// TestProbeOfMockProcess: eventnotify-mock started as a separate process with -profile FILE,
// probed by this command with -write and -profile-out, gives back FILE's every member (the
// empty account shows emptyList, the probe's own ten subscriptions the page sizes).
func TestProbeOfMockProcess(t *testing.T) {
	const profile = `{"jwtBody":"string","singleShape":"wrapped","emptyList":404,"catalogShape":"strings",
		"defaultPageSize":5,"maxPageSize":8,"bulkUpdate":"reject","dateHeader":false,"sortBy":["logLevel","createdDate"]}`
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.json"), filepath.Join(dir, "out.json")
	if err := os.WriteFile(in, []byte(profile), 0o600); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "eventnotify-mock")
	build := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "../eventnotify-mock")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building eventnotify-mock: %v\n%s", err, b)
	}
	const mockPassword = "process-test-password"
	mock := exec.CommandContext(t.Context(), bin, "-listen", "127.0.0.1:0", "-profile", in)
	mock.Env = append(os.Environ(), "EVENTNOTIFY_MOCK_PASSWORD="+mockPassword)
	stdout, err := mock.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := mock.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = mock.Process.Kill()
		_ = mock.Wait()
	})
	env := map[string]string{"EVENTNOTIFY_PASSWORD": mockPassword}
	lines := bufio.NewScanner(stdout)
	for len(env) < 5 && lines.Scan() {
		if k, v, ok := strings.Cut(lines.Text(), "="); ok {
			env[k] = v
		}
	}
	if env["EVENTNOTIFY_BASE_URL"] == "" {
		t.Fatalf("the mock printed no base URL: %v", env)
	}
	var report, errs strings.Builder
	if code := run(t.Context(), []string{"-write", "-max-requests-per-second", "0", "-profile-out", out},
		func(k string) string { return env[k] }, &report, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	diffs, err := probe.ProfileDiff([]byte(profile), got)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diffs {
		t.Error(d)
	}
	if strings.Contains(report.String()+errs.String()+string(got), mockPassword) {
		t.Error("the password was printed or written")
	}
}
