package provider

import (
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// featureActionTriggers116 is what Terraform 1.16 added to action_trigger: the before_destroy and
// after_destroy events and on_failure (hashicorp/terraform#38668, #38722). It also runs a
// resource's after_* actions when its provisioner fails, which 1.14 and 1.15 skip.
var featureActionTriggers116 = cliFeature{what: "action_trigger's before_destroy and after_destroy events and on_failure", terraform: "1.16.0"}

// deploymentFailureExample is the actions pages' example for Terraform 1.16.
const deploymentFailureExample = "../../examples/actions/eventnotify_disable_subscriptions/deployment-failure.tf"

// TestCLIFeatureActionTriggers116 pins the versions that take the example.
func TestCLIFeatureActionTriggers116(t *testing.T) {
	for _, tc := range []struct {
		name, version string
		want          bool
	}{
		{"Terraform", "1.16.0-rc2", true},
		{"Terraform", "1.15.9", false},
		{"OpenTofu", "1.12.6", false},
	} {
		cli := &cliInfo{Name: tc.name, Version: version.Must(version.NewVersion(tc.version))}
		if got, why := cli.supports(featureActionTriggers116); got != tc.want || (!got && why == "") {
			t.Errorf("%s %s supports the 1.16 action triggers = %v (%q), want %v", tc.name, tc.version, got, why, tc.want)
		}
	}
}

// TestAccSubscriptionsAction_deploymentFails runs the actions pages' Terraform 1.16 example with
// the CLI (Terraform 1.16 and later; with an older acceptance CLI it runs with one that
// EVENTNOTIFY_TEST_NEWER_CLIS names, and skips without one): the status subscriptions are
// paused, then resumed, around the deployment's rollout, also when its script fails (the apply
// fails, and the subscriptions end enabled), around a new release's teardown and rollout, and
// around terraform destroy; every other subscription is left alone.
func TestAccSubscriptionsAction_deploymentFails(t *testing.T) {
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	w.requireNewer(featureActionTriggers116)
	seedListSubscriptions(m) // status subscriptions: 1 (disabled) and 2 (enabled)
	w.copyFile(deploymentFailureExample, "main.tf")
	patches := func() int { return m.Count(http.MethodPatch, mockserver.RouteSubscriptions) }
	pausedThenResumed := func(step, out string) {
		t.Helper()
		paused := strings.Index(out, "Disabled ")
		resumed := strings.LastIndex(out, "Enabled 2 subscriptions of account "+testAccount)
		if paused < 0 || resumed < paused {
			t.Errorf("%s does not pause, then resume, the status subscriptions:\n%s", step, out)
		}
	}

	before := snapshot(m)
	out := w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	pausedThenResumed("the first rollout", out)
	wantOnlyToggled(t, m, before, true, sid("1"), sid("2")) // 1, paused before, is on now
	if got := patches(); got != 2 {
		t.Errorf("the first rollout sent %d bulk updates, want 2 (pause, resume)", got)
	}

	// The script fails: the apply fails, and the status subscriptions end enabled all the same.
	const script = "echo Deploying release ${self.triggers_replace}"
	failing := strings.Replace(w.read("main.tf"), script, script+"; exit 3", 1)
	if failing == w.read("main.tf") {
		t.Fatalf("%s has no %q to make fail", deploymentFailureExample, script)
	}
	w.write("main.tf", failing)
	before = snapshot(m)
	out, code := w.run(nil, "apply", "-auto-approve", "-input=false", "-no-color", "-var", "release=2024.07.1")
	if code == 0 || !strings.Contains(out, "local-exec provisioner error") {
		t.Fatalf("the failing rollout: exit %d, want the script's failure:\n%s", code, out)
	}
	pausedThenResumed("the failing rollout", out)
	wantOnlyToggled(t, m, before, true, sid("1"), sid("2"))
	for _, id := range []string{sid("1"), sid("2")} {
		if s, _ := m.Subscription(testAccount, id); !s.Enabled {
			t.Errorf("status subscription %s is paused after the failed rollout", id)
		}
	}

	// Fixed: the tainted deployment is torn down and rolled out again, each between a pause and a resume.
	w.write("main.tf", strings.Replace(failing, script+"; exit 3", script, 1))
	out = w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color", "-var", "release=2024.07.1")
	if !strings.Contains(out, "Actions: 4 invoked") {
		t.Errorf("the rollout after the failure does not run the 4 actions of a teardown and a rollout:\n%s", out)
	}
	pausedThenResumed("the rollout after the failure", out)

	before = snapshot(m)
	out = w.mustRun(nil, "destroy", "-auto-approve", "-input=false", "-no-color", "-var", "release=2024.07.1")
	pausedThenResumed("terraform destroy", out)
	wantOnlyToggled(t, m, before, true, sid("1"), sid("2"))
}
