package provider

import (
	"context"
	"fmt"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// The actions at the protocol level: InvokeAction on the provider server that Terraform 1.14
// and later talks to, against the mock (no CLI that runs actions can be built from the module
// proxy, so CI's Terraform has none). The CLI run is TestAccSubscriptionsAction_cli, which
// skips below Terraform 1.14 and under OpenTofu.

const (
	disableActionType = "eventnotify_disable_subscriptions"
	enableActionType  = "eventnotify_enable_subscriptions"
)

// newActionServer serves the provider configured for the mock as newConfiguredListServer does,
// with max_batch_size set when maxBatch > 0.
func newActionServer(t testing.TB, m *testMock, maxBatch int) *listServer {
	t.Helper()
	s := newListServer(t)
	args := mockProviderArgs(m)
	if maxBatch > 0 {
		args["max_batch_size"] = tftypes.NewValue(tftypes.Number, big.NewFloat(float64(maxBatch)))
	}
	s.configure(args)
	return s
}

// actionConfig encodes an action's arguments: strings, and a list of strings for ids.
func (s *listServer) actionConfig(typeName string, args map[string]any) *tfprotov6.DynamicValue {
	s.t.Helper()
	as := s.schemas.ActionSchemas[typeName]
	if as == nil || as.Schema == nil {
		s.t.Fatalf("the provider reports no action schema for %s", typeName)
	}
	values := map[string]tftypes.Value{}
	for name, v := range args {
		switch v := v.(type) {
		case string:
			values[name] = tftypes.NewValue(tftypes.String, v)
		case []string:
			elems := make([]tftypes.Value, len(v))
			for i, e := range v {
				elems[i] = tftypes.NewValue(tftypes.String, e)
			}
			values[name] = tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, elems)
		default:
			s.t.Fatalf("argument %s: unsupported %T", name, v)
		}
	}
	dv := s.dynamicValue(as.Schema.ValueType(), values)
	return &dv
}

// invocation is what an InvokeAction streamed: its progress messages and the diagnostics of
// its completed event.
type invocation struct {
	progress    []string
	diagnostics []*tfprotov6.Diagnostic
}

// invoke calls InvokeAction and reads the whole stream, which must end with one completed
// event.
func (s *listServer) invoke(typeName string, args map[string]any) invocation {
	s.t.Helper()
	return s.invokeWith(typeName, s.actionConfig(typeName, args))
}

// invokeWith is invoke with the configuration as Terraform encodes it (nil when it sends none).
func (s *listServer) invokeWith(typeName string, config *tfprotov6.DynamicValue) invocation {
	s.t.Helper()
	stream, err := s.server.InvokeAction(context.Background(), &tfprotov6.InvokeActionRequest{
		ActionType: typeName, Config: config,
	})
	if err != nil {
		s.t.Fatal(err)
	}
	var got invocation
	completed := 0
	for ev := range stream.Events {
		switch e := ev.Type.(type) {
		case tfprotov6.ProgressInvokeActionEventType:
			if completed > 0 {
				s.t.Errorf("progress %q after the completed event", e.Message)
			}
			got.progress = append(got.progress, e.Message)
		case tfprotov6.CompletedInvokeActionEventType:
			completed++
			got.diagnostics = append(got.diagnostics, e.Diagnostics...)
		default:
			s.t.Fatalf("unexpected event %T", ev.Type)
		}
	}
	if completed != 1 {
		s.t.Fatalf("%d completed events, want 1", completed)
	}
	return got
}

// errors returns the summaries and details of the error diagnostics.
func (inv invocation) errors() []string {
	var out []string
	for _, d := range inv.diagnostics {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			out = append(out, d.Summary+": "+d.Detail)
		}
	}
	return out
}

// wantProgress fails unless the progress messages are want, each given by a part of it.
func (inv invocation) wantProgress(t *testing.T, want ...string) {
	t.Helper()
	if len(inv.progress) != len(want) {
		t.Fatalf("progress %q, want %d messages containing %q", inv.progress, len(want), want)
	}
	for i, w := range want {
		if !strings.Contains(inv.progress[i], w) {
			t.Errorf("progress %d = %q, want it to contain %q", i, inv.progress[i], w)
		}
	}
}

// snapshot is every subscription of the mock's two test accounts, by id.
func snapshot(m *testMock) map[string]mockserver.Subscription {
	out := map[string]mockserver.Subscription{}
	for _, account := range []string{testAccount, "acc-other"} {
		for _, s := range m.Subscriptions(account) {
			out[s.SubscriptionID] = s
		}
	}
	return out
}

