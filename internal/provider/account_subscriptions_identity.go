package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// The resource identity of eventnotify_account_subscriptions (Terraform 1.12 and later, OpenTofu
// 1.12 and later): the account, its import id, which names its scope. import blocks may give it
// instead of an id string. The account cannot change without replacing the resource, so the
// identity never changes either.
//
// The protocol fast path (accountProtocol) answers Read and a no-change plan with the identity
// itself: accountIdentityValue is the one encoding of it there.

var _ resource.ResourceWithIdentity = &AccountSubscriptionsResource{}

// accountIdentityModel maps the identity of an account resource.
type accountIdentityModel struct {
	AccountID types.String `tfsdk:"account_id"`
}

// IdentitySchema describes the identity of an account resource.
func (r *AccountSubscriptionsResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = accountIdentitySchema()
}

// accountIdentitySchema is the identity schema of the account resource.
func accountIdentitySchema() identityschema.Schema {
	return identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"account_id": identityschema.StringAttribute{
				Description:       "Account whose subscriptions the resource manages.",
				RequiredForImport: true,
			},
		},
	}
}

// setAccountIdentity records the identity of the account resource of account in a response.
// identity is nil for a resource without identity support, and then nothing is set.
func setAccountIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, account string) diag.Diagnostics {
	if identity == nil {
		return nil
	}
	return identity.Set(ctx, accountIdentityModel{AccountID: types.StringValue(account)})
}

// accountFromIdentity reads the account of an import block's identity, checked as an account id
// is everywhere (httpapi.CheckAccountID), and not blank: an error names the identity's attribute.
func accountFromIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity) (string, diag.Diagnostics) {
	var diags diag.Diagnostics
	if identity == nil || identity.Raw.IsNull() {
		diags.AddError("Missing import id", "Import of "+accountSubscriptionsType+" needs an id (<account_id>) or, "+
			"with Terraform or OpenTofu 1.12 and later, an identity with account_id.")
		return "", diags
	}
	var model accountIdentityModel
	diags.Append(identity.Get(ctx, &model)...)
	if diags.HasError() {
		return "", diags
	}
	account := model.AccountID.ValueString()
	if strings.TrimSpace(account) == "" {
		diags.AddAttributeError(path.Root("account_id"), "Invalid import identity",
			"The identity's account_id must not be empty: name the account whose subscriptions "+accountSubscriptionsType+" manages.")
	} else if err := httpapi.CheckAccountID(account); err != nil {
		diags.AddAttributeError(path.Root("account_id"), "Invalid import identity", "The identity's account_id: "+accountIDAdvice(err)+".")
	}
	return account, diags
}
