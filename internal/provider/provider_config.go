package provider

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// Environment variables that back the provider arguments.
const (
	envAccountID            = "EVENTNOTIFY_ACCOUNT_ID"
	envRegion               = "EVENTNOTIFY_REGION"
	envBaseURL              = "EVENTNOTIFY_BASE_URL"
	envAuthURL              = "EVENTNOTIFY_AUTH_URL"
	envUsername             = "EVENTNOTIFY_USERNAME"
	envPassword             = "EVENTNOTIFY_PASSWORD"
	envAPIToken             = "EVENTNOTIFY_API_TOKEN"
	envOTP                  = "EVENTNOTIFY_OTP"
	envJWT                  = "EVENTNOTIFY_JWT"
	envMaxRetries           = "EVENTNOTIFY_MAX_RETRIES"
	envMaxRequestsPerSecond = "EVENTNOTIFY_MAX_REQUESTS_PER_SECOND"
	envRequestTimeout       = "EVENTNOTIFY_REQUEST_TIMEOUT"
	envMaxBatchSize         = "EVENTNOTIFY_MAX_BATCH_SIZE"
	envBatchWindow          = "EVENTNOTIFY_BATCH_WINDOW"
)

// Defaults of the optional arguments.
const (
	defaultMaxRetries        = 5
	defaultRequestsPerSecond = 10.0
	defaultRequestTimeout    = "30s"
	// maxBatchSize bounds max_batch_size: the service documents no limit per request.
	maxBatchSize = 1000
)

// urlAdvice says what base_url and auth_url must be.
const urlAdvice = "an absolute http or https URL such as https://eventnotify.example.com, with no credentials " +
	"in it (set username with password or api_token instead) and without the service's paths (/rest/v1, /auth/jwt), " +
	"which the provider appends"

// lookupEnv reads the process environment; tests pass their own function.
func lookupEnv(name string) (string, bool) { return os.LookupEnv(name) }

// settingsResolver collects the provider block, the environment and the
// diagnostics of one Configure call.
type settingsResolver struct {
	env   func(string) (string, bool)
	diags diag.Diagnostics
}

// resolveSettings merges the provider block with the environment (the block
// wins), applies defaults and validates the result. Every diagnostic names the
// argument and its environment variable.
func resolveSettings(m providerModel, env func(string) (string, bool)) (client.Config, diag.Diagnostics) {
	cfg, _, diags := resolveSettingsAndSource(m, env)
	return cfg, diags
}

// resolveSettingsAndSource is resolveSettings that also tells where the credentials came
// from (see provider_credentials.go).
func resolveSettingsAndSource(m providerModel, env func(string) (string, bool)) (client.Config, credentialSource, diag.Diagnostics) {
	r := &settingsResolver{env: env}
	var cfg client.Config

	cfg.AccountID = r.required(m.AccountID, "account_id", envAccountID, "the account that resources and data sources use")
	if err := httpapi.CheckAccountID(cfg.AccountID); cfg.AccountID != "" && err != nil {
		r.invalid("account_id", envAccountID, accountIDAdvice(err))
	}

	regionName := r.optional(m.Region, "region", envRegion)
	if regionName == "" {
		regionName = httpapi.DefaultRegion
	}
	region, ok := httpapi.LookupRegion(regionName)
	if !ok {
		r.invalid("region", envRegion, fmt.Sprintf("%q is not a known region. Accepted values: %s.",
			regionName, strings.Join(httpapi.RegionNames(), ", ")))
	}

	src := r.credentialSource(m)
	creds := make(map[string]string, len(credentialArgs))
	for _, a := range credentialArgs {
		creds[a.name] = r.credential(m, a, src)
	}
	cfg.Username, cfg.Password, cfg.APIToken = creds["username"], creds["password"], creds["api_token"]
	cfg.OTP, cfg.JWT = creds["otp"], creds["jwt"]

	cfg.BaseURL = r.address(m.BaseURL, "base_url", envBaseURL, region.BaseURL, regionName, ok, true)
	// With a pre-issued JWT alone, no JWT is ever generated, so no auth address is needed.
	jwtOnly := cfg.JWT != "" && cfg.Username == "" && cfg.Password == "" && cfg.APIToken == ""
	cfg.AuthURL = r.address(m.AuthURL, "auth_url", envAuthURL, region.AuthURL, regionName, ok, !jwtOnly)
	r.credentials(cfg, src)
	r.envCredentialsStayHome(m, cfg, src)

	cfg.MaxRetries = int(r.integer(m.MaxRetries, "max_retries", envMaxRetries, defaultMaxRetries, 0, 100))
	cfg.MaxBatchSize = int(r.integer(m.MaxBatchSize, "max_batch_size", envMaxBatchSize, client.DefaultMaxBatchSize, 1, maxBatchSize))
	cfg.BatchWindow = r.duration(m.BatchWindow, "batch_window", envBatchWindow, client.DefaultBatchWindow.String())
	cfg.RequestsPerSecond = r.float(m.MaxRequestsPerSecond, "max_requests_per_second", envMaxRequestsPerSecond, defaultRequestsPerSecond)
	cfg.RequestTimeout = r.duration(m.RequestTimeout, "request_timeout", envRequestTimeout, defaultRequestTimeout)

	return cfg, src, r.diags
}