// wantOnlyToggled fails unless the mock holds, compared with before, exactly the subscriptions
// of changed with enabled set to enabled (and their update stamps moved), and every other
// subscription unchanged.
func wantOnlyToggled(t *testing.T, m *testMock, before map[string]mockserver.Subscription, enabled bool, changed ...string) {
	t.Helper()
	after := snapshot(m)
	if len(after) != len(before) {
		t.Fatalf("the mock holds %d subscriptions, had %d", len(after), len(before))
	}
	for id, was := range before {
		now := after[id]
		if !slices.Contains(changed, id) {
			if now != was {
				t.Errorf("%s changed although it was not to:\n was %+v\n now %+v", id, was, now)
			}
			continue
		}
		want := was
		want.Enabled, want.LastUpdatedDate, want.LastUpdatedUserID = enabled, now.LastUpdatedDate, testUser
		if now != want {
			t.Errorf("%s:\n got  %+v\n want %+v", id, now, want)
		}
	}
}

// sid is the id of the seeded subscription that ends in suffix (seedListSubscriptions).
func sid(suffix string) string { return "00000000-0000-4000-8000-00000000000" + suffix }

// TestSubscriptionsAction_schema checks that both actions are announced with their optional
// arguments.
func TestSubscriptionsAction_schema(t *testing.T) {
	t.Parallel()
	s := newListServer(t)
	for _, typeName := range []string{disableActionType, enableActionType} {
		as := s.schemas.ActionSchemas[typeName]
		if as == nil || as.Schema == nil || as.Schema.Block == nil {
			t.Fatalf("no action schema for %s (have %v)", typeName, s.schemas.ActionSchemas)
		}
		var names []string
		for _, a := range as.Schema.Block.Attributes {
			names = append(names, a.Name)
			if !a.Optional || a.Required || a.Computed {
				t.Errorf("%s.%s: optional %v, required %v, computed %v; want optional only", typeName, a.Name, a.Optional, a.Required, a.Computed)
			}
		}
		slices.Sort(names)
		if want := []string{"account_id", "destination_type", "event_name", "ids", "log_level"}; !slices.Equal(names, want) {
			t.Errorf("%s arguments %v, want %v", typeName, names, want)
		}
	}
}

