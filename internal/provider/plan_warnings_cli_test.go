package provider

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// These tests run plans through the CLI (Terraform or OpenTofu) and read the warnings in its
// output, which plugin-testing cannot see: what an apply will do must be in the plan, and a
// warning must appear when the user can act on it, not in every plan.

// flat is CLI output as words: the diagnostics' frame and the CLI's line wrapping removed.
func flat(out string) string {
	return strings.Join(strings.Fields(strings.NewReplacer("│", " ", "╷", " ", "╵", " ").Replace(out)), " ")
}

// expectOutput fails the test unless the CLI output holds each phrase (as words), or when want
// is false, holds none of them.
func expectOutput(t *testing.T, what, out string, want bool, phrases ...string) {
	t.Helper()
	words := flat(out)
	for _, p := range phrases {
		if strings.Contains(words, flat(p)) != want {
			t.Errorf("%s: output holds %q: %t, want %t:\n%s", what, p, !want, want, out)
		}
	}
}

// cliWarning matches the summary line of a warning in CLI output, framed or not.
var cliWarning = regexp.MustCompile(`(?m)^[│ ]*Warning: (.*?)\s*$`)

// providerWarnings returns the summaries of the warnings in CLI output, but for the CLI's own
// about the development overrides the tests run the provider with.
func providerWarnings(out string) []string {
	var summaries []string
	for _, match := range cliWarning.FindAllStringSubmatch(out, -1) {
		if match[1] != "Provider development overrides are in effect" {
			summaries = append(summaries, match[1])
		}
	}
	return summaries
}

// TestAccPlanWarnings_accountTakeover creates eventnotify_account_subscriptions with one entry
// on an account that holds 3 subscriptions. The plan says "1 to add" and warns, naming each of
// the 3 that the apply deletes (id, event, destination, log level) and how to keep them, and
// writes nothing. Following the advice (import the account) gives a plan that shows them as
// removals, without the warning. Without it, the apply deletes exactly the 3 the plan named,
// and lists the account once per walk (the apply's Create reuses its plan's listing).
func TestAccPlanWarnings_accountTakeover(t *testing.T) {
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	held := takeoverSeed(m, 3)
	w.write("versions.tf", requiredProviders)
	w.write("main.tf", acctConfig(acctEntry{key: "a", event: "PROCESS.EXECUTION", level: "WARNING"}))
	// The summary names the first of them in the order of their ids (diagnostic_summaries.go).
	takeover := fmt.Sprintf(`The first apply deletes 3 subscriptions that account "acc-test" already holds: %s and 2 more`,
		slices.Min([]string{held[0].SubscriptionID, held[1].SubscriptionID, held[2].SubscriptionID}))
	var named []string
	for _, s := range held {
		e := accountEntryFromAPI(mockToClient(s))
		e.DestinationEmail = optionalString(s.DestinationEmail) // named, though an entry does not hold it
		named = append(named, describeEntry(e))
	}

	out := w.mustRun(nil, "plan", "-input=false", "-no-color")
	expectOutput(t, "the plan of the create", out, true, append(named, "Plan: 1 to add, 0 to change, 0 to destroy", "Warning: "+takeover,
		"terraform import eventnotify_account_subscriptions.NAME acc-test")...)
	if wr := m.writes(); wr.total() != 0 {
		t.Fatalf("the plan made %s, want none", wr)
	}

	w.mustRun(nil, "import", "-input=false", "-no-color", acctAddr, testAccount)
	out = w.mustRun(nil, "plan", "-input=false", "-no-color")
	expectOutput(t, "the plan after the import", out, false, takeover)
	ids := make([]string, len(held))
	for i, s := range held {
		ids[i] = fmt.Sprintf("%q = {", s.SubscriptionID)
	}
	expectOutput(t, "the plan after the import", out, true, append(ids, "0 to add, 1 to change, 0 to destroy")...)
	if wr := m.writes(); wr.total() != 0 {
		t.Fatalf("import and plan made %s, want none", wr)
	}

	w.mustRun(nil, "state", "rm", acctAddr)
	lists := m.listRequests()
	out = w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	expectOutput(t, "the apply", out, true, takeover)
	// The plan walk lists once, the apply walk once (ModifyPlan; Create reuses its listing).
	if n := m.listRequests() - lists; n != 2 {
		t.Errorf("plan and apply made %d list requests, want 2", n)
	}
	left := m.Subscriptions(testAccount)
	if len(left) != 1 || left[0].EventName != "PROCESS.EXECUTION" {
		t.Fatalf("the account holds %+v after apply, want only the entry", left)
	}
	for _, s := range held {
		if _, ok := m.Subscription(testAccount, s.SubscriptionID); ok {
			t.Errorf("subscription %s, named in the plan, was not deleted", s.SubscriptionID)
		}
	}
}

