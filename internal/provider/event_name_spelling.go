package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// An event name that differs from the state's only in letter case is no
// change. The framework applies eventNameValue's semantic equality when it
// reads and applies, not when it plans: a configuration that changes only the
// case, or one written in another case than an imported subscription, would
// plan an update. So the plan keeps the state's spelling instead, which
// Terraform accepts for any attribute: a planned value equal to the prior
// state's stands for the configured one (plans/objchange.AssertPlanValid, in
// Terraform and OpenTofu alike).

// sameEventName reports whether a planned event name is the held one spelt in
// another case only.
func sameEventName(planned, held eventNameValue) bool {
	return !planned.IsNull() && !planned.IsUnknown() && !held.IsNull() && !held.IsUnknown() &&
		strings.EqualFold(planned.ValueString(), held.ValueString())
}

// keepStateSpelling returns the plan modifier of eventnotify_subscription's
// event_name: the state's spelling where the configuration's differs only in
// case.
func keepStateSpelling() planmodifier.String { return keepStateSpellingModifier{} }

// keepStateSpellingModifier is the modifier of keepStateSpelling.
type keepStateSpellingModifier struct{}

// Description says what the modifier does.
func (keepStateSpellingModifier) Description(context.Context) string {
	return "Keeps the state's spelling of an event name that the configuration spells in another case only."
}

// MarkdownDescription says what the modifier does.
func (m keepStateSpellingModifier) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

// PlanModifyString plans the state's value when it differs from the planned
// one only in case.
func (keepStateSpellingModifier) PlanModifyString(_ context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if sameEventName(eventNameValue{StringValue: req.PlanValue}, eventNameValue{StringValue: req.StateValue}) {
		resp.PlanValue = req.StateValue
	}
}

// keepHeldSpellings is the same for eventnotify_account_subscriptions, whose
// entries have no plan modifiers: an entry planned under a key the state has
// keeps that key's spelling of the event name where the two differ only in
// case. (Terraform compares an entry with the prior entry under the same key,
// so a subscription that moves to another key takes the configured spelling.)
func keepHeldSpellings(planned, held map[string]accountEntry) {
	for key, e := range planned {
		if h, ok := held[key]; ok && sameEventName(e.EventName, h.EventName) {
			e.EventName = h.EventName
			planned[key] = e
		}
	}
}

// planStateWhenUnchanged plans the prior state when the plan changes nothing
// the configuration sets: every known planned value is the state's, and every
// unknown one is a computed value the configuration leaves out. Before any
// plan modifier runs, the framework marks such values unknown because the
// proposed state (in the configuration's spelling) differs from the prior
// one; once keepStateSpelling has planned the state's spelling, nothing is
// left to change and the plan is the state, as the framework plans when the
// configuration spells the name as the state does. The timeouts block is the
// configuration's: a plan that changes only it keeps every other value of the
// state, and the update writes only the state.
func planStateWhenUnchanged(req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() || resp.Plan.Raw.IsNull() || resp.Plan.Raw.Equal(req.State.Raw) {
		return
	}
	var planned, prior, config map[string]tftypes.Value
	if resp.Plan.Raw.As(&planned) != nil || req.State.Raw.As(&prior) != nil || req.Config.Raw.As(&config) != nil {
		return
	}
	for name, v := range planned {
		switch {
		case name == timeoutsAttribute:
			// Configuration only: the plan takes the configuration's block, and nothing else changes.
		case v.IsKnown() && !v.Equal(prior[name]):
			return
		case !v.IsKnown() && !config[name].IsNull():
			return
		}
	}
	if t, ok := planned[timeoutsAttribute]; ok && !t.Equal(prior[timeoutsAttribute]) {
		prior[timeoutsAttribute] = t
		resp.Plan.Raw = tftypes.NewValue(req.State.Raw.Type(), prior)
		return
	}
	resp.Plan.Raw = req.State.Raw
}
