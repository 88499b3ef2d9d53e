package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// accountSchemaVersion is the version of eventnotify_account_subscriptions' schema. Version 0
// held the server-managed audit values in each entry; version 1 holds the inputs and the id
// only. DESIGN.md's decision log dates each version.
const accountSchemaVersion = 1

var _ resource.ResourceWithUpgradeState = &AccountSubscriptionsResource{}

// accountSchemaV0 is the schema of version 0, written out as it was, so that no later change
// of the current schema (a field added, renamed or retyped in subscriptionAttributes) changes
// how an old state decodes. Only the types matter to the upgrade; descriptions, validators
// and plan modifiers are left out. Never edit it: a new version gets its own frozen schema.
func accountSchemaV0() schema.Schema {
	str := func(required, optional, computed bool) schema.Attribute {
		return schema.StringAttribute{Required: required, Optional: optional, Computed: computed}
	}
	return schema.Schema{
		Version: 0,
		Attributes: map[string]schema.Attribute{
			"id":         schema.StringAttribute{Computed: true},
			"account_id": schema.StringAttribute{Optional: true, Computed: true},
			"subscriptions": schema.MapNestedAttribute{
				Required: true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":                             str(false, false, true),
					"event_name":                     str(true, false, false),
					"destination_type":               str(true, false, false),
					"log_level":                      str(true, false, false),
					"event_streams_environment_id":   str(false, true, false),
					"event_streams_environment_name": str(false, true, false),
					"event_streams_topic":            str(false, true, false),
					"enabled":                        schema.BoolAttribute{Optional: true, Computed: true},
					"destination_email":              str(false, false, true),
					"created_date":                   schema.Int64Attribute{Computed: true},
					"last_updated_date":              schema.Int64Attribute{Computed: true},
					"created_by":                     str(false, false, true),
					"last_updated_by":                str(false, false, true),
				}},
			},
		},
	}
}

// accountModelV0 is the top level of a version 0 state.
type accountModelV0 struct {
	ID            types.String `tfsdk:"id"`
	AccountID     types.String `tfsdk:"account_id"`
	Subscriptions types.Map    `tfsdk:"subscriptions"`
}

// accountEntryV0 is one entry of a version 0 state (accountSchemaV0), frozen with it.
type accountEntryV0 struct {
	ID                          types.String `tfsdk:"id"`
	EventName                   types.String `tfsdk:"event_name"`
	DestinationType             types.String `tfsdk:"destination_type"`
	LogLevel                    types.String `tfsdk:"log_level"`
	EventStreamsEnvironmentID   types.String `tfsdk:"event_streams_environment_id"`
	EventStreamsEnvironmentName types.String `tfsdk:"event_streams_environment_name"`
	EventStreamsTopic           types.String `tfsdk:"event_streams_topic"`
	Enabled                     types.Bool   `tfsdk:"enabled"`
	DestinationEmail            types.String `tfsdk:"destination_email"`
	CreatedDate                 types.Int64  `tfsdk:"created_date"`
	LastUpdatedDate             types.Int64  `tfsdk:"last_updated_date"`
	CreatedBy                   types.String `tfsdk:"created_by"`
	LastUpdatedBy               types.String `tfsdk:"last_updated_by"`
}

// entry maps a version 0 entry to the current one: the inputs and the id, field by field;
// the audit values are dropped.
func (e accountEntryV0) entry() accountEntry {
	return accountEntry{
		ID:                          e.ID,
		EventName:                   eventNameValue{StringValue: e.EventName},
		DestinationType:             e.DestinationType,
		LogLevel:                    e.LogLevel,
		EventStreamsEnvironmentID:   e.EventStreamsEnvironmentID,
		EventStreamsEnvironmentName: e.EventStreamsEnvironmentName,
		EventStreamsTopic:           e.EventStreamsTopic,
		Enabled:                     e.Enabled,
	}
}

// UpgradeState carries a state of version 0 (accountSchemaV0) to version 1: each entry keeps
// its inputs and id, and drops the audit values. Nothing is read from the service, so the plan
// that follows is the one version 0 would have made.
func (r *AccountSubscriptionsResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	prior := accountSchemaV0()
	return map[int64]resource.StateUpgrader{0: {PriorSchema: &prior, StateUpgrader: upgradeAccountV0}}
}

// upgradeAccountV0 drops the audit values of every entry of a version 0 state; the timeouts
// block and the takeover attribute, which version 0 did not have, are null.
func upgradeAccountV0(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	var prior accountModelV0
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	if resp.Diagnostics.HasError() {
		return
	}
	subs := types.MapNull(accountEntryType())
	if !prior.Subscriptions.IsNull() {
		var v0 map[string]accountEntryV0
		resp.Diagnostics.Append(prior.Subscriptions.ElementsAs(ctx, &v0, false)...)
		known := make(map[string]accountEntry, len(v0))
		for key, e := range v0 {
			known[key] = e.entry()
		}
		m, diags := entriesMap(known, nil)
		resp.Diagnostics.Append(diags...)
		subs = m
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &accountSubscriptionsModel{ID: prior.ID, AccountID: prior.AccountID,
		Subscriptions: subs, Takeover: types.ObjectNull(takeoverAttrTypes), Timeouts: nullTimeouts()})...)
}
