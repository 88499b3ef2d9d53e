// Package provider implements the eventnotify Terraform provider with the
// terraform-plugin-framework.
package provider

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

var (
	_ provider.Provider                       = &EventNotifyProvider{}
	_ provider.ProviderWithEphemeralResources = &EventNotifyProvider{}
	_ provider.ProviderWithListResources      = &EventNotifyProvider{}
	_ provider.ProviderWithActions            = &EventNotifyProvider{}
	_ provider.ProviderWithFunctions          = &EventNotifyProvider{}
)

// EventNotifyProvider is the provider implementation.
type EventNotifyProvider struct {
	// version is the provider's version: the VERSION file's (main embeds it), the one a
	// release build sets, or "test" in acceptance tests.
	version string
	// adjustClient, when set, changes the client configuration before the
	// client is built (tests use it to make batching deterministic).
	adjustClient func(*client.Config)
	// configured is what Configure handed to the resources, for the calls that
	// the protocol server answers without the framework (accountProtocol).
	configured atomic.Pointer[providerData]
}

// providerModel maps the provider block.
type providerModel struct {
	AccountID            types.String  `tfsdk:"account_id"`
	Region               types.String  `tfsdk:"region"`
	BaseURL              types.String  `tfsdk:"base_url"`
	AuthURL              types.String  `tfsdk:"auth_url"`
	Username             types.String  `tfsdk:"username"`
	Password             types.String  `tfsdk:"password"`
	APIToken             types.String  `tfsdk:"api_token"`
	OTP                  types.String  `tfsdk:"otp"`
	JWT                  types.String  `tfsdk:"jwt"`
	MaxRetries           types.Int64   `tfsdk:"max_retries"`
	MaxRequestsPerSecond types.Float64 `tfsdk:"max_requests_per_second"`
	RequestTimeout       types.String  `tfsdk:"request_timeout"`
	MaxBatchSize         types.Int64   `tfsdk:"max_batch_size"`
	BatchWindow          types.String  `tfsdk:"batch_window"`
	AllowJWTExport       types.Bool    `tfsdk:"allow_jwt_export"`
}

// New returns a function that creates the provider, as providerserver expects.
func New(version string) func() provider.Provider {
	return func() provider.Provider {
		return &EventNotifyProvider{version: version}
	}
}

// Metadata sets the provider type name and version.
func (p *EventNotifyProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "eventnotify"
	resp.Version = p.version
}

