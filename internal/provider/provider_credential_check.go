package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// checkCredentials generates the JWT of the provider's account once, when the provider is
// configured with Basic credentials, so that wrong credentials (or an auth address that
// cannot be reached) are one error of the provider instead of one per resource and data
// source, and nothing runs with them. The token is cached by the client and serves the
// requests that follow, so the check costs no request of its own. A pre-issued jwt is not
// checked (that would need a request to the service), nor is a 403: the user may manage
// other accounts than the provider's default one, whose resources then report it.
func checkCredentials(ctx context.Context, c *client.Client, cfg client.Config, src credentialSource, diags *diag.Diagnostics) {
	if cfg.JWT != "" {
		return
	}
	_, err := c.Token(ctx, cfg.AccountID)
	if err == nil {
		return
	}
	var apiErr *httpapi.APIError
	if errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusForbidden {
		tflog.Debug(ctx, "The credentials are valid but give no access to the provider's account; its resources will say so",
			map[string]any{"account_id": cfg.AccountID})
		return
	}
	if errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusUnauthorized {
		diags.AddError("Invalid eventnotify credentials",
			fmt.Sprintf("The provider checks its credentials once, when it is configured, by generating a JWT for account "+
				"%q; they were rejected, so no resource or data source was read or changed; %s.\n\n%s",
				cfg.AccountID, src, clientErrorDetail(err)))
		return
	}
	diags.AddError("Unable to generate a JWT for account "+cfg.AccountID,
		fmt.Sprintf("The provider generates a JWT for account %q when it is configured, to check its credentials; "+
			"this failed, so no resource or data source was read or changed.\n\n%s", cfg.AccountID, clientErrorDetail(err)))
}
