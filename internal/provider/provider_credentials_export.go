package provider

import (
	"crypto/subtle"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// A configuration alone never moves a credential of the environment to an address the
// environment does not name, and a module never takes out the credentials of a provider block
// it inherits. Terraform gives configurations no env() function so that they cannot read the
// operator's environment, and gives a child module no way to read the root's variables or
// provider arguments; eventnotify_jwt would open both, since a token it hands out can go
// anywhere (another provider block's jwt with another base_url, a header of another provider),
// and any module can open it on the provider it inherits. So:
//
//   - eventnotify_jwt hands out a token of a provider whose credentials came from the
//     environment (a token minted from them, or EVENTNOTIFY_JWT itself) only when the
//     operator allows it through the environment: EVENTNOTIFY_ALLOW_JWT_EXPORT=true;
//   - it hands out a token of the credentials a provider block sets only when that block
//     sets allow_jwt_export = true: only the block's own configuration can set it, a child
//     module cannot change a block it inherits;
//   - without the variable, a provider block whose jwt equals EVENTNOTIFY_JWT holds an
//     environment credential, whatever way the configuration got it: it is sent only to the
//     environment's addresses and account (envCredentialsStayHome), and allow_jwt_export does
//     not cover it.

// envAllowJWTExport is the environment variable, with no provider argument, by which the
// operator lets eventnotify_jwt hand out tokens made from the environment's credentials.
const envAllowJWTExport = "EVENTNOTIFY_ALLOW_JWT_EXPORT"

// argAllowJWTExport is the provider argument, with no environment variable, by which a
// provider block lets eventnotify_jwt hand out tokens made from the credentials it sets.
const argAllowJWTExport = "allow_jwt_export"

// jwtExportPolicy says whether eventnotify_jwt may hand out the tokens of one provider
// instance.
type jwtExportPolicy struct {
	// fromEnv is true when the provider's credentials are the environment's.
	fromEnv bool
	// allowed is true when the switch of the credentials' source is on:
	// EVENTNOTIFY_ALLOW_JWT_EXPORT for the environment's, allow_jwt_export for a block's.
	allowed bool
	// blockAllows is true when the block sets allow_jwt_export = true (for the error about
	// environment credentials, which it does not cover).
	blockAllows bool
	// origin says where the credentials came from, for the error.
	origin string
}

// check reports, as a diagnostic, a token that may not be handed out, and returns whether it
// may. It runs before any request, so a refused token is never even generated. The error
// names both switches, the one for the credentials' source first.
func (p jwtExportPolicy) check(diags *diag.Diagnostics) bool {
	if p.allowed {
		return true
	}
	const why = "A token that eventnotify_jwt hands out goes wherever the configuration sends it, for instance " +
		"to a provider block with another base_url, and any module that inherits this provider can open " +
		"eventnotify_jwt on it. "
	if p.fromEnv {
		note := ""
		if p.blockAllows {
			note = " This provider block sets " + argAllowJWTExport + " = true, which covers only credentials that " +
				"the block sets itself, not the environment's."
		}
		diags.AddError("JWT from the environment's credentials not handed out",
			fmt.Sprintf("For this provider, %s. %sSo a token of the environment's credentials is handed out only "+
				"when the operator allows it in the environment that runs Terraform: export %s=true to allow it.%s "+
				"Otherwise set the credentials in the provider block that this eventnotify_jwt uses (username with "+
				"password or api_token, from input variables or another secret source) together with %s = true, or "+
				"give the provider block that needs the token its own credentials.",
				p.origin, why, envAllowJWTExport, note, argAllowJWTExport)+blockCredentialsAdvice)
		return false
	}
	diags.AddError("JWT from the provider block's credentials not handed out",
		fmt.Sprintf("For this provider, %s, and the block does not set %s = true. %sSo a token of a provider "+
			"block's credentials is handed out only when that block says so: set %s = true in the provider block "+
			"that holds the credentials (in the root module, or wherever the block is written: a child module "+
			"cannot set it on a block it inherits). For credentials from the environment, the operator exports "+
			"%s=true instead. Otherwise give the provider block that needs the token its own credentials.",
			p.origin, argAllowJWTExport, why, argAllowJWTExport, envAllowJWTExport)+blockCredentialsAdvice)
	return false
}

// blockAllowsJWTExport reads allow_jwt_export: null or false refuses, true allows; an
// unknown value is an error (the switch must be known when the provider is configured).
func (r *settingsResolver) blockAllowsJWTExport(m providerModel) bool {
	if m.AllowJWTExport.IsUnknown() {
		r.diags.AddAttributeError(path.Root(argAllowJWTExport), "Unknown value for "+argAllowJWTExport,
			"The provider cannot be configured because "+argAllowJWTExport+" depends on a value that is only known "+
				"after apply. Set it to true or false, or from an input variable.")
		return false
	}
	return m.AllowJWTExport.ValueBool()
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
	p := jwtExportPolicy{fromEnv: s.environmental(), allowed: s.blockAllows, blockAllows: s.blockAllows, origin: s.String()}
	if p.fromEnv {
		p.allowed = s.exportAllowed
	}
	return p
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
