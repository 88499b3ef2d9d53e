package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// providerData is what Configure hands to every resource and data source:
// one API client per provider instance and the default account.
type providerData struct {
	client    *client.Client
	accountID string
	// preIssuedJWT tells that the provider authenticates with a pre-issued jwt, which
	// serves accountID only.
	preIssuedJWT bool
	// jwtExport says whether eventnotify_jwt may hand out this provider's tokens.
	jwtExport jwtExportPolicy
	// holders records which resource of the configuration holds which subscription
	// (holders.go).
	holders *holderRegistry
	// destroyed keeps what the authoritative resources' destroys deleted (takeover_destroyed.go).
	destroyed *destroyedRegistry
}

// account returns the configured account, or the provider's default account
// when the configuration leaves it out: the one place that resolves it. A nil
// providerData (not configured yet) has no default.
func (d *providerData) account(configured types.String) string {
	if !configured.IsNull() && !configured.IsUnknown() {
		return configured.ValueString()
	}
	if d == nil {
		return ""
	}
	return d.accountID
}

// configureProviderData extracts the provider's data from a resource's or data
// source's Configure request. It returns nil without error while the provider
// is not yet configured (Terraform validates schemas before configuring).
func configureProviderData(data any, diags *diag.Diagnostics) *providerData {
	if data == nil {
		return nil
	}
	pd, ok := data.(*providerData)
	if !ok {
		diags.AddError("Unexpected provider data",
			fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider; please report it.", data))
		return nil
	}
	return pd
}

// providerConfigured reports, as a diagnostic, a resource or data source used
// before the provider was configured.
func providerConfigured(data *providerData, diags *diag.Diagnostics, what string) bool {
	if data == nil {
		diags.AddError("Provider not configured",
			"The eventnotify provider was not configured before the "+what+" was used. This is a bug in the provider; please report it.")
		return false
	}
	return true
}

// planDefaultAccount is the ModifyPlan step of every resource with an optional
// account_id: when the configuration leaves account_id out it plans the
// provider's account, and when that differs from the account in state it plans
// a replacement (the attribute's RequiresReplace sees only configured changes,
// so a change of the provider's account would otherwise plan an update). A
// provider with a pre-issued jwt refuses, at plan time, another account. The
// account resource's protocol fast path makes the same check of the provider's
// account before it answers a no-change plan (accountProtocol.planResourceChange): a new
// rule here that the fast path lacks fails the parity check (fast_path_parity_test.go) of
// every acceptance test whose plan it changes.
func planDefaultAccount(ctx context.Context, data *providerData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) diag.Diagnostics {
	var diags diag.Diagnostics
	if req.Plan.Raw.IsNull() || data == nil {
		return diags
	}
	var configured types.String
	diags.Append(req.Config.GetAttribute(ctx, path.Root("account_id"), &configured)...)
	if !diags.HasError() && data.preIssuedJWT && !configured.IsNull() && !configured.IsUnknown() &&
		configured.ValueString() != data.accountID {
		diags.AddAttributeError(path.Root("account_id"), "No JWT for this account",
			fmt.Sprintf("The provider is configured with a pre-issued jwt (%s), which authenticates account %q only, "+
				"so it cannot manage a resource of account %q: the token is never sent for another account. Leave "+
				"account_id out, use a provider block for that account, or configure username with password or "+
				"api_token so that a JWT is generated for each account.", envJWT, data.accountID, configured.ValueString()))
		return diags
	}
	if diags.HasError() || !configured.IsNull() {
		return diags
	}
	account := data.account(configured)
	diags.Append(resp.Plan.SetAttribute(ctx, path.Root("account_id"), account)...)
	if req.State.Raw.IsNull() {
		return diags
	}
	var prior types.String
	diags.Append(req.State.GetAttribute(ctx, path.Root("account_id"), &prior)...)
	if !prior.IsNull() && prior.ValueString() != account {
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("account_id"))
	}
	return diags
}
