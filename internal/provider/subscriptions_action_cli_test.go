package provider

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// featureActions: actions (`terraform apply -invoke`, `action_trigger`); OpenTofu has none.
var featureActions = cliFeature{what: "actions", terraform: "1.14.0"}

// TestCLIFeatureActions pins the versions that run actions.
func TestCLIFeatureActions(t *testing.T) {
	for _, tc := range []struct {
		name, version string
		want          bool
	}{
		{"Terraform", "1.14.0", true},
		{"Terraform", "1.15.9-dev", true},
		{"Terraform", "1.13.3", false},
		{"OpenTofu", "1.12.6", false},
		{"OpenTofu", "1.99.0", false},
	} {
		cli := &cliInfo{Name: tc.name, Version: version.Must(version.NewVersion(tc.version))}
		if got, why := cli.supports(featureActions); got != tc.want || (!got && why == "") {
			t.Errorf("%s %s supports actions = %v (%q), want %v", tc.name, tc.version, got, why, tc.want)
		}
	}
}

// TestAccSubscriptionsAction_cli runs the actions' examples with the CLI (Terraform 1.14 and
// later; skipped, saying why, below it and under OpenTofu, which has no actions): the action
// invoked with -invoke disables the matching subscriptions only; the example's audit_status
// action, as copied, runs against the provider's account (no 403) and changes nothing; the deployment example pauses
// and resumes the status subscriptions around an update; and a managed subscription that an
// action paused plans back to enabled, unless its enabled is in ignore_changes.
func TestAccSubscriptionsAction_cli(t *testing.T) {
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	w.require(featureActions)
	seedListSubscriptions(m)

	// -invoke: the ERROR subscriptions of the provider's account (3 and 4) are paused.
	w.copyFile("../../examples/actions/eventnotify_disable_subscriptions/action.tf", "main.tf")
	before := snapshot(m)
	out := w.mustRun(nil, "apply", "-invoke=action.eventnotify_disable_subscriptions.errors", "-auto-approve", "-input=false", "-no-color")
	for _, want := range []string{"2 of the 5 subscriptions of account " + testAccount + " match; 2 to disable, 0 already disabled.",
		"Disabled 2 subscriptions of account " + testAccount + "."} {
		if !strings.Contains(out, want) {
			t.Errorf("terraform apply -invoke does not show %q:\n%s", want, out)
		}
	}
	wantOnlyToggled(t, m, before, false, sid("3"), sid("4"))
	if got := m.Count(http.MethodPatch, mockserver.RouteSubscriptions); got != 1 {
		t.Errorf("%d bulk requests, want 1", got)
	}

	// The example's second action, as copied: its account is the provider's (the variable's
	// default), which has no subscription of that id, so it warns and changes nothing.
	before = snapshot(m)
	out = w.mustRun(nil, "apply", "-invoke=action.eventnotify_disable_subscriptions.audit_status", "-auto-approve", "-input=false", "-no-color")
	for _, want := range []string{"No subscription of account " + testAccount + " matches the filters (5 listed): nothing to disable.",
		"Subscription 3fa85f64-5717-4562-b3fc-2c963f66afa6 not found", "3fa85f64-5717-4562-b3fc-2c963f66afa6"} {
		if !strings.Contains(out, want) {
			t.Errorf("terraform apply -invoke=action.eventnotify_disable_subscriptions.audit_status does not show %q:\n%s", want, out)
		}
	}
	wantOnlyToggled(t, m, before, false)
	if got := m.Count(http.MethodPatch, mockserver.RouteSubscriptions); got != 1 {
		t.Errorf("%d bulk requests after audit_status, want still 1", got)
	}
	w.remove("main.tf")

	// action_trigger: the deployment's first apply runs no action; its update pauses the
	// status subscriptions (1 is paused already, 2 is not) and resumes them afterwards.
	w.copyFile("../../examples/actions/eventnotify_disable_subscriptions/deployment.tf", "main.tf")
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	if got := m.Count(http.MethodPatch, mockserver.RouteSubscriptions); got != 1 {
		t.Errorf("creating the deployment sent %d more bulk requests, want none", got-1)
	}
	before = snapshot(m)
	out = w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color", "-var", "release=2024.07.1")
	disabled := strings.Index(out, "Disabled 1 subscription of account "+testAccount)
	enabled := strings.Index(out, "Enabled 2 subscriptions of account "+testAccount)
	if disabled < 0 || enabled < disabled {
		t.Errorf("the deployment's update does not pause, then resume, the status subscriptions:\n%s", out)
	}
	// Both end enabled: 2 went back to what it was, 1 (paused before) is enabled now.
	wantOnlyToggled(t, m, before, true, sid("1"), sid("2"))
	if got := m.Count(http.MethodPatch, mockserver.RouteSubscriptions); got != 3 {
		t.Errorf("%d bulk requests in all, want 3", got)
	}
	w.mustRun(nil, "destroy", "-auto-approve", "-input=false", "-no-color")
	w.remove("main.tf")

	// A managed subscription with enabled = true that an action paused plans back to true.
	w.write("main.tf", `resource "eventnotify_subscription" "deploy" {
  event_name                   = "ATOM.DEPLOYMENT"
  destination_type             = "EVENT_STREAMS"
  log_level                    = "INFO"
  event_streams_environment_id = "env-1"
  event_streams_topic          = "deployments"
  enabled                      = true
}

action "eventnotify_disable_subscriptions" "deployments" {
  config {
    event_name = "atom.deployment"
  }
}
`)
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	w.mustRun(nil, "apply", "-invoke=action.eventnotify_disable_subscriptions.deployments", "-auto-approve", "-input=false", "-no-color")
	out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	if code != 2 || !strings.Contains(out, "~ enabled") {
		t.Errorf("plan after pausing a managed subscription: exit %d, want 2 with a change of enabled:\n%s", code, out)
	}

	// The pages' advice: ignore_changes = [enabled] leaves the flag to the actions.
	w.write("main.tf", strings.Replace(w.read("main.tf"), "  enabled                      = true\n",
		"  enabled                      = true\n\n  lifecycle {\n    ignore_changes = [enabled]\n  }\n", 1))
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Errorf("plan with ignore_changes = [enabled] after pausing: exit %d, want 0:\n%s", code, out)
	}
}

