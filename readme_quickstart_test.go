//go:build unix

package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readmeMockBlock returns the README's sh block that starts the mock server and runs the first
// configuration, as a user copies it.
func readmeMockBlock(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range fencedBlocks(string(readme)) {
		if b.lang == "sh" && strings.Contains(b.text(), "eventnotify-mock -listen") {
			return b.text()
		}
	}
	t.Fatal("README.md has no sh block that starts eventnotify-mock")
	return ""
}

// writeScript writes an executable shell script.
func writeScript(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestReadmeFirstConfigurationBlock runs the README's block that starts the mock and applies the
// first configuration, literally, with bash in an empty folder and a PATH that holds only the
// tools it uses (grep, seq, sleep) and what each case adds: it ends by itself, and says what is
// missing when the mock is not on PATH, stops at once, or prints nothing; with the mock, the
// terraform commands run with the mock's settings exported.
func TestReadmeFirstConfigurationBlock(t *testing.T) {
	block := readmeMockBlock(t)
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("the test runs the README's block with bash, which is not on PATH")
	}
	tools := t.TempDir()
	for _, tool := range []string{"grep", "seq", "sleep"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Fatalf("the README's block uses %s, which is not on PATH", tool)
		}
		if err := os.Symlink(p, filepath.Join(tools, tool)); err != nil {
			t.Fatal(err)
		}
	}
	realMock := filepath.Join(t.TempDir(), "eventnotify-mock")
	if out, err := exec.Command("go", "build", "-o", realMock, "./cmd/eventnotify-mock").CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/eventnotify-mock: %v\n%s", err, out)
	}

	const (
		notOnPath = `eventnotify-mock is not on PATH: make install put it in $(go env GOPATH)/bin (~/go/bin); run: export PATH="$PATH:$(go env GOPATH)/bin"`
		noURL     = "eventnotify-mock printed no EVENTNOTIFY_BASE_URL"
	)
	tests := []struct {
		name       string
		mock       func(bin string) // puts an eventnotify-mock into bin, or not
		want, not  []string         // in the block's output, not in it
		terraforms bool             // the terraform commands ran with the mock's EVENTNOTIFY_BASE_URL
	}{
		{
			name: "no eventnotify-mock on PATH",
			mock: func(string) {},
			want: []string{notOnPath, noURL},
		},
		{
			name: "the mock stops at once",
			mock: func(bin string) {
				writeScript(t, filepath.Join(bin, "eventnotify-mock"), "echo 'eventnotify-mock: listen tcp: address already in use' >&2\nexit 1\n")
			},
			want: []string{"address already in use", noURL},
			not:  []string{notOnPath},
		},
		{
			name: "the mock prints nothing",
			mock: func(bin string) {
				writeScript(t, filepath.Join(bin, "eventnotify-mock"), "exec sleep 600\n")
			},
			want: []string{noURL},
			not:  []string{notOnPath},
		},
		{
			name: "the mock",
			mock: func(bin string) {
				if err := os.Symlink(realMock, filepath.Join(bin, "eventnotify-mock")); err != nil {
					t.Fatal(err)
				}
			},
			not:        []string{notOnPath, noURL},
			terraforms: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, bin := t.TempDir(), t.TempDir()
			tc.mock(bin)
			calls := filepath.Join(dir, "terraform.calls")
			// A terraform that records its arguments and the address it was given.
			writeScript(t, filepath.Join(bin, "terraform"), `echo "$* $EVENTNOTIFY_BASE_URL" >>`+"'"+calls+"'\n")
			script := filepath.Join(t.TempDir(), "first-configuration.sh")
			if err := os.WriteFile(script, []byte(block), 0o600); err != nil {
				t.Fatal(err)
			}

			// The deadline only turns a hang into a failure; a block that ends takes seconds.
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bash, script)
			cmd.Dir = filepath.Join(dir, "work")
			if err := os.Mkdir(cmd.Dir, 0o755); err != nil {
				t.Fatal(err)
			}
			cmd.Env = []string{"PATH=" + bin + ":" + tools, "HOME=" + dir}
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
			cmd.WaitDelay = 10 * time.Second // a mock left running holds the output open
			out, err := cmd.CombinedOutput()
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // whatever the block left behind
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				t.Fatalf("the README's block did not end by itself; its output:\n%s", out)
			}
			var exit *exec.ExitError
			if err != nil && !errors.As(err, &exit) {
				t.Fatalf("bash %s: %v\n%s", script, err, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("the block's output does not say %q:\n%s", w, out)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(string(out), n) {
					t.Errorf("the block's output says %q:\n%s", n, out)
				}
			}
			got, _ := os.ReadFile(calls)
			lines := strings.Split(strings.TrimSpace(string(got)), "\n")
			if !tc.terraforms {
				return
			}
			if err != nil {
				t.Errorf("the block ended with %v:\n%s", err, out)
			}
			if len(lines) != 4 {
				t.Fatalf("terraform ran %d times, want init, apply, plan and destroy:\n%s\noutput:\n%s", len(lines), got, out)
			}
			for i, want := range []string{"init http://127.0.0.1:", "apply http://127.0.0.1:", "plan http://127.0.0.1:", "destroy http://127.0.0.1:"} {
				if !strings.HasPrefix(lines[i], want) {
					t.Errorf("terraform call %d is %q, want %q followed by the mock's port", i+1, lines[i], want)
				}
			}
		})
	}
}
