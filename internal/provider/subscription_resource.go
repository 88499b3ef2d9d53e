package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

var (
	_ resource.ResourceWithConfigure   = &SubscriptionResource{}
	_ resource.ResourceWithImportState = &SubscriptionResource{}
	_ resource.ResourceWithModifyPlan  = &SubscriptionResource{}
)

// SubscriptionResource manages one subscription of an account: a platform
// event bound to a destination and a minimum log level.
type SubscriptionResource struct {
	data *providerData
}

// subscriptionResourceModel is the resource's state: the subscription and the timeouts block,
// which only the resource has.
type subscriptionResourceModel struct {
	subscriptionModel
	Timeouts timeouts.Value `tfsdk:"timeouts"`
}

// subscriptionResourceTypeName is the resource's type name, as timeout errors name it.
const subscriptionResourceTypeName = "eventnotify_subscription"

// NewSubscriptionResource returns the eventnotify_subscription resource.
func NewSubscriptionResource() resource.Resource { return &SubscriptionResource{} }

// Metadata sets the resource type name.
func (r *SubscriptionResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_subscription"
}

// Schema describes the subscription.
func (r *SubscriptionResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A subscription binds a platform event to a destination and a minimum log level: when the " +
			"event occurs at that level or above, the service notifies the destination. Only the destination type " +
			"`EVENT_STREAMS` is delivered by the service today; `EMAIL` is accepted with a warning.",
		Attributes: subscriptionResourceAttributes(),
		Blocks:     map[string]schema.Block{timeoutsAttribute: subscriptionTimeouts.block(ctx)},
	}
}

// Configure receives the provider's client.
func (r *SubscriptionResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configureProviderData(req.ProviderData, &resp.Diagnostics)
}

// ModifyPlan fills account_id from the provider when the configuration leaves
// it out, so that a change of the provider's account plans a replacement,
// warns about settings the service delivers nowhere: EMAIL, an EVENT_STREAMS
// destination without environment or topic (subscriptionSettingWarnings), checks a new event name against the events
// catalogue, plans no change where the event name's case is all that
// differs, claims what the plan holds (subscription_held.go) and names the
// look-alikes of a planned create (subscription_lookalikes.go).
func (r *SubscriptionResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	resp.Diagnostics.Append(subscriptionSettingWarnings(ctx, req)...)
	if req.Plan.Raw.IsNull() || r.data == nil {
		return
	}
	resp.Diagnostics.Append(planDefaultAccount(ctx, r.data, req, resp)...)
	resp.Diagnostics.Append(checkSubscriptionEventName(ctx, r.data, req)...)
	planStateWhenUnchanged(req, resp)
	claimPlanned(ctx, r.data, req, resp)
	if len(resp.RequiresReplace) == 0 { // a replacement is planned again as a create, which holds
		resp.Diagnostics.Append(planHolding(ctx, r.data.holders, resp.Plan)...)
	}
	resp.Diagnostics.Append(planLookalikes(ctx, r.data, req, resp)...)
}

// Create creates the subscription through createSubscriptions, in one request
// with the other creates of the account that arrive within batch_window, after
// the account has been listed once in this provider instance (what it held then
// is never the create's: subscription_held.go). The client settles a lost answer
// by reading the account (it adopts what the request created, or creates it
// once); when it cannot, the error names the candidates and how to import them.
func (r *SubscriptionResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan subscriptionResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !providerConfigured(r.data, &resp.Diagnostics, "subscription") {
		return
	}
	op, cancel, diags := subscriptionTimeouts.startOperation(ctx, plan.Timeouts, subscriptionResourceTypeName, "create")
	defer cancel()
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	account := plan.AccountID.ValueString()

	// This process may never have read the account (Terraform's apply walk reads and plans only
	// what changes): what one listing holds now is never this create's (subscription_held.go).
	if err := r.data.client.SeeAccount(op.ctx, account); err != nil {
		tflog.Warn(ctx, "Could not list the account before creating; only the adoption window then tells "+
			"a lost create's subscription from an older one", map[string]any{"account_id": account, "error": err.Error()})
	}
	// A create that was sent is waited for past the deadline: its answer reaches state.
	created, err := r.data.client.CreateSubscriptionBatched(op.ctx, account, plan.input())
	if summary, detail, ok := createWarning(err, ""); ok && created != nil && created.ID != "" {
		// Not a failure: the subscription is this resource's, with a doubt to show.
		resp.Diagnostics.AddWarning(summary, detail)
		err = nil
	}
	if err != nil {
		op.addError(&resp.Diagnostics, createErrorSummary("Unable to create subscription", err), err)
		if created == nil || created.ID == "" {
			return
		}
		// The subscription exists all the same: keep it in state (Terraform marks it tainted).
	}
	state := subscriptionResourceModel{subscriptionModel: subscriptionFromAPI(account, created), Timeouts: plan.Timeouts}
	tflog.Debug(ctx, "Created subscription", map[string]any{"subscription_id": state.ID.ValueString(), "account_id": account})
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	resp.Diagnostics.Append(setSubscriptionIdentity(ctx, resp.Identity, account, state.ID.ValueString())...)
}

