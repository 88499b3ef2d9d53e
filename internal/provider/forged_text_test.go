package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// forgedTopic is a topic as a hostile service (or a proxy) would serve it: an OSC 8 link,
// a carriage return and a new line that would draw a forged plan line, a right-to-left
// override.
const forgedTopic = "alerts\x1b]8;;https://evil.example\a\r\n  + resource \"forged\"\u202e"

// TestAccForgedText_refused: when the service answers a refresh with a subscription whose
// topic holds terminal escapes, the apply fails with an error naming the subscription and the
// field, none of the forged characters reach Terraform's output, and the state keeps the
// topic it held; once the service answers cleanly again, the plan is empty.
func TestAccForgedText_refused(t *testing.T) {
	m := newTestMock(t)
	config := m.providerBlock() + subscriptionConfig(fullArgs...)
	// The whole of Terraform's output: the refusal, and not one of the forged characters.
	clean := `[^\x1b\x07\r\x{202e}]*`
	refused := regexp.MustCompile(`(?s)^` + clean + `could\s+not\s+decode\s+response\s+of\s+(list\s+subscriptions|read\s+subscription):\s+the\s+answer\s+holds\s+` +
		`subscription\s+"[0-9a-f-]{36}"\s+whose\s+eventStreamsTopic\s+has\s+the\s+control\s+or\s+invisible\s+character\s+U\+001B` + clean + `$`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{Config: config},
			{
				PreConfig: func() {
					m.InjectFault(mockserver.Fault{ForgeMember: "eventStreamsTopic", ForgeValue: forgedTopic})
				},
				Config:      config,
				ExpectError: refused,
			},
			{
				PreConfig: m.ClearFaults,
				Config:    config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("eventnotify_subscription.test", tfjsonpath.New("event_streams_topic"), knownvalue.StringExact("alerts")),
				},
			},
		},
	})
}
