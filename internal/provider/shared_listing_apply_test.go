package provider

import (
	"fmt"
	"strings"
	"testing"
)

// TestAccSharedListing_applyPasses: many teams on one account, applied. Five topic resources of
// N entries on an account that holds M other teams' subscriptions. Each resource's writes update
// the provider instance's listing of the account instead of dropping it (the client's listing
// cache, DESIGN.md#listings), so the first apply reads at most two passes over the account,
// whatever the number of resources, and an apply that changes one entry in each resource reads
// at most one pass more than its plan. With every write dropping the listing, each resource
// after a write lists the whole account again: one pass per resource.
func TestAccSharedListing_applyPasses(t *testing.T) {
	const teams, entries, others = 5, 100, 2000
	m := newTestMock(t)
	for i := range others {
		m.PutSubscription(testAccount, onTopic(fmt.Sprintf("other-team-%03d", i), "ATOM.STATUS", logLevels[i%3]))
	}
	config := func(changed bool) string {
		var b strings.Builder
		b.WriteString(requiredProviders + m.providerBlock())
		for k := range teams {
			var es []topicEntry
			for e := range entries {
				level := logLevels[e%3]
				if changed && e == 0 {
					level = logLevels[(e+1)%3]
				}
				es = append(es, topicEntry{key: fmt.Sprintf("e%d", e), event: "PROCESS.EXECUTION", level: level})
			}
			b.WriteString(topicResourceConfig(fmt.Sprintf("team%d", k), fmt.Sprintf("team-%d", k), es...))
		}
		return b.String()
	}
	w := newBareCLIWorkspace(t, m)
	providers := []inProcessProvider{{source: "eventnotify/eventnotify", factory: testProviderFactories["eventnotify"]}}

	w.write("main.tf", config(false))
	lists := m.listRequests()
	w.mustRunInProcess(providers, "apply", "-auto-approve", "-input=false", "-no-color")
	total := len(m.Subscriptions(testAccount))
	if want := others + teams*entries; total != want {
		t.Fatalf("the account holds %d subscriptions after the first apply, want %d", total, want)
	}
	// The first apply's passes are over the account as it was (M) and as it grows to M + K*N.
	if n, most := m.listRequests()-lists, 2*onePass(total); n > most {
		t.Errorf("the first apply of %d topic resources of %d entries on an account of %d others read %d listing pages, "+
			"want at most two passes over the account of %d subscriptions: %d pages", teams, entries, others, n, total, most)
	} else {
		t.Logf("first apply: %d listing pages (one pass: %d)", n, onePass(total))
	}

	w.write("main.tf", config(true))
	lists = m.listRequests()
	if out, code := w.runInProcess(providers, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 2 {
		t.Fatalf("the plan of one changed entry per resource was not a change (exit %d):\n%s", code, out)
	}
	planned := m.listRequests() - lists
	lists = m.listRequests()
	// One resource at a time, so that each resource's apply reads the account after the writes
	// of the ones before it.
	w.mustRunInProcess(providers, "apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=1")
	if n, most := m.listRequests()-lists, planned+onePass(total); n > most {
		t.Errorf("the apply of one changed entry in each of %d topic resources read %d listing pages, want at most "+
			"its plan's %d and one pass more (%d pages)", teams, n, planned, most)
	} else {
		t.Logf("one-entry-change apply: %d listing pages (its plan %d, one pass %d)", n, planned, onePass(total))
	}
	if out, code := w.runInProcess(providers, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("the plan after the change was not empty (exit %d):\n%s", code, out)
	}
}
