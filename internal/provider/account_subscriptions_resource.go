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
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// The protocol fast path (accountProtocol, account_subscriptions_protocol.go) answers this
// resource's ValidateResourceConfig with the attributes' own validators only: a
// ValidateConfig or ConfigValidators added here would be skipped on that path unless
// accountProtocol.validateResourceConfig calls it too (the parity check,
// fast_path_parity_test.go, fails the acceptance tests whose validation it changes).
var (
	_ resource.ResourceWithConfigure   = &AccountSubscriptionsResource{}
	_ resource.ResourceWithImportState = &AccountSubscriptionsResource{}
	_ resource.ResourceWithModifyPlan  = &AccountSubscriptionsResource{}
)

// Its identity (account_id) is in account_subscriptions_identity.go.

// AccountSubscriptionsResource manages the complete set of an account's
// subscriptions: after apply the account holds exactly the subscriptions of
// the map, and a subscription made outside Terraform shows in the next plan as
// a removal. The map's keys are names the user picks; they exist only in the
// configuration and the state.
//
// Writes are bounded whatever the map's size: one createSubscriptions per
// max_batch_size new entries, one bulk delete per max_batch_size removed ones,
// and one bulk update per max_batch_size changed ones (one updateSubscription
// each where the service refuses the bulk update's shape). The bulk update
// answers only statuses, and an entry holds nothing the service sets on an
// update, so nothing is read back. Entries whose inputs are unchanged, also
// under a new key, cost nothing. The writes are in
// scoped_converge.go; DESIGN.md's code map names the rest.
type AccountSubscriptionsResource struct {
	data *providerData
}

// NewAccountSubscriptionsResource returns the eventnotify_account_subscriptions resource.
func NewAccountSubscriptionsResource() resource.Resource { return &AccountSubscriptionsResource{} }

// accountSubscriptionsModel is the resource's state.
type accountSubscriptionsModel struct {
	ID            types.String   `tfsdk:"id"`
	AccountID     types.String   `tfsdk:"account_id"`
	Subscriptions types.Map      `tfsdk:"subscriptions"`
	Takeover      types.Object   `tfsdk:"takeover"`
	Timeouts      timeouts.Value `tfsdk:"timeouts"`
}

// accountResourceTypeName is the resource's type name, as timeout errors name it.
const accountResourceTypeName = "eventnotify_account_subscriptions"

// Metadata sets the resource type name.
func (r *AccountSubscriptionsResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_account_subscriptions"
}

// Schema describes the resource.
//
// The fast path's no-change plan (accountProtocol.planResourceChange) reads the defaults from
// this schema, and assumes that its plan modifiers keep a known prior value that the
// configuration does not change (UseStateForUnknown and RequiresReplace do). A plan modifier
// that changes such a value, or marks it unknown, makes the two plans differ: the parity check
// (fast_path_parity_test.go) fails every acceptance test whose plan reaches that case.
func (r *AccountSubscriptionsResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: accountSchemaVersion,
		MarkdownDescription: "The authoritative, complete set of an account's subscriptions: after apply the account holds " +
			"exactly the subscriptions of `subscriptions`, and any other subscription of the account is deleted. Destroying " +
			"it deletes every subscription of the account that its plan showed.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The account id.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"account_id": schema.StringAttribute{
				MarkdownDescription: "Account whose subscriptions the resource manages. Defaults to the provider's `account_id`. " +
					"Changing it replaces the resource: every subscription of the old account is deleted.",
				Optional:      true,
				Computed:      true,
				Validators:    []validator.String{notBlank(), accountID()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"subscriptions": schema.MapNestedAttribute{
				MarkdownDescription: "Every subscription of the account, keyed by names you choose (the keys exist only in " +
					"the configuration and the state; renaming a key changes nothing on the service). Subscriptions on the " +
					"service that no entry holds are read into the map under their id, so the plan shows them as removals; " +
					"an import keys every subscription by its id. An empty map means the account should hold none.",
				Required:     true,
				NestedObject: schema.NestedAttributeObject{Attributes: accountEntryAttributes()},
			},
			takeoverAttribute: takeoverSchema("account"),
		},
		Blocks: map[string]schema.Block{timeoutsAttribute: subscriptionTimeouts.block(ctx)},
	}
}

