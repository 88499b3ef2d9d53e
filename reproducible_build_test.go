package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestReproducibleBuild copies the tree into a new git repository and runs `make install` there
// for three commits, as a user would after each pull, with GOFLAGS=-buildvcs=auto (Go's default:
// a build from a git checkout gets the commit stamped in unless the build says otherwise):
//   - commit A, the tree as it is;
//   - commit B, A with a line added to CONTRIBUTING.md: the installed provider has A's sha256, so
//     a lock file made from A's build still holds;
//   - commit C, B with one of the provider's strings changed (the -version flag's usage text):
//     its sha256 differs, so the comparison can tell builds apart.
//
// Each install also prints the command that re-locks, naming PLUGIN_DIR and this platform
// (scripts/install-test.sh runs that command).
func TestReproducibleBuild(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("make install runs on unix")
	}
	if testing.Short() {
		t.Skip("builds the provider three times with make install (-short)")
	}
	for _, tool := range []string{"make", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed: %v", tool, err)
		}
	}
	versionFile, err := os.ReadFile("VERSION")
	if err != nil {
		t.Fatal(err)
	}
	v := strings.TrimSpace(string(versionFile))
	platform := runtime.GOOS + "_" + runtime.GOARCH
	work := t.TempDir()
	repo := filepath.Join(work, "repo")
	copyTrackedTree(t, repo)

	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	commit := func(message string) {
		t.Helper()
		git("add", "-A")
		git("commit", "-q", "--allow-empty", "-m", message)
	}
	install := func(name string) string {
		t.Helper()
		plugins := filepath.Join(work, name, "plugins")
		cmd := exec.Command("make", "--no-print-directory", "install", "PLUGIN_DIR="+plugins, "MOCK_BIN_DIR="+filepath.Join(work, name, "bin"))
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GOFLAGS=-buildvcs=auto")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make install at commit %s: %v\n%s", name, err, out)
		}
		lock := "terraform providers lock -fs-mirror=" + plugins + " -platform=" + platform + " eventnotify/eventnotify\n"
		if !strings.Contains(string(out), "\n   "+lock) {
			t.Errorf("make install at commit %s does not print the lock command %q:\n%s", name, lock, out)
		}
		return fileSHA256(t, filepath.Join(plugins, "registry.terraform.io", "eventnotify", "eventnotify", v, platform, "terraform-provider-eventnotify_v"+v))
	}

	git("init", "-q")
	commit("A")
	a := install("A")

	contributing := filepath.Join(repo, "CONTRIBUTING.md")
	appendFile(t, contributing, "\nA line that changes no code.\n")
	commit("B: docs only")
	if b := install("B"); b != a {
		t.Errorf("commit B changes only CONTRIBUTING.md, yet the provider's sha256 went from %s to %s: a build stamps something besides the code", a, b)
	}

	mainGo := filepath.Join(repo, "main.go")
	src, err := os.ReadFile(mainGo)
	if err != nil {
		t.Fatal(err)
	}
	const usage = `"print the provider's version and exit"`
	if !strings.Contains(string(src), usage) {
		t.Fatalf("main.go no longer holds %s: change another string of the provider here", usage)
	}
	if err := os.WriteFile(mainGo, []byte(strings.Replace(string(src), usage, `"print the provider's version, then exit"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	commit("C: a code change")
	if c := install("C"); c == a {
		t.Errorf("commit C changes a string of the provider, yet its sha256 is A's (%s): the comparison cannot tell builds apart", a)
	}
}

// copyTrackedTree copies the files git knows here (tracked, and untracked ones not ignored, so
// that uncommitted work is what the test builds) into dst, keeping their modes.
func copyTrackedTree(t *testing.T, dst string) {
	t.Helper()
	out, err := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	for _, name := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		info, err := os.Lstat(name)
		if os.IsNotExist(err) {
			continue // deleted in the work tree
		}
		if err != nil {
			t.Fatal(err)
		}
		if !info.Mode().IsRegular() {
			continue
		}
		target := filepath.Join(dst, name)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			t.Fatal(err)
		}
		body, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(target, body, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

// appendFile adds text at the end of path.
func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// fileSHA256 is what sha256sum prints for path.
func fileSHA256(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}
