package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// TestResolveSettings_credentialsFromOneSource: credentials come as a set from the provider
// block or from the environment, never value by value from both; environment credentials
// are used only for the environment's addresses and, for a pre-issued JWT, its account.
func TestResolveSettings_credentialsFromOneSource(t *testing.T) {
	// envDefault is what a user exports for the default provider block.
	envDefault := map[string]string{
		envAccountID: "acc", envBaseURL: "https://svc.example.com", envAuthURL: "https://auth.example.com",
		envUsername: "env-user", envPassword: "env-pw", envOTP: "env-otp", envJWT: "env.jwt.token",
	}
	with := func(base map[string]string, kv ...string) map[string]string {
		out := map[string]string{}
		for k, v := range base {
			out[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i+1] == "" {
				delete(out, kv[i])
			} else {
				out[kv[i]] = kv[i+1]
			}
		}
		return out
	}
	alias := func(creds ...string) func(m *providerModel) {
		return func(m *providerModel) {
			*m = nullModel()
			m.BaseURL, m.AuthURL = types.StringValue("https://alias.example.net"), types.StringValue("https://alias-auth.example.net")
			for i := 0; i+1 < len(creds); i += 2 {
				v := types.StringValue(creds[i+1])
				switch creds[i] {
				case "username":
					m.Username = v
				case "password":
					m.Password = v
				case "api_token":
					m.APIToken = v
				case "otp":
					m.OTP = v
				case "jwt":
					m.JWT = v
				}
			}
		}
	}
	cases := []struct {
		name   string
		model  func(m *providerModel)
		env    map[string]string
		want   httpapi.Config // the credentials and addresses; checked when no error is expected
		errors []string
	}{
		{
			name:  "alias with its own addresses and password, environment JWT exported",
			model: alias("username", "alias-user", "password", "alias-pw"),
			env:   envDefault,
			want: httpapi.Config{BaseURL: "https://alias.example.net", AuthURL: "https://alias-auth.example.net",
				Username: "alias-user", Password: "alias-pw"},
		},
		{
			name:   "alias with only a password, environment user name and OTP exported",
			model:  alias("password", "alias-pw"),
			env:    with(envDefault, envJWT, ""),
			errors: []string{"Missing username", `set "username" in the provider block`, "The provider block sets password", envUsername + ", " + envPassword + ", " + envOTP + " are not used"},
		},
		{
			name:  "alias with api_token while the environment holds a password",
			model: alias("username", "sso-user", "api_token", "tok"),
			env:   with(envDefault, envJWT, "", envOTP, ""),
			want: httpapi.Config{BaseURL: "https://alias.example.net", AuthURL: "https://alias-auth.example.net",
				Username: "sso-user", APIToken: "tok"},
		},
		{
			name:   "alias with only an otp",
			model:  alias("otp", "123456"),
			env:    with(envDefault, envJWT, ""),
			errors: []string{"Missing credentials", "the credentials came from the provider block (otp)", envUsername + ", " + envPassword + ", " + envOTP + " are not used"},
		},
		{
			name:  "environment credentials with the environment's addresses",
			model: func(m *providerModel) { *m = nullModel() },
			env:   with(envDefault, envJWT, ""),
			want: httpapi.Config{BaseURL: "https://svc.example.com", AuthURL: "https://auth.example.com",
				Username: "env-user", Password: "env-pw", OTP: "env-otp"},
		},
		{
			name: "environment credentials, block restates the environment's addresses",
			model: func(m *providerModel) {
				*m = nullModel()
				m.BaseURL, m.AuthURL = types.StringValue("HTTPS://svc.example.com:443/"), types.StringValue("https://Auth.example.com/v2/..")
			},
			env: with(envDefault, envJWT, ""),
			want: httpapi.Config{BaseURL: "HTTPS://svc.example.com:443", AuthURL: "https://Auth.example.com",
				Username: "env-user", Password: "env-pw", OTP: "env-otp"},
		},
		{
			// Behind a gateway that routes by path, another path is another service.
			name: "environment credentials, block names another path of the environment's host",
			model: func(m *providerModel) {
				*m = nullModel()
				m.AuthURL = types.StringValue("https://auth.example.com/v2")
			},
			env: with(envDefault, envJWT, ""),
			errors: []string{"Credentials from the environment not sent to auth_url",
				"sets auth_url to https://auth.example.com/v2, an address that " + envAuthURL + " does not name (which names https://auth.example.com)",
				"Addresses are compared whole, path included"},
		},
		{
			name:  "addresses in the block, credentials and no address in the environment",
			model: alias(),
			env:   with(envDefault, envBaseURL, "", envAuthURL, "", envJWT, ""),
			errors: []string{
				"Credentials from the environment not sent to base_url",
				"sets base_url to https://alias.example.net, an address that " + envBaseURL + " does not name (which is not set)",
				"remove base_url from the block and export " + envBaseURL + " instead",
				"Credentials from the environment not sent to auth_url",
			},
		},
		{
			name:  "block names other addresses than the environment's credentials are for",
			model: alias(),
			env:   with(envDefault, envJWT, ""),
			errors: []string{
				"Credentials from the environment not sent to base_url", "sets base_url to https://alias.example.net, an address that " + envBaseURL + " does not name (which names https://svc.example.com)",
				"the credentials came from the environment (" + envUsername + ", " + envPassword + ", " + envOTP + ")",
				"Credentials from the environment not sent to auth_url",
			},
		},
		{
			name: "block names another auth host only",
			model: func(m *providerModel) {
				*m = nullModel()
				m.AuthURL = types.StringValue("https://auth.example.com:8443")
			},
			env:    with(envDefault, envJWT, ""),
			errors: []string{"Credentials from the environment not sent to auth_url", "https://auth.example.com:8443"},
		},
		{
			name: "block switches to plain http on the environment's host",
			model: func(m *providerModel) {
				*m = nullModel()
				m.BaseURL = types.StringValue("http://127.0.0.1:8443")
			},
			env:    with(envDefault, envJWT, "", envBaseURL, "https://127.0.0.1:8443"),
			errors: []string{"Credentials from the environment not sent to base_url"},
		},
		{
			name: "environment JWT for another account than the block's",
			model: func(m *providerModel) {
				*m = nullModel()
				m.AccountID = types.StringValue("acc-other")
			},
			env:    with(envDefault, envUsername, "", envPassword, "", envOTP, ""),
			errors: []string{"Pre-issued JWT from the environment not used for this account", `account_id to "acc-other"`, envJWT},
		},
		{
			name:  "environment JWT for the environment's account",
			model: func(m *providerModel) { *m = nullModel() },
			env:   with(envDefault, envUsername, "", envPassword, "", envOTP, ""),
			want:  httpapi.Config{BaseURL: "https://svc.example.com", AuthURL: "https://auth.example.com", JWT: "env.jwt.token"},
		},
		{
			name:  "block JWT, environment JWT ignored",
			model: func(m *providerModel) { noCredentials(m); m.JWT = types.StringValue("block.jwt.token") },
			env:   envDefault,
			want:  httpapi.Config{BaseURL: "https://svc.example.com", AuthURL: "https://auth.example.com", JWT: "block.jwt.token"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := baseModel()
			tc.model(&m)
			got, src, diags := resolveSettingsAndSource(m, envOf(tc.env))
			var text strings.Builder
			for _, d := range diags.Errors() {
				text.WriteString(d.Summary() + ": " + d.Detail() + "\n")
			}
			if len(tc.errors) == 0 {
				if diags.HasError() {
					t.Fatalf("unexpected errors:\n%s", text.String())
				}
				w := tc.want
				if got.BaseURL != w.BaseURL || got.AuthURL != w.AuthURL || got.Username != w.Username || got.Password != w.Password ||
					got.APIToken != w.APIToken || got.OTP != w.OTP || got.JWT != w.JWT {
					t.Errorf("got %+v (%s)\nwant %+v", got, src, w)
				}
				return
			}
			for _, want := range tc.errors {
				if !strings.Contains(text.String(), want) {
					t.Errorf("errors do not say %q:\n%s", want, text.String())
				}
			}
			for _, secret := range []string{"env-pw", "env-otp", "env.jwt.token", "alias-pw"} {
				if strings.Contains(text.String(), secret) {
					t.Errorf("an error holds the credential %q:\n%s", secret, text.String())
				}
			}
		})
	}
}
