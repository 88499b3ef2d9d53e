package provider

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// Ephemeral resources and resource identity arrived in different Terraform and
// OpenTofu versions, but plugin-testing's version checks see only a version
// number (OpenTofu 1.10 reports 1.10.x and has no ephemeral resources), so
// these gates also ask the binary which CLI it is.

// cliVersionGate skips a test when the acceptance CLI lacks a feature.
type cliVersionGate struct {
	what      string
	terraform string // first Terraform version with the feature, as "1.10.0"
	opentofu  string // first OpenTofu version with the feature
}

var (
	// gateEphemeralResources: Terraform 1.10, OpenTofu 1.11.
	gateEphemeralResources = cliVersionGate{what: "ephemeral resources", terraform: "1.10.0", opentofu: "1.11.0"}
	// gateResourceIdentity: Terraform 1.12, OpenTofu 1.12.
	gateResourceIdentity = cliVersionGate{what: "resource identity", terraform: "1.12.0", opentofu: "1.12.0"}
)

// CheckTerraformVersion skips the test, with the reason, below the feature's version.
func (g cliVersionGate) CheckTerraformVersion(_ context.Context, req tfversion.CheckTerraformVersionRequest, resp *tfversion.CheckTerraformVersionResponse) {
	cli, err := acceptanceCLIVersion()
	if err != nil {
		resp.Error = err
		return
	}
	if skip := g.skipReason(cli.openTofu, req.TerraformVersion.Core().String()); skip != "" {
		resp.Skip = skip
	}
}

// require skips a test that runs the CLI itself (a cliWorkspace), with the
// reason, when the acceptance CLI lacks the feature.
func (g cliVersionGate) require(t *testing.T) {
	t.Helper()
	cli, err := acceptanceCLIVersion()
	if err != nil {
		t.Fatal(err)
	}
	if skip := g.skipReason(cli.openTofu, cli.version); skip != "" {
		t.Skip(skip)
	}
}

// skipReason is why a CLI at version (major.minor.patch) lacks the feature, or "".
func (g cliVersionGate) skipReason(openTofu bool, version string) string {
	name, since := "Terraform", g.terraform
	if openTofu {
		name, since = "OpenTofu", g.opentofu
	}
	if compareVersions(version, since) < 0 {
		return fmt.Sprintf("%s needs %s %s or later; the acceptance tests run %s %s", g.what, name, since, name, version)
	}
	return ""
}

// compareVersions compares two major.minor.patch versions.
func compareVersions(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < 3; i++ {
		var x, y int
		if i < len(as) {
			fmt.Sscan(as[i], &x)
		}
		if i < len(bs) {
			fmt.Sscan(bs[i], &y)
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// gateCLI is what the acceptance tests' CLI says it is.
type gateCLI struct {
	openTofu bool
	version  string // major.minor.patch
}

var gateCLIOnce = sync.OnceValues(detectGateCLI)

// acceptanceCLIVersion runs the acceptance tests' CLI (TF_ACC_TERRAFORM_PATH,
// else terraform on PATH) once and tells which CLI it is and which version.
func acceptanceCLIVersion() (gateCLI, error) { return gateCLIOnce() }

func detectGateCLI() (gateCLI, error) {
	path := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if path == "" {
		var err error
		if path, err = exec.LookPath("terraform"); err != nil {
			return gateCLI{}, err
		}
	}
	cmd := exec.Command(path, "version")
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+os.DevNull, "CHECKPOINT_DISABLE=1")
	out, err := cmd.Output()
	if err != nil {
		return gateCLI{}, fmt.Errorf("running %s version: %v", path, err)
	}
	cli, ok := parseVersionOutput(string(out))
	if !ok {
		return gateCLI{}, fmt.Errorf("%s version printed %q, which names neither Terraform nor OpenTofu", path, out)
	}
	return cli, nil
}

// versionLine matches the first line of `terraform version` and `tofu version`
// (`version -json` names no CLI, only its version).
var versionLine = regexp.MustCompile(`^(Terraform|OpenTofu) v(\d+\.\d+\.\d+)`)

// parseVersionOutput reads `version` output.
func parseVersionOutput(out string) (gateCLI, bool) {
	m := versionLine.FindStringSubmatch(strings.TrimSpace(out))
	if m == nil {
		return gateCLI{}, false
	}
	return gateCLI{openTofu: m[1] == "OpenTofu", version: m[2]}, true
}

// TestCLIVersionGates pins the versions that have ephemeral resources and
// resource identity, for Terraform and OpenTofu.
func TestCLIVersionGates(t *testing.T) {
	cases := []struct {
		gate     cliVersionGate
		openTofu bool
		version  string
		want     bool
	}{
		{gateEphemeralResources, false, "1.9.8", false},
		{gateEphemeralResources, false, "1.10.0", true},
		{gateEphemeralResources, false, "1.11.4", true},
		{gateEphemeralResources, true, "1.10.7", false}, // Terraform 1.10 has them, OpenTofu 1.10 does not
		{gateEphemeralResources, true, "1.11.0", true},
		{gateEphemeralResources, true, "1.12.6", true},
		{gateResourceIdentity, false, "1.11.4", false},
		{gateResourceIdentity, false, "1.12.0", true},
		{gateResourceIdentity, true, "1.11.5", false},
		{gateResourceIdentity, true, "1.12.6", true},
		{gateResourceIdentity, false, "2.0.0", true},
	}
	for _, tc := range cases {
		skip := tc.gate.skipReason(tc.openTofu, tc.version)
		if got := skip == ""; got != tc.want {
			t.Errorf("%s, OpenTofu %v, version %s: supported %v (%q), want %v", tc.gate.what, tc.openTofu, tc.version, got, skip, tc.want)
		}
	}
	for out, want := range map[string]gateCLI{
		"OpenTofu v1.12.6\non linux_amd64\n":       {openTofu: true, version: "1.12.6"},
		"Terraform v1.11.4\non linux_amd64\n":      {version: "1.11.4"},
		"Terraform v1.15.9-dev\non linux_amd64\n":  {version: "1.15.9"},
		"OpenTofu v1.11.0-beta1\non linux_amd64\n": {openTofu: true, version: "1.11.0"},
	} {
		if got, ok := parseVersionOutput(out); !ok || got != want {
			t.Errorf("parseVersionOutput(%q) = %+v, %v; want %+v", out, got, ok, want)
		}
	}
	if _, ok := parseVersionOutput("tf 1.0"); ok {
		t.Error("parseVersionOutput accepted output that names neither CLI")
	}
}
