package provider

import (
	"net/http"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// TestAccGuideTroubleshootingPlanReads produces the errors and the warning that the
// troubleshooting guide's sections on plan-time reads and imports quote, and checks that the
// CLI prints what the guide shows: a plan for an account the user has no access to, a base_url
// pasted with the service's path, a catalogue the service fails to serve, and a subscription id
// imported into eventnotify_account_subscriptions.
func TestAccGuideTroubleshootingPlanReads(t *testing.T) {
	const planFails = "## The plan fails: wrong account or address"
	subscription := requiredProviders + subscriptionConfig(`event_name = "PROCESS.EXECUTION"`, `destination_type = "EVENT_STREAMS"`, `log_level = "INFO"`)

	t.Run("wrong account", func(t *testing.T) {
		m := restrictedMock(t)
		w := newCLIWorkspace(t, m)
		w.write("main.tf", subscription)
		out, code := w.run([]string{envAccountID + "=acc-typo"}, "plan", "-input=false", "-no-color")
		if code != 1 {
			t.Fatalf("the plan exits %d, want 1:\n%s", code, out)
		}
		out = quoteDefaults(out, map[string]string{m.URL: "https://auth.example.com", "acc-typo": "my-account-id"})
		expectQuote(t, out, quotedErrors(t, planFails)[0])
	})

	t.Run("base_url with the service's path", func(t *testing.T) {
		m := newTestMock(t)
		w := newCLIWorkspace(t, m)
		w.write("main.tf", subscription)
		out, code := w.run([]string{envBaseURL + "=" + m.URL + "/rest/v1"}, "plan", "-input=false", "-no-color")
		if code != 1 {
			t.Fatalf("the plan exits %d, want 1:\n%s", code, out)
		}
		out = quoteDefaults(out, map[string]string{m.URL: "https://eventnotify.example.com"})
		expectQuote(t, out, quotedErrors(t, planFails)[1])
	})

	t.Run("the service fails", func(t *testing.T) {
		m := newTestMock(t)
		m.InjectFault(mockserver.Fault{Method: http.MethodGet, Route: mockserver.RouteEvents, Status: http.StatusInternalServerError})
		w := newCLIWorkspace(t, m)
		w.write("main.tf", subscription)
		out, code := w.run(nil, "plan", "-input=false", "-no-color")
		if code != 0 {
			t.Fatalf("the plan exits %d, want 0:\n%s", code, out)
		}
		out = quoteDefaults(out, map[string]string{m.URL: "https://eventnotify.example.com"})
		for _, quote := range quotedErrors(t, "## Event names not checked: a warning that may pass") {
			expectQuote(t, out, quote)
		}
	})

	t.Run("a subscription id imported as an account", func(t *testing.T) {
		m := restrictedMock(t)
		w := newCLIWorkspace(t, m)
		w.write("main.tf", requiredProviders+acctConfig(acctEntry{key: "a", event: "ATOM.STATUS", level: "INFO"}))
		out, code := w.run(nil, "import", "-input=false", "-no-color", "eventnotify_account_subscriptions.all", subscriptionIDShaped)
		if code != 1 {
			t.Fatalf("the import exits %d, want 1:\n%s", code, out)
		}
		for _, quote := range quotedErrors(t, "## Import fails: check the import id") {
			expectQuote(t, out, quote)
		}
	})
}
