package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// useStateWhileUnchanged returns a plan modifier that keeps a computed value
// from state while the attribute it depends on is planned unchanged; when that
// attribute changes, the value stays unknown until the service answers.
func useStateWhileUnchanged(dependsOn path.Path) planmodifier.String {
	return useStateWhileUnchangedModifier{dependsOn: dependsOn}
}

// useStateWhileUnchangedModifier is the modifier of useStateWhileUnchanged.
type useStateWhileUnchangedModifier struct {
	dependsOn path.Path
}

// Description says what the modifier does.
func (m useStateWhileUnchangedModifier) Description(context.Context) string {
	return "Keeps the prior value while " + m.dependsOn.String() + " is unchanged."
}

// MarkdownDescription says what the modifier does.
func (m useStateWhileUnchangedModifier) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

// PlanModifyString keeps the state's value when the planned value is unknown,
// the resource exists, and dependsOn is planned as it is in state.
func (m useStateWhileUnchangedModifier) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() || !req.PlanValue.IsUnknown() || req.ConfigValue.IsUnknown() {
		return
	}
	var planned, prior types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, m.dependsOn, &planned)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, m.dependsOn, &prior)...)
	if resp.Diagnostics.HasError() || planned.IsUnknown() || !planned.Equal(prior) {
		return
	}
	resp.PlanValue = req.StateValue
}
