package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ resource.ResourceWithConfigure   = &TopicSubscriptionsResource{}
	_ resource.ResourceWithImportState = &TopicSubscriptionsResource{}
	_ resource.ResourceWithModifyPlan  = &TopicSubscriptionsResource{}
)

// TopicSubscriptionsResource manages the complete set of an account's subscriptions that
// deliver to one event-streams topic of one environment (its scope, subscriptionScope): after
// apply, the account's subscriptions with destination type EVENT_STREAMS, that environment
// id and that topic are exactly the entries of the map. Every other subscription of the
// account is never read into its state, changed or deleted. It is
// eventnotify_account_subscriptions within a scope: the same matcher (matchEntries), writer
// (applyScope), refresh (refreshScope) and takeover plan (takeoverScan), on account entries
// whose destination the scope fixes (topicDestination).
type TopicSubscriptionsResource struct {
	data *providerData
}

// NewTopicSubscriptionsResource returns the eventnotify_topic_subscriptions resource.
func NewTopicSubscriptionsResource() resource.Resource { return &TopicSubscriptionsResource{} }

// topicSubscriptionsModel is the resource's state.
type topicSubscriptionsModel struct {
	ID              types.String   `tfsdk:"id"`
	AccountID       types.String   `tfsdk:"account_id"`
	EnvironmentID   types.String   `tfsdk:"event_streams_environment_id"`
	Topic           types.String   `tfsdk:"event_streams_topic"`
	EnvironmentName types.String   `tfsdk:"event_streams_environment_name"`
	Subscriptions   types.Map      `tfsdk:"subscriptions"`
	Takeover        types.Object   `tfsdk:"takeover"`
	Timeouts        timeouts.Value `tfsdk:"timeouts"`
}

// topicResourceTypeName is the resource's type name, as messages name it.
const topicResourceTypeName = "eventnotify_topic_subscriptions"

// destination is what the model fixes on every entry.
func (m topicSubscriptionsModel) destination() topicDestination {
	return topicDestination{scope: topicScope(m.EnvironmentID.ValueString(), m.Topic.ValueString()),
		environmentName: m.EnvironmentName}
}

// Metadata sets the resource type name.
func (r *TopicSubscriptionsResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_topic_subscriptions"
}

