package provider

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// The actions and the same provider instance's other writes to the account: an update that
// lands between an action's listing and its bulk update is listed again, so the action writes
// the new settings with its enabled flag, never the listing's older ones (issue 30, item 5).

// updateSubscription plans and applies, through the protocol as Terraform does, the change of
// the eventnotify_subscription in prior whose attribute attr becomes value, and returns the
// state the apply ends with. It reports problems as errors: it runs in a mock's hook, outside
// the test's goroutine.
func (s *listServer) updateSubscription(prior tftypes.Value, attr string, value tftypes.Value) (tftypes.Value, error) {
	ctx := context.Background()
	rs := s.schemas.ResourceSchemas[listTypeName]
	var priorAttrs map[string]tftypes.Value
	if err := prior.As(&priorAttrs); err != nil {
		return tftypes.Value{}, err
	}
	attrs := maps.Clone(priorAttrs) // As hands out the value's own map
	attrs[attr] = value
	proposed := tftypes.NewValue(prior.Type(), attrs)
	config := maps.Clone(attrs)
	for _, a := range rs.Block.Attributes {
		if a.Computed && !a.Optional {
			config[a.Name] = tftypes.NewValue(config[a.Name].Type(), nil)
		}
	}
	encode := func(v tftypes.Value) (*tfprotov6.DynamicValue, error) {
		dv, err := tfprotov6.NewDynamicValue(prior.Type(), v)
		return &dv, err
	}
	priorDV, err := encode(prior)
	if err != nil {
		return tftypes.Value{}, err
	}
	proposedDV, err := encode(proposed)
	if err != nil {
		return tftypes.Value{}, err
	}
	configDV, err := encode(tftypes.NewValue(prior.Type(), config))
	if err != nil {
		return tftypes.Value{}, err
	}
	plan, err := s.server.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName: listTypeName, PriorState: priorDV, ProposedNewState: proposedDV, Config: configDV,
	})
	if err != nil {
		return tftypes.Value{}, err
	}
	if err := diagnosticsError("PlanResourceChange", plan.Diagnostics); err != nil {
		return tftypes.Value{}, err
	}
	applied, err := s.server.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
		TypeName: listTypeName, PriorState: priorDV, PlannedState: plan.PlannedState, Config: configDV,
		PlannedPrivate: plan.PlannedPrivate, PlannedIdentity: plan.PlannedIdentity,
	})
	if err != nil {
		return tftypes.Value{}, err
	}
	if err := diagnosticsError("ApplyResourceChange", applied.Diagnostics); err != nil {
		return tftypes.Value{}, err
	}
	return applied.NewState.Unmarshal(prior.Type())
}

// diagnosticsError is an error naming the first diagnostic, nil when there is none.
func diagnosticsError(what string, diags []*tfprotov6.Diagnostic) error {
	for _, d := range diags {
		return fmt.Errorf("%s: unexpected diagnostic (%s) %q: %s", what, d.Severity, d.Summary, d.Detail)
	}
	return nil
}

// TestSubscriptionsAction_sameInstanceUpdate races an eventnotify_subscription update of the
// same provider instance with each action: the update is applied, and waited for, after the
// mock has served the action's listing (with the old log level) and before the action's bulk
// update. The subscription must end with the update's log level and the action's enabled
// flag, and state and service must agree on the log level. Without a write in between, the
// action lists the account once; with one, twice.
func TestSubscriptionsAction_sameInstanceUpdate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		action   string
		id       string // seeded subscription updated (seedListSubscriptions)
		update   bool   // whether the update comes between the listing and the bulk update
		listings int
	}{
		{name: "disable, update in between", action: disableActionType, id: sid("5"), update: true, listings: 2},
		{name: "enable, update in between", action: enableActionType, id: sid("1"), update: true, listings: 2},
		{name: "disable, nothing in between", action: disableActionType, id: sid("5"), listings: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := newTestMock(t)
			seedListSubscriptions(m)
			s := newActionServer(t, m, 0)
			prior := s.importAndRead(map[string]any{"account_id": testAccount, "id": tt.id})
			type outcome struct {
				state tftypes.Value
				err   error
			}
			hooked := make(chan outcome, 1) // the hook runs on the mock's goroutine
			if tt.update {
				remove := m.OnServed(http.MethodGet, mockserver.RouteSubscriptions, func() {
					state, err := s.updateSubscription(prior, "log_level", tftypes.NewValue(tftypes.String, "ERROR"))
					hooked <- outcome{state, err}
				})
				t.Cleanup(remove)
			}
			listedBefore := m.Count(http.MethodGet, mockserver.RouteSubscriptions)
			inv := s.invoke(tt.action, map[string]any{"ids": []string{tt.id}})
			requireNoDiagnostics(t, "InvokeAction", inv.diagnostics)
			var updated outcome
			if tt.update {
				select {
				case updated = <-hooked:
				default:
					t.Fatal("the update did not run between the action's listing and its bulk update")
				}
				if updated.err != nil {
					t.Fatalf("the update between the listing and the bulk update: %v", updated.err)
				}
			}
			if got := m.Count(http.MethodGet, mockserver.RouteSubscriptions) - listedBefore; got != tt.listings {
				t.Errorf("the action listed the account %d times, want %d", got, tt.listings)
			}
			wantLevel := objectValues(t, prior)["log_level"]
			if tt.update {
				wantLevel = "ERROR"
				if got := objectValues(t, updated.state)["log_level"]; got != wantLevel {
					t.Errorf("the update's state has log_level %v, want %v", got, wantLevel)
				}
			}
			got, ok := m.Subscription(testAccount, tt.id)
			if !ok {
				t.Fatalf("the mock no longer holds %s", tt.id)
			}
			if got.LogLevel != wantLevel || got.Enabled != (tt.action == enableActionType) {
				t.Errorf("the mock holds %s with log level %s, enabled %v; want %v, enabled %v",
					tt.id, got.LogLevel, got.Enabled, wantLevel, tt.action == enableActionType)
			}
		})
	}
}