// TestSubscriptionsAction_filters invokes the actions with each filter: exactly the matching
// subscriptions whose enabled differs are written, in one bulk update, and the progress says
// how many matched and changed.
func TestSubscriptionsAction_filters(t *testing.T) {
	t.Parallel()
	// Seeded (seedListSubscriptions): 5 ATOM.DEPLOYMENT INFO enabled; 1 ATOM.STATUS INFO
	// disabled; 2 atom.status WARNING enabled; 4 ENVIRONMENT.ALERT EMAIL ERROR enabled;
	// 3 PROCESS.EXECUTION ERROR enabled; acc-other: aa ATOM.STATUS enabled.
	tests := []struct {
		name     string
		action   string
		args     map[string]any
		changed  []string
		requests int
		progress []string
	}{
		{name: "no filter: every subscription of the account", action: disableActionType, args: map[string]any{},
			changed: []string{sid("5"), sid("2"), sid("4"), sid("3")}, requests: 1,
			progress: []string{"5 of the 5 subscriptions of account " + testAccount + " match; 4 to disable, 1 already disabled.",
				"Disabled 4 subscriptions of account " + testAccount + "."}},
		{name: "event name in another case", action: disableActionType, args: map[string]any{"event_name": "Atom.Status"},
			changed: []string{sid("2")}, requests: 1,
			progress: []string{"2 of the 5 subscriptions", "Disabled 1 subscription of"}},
		{name: "destination type", action: disableActionType, args: map[string]any{"destination_type": "EMAIL"},
			changed: []string{sid("4")}, requests: 1,
			progress: []string{"1 of the 5 subscriptions of account " + testAccount + " matches; 1 to disable, 0 already disabled.",
				"Disabled 1 subscription of account " + testAccount + "."}},
		{name: "log level", action: disableActionType, args: map[string]any{"log_level": "ERROR"},
			changed: []string{sid("4"), sid("3")}, requests: 1, progress: []string{"2 of the 5", "Disabled 2"}},
		{name: "ids and another filter", action: disableActionType,
			args:    map[string]any{"ids": []string{sid("3"), sid("5")}, "log_level": "INFO"},
			changed: []string{sid("5")}, requests: 1, progress: []string{"1 of the 5", "Disabled 1"}},
		{name: "another account", action: disableActionType, args: map[string]any{"account_id": "acc-other"},
			changed: []string{"00000000-0000-4000-8000-0000000000aa"}, requests: 1,
			progress: []string{"1 of the 1 subscription of account acc-other matches;", "Disabled 1 subscription of account acc-other."}},
		{name: "nothing matched", action: disableActionType, args: map[string]any{"event_name": "NO.SUCH.EVENT"},
			progress: []string{"No subscription of account " + testAccount + " matches the filters (5 listed): nothing to disable."}},
		{name: "an empty ids list matches nothing", action: disableActionType, args: map[string]any{"ids": []string{}},
			progress: []string{"No subscription"}},
		{name: "already in the target state", action: disableActionType, args: map[string]any{"ids": []string{sid("1")}},
			progress: []string{"1 of the 5 subscriptions of account " + testAccount + " matches; 0 to disable, 1 already disabled."}},
		{name: "enable", action: enableActionType, args: map[string]any{"event_name": "atom.status"},
			changed: []string{sid("1")}, requests: 1,
			progress: []string{"2 of the 5 subscriptions of account " + testAccount + " match; 1 to enable, 1 already enabled.",
				"Enabled 1 subscription of"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := newTestMock(t)
			seedListSubscriptions(m)
			s := newActionServer(t, m, 0)
			before := snapshot(m)
			inv := s.invoke(tt.action, tt.args)
			requireNoDiagnostics(t, "InvokeAction", inv.diagnostics)
			inv.wantProgress(t, tt.progress...)
			wantOnlyToggled(t, m, before, tt.action == enableActionType, tt.changed...)
			if got := m.Count(http.MethodPatch, mockserver.RouteSubscriptions); got != tt.requests {
				t.Errorf("%d bulk requests, want %d", got, tt.requests)
			}
			if got := m.Count(http.MethodPut, mockserver.RouteSubscription); got != 0 {
				t.Errorf("%d PUTs, want none", got)
			}
			if got := m.Count(http.MethodGet, mockserver.RouteSubscriptions); got != 1 {
				t.Errorf("%d listings, want 1", got)
			}
		})
	}
}

// TestSubscriptionsAction_batches checks one bulk request per max_batch_size subscriptions.
func TestSubscriptionsAction_batches(t *testing.T) {
	t.Parallel()
	m := newTestMock(t)
	var want []string
	for i := range 5 {
		s := m.PutSubscription(testAccount, mockserver.Subscription{EventName: fmt.Sprintf("EVENT.%d", i),
			DestinationType: "EVENT_STREAMS", LogLevel: "INFO", EventStreamsTopic: "t", Enabled: true})
		want = append(want, s.SubscriptionID)
	}
	s := newActionServer(t, m, 2)
	before := snapshot(m)
	inv := s.invoke(disableActionType, map[string]any{})
	requireNoDiagnostics(t, "InvokeAction", inv.diagnostics)
	inv.wantProgress(t, "5 of the 5", "Disabled 5 subscriptions")
	wantOnlyToggled(t, m, before, false, want...)
	if got := m.Count(http.MethodPatch, mockserver.RouteSubscriptions); got != 3 {
		t.Errorf("%d bulk requests for 5 subscriptions with max_batch_size = 2, want 3", got)
	}
}

// TestSubscriptionsAction_fallback checks that a service that refuses the bulk update gets one
// PUT per subscription, with the same result.
func TestSubscriptionsAction_fallback(t *testing.T) {
	t.Parallel()
	m := newTestMock(t)
	seedListSubscriptions(m)
	m.SetBulkUpdateRefused(true)
	s := newActionServer(t, m, 0)
	before := snapshot(m)
	inv := s.invoke(disableActionType, map[string]any{})
	requireNoDiagnostics(t, "InvokeAction", inv.diagnostics)
	inv.wantProgress(t, "4 to disable", "Disabled 4 subscriptions")
	wantOnlyToggled(t, m, before, false, sid("5"), sid("2"), sid("4"), sid("3"))
	if got := m.Count(http.MethodPatch, mockserver.RouteSubscriptions); got != 1 {
		t.Errorf("%d bulk requests, want 1 (refused)", got)
	}
	if got := m.Count(http.MethodPut, mockserver.RouteSubscription); got != 4 {
		t.Errorf("%d PUTs, want 4", got)
	}

	// The same provider instance goes straight to PUTs.
	before = snapshot(m)
	inv = s.invoke(enableActionType, map[string]any{"ids": []string{sid("3")}})
	requireNoDiagnostics(t, "InvokeAction", inv.diagnostics)
	wantOnlyToggled(t, m, before, true, sid("3"))
	if got := m.Count(http.MethodPatch, mockserver.RouteSubscriptions); got != 1 {
		t.Errorf("%d bulk requests after the fallback, want still 1", got)
	}
	if got := m.Count(http.MethodPut, mockserver.RouteSubscription); got != 5 {
		t.Errorf("%d PUTs, want 5", got)
	}
}