// Configure receives the provider's client.
func (r *AccountSubscriptionsResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configureProviderData(req.ProviderData, &resp.Diagnostics)
}

// ModifyPlan plans the account and the ids of the map, an entry's one
// computed value. An entry keeps the id of the subscription it will hold
// (matchEntries), kept or updated in place; an entry to be created has an
// unknown id. The work is linear in the number of entries. It also warns about what the user can act on: an
// entry whose settings the service delivers nowhere (accountSettingWarnings) and, on
// create, the subscriptions of the account that the apply deletes
// (takeoverWarnings).
//
// The protocol fast path depends on what this does for a plan that changes nothing:
// accountProtocol.planResourceChange (account_subscriptions_protocol.go) answers such a plan
// without calling it, with the prior state as the plan and the holders' warnings
// (holdAccount) as its only diagnostics. It holds while, for a configuration equal to the
// state, nothing here changes a value, warns or fails: the account is the state's
// (planDefaultAccount), the settings' warnings are for changed settings
// (accountSettingWarnings), event names in state are not checked (checkAccountEventNames),
// and every entry keeps its held id. Whatever is added here that acts on an unchanged plan
// must be done in planResourceChange too, or make it leave the plan to the framework:
// TestAccountProtocol_planMatchesFramework compares the two answers case by case, and the
// parity check (fast_path_parity_test.go) on every plan of the acceptance tests.
func (r *AccountSubscriptionsResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.data == nil {
		return
	}
	resp.Diagnostics.Append(planDefaultAccount(ctx, r.data, req, resp)...)
	resp.Diagnostics.Append(accountSettingWarnings(ctx, req)...)
	resp.Diagnostics.Append(checkAccountEventNames(ctx, r.data, req)...)
	if req.State.Raw.IsNull() && !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(r.takeoverWarnings(ctx, &resp.Plan)...)
	}
	if req.State.Raw.IsNull() || resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(keepTakeover(ctx, req.State, &resp.Plan)...)
	var planSubs, stateSubs types.Map
	resp.Diagnostics.Append(resp.Plan.GetAttribute(ctx, path.Root("subscriptions"), &planSubs)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("subscriptions"), &stateSubs)...)
	if resp.Diagnostics.HasError() || planSubs.IsNull() || planSubs.IsUnknown() {
		return
	}
	planned, opaque, diags := entries(planSubs)
	resp.Diagnostics.Append(diags...)
	held, _, diags := entries(stateSubs)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
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
	if len(resp.RequiresReplace) == 0 { // a replacement is planned again as a create, which holds
		resp.Diagnostics.Append(r.data.holders.holdAccount(r.data.account(planAccount(ctx, resp.Plan)),
			append(sortedKeys(out), sortedKeys(opaque)...), entryIDs(out))...)
	}
	m, diags := entriesMap(out, opaque)
	resp.Diagnostics.Append(diags...)
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("subscriptions"), m)...)
	}
}

// Create makes the account hold exactly the planned subscriptions. The
// account is listed first: a subscription it already holds with the same
// inputs as an entry becomes that entry's, and every other one is deleted.
// The listing is the one that ModifyPlan made (takeoverWarnings) just before,
// in the same provider process, unless a write to the account came between.
func (r *AccountSubscriptionsResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan accountSubscriptionsModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !providerConfigured(r.data, &resp.Diagnostics, "account_subscriptions resource") {
		return
	}
	op, cancel, diags := subscriptionTimeouts.startOperation(ctx, plan.Timeouts, accountResourceTypeName, "create")
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
	r.apply(op.ctx, account, plan, existingEntries(list), named, &resp.State, resp.Identity, &resp.Diagnostics)
	op.checkTimeout(&resp.Diagnostics)
}

