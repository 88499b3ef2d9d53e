package provider

import (
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// seedExistingSubscriptions gives the mock subscriptions made outside Terraform, every input
// set (fillInputs): a guide that leaves an input out plans a change, or loses it.
func seedExistingSubscriptions(m *testMock) []mockserver.Subscription {
	var subs []mockserver.Subscription
	for i, e := range []string{"ATOM.STATUS", "PROCESS.EXECUTION", "ENVIRONMENT.ALERT", "ATOM.STATUS"} {
		s := mockserver.Subscription{
			EventName: e, DestinationType: "EVENT_STREAMS", LogLevel: []string{"INFO", "WARNING", "ERROR"}[i%3],
			EventStreamsEnvironment: "env-1", EventStreamsTopic: "topic-" + e, Enabled: i != 3,
		}
		fillInputs(&s, i)
		subs = append(subs, m.PutSubscription(testAccount, s))
	}
	return subs
}

// checkAdopted asserts the mock still holds exactly the seeded subscriptions,
// unchanged: adoption must neither create, replace nor update anything.
func checkAdopted(t *testing.T, m *testMock, seeded []mockserver.Subscription) {
	t.Helper()
	got := map[string]mockserver.Subscription{}
	for _, s := range m.Subscriptions(testAccount) {
		got[s.SubscriptionID] = s
	}
	if len(got) != len(seeded) {
		t.Fatalf("mock holds %d subscriptions after adoption, want %d", len(got), len(seeded))
	}
	for _, s := range seeded {
		if g, ok := got[s.SubscriptionID]; !ok || g != s {
			t.Errorf("subscription %s changed during adoption:\nbefore %+v\nafter  %+v", s.SubscriptionID, s, g)
		}
	}
}

// TestAccGuideAdoptForEach follows the adoption guide's for_each way literally: providers.tf
// and terraform init, step 1 (import blocks over the eventnotify_subscriptions data source, and
// the literal map written from its output), step 2 (main.tf replaced by the literal map), whose
// first plan only removes step 1's output and whose apply makes the next plan exit 0. It also
// shows the guide's warning true: while the configuration reads the data source, a change made
// outside Terraform leaves the plan empty; with the literal map, the plan shows it and apply
// undoes it.
func TestAccGuideAdoptForEach(t *testing.T) {
	m := newTestMock(t)
	w := newGuideWorkspace(t, m)
	w.require(featureForEachImport) // the generate-config guide test covers older versions
	seeded := seedExistingSubscriptions(m)
	// A topic that HCL would read as a template unless the literal map escapes it.
	m.ModifySubscription(testAccount, seeded[2].SubscriptionID, func(s *mockserver.Subscription) { s.EventStreamsTopic = "alerts-${env}-%{x}" })
	seeded[2], _ = m.Subscription(testAccount, seeded[2].SubscriptionID)
	w.copyExact("../../examples/guides/adopt-for-each/main.tf", "main.tf")

	// Step 1.
	out := w.mustRun(nil, "plan", "-input=false", "-no-color")
	if !strings.Contains(out, "Plan: 4 to import, 0 to add, 0 to change, 0 to destroy.") {
		t.Fatalf("the plan does not import the 4 subscriptions without changes:\n%s", out)
	}
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("plan after adoption is not empty (exit %d):\n%s", code, out)
	}
	checkAdopted(t, m, seeded)
	w.write("subscriptions.tf", w.mustRun(nil, "output", "-raw", "subscriptions_tf"))
	if out, code := w.run(nil, "fmt", "-check", "-diff", "subscriptions.tf"); code != 0 {
		t.Errorf("the literal map that step 1 writes is not formatted as fmt would (exit %d):\n%s", code, out)
	}
	if !strings.Contains(w.read("subscriptions.tf"), `"alerts-$${env}-%%{x}"`) {
		t.Errorf("the literal map does not escape a topic with template sequences:\n%s", w.read("subscriptions.tf"))
	}

	// A change outside Terraform: step 1's configuration follows it, so the plan stays empty.
	changed := seeded[1]
	m.ModifySubscription(testAccount, changed.SubscriptionID, func(s *mockserver.Subscription) { s.LogLevel = "ERROR" })
	// (Only the output that renders the map changes.)
	if out := w.mustRun(nil, "plan", "-input=false", "-no-color"); strings.Contains(out, "Plan: ") {
		t.Fatalf("with the data source in the configuration, a change outside Terraform was expected to stay hidden "+
			"(the guide's warning), but the plan shows changes:\n%s", out)
	}
	m.ModifySubscription(testAccount, changed.SubscriptionID, func(s *mockserver.Subscription) { s.LogLevel = changed.LogLevel })

	// Step 2: the whole of main.tf replaced by the literal map; providers.tf and subscriptions.tf stay.
	w.copyExact("../../examples/guides/adopt-for-each-literal/main.tf", "main.tf")
	expectOnlyOutputRemoved(t, w, m, "subscriptions_tf")
	checkAdopted(t, m, seeded)

	// With the literal map, a change outside Terraform shows, and apply undoes it.
	m.ModifySubscription(testAccount, changed.SubscriptionID, func(s *mockserver.Subscription) { s.LogLevel = "ERROR" })
	out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	if code != 2 || !strings.Contains(out, "Plan: 0 to add, 1 to change, 0 to destroy.") || !strings.Contains(out, changed.SubscriptionID) {
		t.Fatalf("with the literal map, the plan should change subscription %s back (exit 2), got exit %d:\n%s",
			changed.SubscriptionID, code, out)
	}
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	if got, _ := m.Subscription(testAccount, changed.SubscriptionID); got.LogLevel != changed.LogLevel {
		t.Errorf("after applying step 2, subscription %s has log level %s, want %s back", changed.SubscriptionID, got.LogLevel, changed.LogLevel)
	}
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("plan after step 2 is not empty (exit %d):\n%s", code, out)
	}
	if n := len(m.Subscriptions(testAccount)); n != len(seeded) {
		t.Errorf("the mock holds %d subscriptions after step 2, want %d", n, len(seeded))
	}
}

// TestAccGuideAdoptGenerateConfig follows the adoption guide's generated configuration way
// literally, which works from Terraform 1.5 on: step 3 leaves providers.tf and generated.tf,
// and its first plan only removes step 1's output.
func TestAccGuideAdoptGenerateConfig(t *testing.T) {
	m := newTestMock(t)
	w := newGuideWorkspace(t, m)
	seeded := seedExistingSubscriptions(m)
	w.copyExact("../../examples/guides/adopt-generate-config/main.tf", "main.tf")

	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	w.write("imports.tf", w.mustRun(nil, "output", "-raw", "import_blocks"))
	out := w.mustRun(nil, "plan", "-generate-config-out=generated.tf", "-input=false", "-no-color")
	if !strings.Contains(out, "Plan: 4 to import, 0 to add, 0 to change, 0 to destroy.") {
		t.Fatalf("the plan does not import the 4 subscriptions without changes:\n%s", out)
	}
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("plan after adoption is not empty (exit %d):\n%s", code, out)
	}
	// Step 3: providers.tf and generated.tf remain.
	w.remove("imports.tf")
	w.remove("main.tf")
	expectOnlyOutputRemoved(t, w, m, "import_blocks")
	checkAdopted(t, m, seeded)
}
