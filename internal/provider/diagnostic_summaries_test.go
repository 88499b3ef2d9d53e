package provider

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// summaryCase is a diagnostic constructor of the provider that names subscriptions, called with
// the subscriptions it names: ids (in the order the diagnostic names them), and key, the entry
// of the account or topic resource where the constructor knows it.
type summaryCase struct {
	name    string
	ids     []string
	key     string
	summary func(ids []string, key string) string
}

// summaryCases lists every diagnostic constructor that names a subscription. A new diagnostic
// that names one (or several) gets a row: TestDiagnosticSummariesNameSubscriptions holds it to
// the rule of diagnostic_summaries.go.
func summaryCases() []summaryCase {
	cause := errors.New("HTTP 502 Bad Gateway")
	late := func(ids []string, key string) string {
		s, _, _ := createWarning(&client.LateAdoptionWarning{AccountID: "acc-1", SubscriptionID: ids[0]}, key)
		return s
	}
	again := func(ids []string, key string) string {
		s, _, _ := createWarning(&client.RecreatedWarning{AccountID: "acc-1", SubscriptionID: ids[0], Cause: cause}, key)
		return s
	}
	unknown := func(ids []string) error {
		return &client.UnknownOutcomeError{Operation: "create subscriptions", AccountID: "acc-1", Candidates: ids, Cause: cause}
	}
	unreadable := func(ids []string) error {
		return &client.CreatedUnreadableError{Operation: "create subscriptions", AccountID: "acc-1", IDs: ids, Cause: cause}
	}
	entriesOf := func(ids []string) []accountEntry {
		out := make([]accountEntry, len(ids))
		for i, id := range ids {
			out[i] = accountEntry{ID: types.StringValue(id)}
		}
		return out
	}
	one, two, many := []string{"sub-1"}, []string{"sub-1", "sub-2"}, []string{"sub-1", "sub-2", "sub-3", "sub-4"}
	var cases []summaryCase
	add := func(name string, idSets [][]string, key string, f func([]string, string) string) {
		for _, ids := range idSets {
			cases = append(cases, summaryCase{name: fmt.Sprintf("%s, %d ids", name, len(ids)), ids: ids, key: key, summary: f})
		}
	}
	// Creates that succeeded with a doubt (diagnostics.go).
	add("late adoption", [][]string{one}, "", late)
	add("late adoption of an entry", [][]string{one}, "web", late)
	add("created again", [][]string{one}, "", again)
	add("created again for an entry", [][]string{one}, "web", again)
	// Creates that failed (diagnostics.go, scoped_converge.go).
	add("single resource, outcome unknown", [][]string{one, two, many}, "", func(ids []string, _ string) string {
		return createErrorSummary("Unable to create subscription", unknown(ids))
	})
	add("single resource, created but refused", [][]string{one, two}, "", func(ids []string, _ string) string {
		return createErrorSummary("Unable to create subscription", unreadable(ids))
	})
	add("account resource, outcome unknown", [][]string{one, many}, "", func(ids []string, _ string) string {
		return createFailedSummary("acc-1", 2, 1, unknown(ids))
	})
	add("account resource, created but refused", [][]string{one, many}, "", func(ids []string, _ string) string {
		return createFailedSummary("acc-1", 2, 0, unreadable(ids))
	})
	// Deletes and updates of entries (scoped_converge.go).
	add("delete", [][]string{one, many}, "", func(ids []string, _ string) string { return deleteFailedSummary("acc-1", ids) })
	add("update of an entry", [][]string{one}, "web", func(ids []string, key string) string {
		return updateFailedSummary(ids[0], key, false)
	})
	add("update of an entry found gone", [][]string{one}, "web", func(ids []string, key string) string {
		return updateFailedSummary(ids[0], key, true)
	})
	// The takeover's warnings (scoped_takeover.go).
	add("takeover deletes", [][]string{one, many}, "", func(ids []string, _ string) string {
		return takeoverSummary(subscriptionScope{}, "acc-1", entriesOf(ids), false)
	})
	add("takeover of a topic may delete", [][]string{one, many}, "", func(ids []string, _ string) string {
		return takeoverSummary(topicScope("env-1", "orders"), "acc-1", entriesOf(ids), true)
	})
	add("takeover takes over", [][]string{one, many}, "a-key", func(ids []string, key string) string {
		taken := make([]entryTakeover, len(ids))
		for i, e := range entriesOf(ids) {
			taken[i] = entryTakeover{key: key, held: e}
			key = fmt.Sprintf("z-%d", i) // the entries after the first
		}
		return takenOverSummary(subscriptionScope{}, "acc-1", taken)
	})
	// Two holders (holders.go, topic_subscriptions_holders.go), through the registry.
	add("two single resources with one id", [][]string{one}, "", func(ids []string, _ string) string {
		r := newHolderRegistry()
		return onlySummary(append(r.holdSubscription("acc-1", ids[0]), r.holdSubscription("acc-1", ids[0])...))
	})
	add("account resource and single ones", [][]string{one, many}, "", func(ids []string, _ string) string {
		r := newHolderRegistry()
		var d diag.Diagnostics
		for _, id := range ids {
			d.Append(r.holdSubscription("acc-1", id)...)
		}
		d.Append(r.holdSubscription("acc-1", "")...) // one to be created: named in the detail only
		return onlySummary(append(d, r.holdAccount("acc-1", []string{"k"}, nil)...))
	})
	add("topic resource and single ones", [][]string{one, many}, "", func(ids []string, _ string) string {
		r := newHolderRegistry()
		t := topicHolder{"acc-1", "env-1", "orders"}
		var d diag.Diagnostics
		for _, id := range ids {
			d.Append(r.holdSubscriptionOnTopic(t, id)...)
		}
		return onlySummary(append(d, r.holdTopic("acc-1", topicScope("env-1", "orders"), []string{"k"}, nil)...))
	})
	// A planned create's look-alikes: an interrupted apply's orphans (subscription_lookalikes.go).
	add("look-alike of a planned create", [][]string{one}, "", func(ids []string, _ string) string { return lookalikeWarningSummary(ids[0]) })
	// The actions (subscriptions_action.go).
	add("action: ids not found", [][]string{one, many}, "", func(ids []string, _ string) string { return notFoundSummary(ids) })
	add("action: an update failed", [][]string{one}, "", func(ids []string, _ string) string {
		var d diag.Diagnostics
		addSubscriptionActionError(&d, "disable", client.SubscriptionUpdate{ID: ids[0]}, cause)
		return onlySummary(d)
	})
	return cases
}

