package provider

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// The CLI harness runs the real CLI (terraform, or tofu when
// TF_ACC_TERRAFORM_PATH names OpenTofu) against a built provider binary
// (through dev_overrides) in a scratch directory. plugin-testing cannot
// hold for_each resources or modules in its state checks, and the examples,
// the quick start and the guides use both, so they are tested through this.

// providerBuild is one build of the provider binary (or of another command of the
// repository), made once per test process.
type providerBuild struct {
	flags  []string // extra go build flags
	pkg    string   // the package built, relative to this one; "" is the provider's
	binary string   // the binary's name; "" is the provider's
	once   sync.Once
	dir    string
	err    error
}

var (
	plainProviderBuild = &providerBuild{}
	raceProviderBuild  = &providerBuild{flags: []string{"-race"}}
	// mockBuild is the mock server's command, for the tests of what only it does (-tls).
	mockBuild = &providerBuild{pkg: "../../cmd/eventnotify-mock", binary: "eventnotify-mock"}
)

// buildProvider builds the provider binary once per test process and returns
// the directory that holds it.
func buildProvider(t *testing.T) string { return plainProviderBuild.get(t) }

// get builds the binary on first use and returns its directory.
func (b *providerBuild) get(t *testing.T) string {
	t.Helper()
	b.once.Do(func() {
		b.dir, b.err = os.MkdirTemp("", cmp.Or(b.binary, "eventnotify-provider")+"-bin-")
		if b.err != nil {
			return
		}
		pkg, binary := cmp.Or(b.pkg, "../.."), cmp.Or(b.binary, "terraform-provider-eventnotify")
		args := append(append([]string{"build"}, b.flags...), "-o", filepath.Join(b.dir, binary), pkg)
		if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
			b.err = fmt.Errorf("building the provider (go %s): %v\n%s", strings.Join(args, " "), err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.dir
}

// acceptanceCLI is the CLI that runs the acceptance tests, Terraform or
// OpenTofu; TestMain sets it when TF_ACC is set.
var acceptanceCLI *cliInfo

// cliInfo describes a Terraform or OpenTofu binary.
type cliInfo struct {
	Path    string
	Name    string // "Terraform" or "OpenTofu"
	Version *version.Version
}

// cliVersionLine matches the first line of `terraform version` and `tofu version`.
var cliVersionLine = regexp.MustCompile(`^(Terraform|OpenTofu) v(\S+)`)

// detectCLI asks the binary at path which CLI it is and which version.
func detectCLI(path string) (*cliInfo, error) {
	cmd := exec.Command(path, "version")
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+os.DevNull, "CHECKPOINT_DISABLE=1")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("running %s version: %v", path, err)
	}
	first, _, _ := strings.Cut(string(out), "\n")
	match := cliVersionLine.FindStringSubmatch(first)
	if match == nil {
		return nil, fmt.Errorf("%s version printed %q, which names neither Terraform nor OpenTofu", path, first)
	}
	v, err := version.NewVersion(match[2])
	if err != nil {
		return nil, fmt.Errorf("%s version: %v", path, err)
	}
	return &cliInfo{Path: path, Name: match[1], Version: v}, nil
}

// String is "OpenTofu 1.12.6 (/path/to/tofu)".
func (c *cliInfo) String() string { return fmt.Sprintf("%s %s (%s)", c.Name, c.Version, c.Path) }

// OpenTofu reports whether the CLI is OpenTofu.
func (c *cliInfo) OpenTofu() bool { return c.Name == "OpenTofu" }

// registryHost is the host that the CLI puts in front of a source address
// without one ("eventnotify/eventnotify"), and so the host that
// TF_ACC_PROVIDER_HOST must name for plugin-testing's provider.
func (c *cliInfo) registryHost() string {
	if c.OpenTofu() {
		return "registry.opentofu.org"
	}
	return "registry.terraform.io"
}

// providerAddress is the provider's full address as the CLI resolves
// `source = "eventnotify/eventnotify"`; dev_overrides name it.
func (c *cliInfo) providerAddress() string { return c.registryHost() + "/eventnotify/eventnotify" }

// cliFeature is a CLI capability that arrived in different versions of
// Terraform and OpenTofu.
type cliFeature struct {
	what      string
	terraform string // first Terraform version with it; "" when Terraform lacks it
	opentofu  string // first OpenTofu version with it; "" when OpenTofu lacks it
}

// Features that arrived in different Terraform and OpenTofu versions; the
// compatibility table of the provider page (templates/index.md.tmpl) says the same.
var (
	featureForEachImport      = cliFeature{what: "import blocks with for_each", terraform: "1.7.0", opentofu: "1.7.0"}
	featureEphemeralResources = cliFeature{what: "ephemeral resources", terraform: "1.10.0", opentofu: "1.11.0"}
	// featureEphemeralVariables: `variable { ephemeral = true }`, whose value no plan file holds
	// (OpenTofu 1.11.0's changelog, "Ephemeral Values and Write Only Attributes").
	featureEphemeralVariables = cliFeature{what: "ephemeral input variables", terraform: "1.10.0", opentofu: "1.11.0"}
	featureResourceIdentity   = cliFeature{what: "resource identity", terraform: "1.12.0", opentofu: "1.12.0"}
	// featureMoveAcrossTypes: MoveResourceState, Terraform 1.8.0; OpenTofu 1.10.0's changelog,
	// "`moved` now supports moving between different types" (opentofu/opentofu#2370).
	featureMoveAcrossTypes = cliFeature{what: "moved blocks between resource types of different providers", terraform: "1.8.0", opentofu: "1.10.0"}
	featureListResources   = cliFeature{what: "list resources (terraform query)", terraform: "1.14.0"}
	// featureGeneratedMapKeys: configuration generated for a map whose keys are
	// not identifiers is valid HCL. Terraform quotes such keys since 1.9.8
	// (hashicorp/terraform#35837; 1.5.7 writes `3fa8...-...= {`, which does not
	// parse); OpenTofu 1.12 leaves them unquoted (opentofu/opentofu#3978).
	featureGeneratedMapKeys = cliFeature{what: "generated configuration with quoted map keys", terraform: "1.9.8"}
	// featureProviderForEach: `for_each` on provider blocks, an instance per key (OpenTofu 1.9.0's
	// changelog; Terraform has none).
	featureProviderForEach = cliFeature{what: "for_each on provider blocks", opentofu: "1.9.0"}
)

// skipUnlessCLISupports is a check for a TestCase's TerraformVersionChecks
// that skips the test when the CLI lacks the feature. Use it instead of
// tfversion.SkipBelow for a feature whose first version differs between
// Terraform and OpenTofu: plugin-testing sees only OpenTofu's own version
// number (1.12.6), not which CLI it is.
func skipUnlessCLISupports(f cliFeature) tfversion.TerraformVersionCheck { return cliFeatureCheck{f} }

// cliFeatureCheck implements skipUnlessCLISupports.
type cliFeatureCheck struct{ feature cliFeature }

// CheckTerraformVersion skips the test when the acceptance CLI lacks the feature.
func (c cliFeatureCheck) CheckTerraformVersion(_ context.Context, req tfversion.CheckTerraformVersionRequest, resp *tfversion.CheckTerraformVersionResponse) {
	cli := cliInfo{Name: "Terraform", Version: req.TerraformVersion}
	if acceptanceCLI != nil {
		cli.Name, cli.Path = acceptanceCLI.Name, acceptanceCLI.Path
	}
	if ok, why := cli.supports(c.feature); !ok {
		resp.Skip = why
	}
}

// supports reports whether the CLI has the feature, and if not why.
func (c *cliInfo) supports(f cliFeature) (bool, string) {
	since := f.terraform
	if c.OpenTofu() {
		since = f.opentofu
	}
	if since == "" {
		return false, fmt.Sprintf("%s has no %s", c.Name, f.what)
	}
	if c.Version.Core().LessThan(version.Must(version.NewVersion(since)).Core()) {
		return false, fmt.Sprintf("%s needs %s %s or later; this is %s", f.what, c.Name, since, c.Version)
	}
	return true, ""
}

// setUpAcceptanceCLI finds the CLI of the acceptance tests (TF_ACC_TERRAFORM_PATH,
// else terraform on PATH), asks it what it is, and sets what plugin-testing
// needs for it: TF_ACC_TERRAFORM_PATH, and for OpenTofu TF_ACC_PROVIDER_HOST
// and TF_ACC_PROVIDER_NAMESPACE, unless they are set already. A binary that is
// missing, or settings that name another CLI's registry, are errors: the
// tests fail rather than skip or download a CLI.
func setUpAcceptanceCLI() (*cliInfo, error) {
	path := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if path == "" {
		p, err := exec.LookPath("terraform")
		if err != nil {
			return nil, errors.New("TF_ACC is set but no terraform binary is on PATH and TF_ACC_TERRAFORM_PATH is unset; " +
				"run `make testacc` (Terraform) or `make testacc-opentofu` (OpenTofu), which build one when none is installed")
		}
		path = p
	}
	cli, err := detectCLI(path)
	if err != nil {
		return nil, fmt.Errorf("TF_ACC_TERRAFORM_PATH=%s: %v", path, err)
	}
	if err := os.Setenv("TF_ACC_TERRAFORM_PATH", path); err != nil {
		return nil, err
	}
	host := os.Getenv("TF_ACC_PROVIDER_HOST")
	switch {
	case host == "" && cli.OpenTofu():
		// configurations without required_providers resolve the provider to
		// registry.opentofu.org/hashicorp/eventnotify under OpenTofu
		os.Setenv("TF_ACC_PROVIDER_HOST", cli.registryHost())
		if os.Getenv("TF_ACC_PROVIDER_NAMESPACE") == "" {
			os.Setenv("TF_ACC_PROVIDER_NAMESPACE", "hashicorp")
		}
	case host != "" && strings.TrimSuffix(host, "/") != cli.registryHost():
		return nil, fmt.Errorf("TF_ACC_PROVIDER_HOST=%s, but the acceptance tests run %s, which resolves providers "+
			"under %s", host, cli, cli.registryHost())
	}
	return cli, nil
}

// cliWorkspace is a scratch Terraform working directory wired to the mock.
type cliWorkspace struct {
	t   *testing.T
	dir string
	cli *cliInfo // the CLI that runs, Terraform or OpenTofu
	tf  string   // its path
	env []string
}

// newCLIWorkspace prepares a working directory whose CLI runs use the built
// provider and reach the mock through EVENTNOTIFY_* variables. The CLI is the
// acceptance tests' one (TF_ACC_TERRAFORM_PATH): Terraform or OpenTofu.
func newCLIWorkspace(t *testing.T, m *testMock) *cliWorkspace {
	t.Helper()
	w := newBareCLIWorkspace(t, m)
	w.env = append(w.env, "TF_CLI_CONFIG_FILE="+writeDevOverrides(t, t.TempDir(), buildProvider(t)))
	return w
}

// newBareCLIWorkspace is newCLIWorkspace without a provider: no binary is built, and the CLI
// configuration file is empty (the CLI runs of cli_inprocess_test.go serve the provider from
// this process instead).
func newBareCLIWorkspace(t *testing.T, m *testMock) *cliWorkspace {
	t.Helper()
	return newServiceCLIWorkspace(t, m.serviceEnv())
}

// serviceEnv is the EVENTNOTIFY_* lines that name the mock (mockEnvVars).
func (m *testMock) serviceEnv() []string {
	vars := mockEnvVars(m.URL)
	lines := make([]string, 0, len(vars))
	for _, name := range slices.Sorted(maps.Keys(vars)) {
		lines = append(lines, name+"="+vars[name])
	}
	return lines
}

// mockEnvVars is the environment that names the mock at url: its account, its address for the
// service and the JWTs, the password user, and no client-side rate limit.
func mockEnvVars(url string) map[string]string {
	return map[string]string{envAccountID: testAccount, envBaseURL: url, envAuthURL: url,
		envUsername: testUser, envPassword: testPassword, envMaxRequestsPerSecond: "0"}
}

// newServiceCLIWorkspace is newBareCLIWorkspace for the service that the EVENTNOTIFY_* lines of
// service name.
func newServiceCLIWorkspace(t *testing.T, service []string) *cliWorkspace {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 (make test does)")
	}
	dir := t.TempDir()
	env := append([]string{
		"TF_CLI_CONFIG_FILE=" + os.DevNull,
		"TF_IN_AUTOMATION=1",
		"CHECKPOINT_DISABLE=1",
	}, service...)
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); name == "PATH" || name == "HOME" || name == "TMPDIR" {
			env = append(env, kv)
		}
	}
	return &cliWorkspace{t: t, dir: filepath.Join(dir, "work"), cli: acceptanceCLI, tf: acceptanceCLI.Path, env: env}
}

