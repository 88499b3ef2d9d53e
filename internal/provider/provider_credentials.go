package provider

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// Credentials come as a set from one source: when the provider block sets any credential
// argument, every credential comes from the block and none from the environment; otherwise
// every credential comes from the environment. Credentials from the environment are meant
// for the environment's addresses and account: a block that names another base_url or
// auth_url than EVENTNOTIFY_BASE_URL or EVENTNOTIFY_AUTH_URL, or (for EVENTNOTIFY_JWT)
// another account_id than EVENTNOTIFY_ACCOUNT_ID, uses none of them. So a host named in a
// provider block never receives a credential that was exported for another. A block's jwt
// equal to EVENTNOTIFY_JWT counts as the environment's, and eventnotify_jwt hands out no token
// of the environment's credentials unless the operator allows it (provider_credentials_export.go).

// blockCredentialsAdvice says, in the errors that ask for credentials in a provider block,
// where those should come from: a saved plan (the tfplan file CI keeps as an artifact) holds
// the value of every root input variable, `sensitive = true` ones too, but not of an ephemeral
// one, which the CLI asks for again at apply. The docs say the same (docs/index.md, the CI guide).
const blockCredentialsAdvice = " Credentials in a provider block belong in input variables declared " +
	"`ephemeral = true` (Terraform 1.10, OpenTofu 1.11 and later; give them again to `apply tfplan`), never in " +
	"literal text: a saved plan holds the value of every other variable, `sensitive = true` ones too. With an " +
	"older CLI, export the EVENTNOTIFY_* variables for a block that uses the environment's addresses, and keep " +
	"no saved plan (`plan -out`) of a block whose credentials come from variables."

// sameAddressNote says how the addresses are compared, for the error about another address.
const sameAddressNote = " Addresses are compared whole, path included (another path of the same host may be another " +
	"service behind a gateway), ignoring only a trailing slash, the letter case of the scheme and host, the " +
	"scheme's default port and . or .. segments; a path holding a percent-encoded dot, slash or backslash is " +
	"never the environment's address."

// credentialArg is one credential argument and its environment variable.
type credentialArg struct {
	name, env string
	block     func(providerModel) types.String
}

// credentialArgs lists the credential arguments, taken as a set from one source.
var credentialArgs = []credentialArg{
	{"username", envUsername, func(m providerModel) types.String { return m.Username }},
	{"password", envPassword, func(m providerModel) types.String { return m.Password }},
	{"api_token", envAPIToken, func(m providerModel) types.String { return m.APIToken }},
	{"otp", envOTP, func(m providerModel) types.String { return m.OTP }},
	{"jwt", envJWT, func(m providerModel) types.String { return m.JWT }},
}

// credentialSource says where a provider instance's credentials come from.
type credentialSource struct {
	// fromEnv is true when the block sets no credential argument.
	fromEnv bool
	// set names what the source sets: arguments of the block, or variables of the environment.
	set []string
	// unused names the environment's credential variables that a block source leaves unused.
	unused []string
	// envJWTInBlock is true when the block's jwt is the token exported in EVENTNOTIFY_JWT and
	// EVENTNOTIFY_ALLOW_JWT_EXPORT is not true: it counts as a credential from the environment
	// (see provider_credentials_export.go).
	envJWTInBlock bool
	// exportAllowed is true when EVENTNOTIFY_ALLOW_JWT_EXPORT is true.
	exportAllowed bool
	// blockAllows is true when the provider block sets allow_jwt_export = true.
	blockAllows bool
}

// environmental tells whether the credentials are the environment's: set in the
// environment, or a block's jwt that is EVENTNOTIFY_JWT.
func (s credentialSource) environmental() bool {
	return (s.fromEnv && len(s.set) > 0) || s.envJWTInBlock
}

// String says where the credentials came from, for diagnostics.
func (s credentialSource) String() string {
	switch {
	case s.fromEnv && len(s.set) == 0:
		return "no credentials are set, neither in the provider block nor in the environment"
	case s.fromEnv:
		return "the credentials came from the environment (" + strings.Join(s.set, ", ") + ")"
	case s.envJWTInBlock:
		return "the credentials came from the provider block (" + strings.Join(s.set, ", ") + "), but its jwt is the " +
			"token exported in " + envJWT + ", so it counts as a credential from the environment"
	default:
		return "the credentials came from the provider block (" + strings.Join(s.set, ", ") + ")"
	}
}