// raw returns the configured value of a string argument, or its variable's
// value. ok is false when neither is set; unknown values are reported.
func (r *settingsResolver) raw(v types.String, name, env string) (value string, fromEnv, ok bool) {
	if r.unknown(v, name, env) {
		return "", false, false
	}
	if !v.IsNull() {
		return v.ValueString(), false, true
	}
	if s, set := r.env(env); set && s != "" {
		return s, true, true
	}
	return "", false, false
}

// unknown reports an argument whose value is not known until apply.
func (r *settingsResolver) unknown(v attr.Value, name, env string) bool {
	if !v.IsUnknown() {
		return false
	}
	r.diags.AddAttributeError(path.Root(name), "Unknown value for "+name,
		fmt.Sprintf("The provider cannot be configured because %s depends on a value that is only known after apply. "+
			"Set it to a static value, set the %s environment variable instead, or apply the resources it depends on "+
			"first with -target.", name, env))
	return true
}

// optional resolves a string argument that may be absent; a value of only
// white space is an error.
func (r *settingsResolver) optional(v types.String, name, env string) string {
	s, _ := r.present(v, name, env)
	return s
}

// required resolves a string argument that must be set.
func (r *settingsResolver) required(v types.String, name, env, what string) string {
	s, set := r.present(v, name, env)
	if !set && !v.IsUnknown() {
		r.diags.AddAttributeError(path.Root(name), "Missing "+name,
			fmt.Sprintf("The provider needs %s. Set %q in the provider block or the %s environment variable.", what, name, env))
	}
	return s
}

// present resolves a string argument; set is true when it was given at all,
// even with a rejected (blank) value.
func (r *settingsResolver) present(v types.String, name, env string) (value string, set bool) {
	s, fromEnv, ok := r.raw(v, name, env)
	if !ok {
		return "", false
	}
	if strings.TrimSpace(s) == "" {
		r.invalid(name, env, "The value is empty or only white space"+origin(fromEnv, env)+". Set a real value or remove it.")
		return "", true
	}
	return s, true
}

// address resolves base_url or auth_url: the argument, its variable, or the
// region's address, in that order; needed says whether its absence is an error.
func (r *settingsResolver) address(v types.String, name, env, regional, region string, regionKnown, needed bool) string {
	s, fromEnv, ok := r.raw(v, name, env)
	if !ok {
		if regional == "" && regionKnown && needed {
			r.diags.AddAttributeError(path.Root(name), "No address for "+name,
				fmt.Sprintf("The provider holds no %s address for region %q. Set %q in the provider block or the %s "+
					"environment variable to the service's address.", strings.TrimSuffix(name, "_url"), region, name, env))
		}
		return regional
	}
	if err := httpapi.CheckURL(s); err != nil {
		var pathErr *httpapi.ServicePathError
		if errors.As(err, &pathErr) {
			// The value to use is in the error; the general rule would only distract from it.
			r.invalid(name, env, err.Error()+origin(fromEnv, env)+". Set "+name+" to the address alone; the provider "+
				"appends \"/rest/v1/...\" to base_url and \"/auth/jwt/generate/...\" to auth_url.")
			return ""
		}
		r.invalid(name, env, err.Error()+origin(fromEnv, env)+". The value must be "+urlAdvice+".")
		return ""
	}
	return httpapi.CleanAddress(s)
}

