package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The account resource on the scoped engine (scoped_*.go): its apply, refresh and takeover
// warnings are the engine's over the whole account (subscriptionScope{}), with the account
// resource's own model and plan around them.

// apply converges the account from held (what exists, by key) to the plan
// (converge) and sets the state to what exists afterwards, also when a write
// fails, and the identity.
//
// named is what the plan showed as deleted (applyScope), or nil where the plan's removals are
// held entries (an update).
//
// It returns the planned entries and what exists afterwards, by key (nil when nothing was
// written).
func (r *AccountSubscriptionsResource) apply(ctx context.Context, account string, plan accountSubscriptionsModel,
	held map[string]accountEntry, named map[string]bool, state stateSetter, identity *tfsdk.ResourceIdentity,
	diags *diag.Diagnostics) (planned, result map[string]accountEntry) {
	planned, opaque, d := entries(plan.Subscriptions)
	diags.Append(d...)
	if diags.HasError() {
		return nil, nil
	}
	if len(opaque) > 0 {
		diags.AddError("Unknown subscriptions", "Some entries of subscriptions are still unknown at apply time. This is a bug in the provider; please report it.")
		return nil, nil
	}
	result = applyScope(ctx, r.data.client, account, subscriptionScope{}, planned, held, named, diags)
	m, d := entriesMap(result, nil)
	diags.Append(d...)
	if d.HasError() {
		return planned, result
	}
	diags.Append(state.Set(ctx, &accountSubscriptionsModel{
		ID:            types.StringValue(account),
		AccountID:     types.StringValue(account),
		Subscriptions: m,
		Takeover:      recordedTakeover(plan.Takeover),
		Timeouts:      timeoutsOrNull(plan.Timeouts),
	})...)
	diags.Append(setAccountIdentity(ctx, identity, account)...)
	return planned, result
}

// refreshEntries is refreshScope for the whole account.
func (r *AccountSubscriptionsResource) refreshEntries(ctx context.Context, account string, held map[string]accountEntry,
	origin accountOrigin) (map[string]accountEntry, diag.Diagnostics) {
	return refreshScope(ctx, r.data.client, account, subscriptionScope{}, held, origin)
}

// takeoverWarnings are the diagnostics of a plan that creates the resource: a warning that
// names the subscriptions of the account that the apply will delete, and one that names those
// its entries take over, when there are any. It sets the plan's takeover attribute to what it
// found, unless account_id or an entry is known only at apply (then it stays unknown).
func (r *AccountSubscriptionsResource) takeoverWarnings(ctx context.Context, plan *tfsdk.Plan) diag.Diagnostics {
	var diags diag.Diagnostics
	var account types.String
	var subs types.Map
	diags.Append(plan.GetAttribute(ctx, path.Root("account_id"), &account)...)
	diags.Append(plan.GetAttribute(ctx, path.Root("subscriptions"), &subs)...)
	if diags.HasError() {
		return diags
	}
	if account.IsUnknown() {
		diags.AddAttributeWarning(path.Root("account_id"), "The plan cannot list the account's subscriptions",
			"account_id is known only at apply, so the plan cannot show which subscriptions the account already holds. "+
				"The first apply deletes every subscription of the account that no entry of subscriptions matches. "+
				takeoverAdvice(subscriptionScope{}, "<account_id>"))
		return diags
	}
	acct := account.ValueString()
	planned, opaque := map[string]accountEntry{}, map[string]bool{}
	if subs.IsUnknown() {
		opaque["*"] = true
	} else if !subs.IsNull() {
		known, others, d := entries(subs)
		if diags.Append(d...); diags.HasError() {
			return diags
		}
		for key, e := range known {
			planned[key] = e
		}
		for key := range others {
			opaque[key] = true
		}
	}
	found, d := takeoverScan(ctx, r.data.client, r.data.destroyed, acct, subscriptionScope{}, planned, opaque)
	if diags.Append(d...); diags.HasError() {
		return diags
	}
	if len(opaque) == 0 {
		diags.Append(setTakeover(ctx, plan, found)...)
	}
	diags.Append(r.data.holders.holdAccount(acct, append(sortedKeys(planned), sortedKeys(opaque)...), found.takesOver)...)
	return diags
}
