package provider

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestAccountSubscriptions_createDeletesOnlyNamed (issue 37, item 2) applies a create whose
// planned takeover names 2 of the account's 3 subscriptions that no entry matches, through the
// framework's ApplyResourceChange: the listing that the create reads is no longer the plan's
// (Terraform stops a saved plan before that, TestAccSavedPlan_newcomerStopsTheTakeover; here
// the listing changed after the apply-time plan). The create deletes the 2, leaves the 3rd
// alone with a warning whose summary names it, and holds it in state under its id, so that the
// next plan shows it as a removal.
func TestAccountSubscriptions_createDeletesOnlyNamed(t *testing.T) {
	m := newTestMock(t)
	seeded := seedSavedPlan(m, 3)
	named, newcomer := seeded[:2], seeded[2]
	tw := newTwinServers(t, m)
	entry := map[string]any{"event_name": "ATOM.STATUS", "destination_type": "EVENT_STREAMS", "log_level": "ERROR",
		"event_streams_topic": savedPlanTopic, "event_streams_environment_id": topicTestEnv, "enabled": true}
	configTop := map[string]any{"account_id": testAccount}
	planned := tw.account(withTakeover(tw, map[string]any{"id": unknown{}, "account_id": testAccount}, named, map[string]string{}),
		map[string]map[string]any{"errors": with(entry, map[string]any{"id": unknown{}})})
	resp, err := tw.framework.server.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{
		TypeName: tw.protocol.typeName, PriorState: tw.dynamic(tftypes.NewValue(tw.protocol.typ, nil)),
		PlannedState: tw.dynamic(planned), Config: tw.dynamic(tw.account(configTop, map[string]map[string]any{"errors": entry}))})
	if err != nil {
		t.Fatal(err)
	}
	var summaries []string
	for _, d := range resp.Diagnostics {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			t.Fatalf("the create failed: %s: %s", d.Summary, d.Detail)
		}
		summaries = append(summaries, d.Summary)
	}
	if want := "Subscription " + newcomer + " was left alone: the plan did not name it"; !slices.Equal(summaries, []string{want}) {
		t.Errorf("the create's warnings are %q, want %q", summaries, want)
	}
	state, err := resp.NewState.Unmarshal(tw.protocol.typ)
	if err != nil {
		t.Fatal(err)
	}
	var attrs map[string]tftypes.Value
	var subs map[string]tftypes.Value
	if err := state.As(&attrs); err != nil || attrs["subscriptions"].As(&subs) != nil {
		t.Fatalf("the state does not decode: %v", err)
	}
	if _, ok := subs[newcomer]; !ok || len(subs) != 2 {
		t.Fatalf("the state holds %d entries, want the entry and the newcomer under its id %s", len(subs), newcomer)
	}
	got := m.mockIDs(testAccount)
	if len(got) != 2 || !slices.Contains(got, newcomer) || slices.ContainsFunc(named, func(id string) bool {
		return slices.ContainsFunc(got, func(g string) bool { return strings.EqualFold(g, id) })
	}) {
		t.Fatalf("after the create the account holds %v, want the newcomer %s and the entry's, none of %v", got, newcomer, named)
	}
}
