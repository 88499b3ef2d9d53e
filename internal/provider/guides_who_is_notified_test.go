package provider

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// TestAccGuideWhoIsNotified follows the guide "Checking who is notified" literally: providers.tf
// and main.tf as the guide shows them, against an account that already holds a subscription made
// by hand and one left disabled. The apply warns about both (guards 2 and 3) and lists the
// unmanaged ones; pausing the on-call subscriptions fails the plan (guard 1) until another
// enabled subscription hears PROCESS.EXECUTION at ERROR; the variables that name what is paused
// on purpose and managed elsewhere silence the warnings.
func TestAccGuideWhoIsNotified(t *testing.T) {
	m := newTestMock(t)
	w := newGuideWorkspace(t, m)
	w.require(featureProviderFunctions)
	byHand := m.PutSubscription(testAccount, mockserver.Subscription{EventName: "ENVIRONMENT.ALERT", DestinationType: "EVENT_STREAMS",
		LogLevel: "ERROR", EventStreamsEnvironment: "env-ops", EventStreamsTopic: "operations", Enabled: true})
	leftPaused := m.PutSubscription(testAccount, mockserver.Subscription{EventName: "PROCESS.EXECUTION", DestinationType: "EVENT_STREAMS",
		LogLevel: "ERROR", EventStreamsEnvironment: "env-ops", EventStreamsTopic: "deployments", Enabled: false})
	w.copyExact("../../examples/guides/who-is-notified/main.tf", "main.tf")

	out := flat(w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color"))
	for _, want := range []string{
		"Warning: Check block assertion failed",
		"These subscriptions are still disabled: PROCESS.EXECUTION (" + leftPaused.SubscriptionID + ")",
		"No configuration manages these subscriptions:",
		"ENVIRONMENT.ALERT at ERROR (" + byHand.SubscriptionID + ")",
		"PROCESS.EXECUTION at ERROR (" + leftPaused.SubscriptionID + ")",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the apply does not warn %q:\n%s", want, out)
		}
	}
	if n := len(m.Subscriptions(testAccount)); n != 4 {
		t.Fatalf("the account holds %d subscriptions after the apply, want the 2 seeded and the 2 on-call ones", n)
	}
	var unmanaged []string
	if err := json.Unmarshal([]byte(w.mustRun(nil, "output", "-json", "unmanaged_subscription_ids")), &unmanaged); err != nil {
		t.Fatal(err)
	}
	if want := []string{byHand.SubscriptionID, leftPaused.SubscriptionID}; !slices.Equal(unmanaged, want) { // ENVIRONMENT.ALERT sorts first
		t.Errorf("unmanaged_subscription_ids = %v, want %v", unmanaged, want)
	}
	if heard := w.mustRun(nil, "output", "-json", "process_errors_heard_by"); flat(heard) != `["oncall"]` {
		t.Errorf("process_errors_heard_by = %s, want the on-call topic alone (the other PROCESS.EXECUTION subscription is disabled)", heard)
	}

	// Guard 1: pausing the on-call subscriptions leaves PROCESS.EXECUTION at ERROR unheard.
	before := m.Count("", "")
	plan, code := w.run(nil, "plan", "-input=false", "-no-color", "-var", "oncall_enabled=false")
	if code == 0 || !strings.Contains(plan, "Error: Module output value precondition failed") ||
		!strings.Contains(flat(plan), "No enabled subscription would be notified when PROCESS.EXECUTION fires at ERROR") {
		t.Fatalf("pausing every subscription that hears PROCESS.EXECUTION at ERROR should fail the plan, got exit %d:\n%s", code, plan)
	}
	for _, r := range m.Requests()[before:] {
		if r.Method != "GET" {
			t.Errorf("the failed plan wrote to the service: %s %s", r.Method, r.Path)
		}
	}
	// Another enabled subscription, at a lower minimum level, hears it: the pause may go ahead.
	sre := m.PutSubscription(testAccount, mockserver.Subscription{EventName: "process.execution", DestinationType: "EMAIL",
		LogLevel: "WARNING", DestinationEmail: "sre@example.com", Enabled: true})
	plan, code = w.run(nil, "plan", "-input=false", "-no-color", "-detailed-exitcode", "-var", "oncall_enabled=false")
	if code != 2 || !strings.Contains(plan, "0 to add, 2 to change, 0 to destroy") {
		t.Fatalf("with another subscription hearing the event, the pause should plan (exit 2, 2 to change), got exit %d:\n%s", code, plan)
	}

	// Naming what is paused on purpose and managed elsewhere silences guards 2 and 3.
	quiet := []string{
		"TF_VAR_paused_on_purpose=[\"" + leftPaused.SubscriptionID + "\"]",
		"TF_VAR_managed_elsewhere=[\"" + byHand.SubscriptionID + "\", \"" + leftPaused.SubscriptionID + "\", \"" + sre.SubscriptionID + "\"]",
	}
	// (The plan is not empty: the check's data source is read again during the apply, and the
	// outputs change with the new subscription.)
	plan = w.mustRun(quiet, "plan", "-input=false", "-no-color")
	if strings.Contains(plan, "Warning") || !strings.Contains(plan, "0 to add, 0 to change, 0 to destroy") {
		t.Errorf("with every subscription accounted for, the plan should change nothing and warn about nothing:\n%s", plan)
	}

	w.mustRun(nil, "destroy", "-auto-approve", "-input=false", "-no-color")
	if n := len(m.Subscriptions(testAccount)); n != 3 {
		t.Errorf("the account holds %d subscriptions after destroy, want the 3 the configuration does not manage", n)
	}
}
