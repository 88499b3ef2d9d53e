package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// TestAccSubscriptionsDataSource lists an account's subscriptions across
// several pages, sorted by event name then id, with each filter.
func TestAccSubscriptionsDataSource(t *testing.T) {
	m := newTestMock(t)
	// 230 subscriptions: more than two pages of the mock's largest page size.
	events := []string{"PROCESS.EXECUTION", "ATOM.STATUS", "ENVIRONMENT.ALERT"}
	for i := 0; i < 230; i++ {
		m.PutSubscription(testAccount, mockserver.Subscription{
			EventName: events[i%3], DestinationType: "EVENT_STREAMS", LogLevel: []string{"INFO", "WARNING", "ERROR"}[i%3], Enabled: i%10 != 0,
		})
	}
	m.PutSubscription("acc-elsewhere", mockserver.Subscription{EventName: "ATOM.STATUS", DestinationType: "EMAIL", LogLevel: "INFO", Enabled: true})

	const all = "data.eventnotify_subscriptions.all"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		Steps: []resource.TestStep{{
			Config: m.providerBlock() + `
data "eventnotify_subscriptions" "all" {}
data "eventnotify_subscriptions" "atom" {
  event_name = "atom.status"
}
data "eventnotify_subscriptions" "disabled" {
  enabled = false
}
data "eventnotify_subscriptions" "errors" {
  log_level        = "ERROR"
  destination_type = "EVENT_STREAMS"
}
data "eventnotify_subscriptions" "elsewhere" {
  account_id = "acc-elsewhere"
}
output "sorted" {
  value = data.eventnotify_subscriptions.all.subscriptions[*].event_name == sort(data.eventnotify_subscriptions.all.subscriptions[*].event_name)
}
output "ids_match" {
  value = data.eventnotify_subscriptions.all.ids == data.eventnotify_subscriptions.all.subscriptions[*].id
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(all, tfjsonpath.New("ids"), knownvalue.ListSizeExact(230)),
				statecheck.ExpectKnownValue(all, tfjsonpath.New("subscriptions").AtSliceIndex(0).AtMapKey("event_name"), knownvalue.StringExact("ATOM.STATUS")),
				statecheck.ExpectKnownValue(all, tfjsonpath.New("subscriptions").AtSliceIndex(229).AtMapKey("event_name"), knownvalue.StringExact("PROCESS.EXECUTION")),
				statecheck.ExpectKnownOutputValue("sorted", knownvalue.Bool(true)),
				statecheck.ExpectKnownOutputValue("ids_match", knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("data.eventnotify_subscriptions.atom", tfjsonpath.New("ids"), knownvalue.ListSizeExact(77)),
				statecheck.ExpectKnownValue("data.eventnotify_subscriptions.disabled", tfjsonpath.New("ids"), knownvalue.ListSizeExact(23)),
				statecheck.ExpectKnownValue("data.eventnotify_subscriptions.errors", tfjsonpath.New("ids"), knownvalue.ListSizeExact(76)),
				statecheck.ExpectKnownValue("data.eventnotify_subscriptions.elsewhere", tfjsonpath.New("subscriptions").AtSliceIndex(0).AtMapKey("destination_type"), knownvalue.StringExact("EMAIL")),
				statecheck.ExpectKnownValue("data.eventnotify_subscriptions.elsewhere", tfjsonpath.New("account_id"), knownvalue.StringExact("acc-elsewhere")),
			},
		}},
	})
}
