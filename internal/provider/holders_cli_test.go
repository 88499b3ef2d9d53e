package provider

import (
	"fmt"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// These tests run the CLI on configurations where two resources hold one subscription or one
// account, and read the warnings that name both holders (holders.go), and the takeover plan of
// eventnotify_account_subscriptions that names what its entries take over.

// singleConfig renders an eventnotify_subscription named name on the provider's account.
func singleConfig(name, level, topic string) string {
	return fmt.Sprintf(`
resource "eventnotify_subscription" %q {
  event_name          = "ATOM.STATUS"
  destination_type    = "EVENT_STREAMS"
  log_level           = %q
  event_streams_topic = %q
}
`, name, level, topic)
}

// TestAccHolders_takeoverPlanNamesTakenOver creates eventnotify_account_subscriptions on an
// account that holds 3 subscriptions, with one entry like the first of them and one new: the
// plan warns that the first apply takes over that subscription, naming it with the entry's
// key, besides the warning that names the 2 it deletes (and not the one taken over). The apply
// keeps the one taken over under its id, deletes the 2 and creates the new entry; a plan that
// replaces the resource (-replace) names no second holder.
func TestAccHolders_takeoverPlanNamesTakenOver(t *testing.T) {
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	held := takeoverSeed(m, 3)
	w.write("versions.tf", requiredProviders)
	w.write("main.tf", acctConfig(
		acctEntry{key: "taken", event: held[0].EventName, level: held[0].LogLevel, topic: held[0].EventStreamsTopic,
			environment: held[0].EventStreamsEnvironment},
		acctEntry{key: "new", event: "PROCESS.EXECUTION", level: "WARNING"}))
	takenOver := fmt.Sprintf(`entry "taken" takes over %q: event %q`, held[0].SubscriptionID, held[0].EventName)

	out := w.mustRun(nil, "plan", "-input=false", "-no-color")
	expectOutput(t, "the plan of the create", out, true,
		fmt.Sprintf(`Warning: The first apply takes over 1 subscription that account "acc-test" already holds: `+
			`subscription %s (entry "taken")`, held[0].SubscriptionID), takenOver,
		"both then hold it",
		fmt.Sprintf(`Warning: The first apply deletes 2 subscriptions that account "acc-test" already holds: %s and 1 more`,
			min(held[1].SubscriptionID, held[2].SubscriptionID)),
		fmt.Sprintf("- %q: event", held[1].SubscriptionID), fmt.Sprintf("- %q: event", held[2].SubscriptionID))
	expectOutput(t, "the plan of the create", out, false, fmt.Sprintf("- %q: event", held[0].SubscriptionID))
	if wr := m.writes(); wr.total() != 0 {
		t.Fatalf("the plan made %s, want none", wr)
	}

	out = w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	expectOutput(t, "the apply", out, true, takenOver)
	// One resource, planned in the plan walk and again in the apply walk, is one holder.
	expectOutput(t, "the apply", out, false, "is held by")
	left := m.Subscriptions(testAccount)
	if len(left) != 2 {
		t.Fatalf("the account holds %d subscriptions after apply, want 2 (the one taken over and the new entry)", len(left))
	}
	if _, ok := m.Subscription(testAccount, held[0].SubscriptionID); !ok {
		t.Errorf("subscription %s, taken over, was deleted", held[0].SubscriptionID)
	}
	for _, s := range held[1:] {
		if _, ok := m.Subscription(testAccount, s.SubscriptionID); ok {
			t.Errorf("subscription %s, named for deletion, is still there", s.SubscriptionID)
		}
	}
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("the plan after the apply is not empty (exit %d):\n%s", code, out)
	} else {
		expectOutput(t, "the plan after the apply", out, false, "takes over", "is held by")
	}
	// -replace plans the resource twice (with its state, then as a create): one holder.
	out = w.mustRun(nil, "plan", "-input=false", "-no-color", "-replace="+acctAddr)
	expectOutput(t, "the plan of a replacement", out, true, "will be replaced, as requested")
	expectOutput(t, "the plan of a replacement", out, false, "is held by")
}