// Update converges the account from the state to the plan. A plan that changes only the
// timeouts block sends nothing: the state takes the new block. Otherwise the account is listed
// first (heldAsListed): the writes start from what the service holds of each entry, since the
// plan may have been made long before (a saved plan), and what changed since is reported
// (reportStale).
func (r *AccountSubscriptionsResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state accountSubscriptionsModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !providerConfigured(r.data, &resp.Diagnostics, "account_subscriptions resource") {
		return
	}
	if changesOnlyTimeouts(req.Plan.Raw, req.State.Raw) {
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		// A state written before the resource had an identity (or planned with
		// -refresh=false) has none yet: the framework wants one after every update.
		resp.Diagnostics.Append(setAccountIdentity(ctx, resp.Identity, r.data.account(plan.AccountID))...)
		return
	}
	op, cancel, diags := subscriptionTimeouts.startOperation(ctx, plan.Timeouts, accountResourceTypeName, "update")
	defer cancel()
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	held, _, diags := entries(state.Subscriptions)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	account := r.data.account(plan.AccountID)
	// The state may be stale by now (a saved plan): converge from what the service holds.
	current, gone, changed, diags := heldAsListed(op.ctx, r.data.client, account, subscriptionScope{}, held)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		resp.State.Raw = req.State.Raw // nothing written
		return
	}
	planned, result := r.apply(op.ctx, account, plan, current, nil, &resp.State, resp.Identity, &resp.Diagnostics)
	reportStale(subscriptionScope{}, account, planned, held, current, result, gone, changed, &resp.Diagnostics)
	op.checkTimeout(&resp.Diagnostics)
}

