package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestResolveSettings_jwtExport: eventnotify_jwt may hand out the tokens of a provider whose
// credentials came from the environment only with EVENTNOTIFY_ALLOW_JWT_EXPORT=true, and those
// of a block's own credentials only with the block's allow_jwt_export = true (neither switch
// covers the other's credentials); a block's jwt equal to EVENTNOTIFY_JWT counts as the
// environment's (it stays with the environment's addresses and account); a refusal names both
// switches; any other value of the variable is an error that names it.
func TestResolveSettings_jwtExport(t *testing.T) {
	const envToken = "env.jwt.token"
	home := map[string]string{envAccountID: "acc", envBaseURL: "https://svc.example.com", envAuthURL: "https://svc.example.com"}
	env := func(kv ...string) map[string]string {
		out := map[string]string{}
		for k, v := range home {
			out[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			out[kv[i]] = kv[i+1]
		}
		return out
	}
	withPassword := env(envUsername, "env-user", envPassword, "env-pw")
	// block returns a provider block with the given jwt and base_url ("" leaves them out).
	block := func(jwt, baseURL string) func(m *providerModel) {
		return func(m *providerModel) {
			*m = nullModel()
			if jwt != "" {
				m.JWT = types.StringValue(jwt)
			}
			if baseURL != "" {
				m.BaseURL = types.StringValue(baseURL)
			}
		}
	}
	// setAllow and allowed add allow_jwt_export to a block.
	setAllow := func(f func(m *providerModel), v bool) func(m *providerModel) {
		return func(m *providerModel) { f(m); m.AllowJWTExport = types.BoolValue(v) }
	}
	allowed := func(f func(m *providerModel)) func(m *providerModel) { return setAllow(f, true) }
	cases := []struct {
		name  string
		model func(m *providerModel)
		env   map[string]string
		// fromEnv and allowed are the expected policy when no error is expected.
		fromEnv, allowed bool
		errors           []string
	}{
		{name: "environment password, variable unset", model: block("", ""), env: withPassword, fromEnv: true},
		{name: "environment password, variable empty", model: block("", ""), env: env(envUsername, "u", envPassword, "p", envAllowJWTExport, ""), fromEnv: true},
		{name: "environment password, variable false", model: block("", ""), env: env(envUsername, "u", envPassword, "p", envAllowJWTExport, "false"), fromEnv: true},
		{name: "environment password, variable true", model: block("", ""), env: env(envUsername, "u", envPassword, "p", envAllowJWTExport, "true"), fromEnv: true, allowed: true},
		{name: "environment JWT", model: block("", ""), env: env(envJWT, envToken), fromEnv: true},
		{name: "block password while the environment holds one", model: func(m *providerModel) { *m = baseModel() }, env: withPassword},
		{name: "block password, allow_jwt_export = true", model: allowed(func(m *providerModel) { *m = baseModel() }), env: withPassword, allowed: true},
		{name: "block password, allow_jwt_export = false", model: setAllow(func(m *providerModel) { *m = baseModel() }, false), env: withPassword},
		{name: "block password, variable true", model: func(m *providerModel) { *m = baseModel() }, env: env(envAllowJWTExport, "true")},
		{name: "environment password, allow_jwt_export = true", model: allowed(block("", "")), env: withPassword, fromEnv: true},
		{name: "block JWT of its own", model: block("block.jwt.token", "https://other.example.net"), env: env(envJWT, envToken)},
		{name: "block JWT of its own, allow_jwt_export = true", model: allowed(block("block.jwt.token", "https://other.example.net")), env: env(envJWT, envToken), allowed: true},
		{name: "block JWT that is the environment's, allow_jwt_export = true", model: allowed(block(envToken, "")), env: env(envJWT, envToken), fromEnv: true},
		{
			name: "allow_jwt_export unknown", model: func(m *providerModel) { *m = baseModel(); m.AllowJWTExport = types.BoolUnknown() },
			env: withPassword, errors: []string{"Unknown value for allow_jwt_export", "only known after apply"},
		},
		{name: "block JWT that is the environment's, at the environment's address", model: block(envToken, ""), env: env(envJWT, envToken), fromEnv: true},
		{name: "block JWT that is the environment's, allowed", model: block(envToken, "https://other.example.net"), env: env(envJWT, envToken, envAllowJWTExport, "true")},
		{name: "block JWT that is the environment's, allowed both ways", model: allowed(block(envToken, "https://other.example.net")), env: env(envJWT, envToken, envAllowJWTExport, "true"), allowed: true},
		{
			name: "block JWT that is the environment's, at another address", model: block(envToken, "https://other.example.net"), env: env(envJWT, envToken),
			errors: []string{"Credentials from the environment not sent to base_url", "its jwt is the token exported in " + envJWT,
				"counts as a credential from the environment", envAllowJWTExport + "=true"},
		},
		{
			name: "block JWT that is the environment's, for another account",
			model: func(m *providerModel) {
				block(envToken, "")(m)
				m.AccountID = types.StringValue("acc-other")
			},
			env:    env(envJWT, envToken),
			errors: []string{"Pre-issued JWT from the environment not used for this account", `account_id to "acc-other"`, envAllowJWTExport + "=true"},
		},
		{
			name: "variable yes", model: block("", ""), env: env(envUsername, "u", envPassword, "p", envAllowJWTExport, "yes"),
			errors: []string{"Invalid " + envAllowJWTExport, envAllowJWTExport + `="yes" is neither true nor false`, "Set it to true"},
		},
		{name: "variable TRUE", model: block("", ""), env: env(envUsername, "u", envPassword, "p", envAllowJWTExport, "TRUE"), errors: []string{`="TRUE" is neither true nor false`}},
		{name: "variable 1, block credentials", model: func(m *providerModel) { *m = baseModel() }, env: env(envAllowJWTExport, "1"), errors: []string{`="1" is neither true nor false`}},
		{name: "variable with a space", model: block("", ""), env: env(envJWT, envToken, envAllowJWTExport, " true"), errors: []string{`=" true" is neither true nor false`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := baseModel()
			tc.model(&m)
			_, src, diags := resolveSettingsAndSource(m, envOf(tc.env))
			text := diagText(diags)
			if strings.Contains(text, envToken) || strings.Contains(text, "env-pw") {
				t.Errorf("a diagnostic holds a credential:\n%s", text)
			}
			if len(tc.errors) > 0 {
				for _, want := range tc.errors {
					if !strings.Contains(text, want) {
						t.Errorf("the errors do not say %q:\n%s", want, text)
					}
				}
				return
			}
			if diags.HasError() {
				t.Fatalf("unexpected errors:\n%s", text)
			}
			p := src.jwtExport()
			if p.fromEnv != tc.fromEnv || p.allowed != tc.allowed {
				t.Errorf("policy fromEnv=%t allowed=%t, want %t and %t (%s)", p.fromEnv, p.allowed, tc.fromEnv, tc.allowed, src)
			}
			var refused diag.Diagnostics
			if handedOut := p.check(&refused); handedOut != tc.allowed {
				t.Errorf("check handed the token out: %t, want %t", handedOut, tc.allowed)
			}
			for _, way := range []string{envAllowJWTExport + "=true", argAllowJWTExport + " = true"} {
				if refused.HasError() && !strings.Contains(diagText(refused), way) {
					t.Errorf("the refusal does not name %s:\n%s", way, diagText(refused))
				}
			}
		})
	}
}

// diagText joins the summaries and details of the error diagnostics.
func diagText(diags diag.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags.Errors() {
		b.WriteString(d.Summary() + ": " + d.Detail() + "\n")
	}
	return b.String()
}
