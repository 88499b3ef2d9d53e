package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
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
		Validators:          []validator.String{notBlank()},
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one subscription of an account by its id (operation `getSubscribedEventForAccount`).",
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
	account := d.data.accountID
	if !config.AccountID.IsNull() {
		account = config.AccountID.ValueString()
	}
	id := config.ID.ValueString()

	sub, err := d.data.client.GetSubscription(ctx, account, id)
	if errors.Is(err, client.ErrNotFound) {
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

// subscriptionDataSourceAttributes returns every attribute of a subscription,
// computed, for the data sources.
func subscriptionDataSourceAttributes() map[string]schema.Attribute {
	computed := func(description string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: description, Computed: true}
	}
	return map[string]schema.Attribute{
		"id":                             computed("Subscription id (a UUID)."),
		"account_id":                     computed("Account that owns the subscription."),
		"event_name":                     schema.StringAttribute{MarkdownDescription: "Name of the platform event.", Computed: true, CustomType: eventNameType{}},
		"destination_type":               computed("Where notifications go: `EVENT_STREAMS` or `EMAIL`."),
		"log_level":                      computed("Minimum log level that triggers a notification: `INFO`, `WARNING` or `ERROR`."),
		"event_streams_environment_id":   computed("Event streams environment id."),
		"event_streams_environment_name": computed("Event streams environment name."),
		"event_streams_topic":            computed("Event streams topic."),
		"enabled":                        schema.BoolAttribute{MarkdownDescription: "Whether the subscription is active.", Computed: true},
		"destination_email":              computed("Email address of the destination; meaningful for `EMAIL` destinations."),
		"created_date":                   schema.Int64Attribute{MarkdownDescription: "Creation time, Unix milliseconds.", Computed: true},
		"last_updated_date":              schema.Int64Attribute{MarkdownDescription: "Time of the last update, Unix milliseconds.", Computed: true},
		"created_by":                     computed("Email of the user who created the subscription."),
		"last_updated_by":                computed("Email of the user who last updated the subscription."),
	}
}
