package provider

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The CLI harness runs the real terraform binary against a built provider
// binary (through dev_overrides) in a scratch directory. plugin-testing cannot
// hold for_each resources or modules in its state checks, and the examples,
// the quick start and the guides use both, so they are tested through this.

// providerBuild is one build of the provider binary, made once per test process.
type providerBuild struct {
	flags []string // extra go build flags
	once  sync.Once
	dir   string
	err   error
}

var (
	plainProviderBuild = &providerBuild{}
	raceProviderBuild  = &providerBuild{flags: []string{"-race"}}
)

// buildProvider builds the provider binary once per test process and returns
// the directory that holds it.
func buildProvider(t *testing.T) string { return plainProviderBuild.get(t) }

// get builds the binary on first use and returns its directory.
func (b *providerBuild) get(t *testing.T) string {
	t.Helper()
	b.once.Do(func() {
		b.dir, b.err = os.MkdirTemp("", "eventnotify-provider-bin-")
		if b.err != nil {
			return
		}
		args := append(append([]string{"build"}, b.flags...), "-o", filepath.Join(b.dir, "terraform-provider-eventnotify"), "../..")
		if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
			b.err = fmt.Errorf("building the provider (go %s): %v\n%s", strings.Join(args, " "), err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.dir
}

// terraformPath is the terraform binary the acceptance tests use.
func terraformPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p != "" {
		return p
	}
	p, err := exec.LookPath("terraform")
	if err != nil {
		t.Fatal("no terraform binary: set TF_ACC_TERRAFORM_PATH or put terraform on PATH (make test does)")
	}
	return p
}

// cliWorkspace is a scratch Terraform working directory wired to the mock.
type cliWorkspace struct {
	t   *testing.T
	dir string
	tf  string
	env []string
}

// newCLIWorkspace prepares a working directory whose terraform runs use the
// built provider and reach the mock through EVENTNOTIFY_* variables.
func newCLIWorkspace(t *testing.T, m *testMock) *cliWorkspace {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 (make test does)")
	}
	bin := buildProvider(t)
	dir := t.TempDir()
	rc := filepath.Join(dir, ".terraformrc")
	rcBody := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"eventnotify/eventnotify\" = %q\n  }\n  direct {}\n}\n", bin)
	if err := os.WriteFile(rc, []byte(rcBody), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{
		"TF_CLI_CONFIG_FILE=" + rc,
		"TF_IN_AUTOMATION=1",
		"CHECKPOINT_DISABLE=1",
		"EVENTNOTIFY_ACCOUNT_ID=" + testAccount,
		"EVENTNOTIFY_BASE_URL=" + m.URL,
		"EVENTNOTIFY_AUTH_URL=" + m.URL,
		"EVENTNOTIFY_USERNAME=" + testUser,
		"EVENTNOTIFY_PASSWORD=" + testPassword,
		"EVENTNOTIFY_MAX_REQUESTS_PER_SECOND=0",
	}
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); name == "PATH" || name == "HOME" || name == "TMPDIR" {
			env = append(env, kv)
		}
	}
	return &cliWorkspace{t: t, dir: filepath.Join(dir, "work"), tf: terraformPath(t), env: env}
}

// write adds a file to the working directory.
func (w *cliWorkspace) write(name, content string) {
	w.t.Helper()
	path := filepath.Join(w.dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// copyFile adds a file of the repository to the working directory, with a
// required_providers block when the file has none (doc examples leave it out).
func (w *cliWorkspace) copyFile(src, name string) {
	w.t.Helper()
	body, err := os.ReadFile(src)
	if err != nil {
		w.t.Fatal(err)
	}
	w.write(name, string(body))
	if !bytes.Contains(body, []byte("required_providers")) {
		w.write("versions.tf", requiredProviders)
	}
}

// requiredProviders maps the local name eventnotify to the provider's source.
const requiredProviders = `terraform {
  required_providers {
    eventnotify = {
      source = "eventnotify/eventnotify"
    }
  }
}
`

// run runs terraform with args and returns its combined output and exit code.
func (w *cliWorkspace) run(extraEnv []string, args ...string) (string, int) {
	w.t.Helper()
	cmd := exec.Command(w.tf, append([]string{"-chdir=" + w.dir}, args...)...)
	cmd.Env = append(append([]string{}, w.env...), extraEnv...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out.String(), 0
	case errors.As(err, &exit):
		return out.String(), exit.ExitCode()
	default:
		w.t.Fatalf("running terraform %v: %v", args, err)
		return "", -1
	}
}

// mustRun runs terraform and fails the test unless it exits 0.
func (w *cliWorkspace) mustRun(extraEnv []string, args ...string) string {
	w.t.Helper()
	out, code := w.run(extraEnv, args...)
	if code != 0 {
		w.t.Fatalf("terraform %s exited %d:\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

// applyPlanDestroy applies, checks that a second plan is empty, and destroys.
// between runs after the apply and before the second plan.
func (w *cliWorkspace) applyPlanDestroy(extraEnv []string, afterApply func()) {
	w.t.Helper()
	w.mustRun(extraEnv, "apply", "-auto-approve", "-input=false", "-no-color")
	if afterApply != nil {
		afterApply()
	}
	if out, code := w.run(extraEnv, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		w.t.Fatalf("second plan was not empty (exit %d):\n%s", code, out)
	}
	w.mustRun(extraEnv, "destroy", "-auto-approve", "-input=false", "-no-color")
}