// TestAccSubscriptionsAction_cliWithoutConfig invokes an action block that has no config block
// with the CLI (Terraform 1.14 and later): it disables every subscription of the provider's
// account, as an empty `config {}` does, where it used to fail with a Value Conversion Error
// after the plan said "1 to invoke".
func TestAccSubscriptionsAction_cliWithoutConfig(t *testing.T) {
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	w.require(featureActions)
	seedListSubscriptions(m)
	w.write("versions.tf", requiredProviders)
	w.write("main.tf", `action "eventnotify_disable_subscriptions" "all" {}`+"\n")
	before := snapshot(m)
	out := w.mustRun(nil, "apply", "-invoke=action.eventnotify_disable_subscriptions.all", "-auto-approve", "-input=false", "-no-color")
	expectOutput(t, "terraform apply -invoke", out, true, "Actions: 1 invoked.",
		"5 of the 5 subscriptions of account "+testAccount+" match; 4 to disable, 1 already disabled.")
	wantOnlyToggled(t, m, before, false, sid("5"), sid("2"), sid("4"), sid("3"))
}

// TestAccSubscriptionsAction_cliLostAnswers disables 100 subscriptions with the CLI while every
// bulk update's answer is lost after the service applied it (Terraform 1.14 and later; with an
// older acceptance CLI it runs with one that EVENTNOTIFY_TEST_NEWER_CLIS names, and skips without
// one; TestSubscriptionsAction_lostAnswers covers it at the protocol level): the account is read
// back with one listing, and the output says once, with counts, that all 100 are disabled, with
// no diagnostic, where it used to print 100 errors of "outcome unknown" (1,222 lines). Then the
// read-back's listing fails too: one error, with the count, not one per subscription.
func TestAccSubscriptionsAction_cliLostAnswers(t *testing.T) {
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	w.requireNewer(featureActions)
	var ids []string
	for i := range 100 {
		s := m.PutSubscription(testAccount, mockserver.Subscription{EventName: fmt.Sprintf("EVENT.%03d", i),
			DestinationType: "EVENT_STREAMS", LogLevel: "INFO", EventStreamsTopic: "t", Enabled: true})
		ids = append(ids, s.SubscriptionID)
	}
	w.write("versions.tf", requiredProviders)
	w.write("main.tf", `action "eventnotify_disable_subscriptions" "all" {}`+"\n"+`action "eventnotify_enable_subscriptions" "all" {}`+"\n")
	noRetries := []string{"EVENTNOTIFY_MAX_RETRIES=0"}
	m.InjectFault(mockserver.Fault{Method: http.MethodPatch, Route: mockserver.RouteSubscriptions, Drop: true, AfterWork: true})

	before := snapshot(m)
	lists := m.listRequests()
	out := w.mustRun(noRetries, "apply", "-invoke=action.eventnotify_disable_subscriptions.all", "-auto-approve", "-input=false", "-no-color")
	expectOutput(t, "terraform apply -invoke", out, true, "Actions: 1 invoked.",
		"Disabled 100 subscriptions of account "+testAccount+". The service's answer did not tell the outcome of 100 of them; 100 read back, 100 disabled.")
	if strings.Contains(out, "Error:") || len(providerWarnings(out)) > 0 {
		t.Errorf("the invocation printed a diagnostic although every subscription was disabled:\n%s", out)
	}
	wantOnlyToggled(t, m, before, false, ids...)
	if n := m.listRequests() - lists; n != 2 {
		t.Errorf("%d listing requests, want 2: the action's and the read-back's", n)
	}
	if n := m.Count(http.MethodGet, mockserver.RouteSubscription); n != 0 {
		t.Errorf("%d single reads, want none", n)
	}

	// The read-back's listing fails as well (the action's own listing is the first): one error.
	m.InjectFault(mockserver.Fault{Method: http.MethodGet, Route: mockserver.RouteSubscriptions, Status: http.StatusInternalServerError, Ratio: 0.5, Count: 1})
	out, code := w.run(noRetries, "apply", "-invoke=action.eventnotify_enable_subscriptions.all", "-auto-approve", "-input=false", "-no-color")
	if code == 0 {
		t.Fatalf("the invocation succeeded although the read-back failed:\n%s", out)
	}
	expectOutput(t, "terraform apply -invoke", out, true,
		"Unable to enable 100 of 100 subscriptions of account "+testAccount+": the outcome is unknown", "and 80 more")
	errorLines := regexp.MustCompile(`(?m)^[│ ]*Error: `).FindAllStringIndex(out, -1)
	if len(errorLines) != 1 {
		t.Fatalf("%d errors, want 1:\n%s", len(errorLines), out)
	}
	// The one error and its detail, as the CLI wraps them: 20 ids and "and 80 more".
	if n := strings.Count(out[errorLines[0][0]:], "\n"); n > 45 {
		t.Errorf("the error takes %d lines, want at most 45 (one error, with counts):\n%s", n, out)
	}
}