// onlySummary is the summary of the one diagnostic of d, or what d holds instead.
func onlySummary(d diag.Diagnostics) string {
	if len(d) != 1 {
		return fmt.Sprintf("%d diagnostics: %v", len(d), d)
	}
	return d[0].Summary()
}

// TestDiagnosticSummariesNameSubscriptions holds every diagnostic that names subscriptions to
// the rule of diagnostic_summaries.go: its summary names the first subscription (and the entry
// that holds it, where known) and how many more, so that Terraform, which prints warnings of
// one summary as one, prints each; and two diagnostics that name other subscriptions never
// share a summary.
func TestDiagnosticSummariesNameSubscriptions(t *testing.T) {
	for _, tc := range summaryCases() {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.summary(tc.ids, tc.key)
			if !strings.Contains(got, tc.ids[0]) {
				t.Errorf("summary %q does not name subscription %s", got, tc.ids[0])
			}
			if more := fmt.Sprintf("and %d more", len(tc.ids)-1); len(tc.ids) > 1 && !strings.Contains(got, more) {
				t.Errorf("summary %q does not say %q", got, more)
			}
			for _, id := range tc.ids[1:] {
				if strings.Contains(got, id) {
					t.Errorf("summary %q names %s, past the first: the detail lists the others", got, id)
				}
			}
			if entry := fmt.Sprintf("(entry %q)", tc.key); tc.key != "" && !strings.Contains(got, entry) {
				t.Errorf("summary %q does not name the entry: %s", got, entry)
			}
			// Another first subscription, another summary: Terraform does not fold the two.
			other := append([]string{"sub-other"}, tc.ids[1:]...)
			if tc.summary(other, tc.key) == got {
				t.Errorf("subscriptions %v and %v give one summary %q", tc.ids, other, got)
			}
		})
	}
}

// TestSummaryID: an id of the service's characters is named as it is; anything else quoted and
// bounded (the service's text is data).
func TestSummaryID(t *testing.T) {
	for id, want := range map[string]string{
		"3fa85f64-5717-4562-b3fc-2c963f66afa6": "3fa85f64-5717-4562-b3fc-2c963f66afa6",
		"sub_1.a":                              "sub_1.a",
		"evil\nWarning: forged":                `"evil\nWarning: forged"`,
		"":                                     `""`,
		strings.Repeat("a", 65):                `"` + strings.Repeat("a", 65) + `"`,
	} {
		if got := summaryID(id); got != want {
			t.Errorf("summaryID(%q) = %s, want %s", id, got, want)
		}
	}
}