// Schema describes the resource.
func (r *TopicSubscriptionsResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	scopeText := []validator.String{notBlank(), printable()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The authoritative, complete set of the subscriptions of an account that deliver to one " +
			"event-streams topic of one environment: after apply, the account's subscriptions with destination type " +
			"`EVENT_STREAMS`, that environment id and that topic are exactly the entries of `subscriptions`. Every other " +
			"subscription of the account is left alone.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "`<account_id>/<event_streams_environment_id>/<event_streams_topic>`.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"account_id": schema.StringAttribute{
				MarkdownDescription: "Account whose subscriptions to the topic the resource manages. Defaults to the " +
					"provider's `account_id`. Changing it replaces the resource: the old account's subscriptions to the topic " +
					"are deleted.",
				Optional:      true,
				Computed:      true,
				Validators:    []validator.String{notBlank(), accountID()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"event_streams_environment_id": schema.StringAttribute{
				MarkdownDescription: "Id of the event streams environment of the topic, as the platform's Event Streams " +
					"settings show it; compared exactly, as the service does. It may not contain `/` (the import id " +
					"separates it from the topic with one). Changing it replaces the resource.",
				Required:      true,
				Validators:    append(scopeText, stringCheck{check: checkTopicEnvironmentID, what: topicEnvironmentIDRule}),
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"event_streams_topic": schema.StringAttribute{
				MarkdownDescription: "The event streams topic whose subscriptions the resource manages; compared exactly, " +
					"as the service does. Changing it replaces the resource.",
				Required:      true,
				Validators:    scopeText,
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"event_streams_environment_name": schema.StringAttribute{
				MarkdownDescription: "Name of the event streams environment, a label for people that the service stores " +
					"as given; written on every entry. A subscription of the topic that carries another name shows in the " +
					"plan as a change of this attribute, and the apply writes this name on every entry again.",
				Optional:   true,
				Validators: scopeText,
			},
			"subscriptions": schema.MapNestedAttribute{
				MarkdownDescription: "Every subscription of the topic, keyed by names you choose (the keys exist only in " +
					"the configuration and the state; renaming a key changes nothing on the service). Subscriptions of the " +
					"topic that no entry holds are read into the map under their id, so the plan shows them as removals; " +
					"an import keys every subscription by its id. An empty map means the topic should have none.",
				Required:     true,
				NestedObject: schema.NestedAttributeObject{Attributes: topicEntryAttributes()},
			},
			takeoverAttribute: takeoverSchema("topic"),
		},
		Blocks: map[string]schema.Block{timeoutsAttribute: subscriptionTimeouts.block(ctx)},
	}
}

// Configure receives the provider's client.
func (r *TopicSubscriptionsResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configureProviderData(req.ProviderData, &resp.Diagnostics)
}

// planDestination is the destination of a plan; false while the scope is unknown.
func planDestination(ctx context.Context, plan tfsdk.Plan) (topicDestination, bool, diag.Diagnostics) {
	var env, topic, name types.String
	diags := plan.GetAttribute(ctx, path.Root("event_streams_environment_id"), &env)
	diags.Append(plan.GetAttribute(ctx, path.Root("event_streams_topic"), &topic)...)
	diags.Append(plan.GetAttribute(ctx, path.Root("event_streams_environment_name"), &name)...)
	if diags.HasError() || env.IsUnknown() || topic.IsUnknown() || env.IsNull() || topic.IsNull() {
		return topicDestination{}, false, diags
	}
	return topicDestination{scope: topicScope(env.ValueString(), topic.ValueString()), environmentName: name}, true, diags
}

// ModifyPlan plans the id and the ids of the map as the account resource's ModifyPlan does
// (matchEntries), checks the event names against the catalogue, and registers what the plan
// holds (holders.go). A plan that creates the resource lists the account and names the
// subscriptions of the topic that the apply deletes and those its entries take over
// (takeoverScan).
func (r *TopicSubscriptionsResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.data == nil {
		return
	}
	resp.Diagnostics.Append(planDefaultAccount(ctx, r.data, req, resp)...)
	resp.Diagnostics.Append(checkAccountEventNames(ctx, r.data, req)...)
	if resp.Diagnostics.HasError() {
		return
	}
	dest, known, diags := planDestination(ctx, resp.Plan)
	resp.Diagnostics.Append(diags...)
	account := planAccount(ctx, resp.Plan)
	if resp.Diagnostics.HasError() || !known {
		return
	}
	if !account.IsNull() {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("id"), dest.scope.importID(account.ValueString()))...)
	}
	var planSubs types.Map
	resp.Diagnostics.Append(resp.Plan.GetAttribute(ctx, path.Root("subscriptions"), &planSubs)...)
	if resp.Diagnostics.HasError() {
		return
	}
	planned, opaque := map[string]accountEntry{}, map[string]attr.Value{}
	if !planSubs.IsNull() && !planSubs.IsUnknown() {
		planned, opaque, diags = dest.entries(planSubs)
		if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
			return
		}
	}
	if req.State.Raw.IsNull() {
		if account.IsNull() {
			resp.Diagnostics.AddAttributeWarning(path.Root("account_id"), "The plan cannot list the topic's subscriptions",
				"account_id is known only at apply, so the plan cannot show which subscriptions the topic already has. "+
					"The first apply deletes every subscription of the topic that no entry of subscriptions matches. "+
					takeoverAdvice(dest.scope, "<account_id>"))
			return
		}
		opaqueKeys := make(map[string]bool, len(opaque))
		for key := range opaque {
			opaqueKeys[key] = true
		}
		if planSubs.IsUnknown() {
			opaqueKeys["*"] = true
		}
		found, d := takeoverScan(ctx, r.data.client, r.data.destroyed, account.ValueString(), dest.scope, planned, opaqueKeys)
		if resp.Diagnostics.Append(d...); resp.Diagnostics.HasError() {
			return
		}
		if len(opaqueKeys) == 0 {
			resp.Diagnostics.Append(setTakeover(ctx, &resp.Plan, found)...)
		}
		resp.Diagnostics.Append(r.data.holders.holdTopic(account.ValueString(), dest.scope,
			append(sortedKeys(planned), sortedKeys(opaqueKeys)...), found.takesOver)...)
		return
	}
	if resp.Diagnostics.Append(keepTakeover(ctx, req.State, &resp.Plan)...); resp.Diagnostics.HasError() {
		return
	}
	if planSubs.IsNull() || planSubs.IsUnknown() {
		return
	}
	var state topicSubscriptionsModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	held, _, diags := state.destination().entries(state.Subscriptions)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	match := matchEntries(planned, held)
	out := make(map[string]accountEntry, len(planned))
	for key, hk := range match.keep {
		out[key] = withHeldID(planned[key], held[hk])
	}
	for key, hk := range match.update {
		out[key] = withHeldID(planned[key], held[hk])
	}
	for _, key := range match.create {
		out[key] = planned[key].withUnknownID()
	}
	keepHeldSpellings(out, held)
	if len(resp.RequiresReplace) == 0 && !account.IsNull() { // a replacement is planned again as a create, which holds
		resp.Diagnostics.Append(r.data.holders.holdTopic(account.ValueString(), dest.scope,
			append(sortedKeys(out), sortedKeys(opaque)...), entryIDs(out))...)
	}
	m, diags := topicEntriesMap(out, opaque)
	resp.Diagnostics.Append(diags...)
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("subscriptions"), m)...)
	}
}