// unusedNote tells, when the block is the source, which environment variables were not used.
func (s credentialSource) unusedNote() string {
	if s.fromEnv || len(s.unused) == 0 {
		return ""
	}
	return fmt.Sprintf(" The provider block sets %s, so every credential comes from the block and none from "+
		"the environment: %s %s not used for this provider block.", strings.Join(s.set, ", "),
		strings.Join(s.unused, ", "), plural(len(s.unused), "is", "are"))
}

// plural picks the singular or plural word for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// credentialSource finds the source of the credentials: the block when it sets any
// credential argument (an unknown value counts as set), else the environment.
func (r *settingsResolver) credentialSource(m providerModel) credentialSource {
	var src credentialSource
	for _, a := range credentialArgs {
		if !a.block(m).IsNull() {
			src.set = append(src.set, a.name)
		}
	}
	for _, a := range credentialArgs {
		if v, ok := r.env(a.env); ok && v != "" {
			src.unused = append(src.unused, a.env)
		}
	}
	if len(src.set) == 0 {
		src.fromEnv, src.set, src.unused = true, src.unused, nil
	}
	src.exportAllowed = r.allowJWTExport()
	src.blockAllows = r.blockAllowsJWTExport(m)
	src.envJWTInBlock = !src.fromEnv && !src.exportAllowed && r.blockHoldsEnvJWT(m)
	return src
}

// credential resolves one credential argument from the source: the block's value, or the
// environment variable's when the environment is the source.
func (r *settingsResolver) credential(m providerModel, a credentialArg, src credentialSource) string {
	v := a.block(m)
	if !src.fromEnv && v.IsNull() {
		return ""
	}
	return r.optional(v, a.name, a.env)
}

// envCredentialsStayHome refuses credentials from the environment for a provider block that
// names an address that the environment does not name, or, for a pre-issued JWT, another
// account: credentials are exported for the environment's service and account, and an
// address named in a block never receives them. The environment's addresses are its
// EVENTNOTIFY_BASE_URL and EVENTNOTIFY_AUTH_URL, compared whole, path prefix included
// (httpapi.SameAddress): another path of the same host is another address.
func (r *settingsResolver) envCredentialsStayHome(m providerModel, cfg client.Config, src credentialSource) {
	if !src.environmental() {
		return
	}
	for _, a := range []struct {
		name, env string
		block     types.String
	}{{"base_url", envBaseURL, m.BaseURL}, {"auth_url", envAuthURL, m.AuthURL}} {
		if a.block.IsNull() || a.block.IsUnknown() {
			continue
		}
		envValue, _ := r.env(a.env)
		if httpapi.SameAddress(a.block.ValueString(), envValue) {
			continue
		}
		envNames := "which is not set"
		if envValue != "" {
			envNames = "which names " + shownAddress(envValue)
		}
		r.diags.AddAttributeError(path.Root(a.name), "Credentials from the environment not sent to "+a.name,
			fmt.Sprintf("The provider block sets %s to %s, an address that %s does not name (%s), and %s. "+
				"Credentials exported in the environment are sent only to the environment's own addresses, never to an "+
				"address named in a provider block. Either set the credentials in this provider block (username with "+
				"password or api_token, or jwt), or remove %s from the block and export %s instead.",
				a.name, shownAddress(a.block.ValueString()), a.env, envNames, src, a.name, a.env)+blockCredentialsAdvice+src.exportNote()+sameAddressNote)
	}
	envAccount, ok := r.env(envAccountID)
	if cfg.JWT != "" && ok && envAccount != "" && !m.AccountID.IsNull() && !m.AccountID.IsUnknown() &&
		m.AccountID.ValueString() != envAccount {
		r.diags.AddAttributeError(path.Root("jwt"), "Pre-issued JWT from the environment not used for this account",
			fmt.Sprintf("The provider block sets account_id to %q, but %s was exported for the account in %s (%q): a "+
				"pre-issued JWT authenticates the account it was issued for only, and is never sent for another. Set "+
				"jwt, or username with password or api_token, in this provider block.",
				m.AccountID.ValueString(), envJWT, envAccountID, envAccount)+blockCredentialsAdvice+src.exportNote())
	}
}

// shownAddress is an address as written without what could be secret, for diagnostics: its
// scheme, host and path (CheckURL refuses user information, queries and fragments), or what
// it is when it is not a valid address.
func shownAddress(s string) string {
	if httpapi.CheckURL(s) != nil {
		return "a value that is not a valid address"
	}
	u, err := url.Parse(s)
	if err != nil {
		return "a value that is not a valid address"
	}
	return u.Scheme + "://" + u.Host + u.EscapedPath()
}
