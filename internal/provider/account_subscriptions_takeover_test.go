package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// takeoverSeed puts n subscriptions into the mock's testAccount, of varied content, with ids in
// the order the warning names them in.
func takeoverSeed(m *testMock, n int) []mockserver.Subscription {
	levels := []string{"INFO", "WARNING", "ERROR"}
	out := make([]mockserver.Subscription, n)
	for i := range out {
		s := mockserver.Subscription{EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS", LogLevel: levels[i%3],
			EventStreamsEnvironment: "env-1", EventStreamsTopic: fmt.Sprintf("topic-%d", i), Enabled: true}
		if i == 1 {
			s = mockserver.Subscription{EventName: "flow.deployed", DestinationType: "EMAIL", LogLevel: "INFO",
				DestinationEmail: "ops@example.com", Enabled: false}
		}
		s.SubscriptionID = fmt.Sprintf("00000000-0000-4000-8000-%012d", i+1)
		out[i] = m.PutSubscription(testAccount, s)
	}
	return out
}

// TestAccountSubscriptions_takeoverPlan plans the creation of eventnotify_account_subscriptions
// on accounts that already hold subscriptions, through the provider server, and checks the
// plan's diagnostics: a warning that names each subscription the apply will delete (id,
// event, destination, log level; the first 10 and how many more), that leaves out one an
// entry takes over, and that says how to keep them. The plan only reads: the mock counts no
// write. ProtocolServer answers as the framework does.
func TestAccountSubscriptions_takeoverPlan(t *testing.T) {
	entry := map[string]any{"event_name": "PROCESS.EXECUTION", "destination_type": "EVENT_STREAMS", "log_level": "WARNING",
		"event_streams_environment_id": "env-1", "event_streams_topic": "processes"}
	cases := []struct {
		name        string
		seed        int
		accountID   any                                 // configured account_id
		entries     func([]mockserver.Subscription) any // the configured map
		fault       bool                                // the listing fails
		wantSummary string                              // "" for no diagnostic
		wantNamed   int                                 // subscriptions named, from the first
		skipNamed   int                                 // index of a seeded subscription not named (-1: none)
		wantMore    string
		wantError   bool
		taken       map[int]string // seeded subscription -> the key of the entry that takes it over
	}{
		{name: "3 held, 1 entry like none", seed: 3, accountID: testAccount,
			entries:     func([]mockserver.Subscription) any { return map[string]map[string]any{"a": entry} },
			wantSummary: `The first apply deletes 3 subscriptions that account "acc-test" already holds`, wantNamed: 3, skipNamed: -1},
		{name: "account_id left out", seed: 1, accountID: nil,
			entries:     func([]mockserver.Subscription) any { return map[string]map[string]any{"a": entry} },
			wantSummary: `The first apply deletes 1 subscription that account "acc-test" already holds`, wantNamed: 1, skipNamed: -1},
		{name: "an entry like one of them, in another spelling", seed: 3, accountID: testAccount,
			entries: func(subs []mockserver.Subscription) any {
				return map[string]map[string]any{"a": entry, "kept": {"event_name": "atom.status", "destination_type": "EVENT_STREAMS",
					"log_level": subs[2].LogLevel, "event_streams_environment_id": subs[2].EventStreamsEnvironment,
					"event_streams_topic": subs[2].EventStreamsTopic}}
			},
			wantSummary: `The first apply deletes 2 subscriptions that account "acc-test" already holds`, wantNamed: 3, skipNamed: 2,
			taken: map[int]string{2: "kept"}},
		{name: "many", seed: 25, accountID: testAccount,
			entries:     func([]mockserver.Subscription) any { return map[string]map[string]any{} },
			wantSummary: `The first apply deletes 25 subscriptions`, wantNamed: 10, skipNamed: 10, wantMore: "... and 15 more"},
		{name: "an entry known only at apply", seed: 2, accountID: testAccount,
			entries: func([]mockserver.Subscription) any {
				return map[string]any{"a": with(entry, map[string]any{"event_streams_topic": unknown{}})}
			},
			wantSummary: `The first apply may delete 2 subscriptions`, wantNamed: 2, skipNamed: -1},
		{name: "the map known only at apply", seed: 2, accountID: testAccount,
			entries:     func([]mockserver.Subscription) any { return unknown{} },
			wantSummary: `The first apply may delete 2 subscriptions`, wantNamed: 2, skipNamed: -1},
		{name: "every subscription taken over", seed: 1, accountID: testAccount,
			entries: func(subs []mockserver.Subscription) any {
				return map[string]map[string]any{"a": configEntry(subs[0])}
			}, taken: map[int]string{0: "a"}},
		{name: "an empty account", accountID: testAccount,
			entries: func([]mockserver.Subscription) any { return map[string]map[string]any{"a": entry} }},
		{name: "the account known only at apply", seed: 1, accountID: unknown{},
			entries:     func([]mockserver.Subscription) any { return map[string]map[string]any{"a": entry} },
			wantSummary: "The plan cannot list the account's subscriptions", skipNamed: -1},
		{name: "the listing fails", seed: 1, accountID: testAccount, fault: true,
			entries:     func([]mockserver.Subscription) any { return map[string]map[string]any{"a": entry} },
			wantSummary: `Unable to list the subscriptions of account acc-test`, wantError: true, skipNamed: -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			subs := takeoverSeed(m, tc.seed)
			tw := newTwinServers(t, m)
			config := tw.account(map[string]any{"account_id": tc.accountID}, tc.entries(subs))
			req := func() *tfprotov6.PlanResourceChangeRequest {
				if tc.fault {
					m.InjectFault(mockserver.Fault{Method: "GET", Route: mockserver.RouteSubscriptions, Status: 403, Count: 1})
				}
				return &tfprotov6.PlanResourceChangeRequest{TypeName: tw.protocol.typeName,
					PriorState: tw.dynamic(tftypes.NewValue(tw.protocol.typ, nil)), ProposedNewState: tw.dynamic(config),
					Config: tw.dynamic(config)}
			}
			framework, fast := answerBoth(tw, false, req, func(r *tfprotov6.PlanResourceChangeRequest) bool {
				_, ok := tw.protocol.planResourceChange(context.Background(), r)
				return ok
			}, frameworkServer.PlanResourceChange)
			tw.sameDiagnostics("PlanResourceChange", framework.Diagnostics, fast.Diagnostics)
			if w := m.writes(); w.total() != 0 {
				t.Errorf("the plans made %s, want none", w)
			}
			diags := checkTakenOverWarning(t, fast.Diagnostics, subs, tc.taken)
			if tc.wantSummary == "" {
				if len(diags) != 0 {
					t.Fatalf("diagnostics %q, want none", diagnosticSet(diags))
				}
				return
			}
			if len(diags) != 1 {
				t.Fatalf("diagnostics %q, want one", diagnosticSet(diags))
			}
			d := diags[0]
			if wantSeverity := map[bool]tfprotov6.DiagnosticSeverity{false: tfprotov6.DiagnosticSeverityWarning,
				true: tfprotov6.DiagnosticSeverityError}[tc.wantError]; d.Severity != wantSeverity {
				t.Errorf("severity %v, want %v", d.Severity, wantSeverity)
			}
			if !strings.HasPrefix(d.Summary, tc.wantSummary) {
				t.Errorf("summary %q, want it to start with %q", d.Summary, tc.wantSummary)
			}
			if tc.wantError {
				return
			}
			for _, phrase := range []string{"terraform import eventnotify_account_subscriptions.NAME acc-test",
				"import block", "removal"} {
				if tc.accountID == (unknown{}) {
					phrase = strings.ReplaceAll(phrase, "acc-test", "<account_id>")
				}
				if !strings.Contains(d.Detail, phrase) {
					t.Errorf("detail lacks %q:\n%s", phrase, d.Detail)
				}
			}
			for i, s := range subs {
				line := fmt.Sprintf("%q: event %q, destination %q", s.SubscriptionID, s.EventName, s.DestinationType)
				switch {
				case s.EventStreamsTopic != "":
					line += fmt.Sprintf(" topic %q", s.EventStreamsTopic)
				case s.DestinationEmail != "":
					line += fmt.Sprintf(" %q", s.DestinationEmail)
				}
				line += fmt.Sprintf(", log level %q", s.LogLevel)
				if !s.Enabled {
					line += " (disabled)"
				}
				named := strings.Contains(d.Detail, "  - "+line+"\n")
				if want := i < tc.wantNamed && i != tc.skipNamed; named != want {
					t.Errorf("subscription %d named: %t, want %t (%s):\n%s", i, named, want, line, d.Detail)
				}
			}
			if tc.wantMore != "" && !strings.Contains(d.Detail, tc.wantMore) {
				t.Errorf("detail lacks %q:\n%s", tc.wantMore, d.Detail)
			}
			if uncertain := strings.Contains(d.Detail, "known only at apply"); uncertain != strings.Contains(tc.wantSummary, "may") &&
				tc.accountID != (unknown{}) {
				t.Errorf("detail says some entries are known only at apply: %t:\n%s", uncertain, d.Detail)
			}
		})
	}
}

