package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

var (
	_ ephemeral.EphemeralResource              = &JWTEphemeralResource{}
	_ ephemeral.EphemeralResourceWithConfigure = &JWTEphemeralResource{}
)

// jwtMinValidity is how long a token that eventnotify_jwt hands on must still be valid: a
// cached token with less left is replaced, so that the provider block it configures gets
// most of the service's 5-minute lifetime.
const jwtMinValidity = 4 * time.Minute

// JWTEphemeralResource hands out a JWT generated from the provider's credentials, for
// configuring another provider block. Its values live in memory only: never in a plan or
// state.
type JWTEphemeralResource struct {
	data *providerData
}

// jwtModel maps the ephemeral resource's attributes.
type jwtModel struct {
	AccountID types.String `tfsdk:"account_id"`
	Token     types.String `tfsdk:"token"`
	ExpiresAt types.String `tfsdk:"expires_at"`
}

// NewJWTEphemeralResource returns the eventnotify_jwt ephemeral resource.
func NewJWTEphemeralResource() ephemeral.EphemeralResource { return &JWTEphemeralResource{} }

// Metadata sets the ephemeral resource type name.
func (r *JWTEphemeralResource) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_jwt"
}

// Schema describes the JWT.
func (r *JWTEphemeralResource) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A JWT for an account, generated from the provider's credentials (or the provider's own " +
			"pre-issued `jwt`), for arguments that accept ephemeral values: an aliased `eventnotify` provider block " +
			"that holds only `jwt`, another provider's configuration, or the `Authorization` header of another " +
			"provider's ephemeral resource. The token is never written to a plan or state file.",
		Attributes: map[string]schema.Attribute{
			"account_id": schema.StringAttribute{
				MarkdownDescription: "Account the token is for. Defaults to the provider's `account_id`. A provider " +
					"configured with a pre-issued `jwt` can hand out that token for its own account only.",
				Optional:   true,
				Computed:   true,
				Validators: []validator.String{notBlank(), accountID()},
			},
			"token": schema.StringAttribute{
				MarkdownDescription: "The JWT, for an `Authorization: Bearer` header or a provider's `jwt` argument.",
				Computed:            true,
				Sensitive:           true,
			},
			"expires_at": schema.StringAttribute{
				MarkdownDescription: "When the token expires, in RFC 3339 form such as `2025-01-02T15:04:05Z`. Null " +
					"for a pre-issued `jwt` without an `exp` claim.",
				Computed: true,
			},
		},
	}
}

// Configure receives the provider's client.
func (r *JWTEphemeralResource) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	r.data = configureProviderData(req.ProviderData, &resp.Diagnostics)
}

// Open returns a token from the client's cache, fetching one when the cache holds none with
// jwtMinValidity left.
func (r *JWTEphemeralResource) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var model jwtModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &model)...)
	if resp.Diagnostics.HasError() || !providerConfigured(r.data, &resp.Diagnostics, "ephemeral resource eventnotify_jwt") ||
		!r.data.jwtExport.check(&resp.Diagnostics) {
		return
	}
	account := model.AccountID.ValueString()
	if account == "" {
		account = r.data.accountID
	}

	token, expiresAt, err := r.data.client.TokenWithExpiry(ctx, account, jwtMinValidity)
	if errors.Is(err, httpapi.ErrPreIssuedJWTAccount) {
		resp.Diagnostics.AddAttributeError(path.Root("account_id"), "No JWT for this account",
			fmt.Sprintf("The provider is configured with a pre-issued jwt ("+envJWT+"), which authenticates "+
				"account %q only, so it cannot hand out a token for account %q. Configure the provider with username "+
				"and password or api_token to generate tokens for other accounts, or leave account_id out.",
				r.data.accountID, account))
		return
	}
	if err != nil {
		addClientError(&resp.Diagnostics, "Unable to generate a JWT for account "+account, err)
		return
	}

	model.AccountID = types.StringValue(account)
	model.Token = types.StringValue(token)
	model.ExpiresAt = types.StringNull()
	if !expiresAt.IsZero() {
		model.ExpiresAt = types.StringValue(expiresAt.UTC().Format(time.RFC3339))
	}
	tflog.Debug(ctx, "Opened eventnotify_jwt", map[string]any{"account_id": account, "expires_at": model.ExpiresAt.ValueString()})
	resp.Diagnostics.Append(resp.Result.Set(ctx, &model)...)
}