// writeDevOverrides writes a CLI configuration file into dir that makes the
// acceptance CLI use the provider binary in bin for the provider's address
// (registry.terraform.io/eventnotify/eventnotify under Terraform,
// registry.opentofu.org/eventnotify/eventnotify under OpenTofu), and returns
// its path for TF_CLI_CONFIG_FILE.
func writeDevOverrides(t *testing.T, dir, bin string) string {
	t.Helper()
	return writeDevOverridesFor(t, acceptanceCLI, dir, bin)
}

// writeDevOverridesFor is writeDevOverrides for the given CLI.
func writeDevOverridesFor(t *testing.T, cli *cliInfo, dir, bin string) string {
	t.Helper()
	rc := filepath.Join(dir, "cli.tfrc")
	body := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    %q = %q\n  }\n  direct {}\n}\n",
		cli.providerAddress(), bin)
	if err := os.WriteFile(rc, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return rc
}

// require skips the test, saying why, when the CLI lacks a feature that
// arrived in a later Terraform or OpenTofu version than the one running.
func (w *cliWorkspace) require(f cliFeature) {
	w.t.Helper()
	if ok, why := w.cli.supports(f); !ok {
		w.t.Skip(why)
	}
}

// newerCLIsEnv names more Terraform or OpenTofu binaries, separated like PATH,
// for the tests of features that the acceptance CLI lacks: such a test runs
// with the first of them that has the feature (requireNewer). It lets the
// tests of Terraform 1.14 and 1.16 features run along with acceptance tests
// on an older CLI, for instance:
//
//	EVENTNOTIFY_TEST_NEWER_CLIS=/path/to/terraform-1.16/terraform TF_ACC=1 go test ./internal/provider/
const newerCLIsEnv = "EVENTNOTIFY_TEST_NEWER_CLIS"

