package provider

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// A saved plan is a file that CI keeps as an artifact (the CI guide uploads tfplan), readable
// by whoever can read the run's artifacts. The provider block's arguments are not in it, but
// the root module's input variables are: a password passed as a `sensitive = true` variable is
// written into tfplan in clear; one passed as an `ephemeral = true` variable (Terraform 1.10,
// OpenTofu 1.11) is not, and must be given again to `apply tfplan`; one exported in
// EVENTNOTIFY_PASSWORD never reaches the plan on any CLI.

// The mock's user of these tests, with a password distinct enough that finding its bytes in a
// file means the file holds the password. The environment's test user is not this one, so a
// run whose password is not the one given fails to authenticate.
const (
	planCredentialsUser     = "ci-bot"
	planCredentialsPassword = "Saved-plan-p4ssw0rd-7c1e"
)

// planMembersHolding returns the members of the zip file at path (a saved plan) whose
// uncompressed bytes hold secret, and the names of all its members.
func planMembersHolding(t *testing.T, path, secret string) (holding, members []string) {
	t.Helper()
	r, err := zip.OpenReader(path)
	if err != nil {
		t.Fatalf("reading the saved plan as a zip: %v", err)
	}
	defer r.Close()
	for _, f := range r.File {
		members = append(members, f.Name)
		rc, err := f.Open()
		if err != nil {
			t.Fatalf("opening %s in the saved plan: %v", f.Name, err)
		}
		body, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("reading %s in the saved plan: %v", f.Name, err)
		}
		if bytes.Contains(body, []byte(secret)) {
			holding = append(holding, f.Name)
		}
	}
	if len(members) == 0 {
		t.Fatal("the saved plan has no member")
	}
	return holding, members
}

// TestAccSavedPlan_ephemeralPassword (issue 38, item 4): the provider block's password comes
// from a root variable (the provider page's example, examples/provider/credentials-from-variables.tf)
// or from the environment; `plan -out=tfplan`, then `apply tfplan` and destroy. Every member of
// tfplan (a zip) is read for the password's bytes:
//   - ephemeral = true (with sensitive = true): tfplan does not hold it; `apply tfplan`
//     without the variable fails naming it (the CLI asks for it again) and with it succeeds,
//     and destroy takes it too. The case skips, saying why, on a CLI without ephemeral
//     variables (Terraform before 1.10, OpenTofu before 1.11).
//   - sensitive = true only: tfplan holds the password in clear, which is why the docs advise
//     ephemeral variables; `apply tfplan` needs no variable, since the plan carries it.
//   - EVENTNOTIFY_PASSWORD, as the docs advise for older CLIs: tfplan does not hold it, on
//     every CLI.
//
// In every case the state never holds the password, and the subscription is created by the
// apply and deleted by destroy.
func TestAccSavedPlan_ephemeralPassword(t *testing.T) {
	// The provider page's example, as it is; the sensitive case is the same without
	// `ephemeral = true`.
	example := readPage(t, "../../examples/provider/credentials-from-variables.tf")
	sensitiveOnly := strings.Replace(example, "  ephemeral = true\n", "", 1)
	if sensitiveOnly == example || !strings.Contains(example, fmt.Sprintf("username = %q", planCredentialsUser)) {
		t.Fatalf("the example no longer declares an ephemeral variable for user %s:\n%s", planCredentialsUser, example)
	}
	tests := []struct {
		name      string
		config    string
		ephemeral bool // the variable is ephemeral: the CLI needs the feature, and apply the value
		fromEnv   bool // the password is exported in EVENTNOTIFY_PASSWORD, not a variable
		inPlan    bool // tfplan holds the password
	}{
		{name: "ephemeral variable", config: example, ephemeral: true},
		{name: "sensitive variable", config: sensitiveOnly, inPlan: true},
		{name: "environment", config: `provider "eventnotify" {}` + "\n", fromEnv: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			w := newCLIWorkspace(t, m)
			if tc.ephemeral {
				w.require(featureEphemeralVariables)
			}
			m.AddUser(mockserver.User{Username: planCredentialsUser, Password: planCredentialsPassword})
			var vars []string
			if tc.fromEnv {
				// The last value of a repeated variable wins.
				w.env = append(w.env, envUsername+"="+planCredentialsUser, envPassword+"="+planCredentialsPassword)
			} else {
				// Nothing of the environment's credentials: the block's variable is the only source.
				w.env = append(w.env, envUsername+"=", envPassword+"=")
				vars = []string{"-var", "eventnotify_password=" + planCredentialsPassword}
			}
			w.write("versions.tf", requiredProviders)
			w.write("main.tf", tc.config+singleConfig("test", "ERROR", "orders"))

			w.mustRun(nil, append([]string{"plan", "-out=tfplan", "-input=false", "-no-color"}, vars...)...)
			holding, members := planMembersHolding(t, filepath.Join(w.dir, "tfplan"), planCredentialsPassword)
			if got := len(holding) > 0; got != tc.inPlan {
				t.Fatalf("tfplan holds the password: %t (in %v of %v), want %t", got, holding, members, tc.inPlan)
			}
			t.Logf("tfplan members %v; holding the password: %v", members, holding)
			if len(m.Subscriptions(testAccount)) != 0 {
				t.Fatal("the plan created a subscription")
			}

			applyArgs := []string{"apply", "-input=false", "-no-color"}
			if tc.ephemeral {
				// The plan kept no value of the variable: apply asks for it again, naming it.
				out, code := w.run(nil, append(applyArgs, "tfplan")...)
				if code == 0 {
					t.Fatalf("apply tfplan without the ephemeral variable succeeded:\n%s", out)
				}
				expectOutput(t, "apply tfplan without -var", out, true, "No value for required variable", `"eventnotify_password"`)
				if len(m.Subscriptions(testAccount)) != 0 {
					t.Fatal("the apply without the variable created a subscription")
				}
				applyArgs = append(applyArgs, vars...)
			}
			w.mustRun(nil, append(applyArgs, "tfplan")...)
			if got := len(m.Subscriptions(testAccount)); got != 1 {
				t.Fatalf("after apply tfplan the mock holds %d subscriptions, want 1", got)
			}
			if state := w.read("terraform.tfstate"); strings.Contains(state, planCredentialsPassword) {
				t.Fatalf("the state holds the password:\n%s", state)
			}
			w.mustRun(nil, append([]string{"destroy", "-auto-approve", "-input=false", "-no-color"}, vars...)...)
			if got := len(m.Subscriptions(testAccount)); got != 0 {
				t.Fatalf("after destroy the mock holds %d subscriptions, want none", got)
			}
		})
	}
}
