package provider

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// The adoption guide's "Adopt one topic", followed literally: its files are copied as they
// are, with the documentation's placeholder account replaced by the test account.

// guideTopicEnv and guideTopic are the environment and topic of the guide's examples.
const (
	guideTopicEnv  = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
	guideTopic     = "orders-alerts"
	guideTopicName = "Production"
)

// copyTopicGuideExample adds a guide's example to the working directory with the placeholder
// account of its import ids replaced by the test account.
func (w *cliWorkspace) copyTopicGuideExample(src, name string) {
	w.t.Helper()
	body, err := os.ReadFile(src)
	if err != nil {
		w.t.Fatal(err)
	}
	w.write(name, strings.ReplaceAll(string(body), `"my-account-id/`, `"`+testAccount+"/"))
}

// seedGuideTopic puts 3 subscriptions on the guide's topic and one on another topic of the
// environment, every input set (fillInputs), and returns them all: a guide whose resources
// leave an input out plans to change them.
func seedGuideTopic(m *testMock) (onGuideTopic []mockserver.Subscription, all []mockserver.Subscription) {
	for i, e := range []string{"ATOM.STATUS", "PROCESS.EXECUTION", "ENVIRONMENT.ALERT"} {
		s := mockserver.Subscription{EventName: e,
			DestinationType: "EVENT_STREAMS", LogLevel: []string{"INFO", "WARNING", "ERROR"}[i], Enabled: i != 2,
			EventStreamsEnvironment: guideTopicEnv, EventStreamsEnvironmentName: guideTopicName, EventStreamsTopic: guideTopic}
		fillInputs(&s, i)
		onGuideTopic = append(onGuideTopic, m.PutSubscription(testAccount, s))
	}
	other := mockserver.Subscription{EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS",
		LogLevel: "INFO", Enabled: true, EventStreamsEnvironment: guideTopicEnv, EventStreamsTopic: "billing"}
	fillInputs(&other, 3)
	return onGuideTopic, append(onGuideTopic, m.PutSubscription(testAccount, other))
}

// ordersLocals renders orders.tf as the guide describes it: the topic's subscriptions keyed by
// id, each with the attributes of a topic entry but its id (topicEntryNames, so that a new
// input is in it with no edit), an empty string null.
func ordersLocals(subs []mockserver.Subscription) string {
	var b strings.Builder
	b.WriteString("locals {\n  orders = {\n")
	for _, s := range subs {
		fmt.Fprintf(&b, "    %q = {\n", s.SubscriptionID)
		inputs := inputsOf(s)
		for _, in := range inputSamples() {
			if !slices.Contains(topicEntryNames, in.attr.name) {
				continue
			}
			if v := inputs[in.attr.name]; v == "" {
				fmt.Fprintf(&b, "      %s = null\n", in.attr.name)
			} else {
				b.WriteString("      " + in.hcl(v) + "\n")
			}
		}
		b.WriteString("    }\n")
	}
	b.WriteString("  }\n}\n")
	return b.String()
}

// TestAccGuideAdoptTopic follows "Adopt one topic": the import block with
// -generate-config-out, the apply, the import block deleted, and a plan with no changes; the
// service sees no write, and the account's other topic is never in the state.
func TestAccGuideAdoptTopic(t *testing.T) {
	m := newTestMock(t)
	w := newGuideWorkspace(t, m)
	w.require(featureGeneratedMapKeys)
	topic, all := seedGuideTopic(m)
	w.copyTopicGuideExample("../../examples/guides/adopt-topic/main.tf", "main.tf")
	out := w.mustRun(nil, "plan", "-generate-config-out=generated.tf", "-input=false", "-no-color")
	if !strings.Contains(out, "Plan: 1 to import, 0 to add, 0 to change, 0 to destroy") {
		t.Fatalf("the import of the topic does not plan one import and no change:\n%s", out)
	}
	generated := w.read("generated.tf")
	for _, s := range topic {
		if !strings.Contains(generated, s.SubscriptionID) {
			t.Errorf("generated.tf lacks subscription %s of the topic:\n%s", s.SubscriptionID, generated)
		}
	}
	if other := all[len(all)-1]; strings.Contains(generated, other.SubscriptionID) {
		t.Errorf("generated.tf holds subscription %s of another topic:\n%s", other.SubscriptionID, generated)
	}
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	w.remove("main.tf")
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("the plan after adopting the topic is not empty (exit %d):\n%s", code, out)
	}
	checkAdopted(t, m, all)
	if n := writes(m); n != 0 {
		t.Errorf("adopting the topic sent %d writes to the service, want none", n)
	}
}