// Schema describes the provider block.
func (p *EventNotifyProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The eventnotify provider manages the Event Notifications Configuration Service: " +
			"per-account subscriptions that bind a platform event to a destination and a minimum log level, " +
			"and event-streams topics. Every argument can also be set through the environment variable named in its " +
			"description; a value in the provider block wins over the variable.",
		Attributes: map[string]schema.Attribute{
			"account_id": schema.StringAttribute{
				MarkdownDescription: "Required unless `" + envAccountID + "` is set. Account that resources and data " +
					"sources use unless they set their own `account_id`. Environment variable: `" + envAccountID + "`.",
				Optional:   true,
				Validators: []validator.String{notBlank(), accountID()},
			},
			"region": schema.StringAttribute{
				MarkdownDescription: "Region of the service: `us` (default) or `gb`. It selects the regional service and " +
					"auth addresses when `base_url` and `auth_url` are not set, among the regions whose addresses the " +
					"provider knows; this version knows none (the service's specification publishes none), so a region " +
					"alone does not reach the service: set `base_url` and `auth_url` as well. Environment variable: `" +
					envRegion + "`.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf(httpapi.RegionNames()...)},
			},
			"base_url": schema.StringAttribute{
				MarkdownDescription: "Required unless `" + envBaseURL + "` is set. The address of the Event Notifications " +
					"Configuration Service for your account's region, without a path, such as `https://eventnotify.example.com`. " +
					"Plain `http://` is accepted for `localhost`, `127.0.0.1` and `[::1]` only. Environment variable: `" +
					envBaseURL + "`.",
				Optional:   true,
				Validators: []validator.String{httpURL()},
			},
			"auth_url": schema.StringAttribute{
				MarkdownDescription: "Required unless `" + envAuthURL + "` is set, or `jwt` alone authenticates. The address " +
					"of the platform's authentication service, which issues the tokens (JWTs), without a path, such as " +
					"`https://auth.example.com`. Plain `http://` is accepted for `localhost`, `127.0.0.1` and `[::1]` only. " +
					"Environment variable: `" + envAuthURL + "`.",
				Optional:   true,
				Validators: []validator.String{httpURL()},
			},
			"username": schema.StringAttribute{
				MarkdownDescription: "Required unless `" + envUsername + "` is set, or `jwt` alone authenticates. User " +
					"name for Basic auth when a JWT is generated. Like every credential, it comes from the provider block when the " +
					"block sets any credential, else from the environment. Environment variable: `" + envUsername + "`.",
				Optional:   true,
				Validators: []validator.String{notBlank()},
			},
			"password": schema.StringAttribute{
				MarkdownDescription: "Required unless `" + envPassword + "` is set, or `api_token` or `jwt` is used " +
					"instead. Password for Basic auth. Conflicts with `api_token`. Environment variable: `" + envPassword + "`.",
				Optional:  true,
				Sensitive: true,
				Validators: []validator.String{
					stringvalidator.ConflictsWith(path.MatchRoot("api_token")),
				},
			},
			"api_token": schema.StringAttribute{
				MarkdownDescription: "Used instead of `password` (one of them is required unless `jwt` alone " +
					"authenticates). API token, for users who cannot sign in with a password (single sign-on users without " +
					"administrator rights, users with two-factor authentication). Sent as the Basic auth password with the " +
					"user name `PLATFORM_TOKEN.<username>`. Conflicts with `password`. Environment variable: `" + envAPIToken + "`.",
				Optional:  true,
				Sensitive: true,
			},
			"otp": schema.StringAttribute{
				MarkdownDescription: "Time-based one-time password for ad hoc runs on accounts with two-factor authentication, " +
					"sent as `X-Platform-OTP` when a JWT is generated; it goes with `username` and `password`. A one-time " +
					"password expires within seconds and serves one JWT, so for unattended runs (CI) use `api_token` instead, " +
					"which needs no one-time password. Environment variable: `" + envOTP + "`.",
				Optional:  true,
				Sensitive: true,
			},
			"jwt": schema.StringAttribute{
				MarkdownDescription: "A JWT issued elsewhere, used instead of Basic auth credentials: the provider generates " +
					"no token of its own. Tokens expire after 5 minutes, so this suits short runs only, and it authenticates " +
					"`account_id` only. Environment variable: `" + envJWT + "` (the provider page says when it is used).",
				Optional:  true,
				Sensitive: true,
			},
			"allow_jwt_export": schema.BoolAttribute{
				MarkdownDescription: "Whether the `eventnotify_jwt` ephemeral resource may hand out a token minted from the " +
					"credentials this provider block sets. Default `false`: opening `eventnotify_jwt` on this provider fails " +
					"before any token is generated. Only the block's own configuration can set it, not a module that inherits it. " +
					"No environment variable (`" + envAllowJWTExport + "` covers credentials from the environment).",
				Optional: true,
			},
			"max_retries": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("How many times a request is retried, with exponential backoff, after a "+
					"transient failure (429, 502, 503, 504, network errors; creates only on 429, a 503 with Retry-After, or a connection that failed before sending). "+
					"Default `%d`. Environment variable: `%s`.", defaultMaxRetries, envMaxRetries),
				Optional:   true,
				Validators: []validator.Int64{int64validator.Between(0, 100)},
			},
			"max_requests_per_second": schema.Float64Attribute{
				MarkdownDescription: fmt.Sprintf("Client-side limit on requests per second, shared by every request of "+
					"this provider instance. Default `%g` (the platform APIs' published limit); `0` turns it off. "+
					"Environment variable: `%s`.", defaultRequestsPerSecond, envMaxRequestsPerSecond),
				Optional:   true,
				Validators: []validator.Float64{float64validator.AtLeast(0)},
			},
			"request_timeout": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("Timeout of one HTTP request attempt, a Go duration such as `30s` or `1m`. "+
					"Default `%s`. Environment variable: `%s`.", defaultRequestTimeout, envRequestTimeout),
				Optional:   true,
				Validators: []validator.String{goDuration()},
			},
			"max_batch_size": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("Most subscriptions that one write carries, from `1` to `%d`: creates of "+
					"`eventnotify_subscription` in one account that arrive together are sent together, and so are "+
					"deletes. `1` sends every write on its own. Default `%d` (the service documents no limit; "+
					"Terraform's parallelism, 10 by default, bounds a batch in practice). Environment variable: `%s`.",
					maxBatchSize, client.DefaultMaxBatchSize, envMaxBatchSize),
				Optional:   true,
				Validators: []validator.Int64{int64validator.Between(1, maxBatchSize)},
			},
			"batch_window": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("How long a create or delete waits for others to share its request once no "+
					"request of its kind is in flight for the account (writes that arrive while one is in flight gather behind "+
					"it), a Go duration such as `10ms`; under `max_requests_per_second` a batch also waits until the limit "+
					"would let its request go. Default `%s`. Environment variable: `%s`.",
					client.DefaultBatchWindow, envBatchWindow),
				Optional:   true,
				Validators: []validator.String{goDuration()},
			},
		},
	}
}