// mockToClient is a mock subscription as the client reads it (the values the warning names).
func mockToClient(s mockserver.Subscription) *client.Subscription {
	return &client.Subscription{ID: s.SubscriptionID, EventName: s.EventName, DestinationType: s.DestinationType,
		LogLevel: s.LogLevel, DestinationEmail: s.DestinationEmail, EventStreamsEnvironment: s.EventStreamsEnvironment,
		EventStreamsEnvironmentName: s.EventStreamsEnvironmentName, EventStreamsTopic: s.EventStreamsTopic, Enabled: s.Enabled}
}

// TestAccPlanWarnings_topic plans a change and a destroy of an event streams topic: both plans
// warn that the old topic stays in its environment, and neither writes.
func TestAccPlanWarnings_topic(t *testing.T) {
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	w.write("versions.tf", requiredProviders)
	w.write("main.tf", topicConfig(topicArgs...))
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	writes := m.writes()

	w.write("main.tf", topicConfig(withTopicArg(`topic_name = "incidents"`)...))
	out := w.mustRun(nil, "plan", "-input=false", "-no-color")
	expectOutput(t, "the plan of a replacement", out, true, "must be replaced",
		`Warning: Replacing event streams topic "alerts" leaves the old topic in place`,
		`The topic "alerts" and its subscription "ops-alerts" stay in event streams environment "env-1" (account "acc-test")`,
		`The apply then creates topic "incidents" with subscription "ops-alerts" in event streams environment "env-1"`)

	w.write("main.tf", topicConfig(topicArgs...))
	out = w.mustRun(nil, "plan", "-destroy", "-input=false", "-no-color")
	expectOutput(t, "the plan of a destroy", out, true, "will be destroyed",
		`Warning: Destroying event streams topic "alerts" leaves it in place`)

	out = w.mustRun(nil, "plan", "-input=false", "-no-color")
	if got := providerWarnings(out); len(got) != 0 {
		t.Errorf("a plan without change warns %q:\n%s", got, out)
	}
	if wr := m.writes().minus(writes); wr.total() != 0 {
		t.Fatalf("the plans made %s, want none", wr)
	}
}

// TestAccPlanWarnings_email checks that the EMAIL warning of both subscription resources
// appears in the plan that sets EMAIL, and not in the plans that follow: a plan without
// change, and the import of a subscription that is EMAIL already.
func TestAccPlanWarnings_email(t *testing.T) {
	const warning = "Warning: EMAIL destinations are not delivered yet"
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	w.write("versions.tf", requiredProviders)
	subscription := func(name string) string {
		return fmt.Sprintf(`
resource "eventnotify_subscription" %q {
  event_name       = "ATOM.STATUS"
  destination_type = "EMAIL"
  log_level        = %q
}
`, name, map[string]string{"mail": "ERROR", "imported": "INFO"}[name])
	}
	w.write("main.tf", subscription("mail"))
	out := w.mustRun(nil, "plan", "-input=false", "-no-color")
	expectOutput(t, "the plan that sets EMAIL", out, true, warning, "with eventnotify_subscription.mail")
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	quiet := func(w *cliWorkspace, what string) {
		t.Helper()
		out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color")
		if code != 0 {
			t.Fatalf("%s: the plan exited %d, want 0 (no changes):\n%s", what, code, out)
		}
		if got := providerWarnings(out); len(got) != 0 {
			t.Errorf("%s warns %q:\n%s", what, got, out)
		}
	}
	quiet(w, "the plan after the apply")

	outside := m.PutSubscription(testAccount, mockserver.Subscription{EventName: "ATOM.STATUS", DestinationType: "EMAIL",
		LogLevel: "INFO", DestinationEmail: "ops@example.com", Enabled: true})
	w.write("imported.tf", subscription("imported")+fmt.Sprintf(`
import {
  to = eventnotify_subscription.imported
  id = %q
}
`, outside.SubscriptionID))
	out = w.mustRun(nil, "plan", "-input=false", "-no-color")
	expectOutput(t, "the plan that imports an EMAIL subscription", out, true, "1 to import")
	if got := providerWarnings(out); len(got) != 0 {
		t.Errorf("the plan that imports an EMAIL subscription warns %q:\n%s", got, out)
	}
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	quiet(w, "the plan after the import")

	// The account resource, on an account of its own: the entry that sets EMAIL warns once.
	m2 := newTestMock(t)
	w2 := newCLIWorkspace(t, m2)
	w2.write("versions.tf", requiredProviders)
	w2.write("main.tf", strings.Replace(acctConfig(acctEntry{key: "mail", event: "ATOM.STATUS", level: "ERROR"},
		acctEntry{key: "streams", event: "ATOM.STATUS", level: "INFO", topic: "alerts", environment: "env-1"}), `"EVENT_STREAMS"`, `"EMAIL"`, 1))
	out = w2.mustRun(nil, "plan", "-input=false", "-no-color")
	expectOutput(t, "the plan that sets EMAIL in an entry", out, true, `Warning: subscriptions["mail"]: EMAIL destinations are not delivered yet`)
	if got := providerWarnings(out); len(got) != 1 {
		t.Errorf("the plan warns %q, want the EMAIL warning once:\n%s", got, out)
	}
	w2.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	quiet(w2, "the plan of the account resource after the apply")
	if got := m2.Subscriptions(testAccount); len(got) != 2 {
		t.Errorf("the account holds %+v, want 2 subscriptions", got)
	}
}

