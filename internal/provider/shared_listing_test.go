package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// TestAccSharedListing_onePassPerPlan: many teams on one account. Five topic resources, a single
// subscription and three eventnotify_subscriptions data sources with different filters (one by
// notified_for) read one account that holds other teams' subscriptions too. A plan that changes
// nothing reads the account's listing once, as many pages as one pass over the account takes,
// whatever the number of readers: they share the provider instance's listing (the client's
// listing cache, AccountSubscriptions) instead of each listing the whole account on its own.
func TestAccSharedListing_onePassPerPlan(t *testing.T) {
	const teams, entries, others = 5, 4, 230
	m := newTestMock(t)
	for i := range others {
		m.PutSubscription(testAccount, onTopic(fmt.Sprintf("other-team-%03d", i), "ATOM.STATUS", logLevels[i%3]))
	}
	var config strings.Builder
	config.WriteString(requiredProviders + m.providerBlock())
	for k := range teams {
		var es []topicEntry
		for e := range entries {
			es = append(es, topicEntry{key: fmt.Sprintf("e%d", e), event: "PROCESS.EXECUTION", level: logLevels[e%3]})
		}
		config.WriteString(topicResourceConfig(fmt.Sprintf("team%d", k), fmt.Sprintf("team-%d", k), es...))
	}
	config.WriteString(`
resource "eventnotify_subscription" "single" {
  event_name          = "ATOM.STATUS"
  destination_type    = "EVENT_STREAMS"
  log_level           = "ERROR"
  event_streams_topic = "single"
}

data "eventnotify_subscriptions" "all" {}

data "eventnotify_subscriptions" "disabled" {
  enabled = false
}

data "eventnotify_subscriptions" "hear_errors" {
  notified_for = {
    event_name = "PROCESS.EXECUTION"
    log_level  = "ERROR"
  }
}
`)
	w := newBareCLIWorkspace(t, m)
	w.write("main.tf", config.String())
	providers := []inProcessProvider{{source: "eventnotify/eventnotify", factory: testProviderFactories["eventnotify"]}}
	w.mustRunInProcess(providers, "apply", "-auto-approve", "-input=false", "-no-color")

	total := len(m.Subscriptions(testAccount))
	if want := others + teams*entries + 1; total != want {
		t.Fatalf("the account holds %d subscriptions after the apply, want %d", total, want)
	}
	pages := onePass(total)
	lists := m.listRequests()
	if out, code := w.runInProcess(providers, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("the plan after the apply was not empty (exit %d):\n%s", code, out)
	}
	if n := m.listRequests() - lists; n != pages {
		t.Fatalf("a no-change plan of %d topic resources, a subscription and 3 data sources read %d listing pages, "+
			"want one pass over the account of %d subscriptions: %d pages", teams, n, total, pages)
	}
}

// onePass is the number of listing pages of one pass over an account of n subscriptions, at the
// provider's page size (100, the mock's largest): the floor of a read of the account.
func onePass(n int) int {
	return max(1, (n+mockserver.DefaultMaxPageSize-1)/mockserver.DefaultMaxPageSize)
}