// Configure resolves the provider block and the environment into one API
// client that every resource and data source of this instance shares.
func (p *EventNotifyProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var model providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &model)...)
	if resp.Diagnostics.HasError() {
		return
	}

	settings, credentials, diags := resolveSettingsAndSource(model, lookupEnv)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}

	ctx = tflog.SetField(ctx, "eventnotify_account_id", settings.AccountID)
	ctx = tflog.SetField(ctx, "eventnotify_base_url", settings.BaseURL)
	tflog.Debug(ctx, "Configuring eventnotify client")

	settings.UserAgent = "terraform-provider-eventnotify/" + p.version
	if p.adjustClient != nil {
		p.adjustClient(&settings)
	}
	c, err := client.New(settings)
	if err != nil {
		resp.Diagnostics.AddError("Unable to create the eventnotify client",
			"The provider configuration could not be turned into an API client: "+err.Error())
		return
	}
	if checkCredentials(ctx, c, settings, credentials, &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}

	data := &providerData{client: c, accountID: settings.AccountID, preIssuedJWT: settings.JWT != "",
		jwtExport: credentials.jwtExport(), holders: newHolderRegistry(),
		destroyed: newDestroyedRegistry()}
	resp.DataSourceData = data
	resp.ResourceData = data
	resp.EphemeralResourceData = data
	resp.ListResourceData = data
	resp.ActionData = data
	p.configured.Store(data)
	tflog.Info(ctx, "Configured eventnotify client")
}

// Resources lists the provider's resources.
func (p *EventNotifyProvider) Resources(_ context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		NewSubscriptionResource,
		NewEventStreamsTopicResource,
		NewAccountSubscriptionsResource,
		NewTopicSubscriptionsResource,
	}
}

// DataSources lists the provider's data sources.
func (p *EventNotifyProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewEventsDataSource,
		NewLogLevelsDataSource,
		NewDestinationTypesDataSource,
		NewSubscriptionDataSource,
		NewSubscriptionsDataSource,
	}
}

// EphemeralResources lists the provider's ephemeral resources.
func (p *EventNotifyProvider) EphemeralResources(_ context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{
		NewJWTEphemeralResource,
	}
}

// ListResources lists the provider's list resources (terraform query, Terraform 1.14 and later).
func (p *EventNotifyProvider) ListResources(_ context.Context) []func() list.ListResource {
	return []func() list.ListResource{NewSubscriptionListResource}
}

// Actions lists the provider's actions (Terraform 1.14 and later).
func (p *EventNotifyProvider) Actions(_ context.Context) []func() action.Action {
	return []func() action.Action{NewDisableSubscriptionsAction, NewEnableSubscriptionsAction}
}

// Functions lists the provider's functions (the CLI versions with them: functionsTerraform, functionsOpenTofu):
// the routing preview, which needs no service (notified_for.go).
func (p *EventNotifyProvider) Functions(_ context.Context) []func() function.Function {
	return []func() function.Function{NewNotifiesFunction, NewLevelsNotifiedFunction}
}