// TestAccHolders_importHeldID imports, into a second eventnotify_subscription, the id that the
// first one of the configuration holds, with terraform import and with an import block: the
// plan (that imports, or after terraform import, whose walk reads only the resource it
// imports) prints a warning that names the id and two eventnotify_subscription resources,
// with the address of one of them (Terraform's "with ..."). The import of an id nobody else
// holds, into the same configuration, is named in no warning.
func TestAccHolders_importHeldID(t *testing.T) {
	for _, kind := range []string{"terraform import", "import block"} {
		t.Run(kind, func(t *testing.T) {
			m := newTestMock(t)
			w := newCLIWorkspace(t, m)
			w.write("versions.tf", requiredProviders)
			w.write("main.tf", singleConfig("first", "ERROR", "held"))
			w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
			ids := w.stateSubscriptionIDs()
			if len(ids) != 1 {
				t.Fatalf("state holds %q, want one subscription", ids)
			}
			id := ids[0]
			other := m.PutSubscription(testAccount, mockserver.Subscription{SubscriptionID: "00000000-0000-4000-8000-0000000000ff",
				EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS", LogLevel: "INFO", EventStreamsTopic: "free", Enabled: true})
			warning := fmt.Sprintf("Warning: Subscription %s is held by two resources", id)
			holders := []string{fmt.Sprintf("Subscription %s of account %q is held by two eventnotify_subscription resources", id, testAccount)}

			w.write("main.tf", singleConfig("first", "ERROR", "held")+singleConfig("second", "ERROR", "held")+
				singleConfig("third", "INFO", "free"))
			var out string
			if kind == "terraform import" {
				// terraform import reads only the resource it imports: the plan that follows reads
				// both holders, and warns.
				w.mustRun(nil, "import", "-input=false", "-no-color", "eventnotify_subscription.second", id)
				w.mustRun(nil, "import", "-input=false", "-no-color", "eventnotify_subscription.third", other.SubscriptionID)
				out = w.mustRun(nil, "plan", "-input=false", "-no-color")
			} else {
				w.write("imports.tf", fmt.Sprintf("import {\n  to = eventnotify_subscription.second\n  id = %q\n}\n"+
					"import {\n  to = eventnotify_subscription.third\n  id = %q\n}\n", id, other.SubscriptionID))
				out = w.mustRun(nil, "plan", "-input=false", "-no-color")
			}
			expectOutput(t, kind, out, true, append(holders, warning, "terraform state rm")...)
			expectOutput(t, kind, out, false, fmt.Sprintf("Subscription %s is held by two", other.SubscriptionID))
		})
	}
}

// TestAccHolders_accountAndSingle plans eventnotify_account_subscriptions and an
// eventnotify_subscription on one account: the plan of the create, the apply, and the plan
// after it (where the account resource reads the single one's subscription and plans its
// deletion: the fight) each warn, naming the account and both kinds of holder; the plan after
// the apply names the subscription's id and says that no entry holds it.
func TestAccHolders_accountAndSingle(t *testing.T) {
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	w.write("versions.tf", requiredProviders)
	w.write("main.tf", acctConfig(acctEntry{key: "a", event: "PROCESS.EXECUTION", level: "WARNING"})+
		singleConfig("single", "ERROR", "alone"))
	warning := `Warning: Account "acc-test" is held by eventnotify_account_subscriptions and by eventnotify_subscription resources`

	out := w.mustRun(nil, "plan", "-input=false", "-no-color")
	expectOutput(t, "the plan of the create", out, true, warning, "each apply fights", "one to be created, which no entry holds")
	out = w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	expectOutput(t, "the apply", out, true, warning)
	expectOutput(t, "the apply", out, false, "is held by two")

	var single string
	for _, s := range m.Subscriptions(testAccount) {
		if s.EventStreamsTopic == "alone" {
			single = s.SubscriptionID
		}
	}
	if single == "" {
		t.Fatal("the apply did not create the single subscription")
	}
	out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	if code != 2 {
		t.Errorf("the plan after the apply exited %d, want 2 (the account resource deletes the single subscription):\n%s", code, out)
	}
	expectOutput(t, "the plan after the apply", out, true, warning,
		fmt.Sprintf("subscription %q, which no entry holds: the account resource deletes it", single))
}
