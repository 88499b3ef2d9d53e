package provider

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// The list resource of eventnotify_subscription (Terraform 1.14 and later; OpenTofu has no list
// resources): `list "eventnotify_subscription"` blocks in .tfquery.hcl files, run by
// `terraform query`, find an account's subscriptions with the filters of the
// eventnotify_subscriptions data source. Each result carries the resource identity (account_id
// and id), so that `terraform query -generate-config-out=FILE` writes a resource block and an
// import block per subscription.

var _ list.ListResourceWithConfigure = &SubscriptionListResource{}

// SubscriptionListResource lists the subscriptions of an account for `terraform query`.
type SubscriptionListResource struct {
	data *providerData
}

// NewSubscriptionListResource returns the list resource of eventnotify_subscription.
func NewSubscriptionListResource() list.ListResource { return &SubscriptionListResource{} }

// Metadata sets the type name, which is the managed resource's.
func (r *SubscriptionListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_subscription"
}

// ListResourceConfigSchema describes the filters, worded and checked as the
// eventnotify_subscriptions data source's are.
func (r *SubscriptionListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Finds every subscription of an account, " +
			"optionally filtered, sorted by event name and then id, for `terraform query` (Terraform 1.14 and later). " +
			"Each result carries the subscription's identity (`account_id` and `id`), so that " +
			"`terraform query -generate-config-out=FILE` writes an `eventnotify_subscription` block and an `import` block " +
			"for every subscription found.",
		Attributes: subscriptionFilterListAttributes(),
	}
}

// Configure receives the provider's client.
func (r *SubscriptionListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configureProviderData(req.ProviderData, &resp.Diagnostics)
}

// List reads the account's subscriptions in one listing (page by page), keeps the ones that
// match the filters, and streams them in the data source's order: each with a display name,
// its identity and, when the request asks for it, the whole resource object as the resource's
// Read would store it. A failed listing is one result that holds the error.
func (r *SubscriptionListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var config subscriptionFilters
	diags := req.Config.Get(ctx, &config)
	if diags.HasError() || !providerConfigured(r.data, &diags, "subscription list resource") {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	account := r.data.account(config.AccountID)

	subs, err := r.data.client.AccountSubscriptions(ctx, account)
	if err != nil {
		addClientError(&diags, "Unable to list the subscriptions of account "+account, err)
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}

	found := config.apply(account, subs)

	stream.Results = func(push func(list.ListResult) bool) {
		for i, m := range found {
			if req.Limit > 0 && int64(i) >= req.Limit {
				return
			}
			if !push(subscriptionListResult(ctx, req, m)) {
				return
			}
		}
	}
}

// subscriptionListResult is the list result of one subscription.
func subscriptionListResult(ctx context.Context, req list.ListRequest, m subscriptionModel) list.ListResult {
	result := req.NewListResult(ctx)
	result.DisplayName = subscriptionDisplayName(m)
	result.Diagnostics.Append(setSubscriptionIdentity(ctx, result.Identity, m.AccountID.ValueString(), m.ID.ValueString())...)
	if req.IncludeResource {
		// As the resource's Read would store it; an import then plans clean (no timeouts block).
		result.Diagnostics.Append(result.Resource.Set(ctx, &subscriptionResourceModel{subscriptionModel: m, Timeouts: nullTimeouts()})...)
	}
	return result
}

// subscriptionDisplayName is how `terraform query` shows a subscription:
// "<event> -> <destination> (<log level>[, disabled]) [<id>]", for example
// "ATOM.STATUS -> EVENT_STREAMS Production/platform-events (WARNING) [3fa85f64-...]".
func subscriptionDisplayName(m subscriptionModel) string {
	level := m.LogLevel.ValueString()
	if !m.Enabled.IsNull() && !m.Enabled.ValueBool() {
		level += ", disabled"
	}
	return fmt.Sprintf("%s -> %s (%s) [%s]", m.EventName.ValueString(), subscriptionDestination(m), level, m.ID.ValueString())
}

// subscriptionDestination names where a subscription's notifications go: the destination type,
// then the event streams environment (its name, else its id) and topic, or the email address.
func subscriptionDestination(m subscriptionModel) string {
	where := ""
	switch m.DestinationType.ValueString() {
	case "EMAIL":
		where = m.DestinationEmail.ValueString()
	default:
		env := cmp.Or(m.EventStreamsEnvironmentName.ValueString(), m.EventStreamsEnvironmentID.ValueString())
		where = strings.Trim(env+"/"+m.EventStreamsTopic.ValueString(), "/")
	}
	return strings.TrimSpace(m.DestinationType.ValueString() + " " + where)
}