// TestSubscriptionsAction_failures checks the errors: a failed listing changes nothing; a
// failed bulk request and a refused item each give an error naming the subscription, and the
// other subscriptions are changed all the same.
func TestSubscriptionsAction_failures(t *testing.T) {
	t.Parallel()
	ghost := "00000000-0000-4000-8000-0000000000ff"
	tests := []struct {
		name     string
		setup    func(*testMock)
		changed  []string
		errors   []string // parts of each error, in order
		progress []string
	}{
		{name: "listing fails", setup: func(m *testMock) {
			m.InjectFault(mockserver.Fault{Method: http.MethodGet, Route: mockserver.RouteSubscriptions, Status: http.StatusInternalServerError})
		}, errors: []string{"Unable to list the subscriptions of account " + testAccount}},
		{name: "bulk request fails", setup: func(m *testMock) {
			m.InjectFault(mockserver.Fault{Method: http.MethodPatch, Route: mockserver.RouteSubscriptions, Status: http.StatusInternalServerError})
		}, errors: []string{
			// A 500 may follow work done: the four are read back, found not disabled, and named in one error.
			"Unable to disable 4 of 4 subscriptions of account " + testAccount + ": not updated: The service's answer did not tell " +
				"whether it applied the update of 4 subscriptions: bulk update subscriptions: HTTP 500 Internal Server Error",
		}, progress: []string{"4 to disable", "Disabled 0 of 4 subscriptions of account " + testAccount + "; 4 failed. " +
			"The service's answer did not tell the outcome of 4 of them; 4 read back, 0 disabled."}},
		{name: "one item not found", setup: func(m *testMock) {
			// The listing shows subscription 4 under an id the service does not know, as if it
			// had been deleted and another listed in its place.
			m.SetResponseTransform(func(s *mockserver.Subscription) {
				if s.SubscriptionID == sid("4") {
					s.SubscriptionID = ghost
				}
			})
		}, changed: []string{sid("5"), sid("2"), sid("3")},
			errors:   []string{"Unable to disable subscription " + ghost + " (ENVIRONMENT.ALERT): The service answered \"bulk update subscriptions\" for subscription " + ghost + " with HTTP 404 Not Found: Subscription not found"},
			progress: []string{"4 to disable", "Disabled 3 of 4 subscriptions of account " + testAccount + "; 1 failed."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := newTestMock(t)
			seedListSubscriptions(m)
			s := newActionServer(t, m, 0)
			before := snapshot(m)
			tt.setup(m)
			inv := s.invoke(disableActionType, map[string]any{})
			got := inv.errors()
			if len(got) != len(tt.errors) {
				t.Fatalf("errors %q, want %d", got, len(tt.errors))
			}
			for i, w := range tt.errors {
				if !strings.Contains(got[i], w) {
					t.Errorf("error %d = %q, want it to contain %q", i, got[i], w)
				}
			}
			inv.wantProgress(t, tt.progress...)
			wantOnlyToggled(t, m, before, false, tt.changed...)
		})
	}
}

// TestSubscriptionsAction_unknownIDs checks that ids that are no subscription of the account
// give a warning naming them, and the others are changed.
func TestSubscriptionsAction_unknownIDs(t *testing.T) {
	t.Parallel()
	m := newTestMock(t)
	seedListSubscriptions(m)
	s := newActionServer(t, m, 0)
	before := snapshot(m)
	missing := "00000000-0000-4000-8000-0000000000ee"
	inv := s.invoke(disableActionType, map[string]any{"ids": []string{sid("3"), missing}})
	if len(inv.diagnostics) != 1 || inv.diagnostics[0].Severity != tfprotov6.DiagnosticSeverityWarning ||
		!strings.Contains(inv.diagnostics[0].Detail, missing) {
		t.Fatalf("diagnostics %+v, want one warning naming %s", inv.diagnostics, missing)
	}
	wantOnlyToggled(t, m, before, false, sid("3"))
}

