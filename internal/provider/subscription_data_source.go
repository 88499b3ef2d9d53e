package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

var _ datasource.DataSourceWithConfigure = &SubscriptionDataSource{}

// SubscriptionDataSource reads one subscription by id.
type SubscriptionDataSource struct {
	data *providerData
}

// NewSubscriptionDataSource returns the eventnotify_subscription data source.
func NewSubscriptionDataSource() datasource.DataSource { return &SubscriptionDataSource{} }

// Metadata sets the data source type name.
func (d *SubscriptionDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_subscription"
}

// Schema describes the data source: an id in, every attribute of the resource out.
func (d *SubscriptionDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := subscriptionDataSourceAttributes()
	attrs["id"] = schema.StringAttribute{
		MarkdownDescription: "Id (a UUID) of the subscription to read.",
		Required:            true,
		Validators:          []validator.String{uuidString()},
	}
	attrs["account_id"] = schema.StringAttribute{
		MarkdownDescription: "Account that owns the subscription. Defaults to the provider's `account_id`.",
		Optional:            true,
		Computed:            true,
		Validators:          []validator.String{notBlank(), accountID()},
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one subscription of an account by its id.",
		Attributes:          attrs,
	}
}

// Configure receives the provider's client.
func (d *SubscriptionDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configureProviderData(req.ProviderData, &resp.Diagnostics)
}

// Read fetches the subscription.
func (d *SubscriptionDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var config subscriptionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() || !providerConfigured(d.data, &resp.Diagnostics, "subscription data source") {
		return
	}
	account := d.data.account(config.AccountID)
	id := config.ID.ValueString()

	sub, err := d.data.client.GetSubscription(ctx, account, id)
	if errors.Is(err, httpapi.ErrNotFound) {
		resp.Diagnostics.AddError("Subscription not found",
			fmt.Sprintf("Account %q has no subscription with id %q. Check the id and account_id; the "+
				"eventnotify_subscriptions data source lists the account's subscriptions.", account, id))
		return
	}
	if err != nil {
		addClientError(&resp.Diagnostics, "Unable to read subscription "+id, err)
		return
	}
	state := subscriptionFromAPI(account, sub)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}