// takenOverSummaryPrefix starts the summary of the warning that names the subscriptions the
// first apply takes over.
const takenOverSummaryPrefix = "The first apply takes over "

// checkTakenOverWarning checks the warning that names the subscriptions the entries take over:
// there is one exactly when taken names any, with the count in its summary, and its detail
// names each one taken (id, event, destination, log level) with its entry's key, and no other
// seeded subscription. It returns the other diagnostics.
func checkTakenOverWarning(t *testing.T, diags []*tfprotov6.Diagnostic, subs []mockserver.Subscription, taken map[int]string) []*tfprotov6.Diagnostic {
	t.Helper()
	var rest, found []*tfprotov6.Diagnostic
	for _, d := range diags {
		if strings.HasPrefix(d.Summary, takenOverSummaryPrefix) {
			found = append(found, d)
		} else {
			rest = append(rest, d)
		}
	}
	if len(taken) == 0 {
		if len(found) != 0 {
			t.Errorf("a warning naming subscriptions taken over %q, want none", diagnosticSet(found))
		}
		return rest
	}
	if len(found) != 1 {
		t.Fatalf("warnings naming subscriptions taken over %q, want one", diagnosticSet(found))
	}
	d := found[0]
	noun := "subscriptions"
	if len(taken) == 1 {
		noun = "subscription"
	}
	// The summary names the first entry's subscription, entries in the order of their keys.
	first := -1
	for i, key := range taken {
		if first < 0 || key < taken[first] {
			first = i
		}
	}
	want := fmt.Sprintf("%s%d %s that account %q already holds: subscription %s (entry %q)", takenOverSummaryPrefix,
		len(taken), noun, testAccount, subs[first].SubscriptionID, taken[first])
	if len(taken) > 1 {
		want += fmt.Sprintf(" and %d more", len(taken)-1)
	}
	if d.Summary != want ||
		d.Severity != tfprotov6.DiagnosticSeverityWarning {
		t.Errorf("the warning naming subscriptions taken over is %v %q, want a warning %q", d.Severity, d.Summary, want)
	}
	for i, s := range subs {
		key, want := taken[i]
		line := fmt.Sprintf("  - entry %q takes over %q: event %q", key, s.SubscriptionID, s.EventName)
		if named := strings.Contains(d.Detail, line); named != want {
			t.Errorf("subscription %d named as taken over by entry %q: %t, want %t:\n%s", i, key, named, want, d.Detail)
		}
		if !want && strings.Contains(d.Detail, s.SubscriptionID) {
			t.Errorf("subscription %s, which no entry takes over, is named:\n%s", s.SubscriptionID, d.Detail)
		}
	}
	if !strings.Contains(d.Detail, "both then hold it") {
		t.Errorf("the warning naming subscriptions taken over does not say what two holders mean:\n%s", d.Detail)
	}
	return rest
}

// TestDescribeEntry bounds and escapes what the service says.
func TestDescribeEntry(t *testing.T) {
	e := accountEntryFromAPI(&client.Subscription{ID: "id-1", EventName: strings.Repeat("e", 200), DestinationType: "EVENT_STREAMS",
		LogLevel: "INFO\x1b[2J", EventStreamsTopic: "t", Enabled: true})
	got := describeEntry(e)
	if strings.ContainsRune(got, '\x1b') || !strings.Contains(got, `\x1b[2J`) {
		t.Errorf("a control character is not escaped: %q", got)
	}
	if want := fmt.Sprintf("event %q...", strings.Repeat("e", takeoverValueMax)); !strings.Contains(got, want) {
		t.Errorf("a long value is not cut to %d characters: %q", takeoverValueMax, got)
	}
}
