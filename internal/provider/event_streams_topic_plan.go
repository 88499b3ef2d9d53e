package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The service cannot delete an event streams topic, so a plan that replaces or destroys
// eventnotify_event_streams_topic warns that the old topic stays, before the apply: the
// framework calls ModifyPlan for both (for a destroy, with a null plan). Terraform plans the
// create half of a replacement with no prior state, which warns about nothing here.

// topicPlanWarnings are the warnings of a plan of the topic (the prior state, and the plan as
// ModifyPlan has made it so far): the old topic stays when the plan replaces or destroys it.
// replacing says whether an earlier step of ModifyPlan has planned a replacement already (a
// change of the provider's account).
func topicPlanWarnings(ctx context.Context, state tfsdk.State, plan tfsdk.Plan, replacing bool) diag.Diagnostics {
	var diags diag.Diagnostics
	if state.Raw.IsNull() {
		return diags
	}
	var prior eventStreamsTopicModel
	if diags.Append(state.Get(ctx, &prior)...); diags.HasError() {
		return diags
	}
	if plan.Raw.IsNull() {
		diags.AddWarning(fmt.Sprintf("Destroying event streams topic %q leaves it in place", prior.TopicName.ValueString()),
			"Destroying this resource only removes it from the Terraform state. "+topicRemainsDetail(prior))
		return diags
	}
	var planned eventStreamsTopicModel
	if diags.Append(plan.Get(ctx, &planned)...); diags.HasError() {
		return diags
	}
	if !replacing && planned.AccountID.Equal(prior.AccountID) && planned.EnvironmentID.Equal(prior.EnvironmentID) &&
		planned.SubscriptionName.Equal(prior.SubscriptionName) && planned.TopicName.Equal(prior.TopicName) &&
		planned.TopicDescription.Equal(prior.TopicDescription) {
		return diags
	}
	diags.AddWarning(fmt.Sprintf("Replacing event streams topic %q leaves the old topic in place", prior.TopicName.ValueString()),
		fmt.Sprintf("The replacement removes the old topic from the Terraform state only. %s\n\nThe apply then creates "+
			"topic %s with subscription %s in event streams environment %s (account %s); if that environment already has "+
			"a topic of that name, the service adds another subscription to it "+
			"instead.", topicRemainsDetail(prior), planValue(planned.TopicName),
			planValue(planned.SubscriptionName), planValue(planned.EnvironmentID), planValue(planned.AccountID)))
	return diags
}

// topicRemainsDetail says that the topic of state stays in its environment, and what to do.
func topicRemainsDetail(state eventStreamsTopicModel) string {
	return fmt.Sprintf("The topic %q and its subscription %q stay in event streams environment %q (account %q): the "+
		"eventnotify service offers no operation to delete them.\n\n%s", state.TopicName.ValueString(),
		state.SubscriptionName.ValueString(), state.EnvironmentID.ValueString(), state.AccountID.ValueString(),
		topicRemovalAdvice)
}

// topicRemovalAdvice says how to remove a topic that Terraform no longer manages.
const topicRemovalAdvice = "To remove them, delete the topic (and its subscription) in the event streams environment's " +
	"own console or API. Creating this resource again with the same environment and topic name adds another " +
	"subscription to the existing topic."

// planValue renders a planned string as the plan shows it: quoted, or (known after apply).
func planValue(v types.String) string {
	if v.IsUnknown() {
		return "(known after apply)"
	}
	return fmt.Sprintf("%q", v.ValueString())
}