// TestAccPlanWarnings_eventStreamsUnset checks the warnings about an EVENT_STREAMS subscription
// that names no event streams environment or no topic (the service accepts it and delivers its
// notifications nowhere), with the CLI: the plan of eventnotify_subscription warns naming the
// attribute missing, that of eventnotify_account_subscriptions naming the entry's key and the
// attribute, one warning each; a complete configuration plans without warning. The plans after
// an apply that kept them warn no more (the warnings appear where the user writes the setting).
func TestAccPlanWarnings_eventStreamsUnset(t *testing.T) {
	const (
		noTopic       = "EVENT_STREAMS subscription without a topic"
		noEnvironment = "EVENT_STREAMS subscription without an event streams environment"
	)
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	w.write("versions.tf", requiredProviders)
	required := []string{`event_name = "ATOM.STATUS"`, `destination_type = "EVENT_STREAMS"`, `log_level = "INFO"`}
	for _, tc := range []struct {
		name string
		args []string
		want []string // the warnings' summaries, sorted (the CLIs order them differently)
	}{
		{"neither", nil, []string{noTopic, noEnvironment}},
		{"no topic", []string{`event_streams_environment_id = "env-1"`}, []string{noTopic}},
		{"no environment", []string{`event_streams_topic = "alerts"`}, []string{noEnvironment}},
		{"complete", []string{`event_streams_environment_id = "env-1"`, `event_streams_topic = "alerts"`}, nil},
	} {
		w.write("main.tf", subscriptionConfig(append(required, tc.args...)...))
		out := w.mustRun(nil, "plan", "-input=false", "-no-color")
		if got := slices.Sorted(slices.Values(providerWarnings(out))); !slices.Equal(got, tc.want) {
			t.Errorf("%s: the plan warns %q, want %q:\n%s", tc.name, got, tc.want, out)
		}
		if len(tc.want) > 0 {
			expectOutput(t, tc.name, out, true, "with eventnotify_subscription.test", "Plan: 1 to add",
				"but it has nowhere to deliver the subscription's notifications: they are lost.")
		}
	}
	if wr := m.writes(); wr.total() != 0 {
		t.Fatalf("the plans made %s, want none", wr)
	}

	// The account resource: each entry's warnings name its key.
	w.remove("main.tf")
	w.write("main.tf", acctConfig(
		acctEntry{key: "complete", event: "ATOM.STATUS", level: "INFO", topic: "alerts", environment: "env-1"},
		acctEntry{key: "orders", event: "ATOM.DEPLOYMENT", level: "INFO", environment: "env-1"},
		acctEntry{key: "billing", event: "PROCESS.EXECUTION", level: "ERROR", topic: "billing"}))
	out := w.mustRun(nil, "plan", "-input=false", "-no-color")
	want := []string{`subscriptions["billing"]: ` + noEnvironment, `subscriptions["orders"]: ` + noTopic}
	if got := slices.Sorted(slices.Values(providerWarnings(out))); !slices.Equal(got, want) {
		t.Errorf("the account resource's plan warns %q, want %q:\n%s", got, want, out)
	}
	expectOutput(t, "the account resource's plan", out, true, "with eventnotify_account_subscriptions.all")

	// Applied as it is, the entries plan quietly: the warning was in the plan that wrote them.
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	if got := providerWarnings(out); code != 0 || len(got) != 0 {
		t.Errorf("the plan after the apply exits %d and warns %q, want 0 and none:\n%s", code, got, out)
	}

	// Completing them plans an update without warning.
	w.write("main.tf", acctConfig(
		acctEntry{key: "complete", event: "ATOM.STATUS", level: "INFO", topic: "alerts", environment: "env-1"},
		acctEntry{key: "orders", event: "ATOM.DEPLOYMENT", level: "INFO", topic: "orders", environment: "env-1"},
		acctEntry{key: "billing", event: "PROCESS.EXECUTION", level: "ERROR", topic: "billing", environment: "env-2"}))
	out = w.mustRun(nil, "plan", "-input=false", "-no-color")
	if got := providerWarnings(out); len(got) != 0 {
		t.Errorf("the plan that completes the entries warns %q:\n%s", got, out)
	}
	expectOutput(t, "the plan that completes the entries", out, true, "0 to add, 1 to change, 0 to destroy")
	w.mustRun(nil, "destroy", "-auto-approve", "-input=false", "-no-color")
}