// Create makes the topic hold exactly the planned subscriptions. The account is listed first
// (the listing ModifyPlan made, unless a write to the account came between): a subscription
// of the topic with the same inputs as an entry becomes that entry's, and every other
// subscription of the topic is deleted.
func (r *TopicSubscriptionsResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan topicSubscriptionsModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !providerConfigured(r.data, &resp.Diagnostics, "topic_subscriptions resource") {
		return
	}
	op, cancel, diags := subscriptionTimeouts.startOperation(ctx, plan.Timeouts, topicResourceTypeName, "create")
	defer cancel()
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	account := r.data.account(plan.AccountID)
	list, err := r.data.client.AccountSubscriptions(op.ctx, account)
	if err != nil {
		op.addError(&resp.Diagnostics, "Unable to list the subscriptions of account "+account, err)
		return
	}
	named, _ := namedDeletes(plan.Takeover)
	r.apply(op.ctx, account, plan, existingEntries(plan.destination().scope.filter(list)), named, &resp.State, resp.Identity,
		&resp.Diagnostics)
	op.checkTimeout(&resp.Diagnostics)
}

// Update takes the topic from the state to the plan. A plan that changes only the timeouts
// block sends nothing: the state takes the new block. Otherwise the writes start from what the
// service holds of each entry (heldAsListed), as the account resource's do.
func (r *TopicSubscriptionsResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state topicSubscriptionsModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !providerConfigured(r.data, &resp.Diagnostics, "topic_subscriptions resource") {
		return
	}
	if changesOnlyTimeouts(req.Plan.Raw, req.State.Raw) {
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		// A state written before the resource had an identity (or planned with
		// -refresh=false) has none yet: the framework wants one after every update.
		resp.Diagnostics.Append(setTopicIdentity(ctx, resp.Identity, plan.AccountID.ValueString(), plan.destination().scope)...)
		return
	}
	op, cancel, diags := subscriptionTimeouts.startOperation(ctx, plan.Timeouts, topicResourceTypeName, "update")
	defer cancel()
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	held, _, diags := state.destination().entries(state.Subscriptions)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	account := r.data.account(plan.AccountID)
	// The state may be stale by now (a saved plan): converge from what the service holds.
	scope := state.destination().scope
	current, gone, changed, diags := heldAsListed(op.ctx, r.data.client, account, scope, held)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		resp.State.Raw = req.State.Raw // nothing written
		return
	}
	planned, result := r.apply(op.ctx, account, plan, current, nil, &resp.State, resp.Identity, &resp.Diagnostics)
	reportStale(scope, account, planned, held, current, result, gone, changed, &resp.Diagnostics)
	op.checkTimeout(&resp.Diagnostics)
}

// apply takes the topic from held to the plan (applyScope) and sets the state to what exists
// afterwards, also when a write fails, and the identity.
// named is what the plan showed as deleted (applyScope), or nil for an update.
// It returns the planned entries and what exists afterwards, by key (nil when nothing was
// written).
func (r *TopicSubscriptionsResource) apply(ctx context.Context, account string, plan topicSubscriptionsModel,
	held map[string]accountEntry, named map[string]bool, state stateSetter, identity *tfsdk.ResourceIdentity,
	diags *diag.Diagnostics) (planned, result map[string]accountEntry) {
	dest := plan.destination()
	planned, opaque, d := dest.entries(plan.Subscriptions)
	diags.Append(d...)
	if diags.HasError() {
		return nil, nil
	}
	if len(opaque) > 0 {
		diags.AddError("Unknown subscriptions", "Some entries of subscriptions are still unknown at apply time. This is a bug in the provider; please report it.")
		return nil, nil
	}
	result = applyScope(ctx, r.data.client, account, dest.scope, planned, held, named, diags)
	m, d := topicEntriesMap(result, nil)
	diags.Append(d...)
	if d.HasError() {
		return planned, result
	}
	plan.ID = types.StringValue(dest.scope.importID(account))
	plan.AccountID = types.StringValue(account)
	plan.Subscriptions = m
	plan.Takeover = recordedTakeover(plan.Takeover)
	plan.Timeouts = timeoutsOrNull(plan.Timeouts)
	// An entry that a failed update left with its old values keeps the plan's name: the
	// next refresh shows what the service holds.
	diags.Append(state.Set(ctx, &plan)...)
	diags.Append(setTopicIdentity(ctx, identity, account, dest.scope)...)
	return planned, result
}

