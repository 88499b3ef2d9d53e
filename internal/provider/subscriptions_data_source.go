package provider

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

var _ datasource.DataSourceWithConfigure = &SubscriptionsDataSource{}

// SubscriptionsDataSource lists an account's subscriptions, filtered.
type SubscriptionsDataSource struct {
	data *providerData
}

// subscriptionFilters are the filters of the eventnotify_subscriptions data
// source and of the eventnotify_subscription list resource.
type subscriptionFilters struct {
	AccountID       types.String `tfsdk:"account_id"`
	EventName       types.String `tfsdk:"event_name"`
	DestinationType types.String `tfsdk:"destination_type"`
	LogLevel        types.String `tfsdk:"log_level"`
	Enabled         types.Bool   `tfsdk:"enabled"`
	// NotifiedFor keeps the subscriptions notified for an event at a level (notified_for.go).
	NotifiedFor *notifiedForModel `tfsdk:"notified_for"`
}

// subscriptionsModel maps the data source.
type subscriptionsModel struct {
	subscriptionFilters
	Subscriptions []subscriptionModel `tfsdk:"subscriptions"`
	IDs           []string            `tfsdk:"ids"`
}

// NewSubscriptionsDataSource returns the eventnotify_subscriptions data source.
func NewSubscriptionsDataSource() datasource.DataSource { return &SubscriptionsDataSource{} }

// Metadata sets the data source type name.
func (d *SubscriptionsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_subscriptions"
}

// Schema describes the filters and the list.
func (d *SubscriptionsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := subscriptionFilterDataSourceAttributes()
	attrs["subscriptions"] = schema.ListNestedAttribute{
		MarkdownDescription: "The matching subscriptions, with every attribute of the `eventnotify_subscription` resource.",
		Computed:            true,
		NestedObject:        schema.NestedAttributeObject{Attributes: subscriptionDataSourceAttributes()},
	}
	attrs["ids"] = schema.ListAttribute{
		MarkdownDescription: "Ids of the matching subscriptions, in the same order.",
		Computed:            true,
		ElementType:         types.StringType,
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists every subscription of an account, " +
			"optionally filtered, sorted by event name and then id so that the output is stable.",
		Attributes: attrs,
	}
}

// Configure receives the provider's client.
func (d *SubscriptionsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configureProviderData(req.ProviderData, &resp.Diagnostics)
}

// Read lists, filters and sorts the subscriptions.
func (d *SubscriptionsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var state subscriptionsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !providerConfigured(d.data, &resp.Diagnostics, "subscriptions data source") {
		return
	}
	account := d.data.account(state.AccountID)
	state.AccountID = types.StringValue(account)

	subs, err := d.data.client.AccountSubscriptions(ctx, account)
	if err != nil {
		addClientError(&resp.Diagnostics, "Unable to list the subscriptions of account "+account, err)
		return
	}

	state.Subscriptions = state.apply(account, subs)
	state.IDs = make([]string, len(state.Subscriptions))
	for i, m := range state.Subscriptions {
		state.IDs[i] = m.ID.ValueString()
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// apply returns the account's subscriptions that match the filters, sorted by
// event name and then id so that the output is stable.
func (f subscriptionFilters) apply(account string, subs []client.Subscription) []subscriptionModel {
	found := make([]subscriptionModel, 0, len(subs))
	for i := range subs {
		if m := subscriptionFromAPI(account, &subs[i]); f.matches(m) {
			found = append(found, m)
		}
	}
	slices.SortFunc(found, func(a, b subscriptionModel) int {
		return cmp.Or(
			cmp.Compare(strings.ToUpper(a.EventName.ValueString()), strings.ToUpper(b.EventName.ValueString())),
			cmp.Compare(a.ID.ValueString(), b.ID.ValueString()),
		)
	})
	return found
}

// matches applies the configured filters.
func (f subscriptionFilters) matches(m subscriptionModel) bool {
	return (f.EventName.IsNull() || strings.EqualFold(f.EventName.ValueString(), m.EventName.ValueString())) &&
		(f.DestinationType.IsNull() || f.DestinationType.ValueString() == m.DestinationType.ValueString()) &&
		(f.LogLevel.IsNull() || f.LogLevel.ValueString() == m.LogLevel.ValueString()) &&
		(f.Enabled.IsNull() || f.Enabled.ValueBool() == m.Enabled.ValueBool()) &&
		f.NotifiedFor.keeps(m)
}
