package provider

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The guides are followed literally: the files they show are copied as they are (the
// provider's required_providers block included, none added by the test), and `terraform init`
// installs the provider as a user's would, from a filesystem mirror that offers the built
// binary under the version that the compatibility policy's constraint accepts. A file that
// drops the provider's source address makes init look for hashicorp/eventnotify and fail; a
// constraint that the policy's version does not meet fails init too.

// newGuideWorkspace is a CLI workspace whose provider comes from a filesystem mirror through
// `terraform init`, holding the adoption guide's providers.tf, after the guide's
// `terraform init`.
func newGuideWorkspace(t *testing.T, m *testMock) *cliWorkspace {
	t.Helper()
	w := newCLIWorkspace(t, m)
	w.useMirror()
	w.copyExact("../../examples/guides/providers/providers.tf", "providers.tf")
	w.mustRun(nil, "init", "-input=false", "-no-color")
	return w
}

// mirroredProvider is a provider binary that a filesystem mirror offers besides this one.
type mirroredProvider struct {
	address, version, binary string // HOST/NAMESPACE/TYPE, its version, the binary's path
}

// useMirror makes `terraform init` install the provider from a filesystem mirror that offers
// the built binary under guideProviderVersion, and the other providers given.
func (w *cliWorkspace) useMirror(others ...mirroredProvider) {
	t := w.t
	t.Helper()
	mirror := filepath.Join(t.TempDir(), "mirror")
	bin := filepath.Join(buildProvider(t), "terraform-provider-eventnotify")
	all := append([]mirroredProvider{{w.cli.providerAddress(), guideProviderVersion, bin}}, others...)
	var include []string
	for _, p := range all {
		pkg := filepath.Join(mirror, filepath.FromSlash(p.address), p.version, runtime.GOOS+"_"+runtime.GOARCH)
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(p.binary, filepath.Join(pkg, "terraform-provider-"+path.Base(p.address)+"_v"+p.version)); err != nil {
			t.Fatal(err)
		}
		include = append(include, fmt.Sprintf("%q", p.address))
	}
	rc := filepath.Join(t.TempDir(), "mirror.tfrc")
	body := fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path    = %q\n    include = [%s]\n  }\n}\n",
		mirror, strings.Join(include, ", "))
	if err := os.WriteFile(rc, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	w.env = append(w.env, "TF_CLI_CONFIG_FILE="+rc) // the last value of a repeated variable wins
}

// copyExact adds a file of the repository to the working directory as it is.
func (w *cliWorkspace) copyExact(src, name string) {
	w.t.Helper()
	body, err := os.ReadFile(src)
	if err != nil {
		w.t.Fatal(err)
	}
	w.write(name, string(body))
}

// expectOnlyOutputRemoved runs the plan that follows the removal of a step's output, as
// the guide describes it: no resource changes, the output's removal, exit code 2 under
// -detailed-exitcode; then the apply that the guide asks for sends no write to the service,
// and the plan after it exits 0.
func expectOnlyOutputRemoved(t *testing.T, w *cliWorkspace, m *testMock, output string) {
	t.Helper()
	out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	if code != 2 || !strings.Contains(out, "Changes to Outputs") || !strings.Contains(out, output) || strings.Contains(out, "Plan: ") {
		t.Fatalf("the guide says this plan only removes the %s output (exit 2), got exit %d:\n%s", output, code, out)
	}
	m.ResetCounters()
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	if n := writes(m); n != 0 {
		t.Errorf("the apply that removes the %s output sent %d writes to the service, want none", output, n)
	}
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("the guide says the plan after that apply shows no changes, but it exits %d:\n%s", code, out)
	}
}
