package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

var (
	_ resource.ResourceWithConfigure   = &EventStreamsTopicResource{}
	_ resource.ResourceWithImportState = &EventStreamsTopicResource{}
	_ resource.ResourceWithModifyPlan  = &EventStreamsTopicResource{}
)

// EventStreamsTopicResource creates an event-streams topic together with a
// subscription on it (createEventStreamTopicAndSubscription). The service offers no operation to read,
// change or delete it afterwards, so the resource is create-only in the manner
// of the tls provider's tls_private_key: every input replaces it, Read keeps
// state, and Delete only forgets it.
type EventStreamsTopicResource struct {
	data *providerData
}

// NewEventStreamsTopicResource returns the eventnotify_event_streams_topic resource.
func NewEventStreamsTopicResource() resource.Resource { return &EventStreamsTopicResource{} }

// eventStreamsTopicModel is the resource's state.
type eventStreamsTopicModel struct {
	ID                types.String `tfsdk:"id"`
	AccountID         types.String `tfsdk:"account_id"`
	EnvironmentID     types.String `tfsdk:"environment_id"`
	SubscriptionName  types.String `tfsdk:"subscription_name"`
	TopicName         types.String `tfsdk:"topic_name"`
	TopicDescription  types.String `tfsdk:"topic_description"`
	SubscriptionCount types.Int64  `tfsdk:"subscription_count"`
}

// eventStreamsTopicID is the resource id: <account_id>/<environment_id>/<topic_name>.
func eventStreamsTopicID(accountID, environmentID, topicName string) string {
	return accountID + "/" + environmentID + "/" + topicName
}

// Metadata sets the resource type name.
func (r *EventStreamsTopicResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_event_streams_topic"
}

// Schema describes the topic; every input forces replacement.
func (r *EventStreamsTopicResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Creates an event-streams topic in an event streams environment together with an " +
			"event-streams subscription on it, for an account. The service offers **no way to read, change or delete** " +
			"the topic afterwards: destroying the resource only removes it from the Terraform state.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "Identifier in the form `<account_id>/<environment_id>/<topic_name>`.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"account_id": schema.StringAttribute{
				MarkdownDescription: "Account the topic and subscription are created for. Defaults to the provider's " +
					"`account_id`. Changing it, or the provider's account when this is not set, replaces the resource.",
				Optional:      true,
				Computed:      true,
				Validators:    []validator.String{notBlank(), accountID()},
				PlanModifiers: replace,
			},
			"environment_id": schema.StringAttribute{
				MarkdownDescription: "Id of the event streams environment the topic is created in, as the platform's " +
					"Event Streams settings show it. Changing it replaces the resource.",
				Required:      true,
				Validators:    []validator.String{notBlank(), printable()},
				PlanModifiers: replace,
			},
			"subscription_name": schema.StringAttribute{
				MarkdownDescription: "Name of the event-streams subscription created on the topic, through which " +
					"consumers read it. Changing it replaces the resource.",
				Required:      true,
				Validators:    []validator.String{notBlank(), printable()},
				PlanModifiers: replace,
			},
			"topic_name": schema.StringAttribute{
				MarkdownDescription: "Name of the topic. Changing it replaces the resource.",
				Required:            true,
				Validators:          []validator.String{notBlank(), printable()},
				PlanModifiers:       replace,
			},
			"topic_description": schema.StringAttribute{
				MarkdownDescription: "Description of the topic. Changing it replaces the resource.",
				Optional:            true,
				PlanModifiers:       replace,
			},
			"subscription_count": schema.Int64Attribute{
				MarkdownDescription: "Number of subscriptions on the topic when this resource created its subscription, " +
					"as the service reported it. Not refreshed afterwards (the service cannot be asked again).",
				Computed:      true,
				PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
		},
	}
}

// Configure receives the provider's client.
func (r *EventStreamsTopicResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configureProviderData(req.ProviderData, &resp.Diagnostics)
}

// ModifyPlan fills account_id from the provider when the configuration leaves
// it out, and plans a replacement when that changes the account of an
// existing topic (the attribute's RequiresReplace sees only configured changes).
// A plan that replaces or destroys the topic warns that the old one stays
// (topicPlanWarnings).
func (r *EventStreamsTopicResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	resp.Diagnostics.Append(planDefaultAccount(ctx, r.data, req, resp)...)
	resp.Diagnostics.Append(topicPlanWarnings(ctx, req.State, resp.Plan, len(resp.RequiresReplace) > 0)...)
}

// Create creates the topic and its subscription through createEventStreamTopicAndSubscription.
func (r *EventStreamsTopicResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan eventStreamsTopicModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !providerConfigured(r.data, &resp.Diagnostics, "event streams topic") {
		return
	}
	account := plan.AccountID.ValueString()
	in := client.TopicInput{
		EnvironmentID:    plan.EnvironmentID.ValueString(),
		SubscriptionName: plan.SubscriptionName.ValueString(),
		TopicName:        plan.TopicName.ValueString(),
		TopicDescription: plan.TopicDescription.ValueString(),
	}

	res, err := r.data.client.CreateEventStreamTopic(ctx, account, in)
	if err != nil {
		resp.Diagnostics.AddError(fmt.Sprintf("Unable to create event streams topic %q", in.TopicName), topicCreateErrorDetail(err, in))
		return
	}
	plan.ID = types.StringValue(eventStreamsTopicID(account, in.EnvironmentID, in.TopicName))
	plan.SubscriptionCount = types.Int64Value(int64(res.SubscriptionCount))
	tflog.Debug(ctx, "Created event streams topic and subscription", map[string]any{
		"account_id": account, "environment_id": in.EnvironmentID, "topic_name": in.TopicName,
		"subscription_name": in.SubscriptionName, "subscription_count": res.SubscriptionCount,
	})
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Read keeps the state as it is: the service has no operation that reads a
// topic back. The response already holds the prior state.
func (r *EventStreamsTopicResource) Read(ctx context.Context, _ resource.ReadRequest, _ *resource.ReadResponse) {
	tflog.Debug(ctx, "The service cannot read event streams topics back; keeping the state as it is")
}

// Update is unreachable in practice, since every input requires replacement;
// it records the plan.
func (r *EventStreamsTopicResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan eventStreamsTopicModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete removes the topic from state only, with a warning: the service has no
// operation that deletes it.
func (r *EventStreamsTopicResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state eventStreamsTopicModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	topic, env := state.TopicName.ValueString(), state.EnvironmentID.ValueString()
	resp.Diagnostics.AddWarning(
		fmt.Sprintf("Event streams topic %q still exists", topic),
		fmt.Sprintf("The topic %q and its subscription %q still exist in event streams environment %q (account %q). "+
			"The eventnotify service offers no operation to delete them, so Terraform has only removed them from its state.\n\n%s",
			topic, state.SubscriptionName.ValueString(), env, state.AccountID.ValueString(), topicRemovalAdvice),
	)
}

// ImportState refuses import: the service has no operation that reads a topic
// back, so an imported resource could hold nothing but the id.
func (r *EventStreamsTopicResource) ImportState(_ context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.AddError("Import of eventnotify_event_streams_topic is not supported",
		fmt.Sprintf("Cannot import %q: the eventnotify service has no operation that reads an event streams topic "+
			"back (it can only create one), so Terraform could not fill in or verify the topic's attributes.\n\n"+
			"To manage a topic with Terraform, declare an eventnotify_event_streams_topic resource and apply it: "+
			"for a topic that already exists in the environment, this adds another subscription to it.", req.ID))
}