// Read lists the account (page by page) and refreshes every entry of the topic by its
// subscription's id (refreshScope); a subscription of the topic that no entry holds is read in
// under its id, and nothing outside the topic is read into state.
func (r *TopicSubscriptionsResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state topicSubscriptionsModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !providerConfigured(r.data, &resp.Diagnostics, "topic_subscriptions resource") {
		return
	}
	dest := state.destination()
	held := map[string]accountEntry{}
	if !state.Subscriptions.IsNull() && !state.Subscriptions.IsUnknown() {
		var diags diag.Diagnostics
		held, _, diags = dest.entries(state.Subscriptions)
		resp.Diagnostics.Append(diags...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	account := state.AccountID.ValueString()
	op, cancel, diags := subscriptionTimeouts.startOperation(ctx, state.Timeouts, topicResourceTypeName, "read")
	defer cancel()
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	origin := importedOrigin(ctx, req.Private)
	fresh, diags := refreshScope(op.ctx, r.data.client, account, dest.scope, held, origin)
	resp.Diagnostics.Append(diags...)
	op.checkTimeout(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if origin.imported() {
		resp.Diagnostics.Append(forgetImport(ctx, resp.Private)...)
	}
	m, diags := topicEntriesMap(fresh, nil)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	state.ID = types.StringValue(dest.scope.importID(account))
	state.EnvironmentName = refreshedEnvironmentName(state.EnvironmentName, fresh)
	state.Subscriptions = m
	state.Timeouts = timeoutsOrNull(state.Timeouts)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	// A state written before the resource had an identity gets one here.
	resp.Diagnostics.Append(setTopicIdentity(ctx, resp.Identity, account, dest.scope)...)
}

// Delete deletes the subscriptions of the state (after the refresh, every subscription of the
// topic) in bulk deletes of at most max_batch_size each; the service's 404 for one means it is
// gone already. Nothing outside the topic is deleted.
func (r *TopicSubscriptionsResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state topicSubscriptionsModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !providerConfigured(r.data, &resp.Diagnostics, "topic_subscriptions resource") {
		return
	}
	op, cancel, diags := subscriptionTimeouts.startOperation(ctx, state.Timeouts, topicResourceTypeName, "delete")
	defer cancel()
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	dest := state.destination()
	held, _, diags := dest.entries(state.Subscriptions)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	account := state.AccountID.ValueString()
	r.data.destroyed.record(account, held)
	clientWriter{c: r.data.client, scope: dest.scope}.deleteEntries(op.ctx, account, held, sortedKeys(held), &resp.Diagnostics)
	op.checkTimeout(&resp.Diagnostics)
}

// ImportState takes `<account_id>/<environment_id>/<topic>` (parseTopicImportID), or an import
// block's identity (account_id, event_streams_environment_id and event_streams_topic) when there
// is no id. It records where the account came from for the Read that follows
// (account_origin.go), which fills the map, keyed by subscription id.
func (r *TopicSubscriptionsResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	var account string
	var scope subscriptionScope
	origin := accountOrigin{ImportID: req.ID, Resource: topicResourceTypeName, AccountInID: true}
	if req.ID == "" {
		var diags diag.Diagnostics
		account, scope, diags = topicFromIdentity(ctx, req.Identity)
		if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
			return
		}
		origin = accountOrigin{Identity: true, Resource: topicResourceTypeName}
	} else {
		var env, topic string
		var err error
		account, env, topic, err = parseTopicImportID(req.ID)
		if err != nil {
			resp.Diagnostics.AddError("Invalid import id", fmt.Sprintf("The import id of %s is "+
				"<account_id>/<event_streams_environment_id>/<event_streams_topic>, such as %q; got %q: %s.",
				topicResourceTypeName, "<account_id>/my-environment/orders", req.ID, err))
			return
		}
		scope = topicScope(env, topic)
	}
	for name, v := range map[string]string{"id": scope.importID(account), "account_id": account,
		"event_streams_environment_id": scope.environmentID, "event_streams_topic": scope.topic} {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(name), v)...)
	}
	resp.Diagnostics.Append(origin.record(ctx, resp.Private)...)
	resp.Diagnostics.Append(setTopicIdentity(ctx, resp.Identity, account, scope)...)
}