// TestSubscriptionsAction_validation checks the arguments at validation time: ids must be
// UUIDs, the account id and the enumerations are checked as elsewhere.
func TestSubscriptionsAction_validation(t *testing.T) {
	t.Parallel()
	s := newListServer(t)
	tests := []struct {
		args map[string]any
		want string // "" = valid
	}{
		{args: map[string]any{}},
		{args: map[string]any{"ids": []string{sid("1")}, "log_level": "ERROR", "destination_type": "EMAIL", "event_name": "x"}},
		{args: map[string]any{"ids": []string{"not-a-uuid"}}, want: "is not a UUID"},
		{args: map[string]any{"log_level": "LOUD"}, want: "log_level"},
		{args: map[string]any{"destination_type": "SMS"}, want: "destination_type"},
		{args: map[string]any{"event_name": " "}, want: "event_name"},
		{args: map[string]any{"account_id": "a/b"}, want: "account_id"},
	}
	for _, tt := range tests {
		for _, typeName := range []string{disableActionType, enableActionType} {
			resp, err := s.server.ValidateActionConfig(context.Background(), &tfprotov6.ValidateActionConfigRequest{
				ActionType: typeName, Config: s.actionConfig(typeName, tt.args),
			})
			if err != nil {
				t.Fatal(err)
			}
			var text []string
			for _, d := range resp.Diagnostics {
				text = append(text, d.Summary+": "+d.Detail+" "+fmt.Sprint(d.Attribute))
			}
			switch {
			case tt.want == "" && len(text) > 0:
				t.Errorf("%s %v: unexpected diagnostics %q", typeName, tt.args, text)
			case tt.want != "" && !strings.Contains(strings.Join(text, "\n"), tt.want):
				t.Errorf("%s %v: diagnostics %q, want one mentioning %q", typeName, tt.args, text, tt.want)
			}
		}
	}
}

// TestSubscriptionsAction_withoutConfig is the regression test of an action block without a
// config block (`action "eventnotify_disable_subscriptions" "x" {}`), for which Terraform sends a
// null configuration (or none): validation, the plan and the invocation treat it as an empty
// `config {}`, which disables every subscription of the provider's account, where the
// invocation used to fail with a Value Conversion Error.
func TestSubscriptionsAction_withoutConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		config func(s *listServer) *tfprotov6.DynamicValue
	}{
		{name: "null configuration", config: func(s *listServer) *tfprotov6.DynamicValue {
			typ := s.schemas.ActionSchemas[disableActionType].Schema.ValueType()
			dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, nil))
			if err != nil {
				s.t.Fatal(err)
			}
			return &dv
		}},
		{name: "no configuration", config: func(*listServer) *tfprotov6.DynamicValue { return nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := newTestMock(t)
			seedListSubscriptions(m)
			s := newActionServer(t, m, 0)
			ctx := context.Background()
			validated, err := s.server.ValidateActionConfig(ctx, &tfprotov6.ValidateActionConfigRequest{
				ActionType: disableActionType, Config: tc.config(s),
			})
			if err != nil {
				t.Fatal(err)
			}
			requireNoDiagnostics(t, "ValidateActionConfig", validated.Diagnostics)
			planned, err := s.server.PlanAction(ctx, &tfprotov6.PlanActionRequest{
				ActionType: disableActionType, Config: tc.config(s),
			})
			if err != nil {
				t.Fatal(err)
			}
			requireNoDiagnostics(t, "PlanAction", planned.Diagnostics)

			before := snapshot(m)
			inv := s.invokeWith(disableActionType, tc.config(s))
			requireNoDiagnostics(t, "InvokeAction", inv.diagnostics)
			inv.wantProgress(t, "5 of the 5 subscriptions of account "+testAccount+" match; 4 to disable, 1 already disabled.",
				"Disabled 4 subscriptions of account "+testAccount+".")
			wantOnlyToggled(t, m, before, false, sid("5"), sid("2"), sid("4"), sid("3"))
		})
	}
}

