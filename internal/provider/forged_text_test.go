package provider

import (
	"net/http"
	"regexp"
	"strings"
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

// TestAccForgedText_createNamesID: a create whose answer (and the account's listing after it)
// carries a forged eventStreamsEnvironmentName is refused, but the service did create the
// subscription: the apply fails naming its id, the one the mock holds, with how to import or
// delete it, instead of an unknown outcome, and nothing is created a second time. Once the
// service answers cleanly, the import the error shows takes it over and the plan is empty.
func TestAccForgedText_createNamesID(t *testing.T) {
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	w.write("versions.tf", requiredProviders)
	w.write("main.tf", subscriptionConfig(`event_name = "ATOM.STATUS"`, `destination_type = "EVENT_STREAMS"`,
		`log_level = "ERROR"`, `event_streams_environment_id = "env-1"`, `event_streams_topic = "alerts"`))
	m.InjectFault(mockserver.Fault{ForgeMember: "eventStreamsEnvironmentName", ForgeValue: forgedTopic})
	out, code := w.run(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	ids := m.mockIDs(testAccount)
	if code != 1 || len(ids) != 1 {
		t.Fatalf("apply exits %d with %d subscriptions at the mock, want 1 and 1:\n%s", code, len(ids), out)
	}
	if n := m.Count(http.MethodPost, mockserver.RouteSubscriptions); n != 1 {
		t.Errorf("%d create requests, want 1", n)
	}
	want := errorPattern("Unable to create subscription", "The service created this subscription in account \"acc-test\"",
		"whose eventStreamsEnvironmentName has the control or invisible character U+001B", "Created, and not in state:", "- "+ids[0],
		"terraform import eventnotify_subscription.<name> acc-test/<id>", "DELETE /rest/v1/accounts/acc-test/subscriptions/<id>")
	if !want.MatchString(out) {
		t.Errorf("the apply's error does not match %s:\n%s", want, out)
	}
	for _, banned := range []string{"lost or unreadable", "outcome is unknown", "cannot tell", "\x1b", "\u202e", "evil.example"} {
		if strings.Contains(out, banned) {
			t.Errorf("the apply's output has %q:\n%s", banned, out)
		}
	}

	m.ClearFaults()
	w.mustRun(nil, "import", "-input=false", "-no-color", "eventnotify_subscription.test", testAccount+"/"+ids[0])
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Errorf("plan after the import exits %d, want 0:\n%s", code, out)
	}
	w.mustRun(nil, "destroy", "-auto-approve", "-input=false", "-no-color")
	if n := len(m.Subscriptions(testAccount)); n != 0 {
		t.Errorf("the mock holds %d subscriptions after destroy", n)
	}
}
