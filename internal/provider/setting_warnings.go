package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// A warning about a resource's settings appears when the user can act on it: in the plan that
// writes or changes the setting, not in every plan. ValidateConfig sees only the configuration
// and runs on every plan, so these warnings are made in ModifyPlan, which also sees the prior
// state: a plan that leaves the setting as the state holds it (a refresh, a plan without
// changes, an imported subscription) stays quiet. A plan that creates the resource warns, and
// so does the create half of a replacement, which Terraform plans with no prior state.
//
// The one setting warned about is destination_type = "EMAIL", in eventnotify_subscription and
// in each entry of eventnotify_account_subscriptions.

// emailWarning is the warning about an EMAIL destination at p.
func emailWarning(p path.Path) diag.Diagnostic {
	return diag.NewAttributeWarningDiagnostic(p, "EMAIL destinations are not delivered yet",
		"The service accepts destination_type = \"EMAIL\" but currently delivers notifications to EVENT_STREAMS "+
			"destinations only, so this subscription will be stored but may notify no one. Use \"EVENT_STREAMS\" "+
			"with an event streams environment and topic to receive notifications.")
}

// setsEmail reports whether a configured destination type is EMAIL where the prior one (null
// when there is none) is not.
func setsEmail(configured, prior types.String) bool {
	return !configured.IsUnknown() && configured.ValueString() == "EMAIL" && prior.ValueString() != "EMAIL"
}

// subscriptionSettingWarnings are the setting warnings of a plan of eventnotify_subscription.
func subscriptionSettingWarnings(ctx context.Context, req resource.ModifyPlanRequest) diag.Diagnostics {
	var diags diag.Diagnostics
	if req.Plan.Raw.IsNull() {
		return diags
	}
	var configured, prior types.String
	diags.Append(req.Config.GetAttribute(ctx, path.Root("destination_type"), &configured)...)
	if !req.State.Raw.IsNull() {
		diags.Append(req.State.GetAttribute(ctx, path.Root("destination_type"), &prior)...)
	}
	if !diags.HasError() && setsEmail(configured, prior) {
		diags.Append(emailWarning(path.Root("destination_type")))
	}
	return diags
}

// accountSettingWarnings are the setting warnings of a plan of eventnotify_account_subscriptions,
// entry by entry: an entry that sets EMAIL where the state's entry under its key has another
// destination (or there is none), unless the state holds a subscription with all of the
// entry's inputs (a key renamed: nothing is written).
func accountSettingWarnings(ctx context.Context, req resource.ModifyPlanRequest) diag.Diagnostics {
	var diags diag.Diagnostics
	if req.Plan.Raw.IsNull() {
		return diags
	}
	var configSubs, stateSubs types.Map
	diags.Append(req.Config.GetAttribute(ctx, path.Root("subscriptions"), &configSubs)...)
	if diags.HasError() || configSubs.IsNull() || configSubs.IsUnknown() {
		return diags
	}
	configured, _, d := entries(configSubs)
	diags.Append(d...)
	held := map[string]accountEntry{}
	if !req.State.Raw.IsNull() {
		diags.Append(req.State.GetAttribute(ctx, path.Root("subscriptions"), &stateSubs)...)
		if !diags.HasError() && !stateSubs.IsNull() && !stateSubs.IsUnknown() {
			held, _, d = entries(stateSubs)
			diags.Append(d...)
		}
	}
	if diags.HasError() {
		return diags
	}
	heldInputs := make(map[entryInputs]bool, len(held))
	for _, h := range held {
		if in, ok := h.inputs(); ok {
			heldInputs[in] = true
		}
	}
	for _, key := range sortedKeys(configured) {
		e := configured[key]
		if !setsEmail(e.DestinationType, held[key].DestinationType) {
			continue
		}
		if in, ok := e.inputs(); ok && heldInputs[in] {
			continue
		}
		diags.Append(emailWarning(path.Root("subscriptions").AtMapKey(key).AtName("destination_type")))
	}
	return diags
}
