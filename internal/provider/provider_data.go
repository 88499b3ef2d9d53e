package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// providerData is what Configure hands to every resource and data source:
// one API client per provider instance and the default account.
type providerData struct {
	client    *client.Client
	accountID string
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