// Read lists the account (listSubscribedEventsForAccount, page by page) and
// refreshes every entry by its subscription's id (refreshEntries).
//
// The protocol fast path depends on what this does for a state without private data:
// accountProtocol.readResource answers such a Read itself with refreshEntries
// (account_subscriptions_protocol.go). Whatever is added here for a state without private
// data must be done there too (the identity included: accountProtocol.encodeIdentity):
// TestAccountProtocol_readMatchesFramework compares the two (the acceptance tests' parity check
// compares validations and plans, not reads).
func (r *AccountSubscriptionsResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state accountSubscriptionsModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !providerConfigured(r.data, &resp.Diagnostics, "account_subscriptions resource") {
		return
	}
	held := map[string]accountEntry{}
	if !state.Subscriptions.IsNull() && !state.Subscriptions.IsUnknown() {
		var diags diag.Diagnostics
		held, _, diags = entries(state.Subscriptions)
		resp.Diagnostics.Append(diags...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	account := stateAccount(state.AccountID, state.ID)
	op, cancel, diags := subscriptionTimeouts.startOperation(ctx, state.Timeouts, accountResourceTypeName, "read")
	defer cancel()
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	origin := importedOrigin(ctx, req.Private)
	fresh, diags := r.refreshEntries(op.ctx, account, held, origin)
	resp.Diagnostics.Append(diags...)
	op.checkTimeout(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if origin.imported() {
		if len(fresh) == 0 && httpapi.IsUUID(account) {
			resp.Diagnostics.AddWarning("Account "+account+" holds no subscriptions",
				"The import found no subscription in account "+account+". "+subscriptionIDAsAccount(account))
		}
		resp.Diagnostics.Append(forgetImport(ctx, resp.Private)...)
	}
	m, diags := entriesMap(fresh, nil)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	state.ID = types.StringValue(account)
	state.AccountID = types.StringValue(account)
	state.Subscriptions = m
	state.Timeouts = timeoutsOrNull(state.Timeouts)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	// A state written before the resource had an identity gets one here.
	resp.Diagnostics.Append(setAccountIdentity(ctx, resp.Identity, account)...)
}

// stateAccount is the account of a state: account_id, or the id alone right
// after an import.
func stateAccount(accountID, id types.String) string {
	if account := accountID.ValueString(); account != "" {
		return account
	}
	return id.ValueString()
}

// Delete deletes the subscriptions of the state: the plan of the destroy showed them (its
// refresh read every subscription of the account into the map). The account is listed first:
// when it holds no other, one request deletes them all (deleteSubscriptionForAccount; the
// service's 404 means the account holds none: done); when it holds one the state does not
// (made after the plan, as a saved plan meets it), the state's are deleted by id in bulk
// deletes, and each other one is left alone, with a warning naming it.
func (r *AccountSubscriptionsResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state accountSubscriptionsModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !providerConfigured(r.data, &resp.Diagnostics, "account_subscriptions resource") {
		return
	}
	op, cancel, diags := subscriptionTimeouts.startOperation(ctx, state.Timeouts, accountResourceTypeName, "delete")
	defer cancel()
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	account := state.AccountID.ValueString()
	held := map[string]accountEntry{}
	if !state.Subscriptions.IsNull() && !state.Subscriptions.IsUnknown() {
		held, _, diags = entries(state.Subscriptions)
		if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
			return
		}
	}
	r.data.destroyed.record(account, held)
	list, err := r.data.client.AccountSubscriptions(op.ctx, account)
	var incomplete *client.IncompleteListingError
	if err != nil && !errors.As(err, &incomplete) {
		op.addError(&resp.Diagnostics, "Unable to list the subscriptions of account "+account, err)
		return
	}
	if incomplete != nil {
		list = incomplete.Subscriptions // what it shows is named; the state's are deleted by id
	}
	newcomers := unheld(list, held)
	if err == nil && len(newcomers) == 0 {
		err := r.data.client.DeleteAllSubscriptions(op.ctx, account)
		if err != nil && !errors.Is(err, httpapi.ErrNotFound) {
			op.addError(&resp.Diagnostics, "Unable to delete the subscriptions of account "+account, err)
		}
		return
	}
	for _, e := range newcomers {
		resp.Diagnostics.AddWarning("Subscription "+e.ID.ValueString()+" was left alone: the plan did not name it",
			fmt.Sprintf("Account %q now holds %s, which the state the destroy was planned from does not, so it "+
				"appeared after the plan. The destroy deletes only what the plan showed: the subscriptions of the "+
				"state are deleted by id, and this one is left in the account. Delete it on its own, or with "+
				"eventnotify_account_subscriptions again, if it should go.", account, describeEntry(e)))
	}
	clientWriter{c: r.data.client}.deleteEntries(op.ctx, account, held, sortedKeys(held), &resp.Diagnostics)
	op.checkTimeout(&resp.Diagnostics)
}

// unheld returns the subscriptions of list whose id no entry of held holds, in order.
func unheld(list []client.Subscription, held map[string]accountEntry) []accountEntry {
	ids := make(map[string]bool, len(held))
	for _, e := range held {
		ids[strings.ToLower(e.ID.ValueString())] = true
	}
	var out []accountEntry
	for i := range list {
		if !ids[strings.ToLower(list[i].ID)] {
			e := accountEntryFromAPI(&list[i])
			e.DestinationEmail = optionalString(list[i].DestinationEmail)
			out = append(out, e)
		}
	}
	return out
}

// ImportState takes the account id, or an import block's identity (account_id) when there is
// no id; Read then fills the map, keyed by subscription id. It records where the account came
// from for that Read's advice (account_origin.go).
func (r *AccountSubscriptionsResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	account := strings.TrimSpace(req.ID)
	origin := accountOrigin{ImportID: req.ID, Resource: accountSubscriptionsType, AccountInID: true}
	switch {
	case req.ID == "":
		var diags diag.Diagnostics
		account, diags = accountFromIdentity(ctx, req.Identity)
		if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
			return
		}
		origin = accountOrigin{Identity: true, Resource: accountSubscriptionsType}
	case account == "" || strings.Contains(account, "/"):
		resp.Diagnostics.AddError("Invalid import id", fmt.Sprintf("The import id of eventnotify_account_subscriptions "+
			"is an account id, such as %q; got %q.", r.data.account(types.StringNull()), req.ID))
		return
	default:
		if err := httpapi.CheckAccountID(account); err != nil {
			resp.Diagnostics.AddError("Invalid import id", "The import id of eventnotify_account_subscriptions is an account id: "+
				accountIDAdvice(err)+".")
			return
		}
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), account)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("account_id"), account)...)
	resp.Diagnostics.Append(origin.record(ctx, resp.Private)...)
	resp.Diagnostics.Append(setAccountIdentity(ctx, resp.Identity, account)...)
}
