package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// What an eventnotify_subscription's plan holds. The prior state's id (a resource being updated
// or replaced) and a planned id are claimed in the client as the plan is made, so that no
// create of this provider instance ever adopts or hands them out (client.ClaimSubscriptions).
// In the apply walk, which Terraform runs in a new provider process that neither reads nor
// plans the resources that do not change, the create lists its account first
// (client.SeeAccount, in Create): what that listing holds existed before the create and is
// never its result (client/seen.go). Why: DESIGN.md#lost-answers-and-ownership.

// claimPlanned claims, in the client, the subscription ids an eventnotify_subscription's plan
// holds: its prior state's and its planned one, where known.
func claimPlanned(ctx context.Context, data *providerData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if data == nil || data.client == nil {
		return
	}
	var prior, planned types.String
	if !req.State.Raw.IsNull() {
		req.State.GetAttribute(ctx, path.Root("id"), &prior)
	}
	if !resp.Plan.Raw.IsNull() {
		resp.Plan.GetAttribute(ctx, path.Root("id"), &planned)
	}
	for _, id := range []types.String{prior, planned} {
		if !id.IsUnknown() && !id.IsNull() {
			data.client.ClaimSubscriptions(id.ValueString())
		}
	}
}