// credentials turns the client's credential rules into diagnostics that name
// the arguments or variables of the one source they came from.
func (r *settingsResolver) credentials(cfg client.Config, src credentialSource) {
	err := httpapi.CheckCredentials(cfg.Username, cfg.Password, cfg.APIToken, cfg.JWT)
	if err == nil {
		return
	}
	name := func(arg, env string) string {
		if src.fromEnv {
			return env
		}
		return arg
	}
	where := "in the provider block"
	if src.fromEnv {
		where = "in the environment"
	}
	if errors.Is(err, httpapi.ErrConflictingCredentials) {
		r.diags.AddAttributeError(path.Root("api_token"), "Conflicting credentials",
			fmt.Sprintf("Both %s and %s are set %s. Set only one: api_token for single sign-on or two-factor users, "+
				"password otherwise.", name("password", envPassword), name("api_token", envAPIToken), where))
	}
	if errors.Is(err, httpapi.ErrMissingCredentials) {
		r.diags.AddError("Missing credentials",
			fmt.Sprintf("The provider needs credentials to obtain a JWT: \"username\" (%s) with \"password\" (%s) "+
				"or \"api_token\" (%s), or \"jwt\" (%s) for a token issued elsewhere, all in the provider block or all in "+
				"the environment; %s.%s",
				envUsername, envPassword, envAPIToken, envJWT, src, src.unusedNote()))
	}
	if errors.Is(err, httpapi.ErrMissingUsername) && !errors.Is(err, httpapi.ErrMissingCredentials) {
		r.diags.AddAttributeError(path.Root("username"), "Missing username",
			fmt.Sprintf("A password or api_token needs a user name from the same place: set %s %s.%s",
				name("\"username\"", envUsername), where, src.unusedNote()))
	}
}

// integer resolves a whole-number argument.
func (r *settingsResolver) integer(v types.Int64, name, env string, def, min, max int64) int64 {
	if r.unknown(v, name, env) {
		return def
	}
	if !v.IsNull() {
		return v.ValueInt64()
	}
	s, ok := r.env(env)
	if !ok || s == "" {
		return def
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n < min || n > max {
		r.invalid(name, env, fmt.Sprintf("%s=%q is not a whole number from %d to %d.", env, s, min, max))
		return def
	}
	return n
}

// float resolves a non-negative number argument.
func (r *settingsResolver) float(v types.Float64, name, env string, def float64) float64 {
	if r.unknown(v, name, env) {
		return def
	}
	if !v.IsNull() {
		return v.ValueFloat64()
	}
	s, ok := r.env(env)
	if !ok || s == "" {
		return def
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f < 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		r.invalid(name, env, fmt.Sprintf("%s=%q is not a number of 0 or more (0 turns the limit off).", env, s))
		return def
	}
	return f
}

// duration resolves a Go duration argument.
func (r *settingsResolver) duration(v types.String, name, env, def string) time.Duration {
	s, fromEnv, ok := r.raw(v, name, env)
	if !ok {
		s = def
	}
	d, err := parsePositiveDuration(s)
	if err != nil {
		r.invalid(name, env, err.Error()+origin(fromEnv, env)+".")
		return 0
	}
	return d
}

// invalid adds an error for an argument with a bad value.
func (r *settingsResolver) invalid(name, env, detail string) {
	r.diags.AddAttributeError(path.Root(name), "Invalid "+name,
		fmt.Sprintf("%s (argument %q, environment variable %s)", detail, name, env))
}

// origin says where a bad value came from.
func origin(fromEnv bool, env string) string {
	if fromEnv {
		return " (from the " + env + " environment variable)"
	}
	return ""
}

// parsePositiveDuration parses a Go duration that must be greater than zero.
func parsePositiveDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration; use a Go duration such as 30s, 2m or 1m30s", s)
	}
	if d <= 0 {
		return 0, fmt.Errorf("%q must be greater than zero", s)
	}
	return d, nil
}
