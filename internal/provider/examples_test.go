package provider

import (
	"path/filepath"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// exampleSubscriptionID is the id the data source example reads.
const exampleSubscriptionID = "3fa85f64-5717-4562-b3fc-2c963f66afa6"

// TestAccExamples applies every resource and data source example that the
// docs show, and the quick start, with the Terraform CLI against the mock:
// each applies, plans empty a second time, and destroys what it created.
func TestAccExamples(t *testing.T) {
	files, err := filepath.Glob("../../examples/*/*/*.tf")
	if err != nil {
		t.Fatal(err)
	}
	var examples []string
	for _, f := range files {
		if base := filepath.Base(f); base == "resource.tf" || base == "data-source.tf" {
			examples = append(examples, f)
		}
	}
	examples = append(examples, "../../examples/quickstart/main.tf")
	if len(examples) < 7 {
		t.Fatalf("found only %d examples under examples/: %v", len(examples), examples)
	}
	for _, file := range examples {
		name, _ := filepath.Rel("../../examples", file)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			m := newTestMock(t)
			seed := m.PutSubscription(testAccount, mockserver.Subscription{
				SubscriptionID: exampleSubscriptionID, EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS",
				LogLevel: "ERROR", EventStreamsTopic: "alerts", Enabled: true,
			})
			w := newCLIWorkspace(t, m)
			w.copyFile(file, "main.tf")
			w.applyPlanDestroy([]string{"TF_VAR_audit_account_id=acc-audit"}, nil)
			for _, account := range []string{testAccount, "acc-audit"} {
				for _, s := range m.Subscriptions(account) {
					if s.SubscriptionID != seed.SubscriptionID {
						t.Errorf("after destroy, account %s still holds subscription %s (%s)", account, s.SubscriptionID, s.EventName)
					}
				}
			}
		})
	}
}
