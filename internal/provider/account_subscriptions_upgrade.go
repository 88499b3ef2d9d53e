package provider

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// accountSchemaVersion is the version of eventnotify_account_subscriptions' schema. Version 0
// held the server-managed audit values in each entry (auditAttributesV0); version 1 holds the
// inputs and the id only.
const accountSchemaVersion = 1

var _ resource.ResourceWithUpgradeState = &AccountSubscriptionsResource{}

// auditAttributesV0 are the attributes an entry held in version 0 and no longer holds: the
// service's audit values, which stay on eventnotify_subscription and the data sources.
func auditAttributesV0() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"destination_email": schema.StringAttribute{Computed: true},
		"created_date":      schema.Int64Attribute{Computed: true},
		"last_updated_date": schema.Int64Attribute{Computed: true},
		"created_by":        schema.StringAttribute{Computed: true},
		"last_updated_by":   schema.StringAttribute{Computed: true},
	}
}

// UpgradeState carries a state of version 0 to version 1: each entry keeps its inputs and id,
// and drops the audit values. Nothing is read from the service, so the plan that follows is
// the one version 0 would have made.
func (r *AccountSubscriptionsResource) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	var s resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &s)
	prior := s.Schema
	prior.Version = 0
	prior.Blocks = nil // version 0 had no timeouts block
	prior.Attributes = maps.Clone(prior.Attributes)
	subs, _ := prior.Attributes["subscriptions"].(schema.MapNestedAttribute)
	entry := maps.Clone(subs.NestedObject.Attributes)
	maps.Copy(entry, auditAttributesV0())
	subs.NestedObject = schema.NestedAttributeObject{Attributes: entry}
	prior.Attributes["subscriptions"] = subs
	return map[int64]resource.StateUpgrader{0: {PriorSchema: &prior, StateUpgrader: upgradeAccountV0}}
}

// accountModelV0 is the top level of a version 0 state.
type accountModelV0 struct {
	ID            types.String `tfsdk:"id"`
	AccountID     types.String `tfsdk:"account_id"`
	Subscriptions types.Map    `tfsdk:"subscriptions"`
}

// upgradeAccountV0 drops the audit values of every entry of a version 0 state; the timeouts
// block, which version 0 did not have, is null.
func upgradeAccountV0(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	var prior accountModelV0
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	if resp.Diagnostics.HasError() {
		return
	}
	known, _, diags := entries(prior.Subscriptions)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	subs := types.MapNull(accountEntryType())
	if !prior.Subscriptions.IsNull() {
		subs, diags = entriesMap(known, nil)
		resp.Diagnostics.Append(diags...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &accountSubscriptionsModel{ID: prior.ID, AccountID: prior.AccountID,
		Subscriptions: subs, Timeouts: nullTimeouts()})...)
}
