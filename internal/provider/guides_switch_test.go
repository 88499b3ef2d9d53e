package provider

import (
	"os"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// featureRemovedForget is a removed block with `lifecycle { destroy = false }`: Terraform 1.7;
// OpenTofu has removed blocks since 1.7 but takes a lifecycle block in them since 1.10.
var featureRemovedForget = cliFeature{what: "removed blocks with lifecycle { destroy = false }", terraform: "1.7.0", opentofu: "1.10.0"}

// copyGuideExample adds a guide's example to the working directory with the documentation's
// placeholder account replaced by the test account.
func (w *cliWorkspace) copyGuideExample(src, name string) {
	w.t.Helper()
	body, err := os.ReadFile(src)
	if err != nil {
		w.t.Fatal(err)
	}
	w.write(name, strings.ReplaceAll(string(body), `"my-account-id"`, `"`+testAccount+`"`))
}

// TestAccGuideSwitchResources runs the adoption guide's moves between per-subscription
// resources and the authoritative account resource: adopt with for_each import blocks and the
// literal map, hand the subscriptions to eventnotify_account_subscriptions (removed and import
// blocks in one plan), and back again, each move planning no change on the service and
// leaving every subscription as it was. In between, the account resource shows what the
// guide says sets it apart: it plans to delete a subscription made outside the configuration.
func TestAccGuideSwitchResources(t *testing.T) {
	m := newTestMock(t)
	w := newGuideWorkspace(t, m)
	w.require(featureForEachImport)
	w.require(featureRemovedForget)
	seeded := seedExistingSubscriptions(m)

	// Adopt, as the guide's for_each way does: step 1, then the literal map of step 2.
	w.copyExact("../../examples/guides/adopt-for-each/main.tf", "main.tf")
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	w.write("subscriptions.tf", w.mustRun(nil, "output", "-raw", "subscriptions_tf"))
	w.copyExact("../../examples/guides/adopt-for-each-literal/main.tf", "main.tf")
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	checkAdopted(t, m, seeded)
	m.ResetCounters()

	// To the account resource: the whole of main.tf replaced.
	w.copyGuideExample("../../examples/guides/switch-to-account-resource/main.tf", "main.tf")
	out := w.mustRun(nil, "plan", "-input=false", "-no-color")
	if !strings.Contains(out, "Plan: 1 to import, 0 to add, 0 to change, 0 to destroy") {
		t.Fatalf("the move to the account resource does not plan one import and no change:\n%s", out)
	}
	for _, s := range seeded {
		if !strings.Contains(out, `eventnotify_subscription.adopted["`+s.SubscriptionID+`"] will no longer be managed by Terraform`) &&
			!strings.Contains(out, `eventnotify_subscription.adopted["`+s.SubscriptionID+`"] will be removed from the OpenTofu state`) {
			t.Errorf("the plan does not forget eventnotify_subscription.adopted[%q]:\n%s", s.SubscriptionID, out)
		}
	}
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("plan after the move to the account resource is not empty (exit %d):\n%s", code, out)
	}
	checkAdopted(t, m, seeded)
	if n := writes(m); n != 0 {
		t.Errorf("the move to the account resource sent %d writes to the service, want none", n)
	}

	// The account resource is authoritative: a subscription made outside the configuration is
	// planned for deletion (the per-subscription resources left it alone).
	stray := m.PutSubscription(testAccount, mockserver.Subscription{EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS",
		LogLevel: "ERROR", EventStreamsTopic: "made-by-hand", Enabled: true})
	out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	if code != 2 || !strings.Contains(out, stray.SubscriptionID) || !strings.Contains(out, "0 to add, 1 to change, 0 to destroy") {
		t.Fatalf("the account resource does not plan to remove subscription %s made outside the configuration (exit %d):\n%s",
			stray.SubscriptionID, code, out)
	}
	m.DeleteSubscriptionDirect(testAccount, stray.SubscriptionID)
	m.ResetCounters()

	// And back to one resource per subscription: main.tf is step 2's again, next to moves.tf.
	w.copyExact("../../examples/guides/adopt-for-each-literal/main.tf", "main.tf")
	w.copyGuideExample("../../examples/guides/switch-to-subscription-resources/moves.tf", "moves.tf")
	out = w.mustRun(nil, "plan", "-input=false", "-no-color")
	if !strings.Contains(out, "Plan: 4 to import, 0 to add, 0 to change, 0 to destroy") {
		t.Fatalf("the move back does not plan 4 imports and no change:\n%s", out)
	}
	if !strings.Contains(out, "eventnotify_account_subscriptions.all will no longer be managed by Terraform") &&
		!strings.Contains(out, "eventnotify_account_subscriptions.all will be removed from the OpenTofu state") {
		t.Errorf("the plan does not forget eventnotify_account_subscriptions.all:\n%s", out)
	}
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("plan after the move back is not empty (exit %d):\n%s", code, out)
	}
	checkAdopted(t, m, seeded)
	if n := writes(m); n != 0 {
		t.Errorf("the move back sent %d writes to the service, want none", n)
	}
	w.remove("moves.tf")
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("plan after deleting moves.tf, as the guide says, is not empty (exit %d):\n%s", code, out)
	}
}

// writes counts the requests that reached the mock with a method that changes subscriptions.
func writes(m *testMock) int {
	n := 0
	for _, r := range m.Requests() {
		if r.Method != "GET" {
			n++
		}
	}
	return n
}