// TestSubscriptionsAction_lostAnswers disables 100 subscriptions whose bulk update's answer does
// not tell the outcome: the client reads them back with one listing of the account (not 100
// reads), and the action reports once, with counts: nothing but a progress line when the
// listing shows all 100 disabled, one error naming them when it shows none, and one
// unknown-outcome error when the listing fails too; never one diagnostic per subscription.
func TestSubscriptionsAction_lostAnswers(t *testing.T) {
	t.Parallel()
	lostAfterWork := mockserver.Fault{Method: http.MethodPatch, Route: mockserver.RouteSubscriptions, Drop: true, AfterWork: true}
	tests := []struct {
		name     string
		faults   []mockserver.Fault
		disabled bool     // whether the mock holds all 100 disabled afterwards
		errors   []string // parts of the one error ("" = none)
		progress string
	}{
		{name: "every answer lost after the work", faults: []mockserver.Fault{lostAfterWork}, disabled: true,
			progress: "Disabled 100 subscriptions of account " + testAccount + ". The service's answer did not tell the outcome " +
				"of 100 of them; 100 read back, 100 disabled."},
		{name: "500 before the work", faults: []mockserver.Fault{{Method: http.MethodPatch, Route: mockserver.RouteSubscriptions,
			Status: http.StatusInternalServerError}},
			errors: []string{"Unable to disable 100 of 100 subscriptions of account " + testAccount + ": not updated",
				"HTTP 500 Internal Server Error", "Read back (one listing of the account), they hold settings other than the update's",
				"EVENT.000", "and 80 more", "invoke the action again"},
			progress: "Disabled 0 of 100 subscriptions of account " + testAccount + "; 100 failed. The service's answer did not tell " +
				"the outcome of 100 of them; 100 read back, 0 disabled."},
		{name: "every answer lost after the work, and the listing fails", faults: []mockserver.Fault{lostAfterWork,
			// The second listing (the read-back) fails; the action's own listing is the first.
			{Method: http.MethodGet, Route: mockserver.RouteSubscriptions, Status: http.StatusInternalServerError, Ratio: 0.5, Count: 1}},
			disabled: true,
			errors: []string{"Unable to disable 100 of 100 subscriptions of account " + testAccount + ": the outcome is unknown",
				"Reading them back to find out (one listing of the account) failed too: list subscriptions: HTTP 500",
				"The service may or may not have applied the update to them", "and 80 more", "invoke the action again"},
			progress: "Disabled 0 of 100 subscriptions of account " + testAccount + "; 100 failed. The service's answer did not tell " +
				"the outcome of 100 of them; 100 could not be read back."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := newTestMock(t)
			var ids []string
			for i := range 100 {
				s := m.PutSubscription(testAccount, mockserver.Subscription{EventName: fmt.Sprintf("EVENT.%03d", i),
					DestinationType: "EVENT_STREAMS", LogLevel: "INFO", EventStreamsTopic: "t", Enabled: true})
				ids = append(ids, s.SubscriptionID)
			}
			s := newActionServer(t, m, 0)
			before := snapshot(m)
			for _, f := range tt.faults {
				m.InjectFault(f)
			}
			inv := s.invoke(disableActionType, map[string]any{})
			inv.wantProgress(t, "100 of the 100 subscriptions of account "+testAccount+" match; 100 to disable", tt.progress)
			got := inv.errors()
			if len(inv.diagnostics) != min(1, len(tt.errors)) || len(got) != len(inv.diagnostics) {
				t.Fatalf("%d diagnostics, errors %q; want %d error", len(inv.diagnostics), got, min(1, len(tt.errors)))
			}
			for _, want := range tt.errors {
				if !strings.Contains(got[0], want) {
					t.Errorf("the error does not contain %q:\n%s", want, got[0])
				}
			}
			if tt.disabled {
				wantOnlyToggled(t, m, before, false, ids...)
			} else {
				wantOnlyToggled(t, m, before, false)
			}
			// One bulk update (no retries here), and the read-back is one listing of one page.
			if got := m.Count(http.MethodPatch, mockserver.RouteSubscriptions); got != 1 {
				t.Errorf("%d bulk requests, want 1", got)
			}
			if got := m.Count(http.MethodGet, mockserver.RouteSubscriptions); got != 2 {
				t.Errorf("%d listing requests, want 2: the action's and the read-back's", got)
			}
			if got := m.Count(http.MethodGet, mockserver.RouteSubscription); got != 0 {
				t.Errorf("%d single reads, want none", got)
			}
		})
	}
}
