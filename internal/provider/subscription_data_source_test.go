package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccSubscriptionDataSource rejects a malformed id, reports a missing
// subscription, and reads one by id with every attribute equal to the
// resource's. The valid step comes last so that the final destroy can refresh.
func TestAccSubscriptionDataSource(t *testing.T) {
	m := newTestMock(t)
	const dsAddr = "data.eventnotify_subscription.test"
	var checks []statecheck.StateCheck
	for _, a := range subscriptionAttributes() {
		checks = append(checks, statecheck.CompareValuePairs(subAddr, tfjsonpath.New(a.name), dsAddr, tfjsonpath.New(a.name), compare.ValuesSame()))
	}
	checks = append(checks, statecheck.ExpectKnownValue(dsAddr, tfjsonpath.New("event_streams_topic"), knownvalue.StringExact("alerts")))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: m.providerBlock() + `
data "eventnotify_subscription" "missing" {
  id = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
}`,
				ExpectError: errorPattern("Subscription not found", `Account "acc-test" has no subscription with id`, "3fa85f64-5717-4562-b3fc-2c963f66afa6"),
			},
			{
				Config: m.providerBlock() + `
data "eventnotify_subscription" "bad" {
  id = "42"
}`,
				ExpectError: errorPattern(`"42" is not a UUID`),
			},
			{
				Config: m.providerBlock() + subscriptionConfig(fullArgs...) + `
data "eventnotify_subscription" "test" {
  id = eventnotify_subscription.test.id
}`,
				ConfigStateChecks: checks,
			},
		},
	})
}