// TestAccGuideSwitchTopicResource follows the guide's move of a topic from one
// eventnotify_subscription per subscription to eventnotify_topic_subscriptions (removed and
// import blocks in one plan) and back, each move planning no change, sending no write, and
// leaving every subscription as it was. In between, the topic resource shows what sets it
// apart: a subscription made on the topic outside the configuration is planned for removal,
// one on another topic is not.
func TestAccGuideSwitchTopicResource(t *testing.T) {
	m := newTestMock(t)
	w := newGuideWorkspace(t, m)
	w.require(featureForEachImport)
	w.require(featureRemovedForget)
	topic, all := seedGuideTopic(m)

	// The starting point: the topic's subscriptions, one resource each (imported here once).
	w.write("orders.tf", ordersLocals(topic))
	w.copyExact("../../examples/guides/topic-subscription-resources/main.tf", "main.tf")
	w.write("imports.tf", "import {\n  for_each = local.orders\n  to       = eventnotify_subscription.orders[each.key]\n  id       = each.key\n}\n")
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	w.remove("imports.tf")
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("the starting point does not plan clean (exit %d):\n%s", code, out)
	}
	checkAdopted(t, m, all)
	m.ResetCounters()

	// To the topic resource: the whole of main.tf replaced.
	w.copyTopicGuideExample("../../examples/guides/switch-to-topic-resource/main.tf", "main.tf")
	out := w.mustRun(nil, "plan", "-input=false", "-no-color")
	if !strings.Contains(out, "Plan: 1 to import, 0 to add, 0 to change, 0 to destroy") {
		t.Fatalf("the move to the topic resource does not plan one import and no change:\n%s", out)
	}
	for _, s := range topic {
		if !strings.Contains(out, `eventnotify_subscription.orders["`+s.SubscriptionID+`"] will no longer be managed by Terraform`) &&
			!strings.Contains(out, `eventnotify_subscription.orders["`+s.SubscriptionID+`"] will be removed from the OpenTofu state`) {
			t.Errorf("the plan does not forget eventnotify_subscription.orders[%q]:\n%s", s.SubscriptionID, out)
		}
	}
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("plan after the move to the topic resource is not empty (exit %d):\n%s", code, out)
	}
	checkAdopted(t, m, all)
	if n := writes(m); n != 0 {
		t.Errorf("the move to the topic resource sent %d writes to the service, want none", n)
	}

	// Authoritative for the topic only.
	stray := m.PutSubscription(testAccount, mockserver.Subscription{EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS",
		LogLevel: "ERROR", EventStreamsEnvironment: guideTopicEnv, EventStreamsTopic: guideTopic, Enabled: true})
	elsewhere := m.PutSubscription(testAccount, mockserver.Subscription{EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS",
		LogLevel: "ERROR", EventStreamsEnvironment: guideTopicEnv, EventStreamsTopic: "made-by-hand", Enabled: true})
	out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	if code != 2 || !strings.Contains(out, stray.SubscriptionID) || strings.Contains(out, elsewhere.SubscriptionID) ||
		!strings.Contains(out, "0 to add, 1 to change, 0 to destroy") {
		t.Fatalf("the topic resource does not plan to remove only subscription %s, made on its topic (exit %d):\n%s",
			stray.SubscriptionID, code, out)
	}
	m.DeleteSubscriptionDirect(testAccount, stray.SubscriptionID)
	m.DeleteSubscriptionDirect(testAccount, elsewhere.SubscriptionID)
	m.ResetCounters()

	// And back to one resource per subscription: main.tf is the starting point's again, next to
	// moves.tf.
	w.copyExact("../../examples/guides/topic-subscription-resources/main.tf", "main.tf")
	w.copyExact("../../examples/guides/switch-from-topic-resource/moves.tf", "moves.tf")
	out = w.mustRun(nil, "plan", "-input=false", "-no-color")
	if !strings.Contains(out, "Plan: 3 to import, 0 to add, 0 to change, 0 to destroy") {
		t.Fatalf("the move back does not plan 3 imports and no change:\n%s", out)
	}
	if !strings.Contains(out, "eventnotify_topic_subscriptions.orders will no longer be managed by Terraform") &&
		!strings.Contains(out, "eventnotify_topic_subscriptions.orders will be removed from the OpenTofu state") {
		t.Errorf("the plan does not forget eventnotify_topic_subscriptions.orders:\n%s", out)
	}
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("plan after the move back is not empty (exit %d):\n%s", code, out)
	}
	checkAdopted(t, m, all)
	if n := writes(m); n != 0 {
		t.Errorf("the move back sent %d writes to the service, want none", n)
	}
	w.remove("moves.tf")
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("plan after deleting moves.tf, as the guide says, is not empty (exit %d):\n%s", code, out)
	}
}