// Read refreshes the subscription from the client's per-account listing
// (listSubscribedEventsForAccount, page by page, shared by every Read of the account in this
// provider instance), falling back to getSubscribedEventForAccount for an id the listing does
// not hold. A subscription deleted outside Terraform (the service's 404) is
// removed from state so that it is planned again.
func (r *SubscriptionResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state subscriptionResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !providerConfigured(r.data, &resp.Diagnostics, "subscription") {
		return
	}
	op, cancel, diags := subscriptionTimeouts.startOperation(ctx, state.Timeouts, subscriptionResourceTypeName, "read")
	defer cancel()
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	account, id := state.AccountID.ValueString(), state.ID.ValueString()
	// The framework wants an identity after every Read without error, even
	// one that removes the subscription from state.
	resp.Diagnostics.Append(setSubscriptionIdentity(ctx, resp.Identity, account, id)...)

	origin := importedOrigin(ctx, req.Private)
	sub, err := r.data.client.ReadSubscription(op.ctx, account, id)
	if errors.Is(err, httpapi.ErrNotFound) && origin.MovedFrom != "" {
		resp.Diagnostics.AddError("Cannot move "+origin.MovedFrom+" to subscription "+id, movedAdvice(account, id))
		return
	}
	if errors.Is(err, httpapi.ErrNotFound) && origin.imported() {
		// Terraform's own message would not say which account was looked in.
		resp.Diagnostics.AddError("Cannot import subscription "+id,
			fmt.Sprintf("Account %q holds no subscription %s. %s", account, id, origin.accountAdvice(account)))
		return
	}
	if errors.Is(err, httpapi.ErrNotFound) {
		tflog.Warn(ctx, "Subscription not found; removing it from state", map[string]any{"subscription_id": id, "account_id": account})
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		if op.timedOut() {
			op.addError(&resp.Diagnostics, "Unable to read subscription "+id, err)
		} else {
			resp.Diagnostics.AddError("Unable to read subscription "+id, clientErrorDetailFrom(err, origin))
		}
		return
	}
	resp.Diagnostics.Append(forgetImport(ctx, resp.Private)...)
	fresh := subscriptionResourceModel{subscriptionModel: subscriptionFromAPI(account, sub), Timeouts: timeoutsOrNull(state.Timeouts)}
	resp.Diagnostics.Append(resp.State.Set(ctx, &fresh)...)
	resp.Diagnostics.Append(setSubscriptionIdentity(ctx, resp.Identity, account, fresh.ID.ValueString())...)
}

// Update changes the subscription in place through updateSubscription. A plan that changes
// only the timeouts block sends nothing: the state takes the new block.
func (r *SubscriptionResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan subscriptionResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !providerConfigured(r.data, &resp.Diagnostics, "subscription") {
		return
	}
	account, id := plan.AccountID.ValueString(), plan.ID.ValueString()
	if changesOnlyTimeouts(req.Plan.Raw, req.State.Raw) {
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		resp.Diagnostics.Append(setSubscriptionIdentity(ctx, resp.Identity, account, id)...)
		return
	}
	op, cancel, diags := subscriptionTimeouts.startOperation(ctx, plan.Timeouts, subscriptionResourceTypeName, "update")
	defer cancel()
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}

	sub, err := r.data.client.UpdateSubscription(op.ctx, account, id, plan.input())
	if err != nil {
		op.addError(&resp.Diagnostics, "Unable to update subscription "+id, err)
		return
	}
	state := subscriptionResourceModel{subscriptionModel: subscriptionFromAPI(account, sub), Timeouts: plan.Timeouts}
	if state.ID.ValueString() == "" {
		state.ID = plan.ID
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	resp.Diagnostics.Append(setSubscriptionIdentity(ctx, resp.Identity, account, state.ID.ValueString())...)
}

// Delete deletes the subscription, in one bulk delete with the other deletes
// of the account that arrive within batch_window (alone, through
// deleteSubscription); one that is already gone counts as deleted.
func (r *SubscriptionResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state subscriptionResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !providerConfigured(r.data, &resp.Diagnostics, "subscription") {
		return
	}
	op, cancel, diags := subscriptionTimeouts.startOperation(ctx, state.Timeouts, subscriptionResourceTypeName, "delete")
	defer cancel()
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	id := state.ID.ValueString()
	if err := r.data.client.DeleteSubscriptionBatched(op.ctx, state.AccountID.ValueString(), id); err != nil {
		op.addError(&resp.Diagnostics, "Unable to delete subscription "+id, err)
	}
}

// ImportState accepts <subscription_id> or <account_id>/<subscription_id>, or
// an import block's identity (account_id and id) when there is no id. It
// records where the account came from for the Read that follows
// (account_origin.go).
func (r *SubscriptionResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	var account, id string
	origin := accountOrigin{ImportID: req.ID, Resource: subscriptionType}
	if req.ID == "" {
		var diags diag.Diagnostics
		account, id, diags = subscriptionFromIdentity(ctx, req.Identity)
		if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
			return
		}
		origin.Identity = true
	} else {
		var err error
		account, id, err = parseSubscriptionImportID(req.ID, r.data.account(types.StringNull()))
		if err != nil {
			resp.Diagnostics.AddError("Invalid import id", err.Error())
			return
		}
		origin.AccountInID = strings.Contains(req.ID, "/")
	}
	resp.Diagnostics.Append(origin.record(ctx, resp.Private)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("account_id"), account)...)
	resp.Diagnostics.Append(setSubscriptionIdentity(ctx, resp.Identity, account, id)...)
}