// newerCLIs is the value of EVENTNOTIFY_TEST_NEWER_CLIS, which TestMain reads before it
// clears the EVENTNOTIFY_* variables.
var newerCLIs string

// requireNewer is require for a feature that a newer CLI than the acceptance
// one may bring: when the workspace's CLI lacks it, the workspace switches to
// the first CLI of EVENTNOTIFY_TEST_NEWER_CLIS that has it, and without one
// the test skips, saying why. Call it before the first run.
func (w *cliWorkspace) requireNewer(f cliFeature) {
	w.t.Helper()
	ok, why := w.cli.supports(f)
	if ok {
		return
	}
	for _, path := range filepath.SplitList(newerCLIs) {
		if path == "" {
			continue
		}
		cli, err := detectCLI(path)
		if err != nil {
			w.t.Fatalf("%s: %v", newerCLIsEnv, err)
		}
		if ok, _ := cli.supports(f); ok {
			rc := writeDevOverridesFor(w.t, cli, w.t.TempDir(), buildProvider(w.t))
			w.cli, w.tf = cli, cli.Path
			w.env = append(w.env, "TF_CLI_CONFIG_FILE="+rc) // the last value of a repeated variable wins
			w.t.Logf("%s: running with %s", f.what, cli)
			return
		}
	}
	w.t.Skipf("%s (%s may name a CLI that has it)", why, newerCLIsEnv)
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

// read returns a file of the working directory.
func (w *cliWorkspace) read(name string) string {
	w.t.Helper()
	body, err := os.ReadFile(filepath.Join(w.dir, name))
	if err != nil {
		w.t.Fatal(err)
	}
	return string(body)
}

// remove deletes a file of the working directory.
func (w *cliWorkspace) remove(name string) {
	w.t.Helper()
	if err := os.Remove(filepath.Join(w.dir, name)); err != nil {
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

// TestCLIFeatures pins which Terraform and OpenTofu versions have which
// feature (the compatibility table of the provider page), and
// that the version check a TestCase uses applies it.
func TestCLIFeatures(t *testing.T) {
	terraform := func(v string) *cliInfo {
		return &cliInfo{Name: "Terraform", Version: version.Must(version.NewVersion(v))}
	}
	opentofu := func(v string) *cliInfo {
		return &cliInfo{Name: "OpenTofu", Version: version.Must(version.NewVersion(v))}
	}
	cases := []struct {
		cli     *cliInfo
		feature cliFeature
		want    bool
	}{
		{terraform("1.5.7"), featureForEachImport, false},
		{terraform("1.7.0"), featureForEachImport, true},
		{opentofu("1.12.6"), featureForEachImport, true},
		{terraform("1.11.4"), featureEphemeralResources, true},
		{terraform("1.9.8"), featureEphemeralResources, false},
		{opentofu("1.10.7"), featureEphemeralResources, false}, // Terraform 1.10 has them, OpenTofu 1.10 does not
		{opentofu("1.11.0"), featureEphemeralResources, true},
		{terraform("1.5.7"), featureEphemeralVariables, false},
		{terraform("1.10.0"), featureEphemeralVariables, true},
		{opentofu("1.10.7"), featureEphemeralVariables, false},
		{opentofu("1.12.6"), featureEphemeralVariables, true},
		{terraform("1.11.4"), featureResourceIdentity, false},
		{terraform("1.12.0-beta1"), featureResourceIdentity, true}, // prereleases count as their release
		{opentofu("1.12.6"), featureResourceIdentity, true},
		{terraform("1.14.0"), featureListResources, true},
		{terraform("1.13.3"), featureListResources, false},
		{opentofu("1.12.6"), featureListResources, false},
		{opentofu("1.99.0"), featureListResources, false}, // not in OpenTofu at all
		{terraform("1.5.7"), featureGeneratedMapKeys, false},
		{terraform("1.9.8"), featureGeneratedMapKeys, true},
		{opentofu("1.12.6"), featureGeneratedMapKeys, false},
	}
	for _, tc := range cases {
		if got, why := tc.cli.supports(tc.feature); got != tc.want || (!got && why == "") {
			t.Errorf("%s %s supports %s = %v (%q), want %v", tc.cli.Name, tc.cli.Version, tc.feature.what, got, why, tc.want)
		}
	}

	saved := acceptanceCLI
	t.Cleanup(func() { acceptanceCLI = saved })
	acceptanceCLI = opentofu("1.10.7")
	var resp tfversion.CheckTerraformVersionResponse
	skipUnlessCLISupports(featureEphemeralResources).CheckTerraformVersion(context.Background(),
		tfversion.CheckTerraformVersionRequest{TerraformVersion: acceptanceCLI.Version}, &resp)
	if resp.Error != nil || !strings.Contains(resp.Skip, "OpenTofu 1.11.0 or later") {
		t.Errorf("OpenTofu 1.10 and ephemeral resources: skip %q, error %v; want a skip that names OpenTofu 1.11.0", resp.Skip, resp.Error)
	}
}
