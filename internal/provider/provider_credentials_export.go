package provider

import (
	"crypto/subtle"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// A configuration alone never moves a credential of the environment to an address the
// environment does not name. Terraform gives configurations no env() function so that they
// cannot read the operator's environment; eventnotify_jwt would re-export it, since a token
// it hands out can go anywhere (another provider block's jwt with another base_url, a
// header of another provider). So:
//
//   - eventnotify_jwt hands out a token of a provider whose credentials came from the
//     environment (a token minted from them, or EVENTNOTIFY_JWT itself) only when the
//     operator allows it through the environment: EVENTNOTIFY_ALLOW_JWT_EXPORT=true;
//   - without that, a provider block whose jwt equals EVENTNOTIFY_JWT holds an environment
//     credential, whatever way the configuration got it: it is sent only to the
//     environment's addresses and account (envCredentialsStayHome).
//
// Credentials written in a provider block (from input variables or any other source) are
// the configuration's own: their tokens are handed out as before.

// envAllowJWTExport is the environment variable, with no provider argument, by which the
// operator lets eventnotify_jwt hand out tokens made from the environment's credentials.
const envAllowJWTExport = "EVENTNOTIFY_ALLOW_JWT_EXPORT"

// jwtExportPolicy says whether eventnotify_jwt may hand out the tokens of one provider
// instance.
type jwtExportPolicy struct {
	// fromEnv is true when the provider's credentials are the environment's.
	fromEnv bool
	// allowed is true when EVENTNOTIFY_ALLOW_JWT_EXPORT is true.
	allowed bool
	// origin says where the credentials came from, for the error.
	origin string
}

// check reports, as a diagnostic, a token that may not be handed out, and returns whether it
// may. It runs before any request, so a refused token is never even generated.
func (p jwtExportPolicy) check(diags *diag.Diagnostics) bool {
	if !p.fromEnv || p.allowed {
		return true
	}
	diags.AddError("JWT from the environment's credentials not handed out",
		fmt.Sprintf("For this provider, %s. A token that eventnotify_jwt hands out goes wherever the configuration "+
			"sends it, for instance to a provider block with another base_url, so a token of the environment's "+
			"credentials is handed out only when the operator allows it in the environment that runs "+
			"Terraform: export %s=true to allow it. Otherwise set the credentials in the provider block that this "+
			"eventnotify_jwt uses (username with password or api_token), or give the provider block that needs "+
			"the token its own credentials.", p.origin, envAllowJWTExport)+blockCredentialsAdvice)
	return false
}

// allowJWTExport reads EVENTNOTIFY_ALLOW_JWT_EXPORT: unset, empty or "false" refuses,
// "true" allows, and anything else is an error (a security switch is never guessed at).
func (r *settingsResolver) allowJWTExport() bool {
	v, _ := r.env(envAllowJWTExport)
	switch v {
	case "", "false":
		return false
	case "true":
		return true
	}
	r.diags.AddError("Invalid "+envAllowJWTExport,
		fmt.Sprintf("%s=%q is neither true nor false. Set it to true to let eventnotify_jwt hand out tokens made "+
			"from credentials in the environment, to false or unset it to refuse (the default). It is an environment "+
			"variable only, with no provider argument.", envAllowJWTExport, v))
	return false
}

// blockHoldsEnvJWT tells whether the provider block's jwt is the token exported in
// EVENTNOTIFY_JWT (compared in constant time).
func (r *settingsResolver) blockHoldsEnvJWT(m providerModel) bool {
	if m.JWT.IsNull() || m.JWT.IsUnknown() || m.JWT.ValueString() == "" {
		return false
	}
	env, _ := r.env(envJWT)
	return env != "" && subtle.ConstantTimeCompare([]byte(env), []byte(m.JWT.ValueString())) == 1
}

// jwtExport is the export policy of a provider instance with these credentials.
func (s credentialSource) jwtExport() jwtExportPolicy {
	return jwtExportPolicy{fromEnv: s.environmental(), allowed: s.exportAllowed, origin: s.String()}
}

// exportNote adds to an error about a block's jwt that is EVENTNOTIFY_JWT what lets such a
// token go elsewhere.
func (s credentialSource) exportNote() string {
	if !s.envJWTInBlock {
		return ""
	}
	return " A token from " + envJWT + " is a credential of the environment wherever the configuration got it " +
		"from; it goes to another address or account only when the operator exports " + envAllowJWTExport + "=true."
}
