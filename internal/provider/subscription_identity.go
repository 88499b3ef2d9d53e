package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// The resource identity of eventnotify_subscription (Terraform 1.12 and later, OpenTofu 1.12
// and later): the account and the subscription id, which together name a subscription on the
// service. import blocks may give it instead of an id string.

var _ resource.ResourceWithIdentity = &SubscriptionResource{}

// subscriptionIdentityModel maps the identity of a subscription.
type subscriptionIdentityModel struct {
	AccountID types.String `tfsdk:"account_id"`
	ID        types.String `tfsdk:"id"`
}

// IdentitySchema describes the identity of a subscription.
func (r *SubscriptionResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"account_id": identityschema.StringAttribute{
				Description:       "Account that owns the subscription.",
				RequiredForImport: true,
			},
			"id": identityschema.StringAttribute{
				Description:       "Subscription id (a UUID).",
				RequiredForImport: true,
			},
		},
	}
}

// setSubscriptionIdentity records the identity of the subscription in a response. identity is
// nil for a resource without identity support, and then nothing is set.
func setSubscriptionIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, accountID, id string) diag.Diagnostics {
	if identity == nil {
		return nil
	}
	return identity.Set(ctx, subscriptionIdentityModel{AccountID: types.StringValue(accountID), ID: types.StringValue(id)})
}

// subscriptionFromIdentity reads the account and subscription id of an import block's
// identity, checked as the import id's parts are: the id must be a UUID (it is returned in
// lower case, as the service and the state hold it) and the account must not be blank.
func subscriptionFromIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity) (accountID, id string, diags diag.Diagnostics) {
	if identity == nil {
		diags.AddError("Missing import id", "Import needs an id (<subscription_id> or <account_id>/<subscription_id>) "+
			"or, with Terraform or OpenTofu 1.12 and later, an identity with account_id and id.")
		return "", "", diags
	}
	var model subscriptionIdentityModel
	diags.Append(identity.Get(ctx, &model)...)
	if diags.HasError() {
		return "", "", diags
	}
	accountID, id = model.AccountID.ValueString(), model.ID.ValueString()
	if strings.TrimSpace(accountID) == "" {
		diags.AddAttributeError(path.Root("account_id"), "Invalid import identity",
			"The identity's account_id must not be empty: name the account that owns the subscription.")
	} else if err := httpapi.CheckAccountID(accountID); err != nil {
		diags.AddAttributeError(path.Root("account_id"), "Invalid import identity", "The identity's account_id: "+accountIDAdvice(err)+".")
	}
	if !isUUID(id) {
		diags.AddAttributeError(path.Root("id"), "Invalid import identity",
			fmt.Sprintf("The identity's id %q is not a subscription id (a UUID such as "+
				"3fa85f64-5717-4562-b3fc-2c963f66afa6).", id))
	}
	return accountID, strings.ToLower(id), diags
}
