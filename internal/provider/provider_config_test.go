package provider

import (
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// baseModel is a complete provider block with every optional argument null.
func baseModel() providerModel {
	return providerModel{
		AccountID: types.StringValue("acc"), Region: types.StringNull(),
		BaseURL: types.StringValue("https://svc.example.com/"), AuthURL: types.StringValue("https://auth.example.com"),
		Username: types.StringValue("u"), Password: types.StringValue("p"),
		APIToken: types.StringNull(), OTP: types.StringNull(), JWT: types.StringNull(),
		MaxRetries: types.Int64Null(), MaxRequestsPerSecond: types.Float64Null(), RequestTimeout: types.StringNull(),
	}
}

func envOf(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
}

func TestResolveSettings(t *testing.T) {
	cases := []struct {
		name   string
		model  func(m *providerModel)
		env    map[string]string
		errors []string // substrings, each must appear in some error (summary or detail); none => no error
		check  func(t *testing.T, got client.Config)
	}{
		{
			name: "defaults",
			check: func(t *testing.T, got client.Config) {
				if got.BaseURL != "https://svc.example.com" || got.AuthURL != "https://auth.example.com" {
					t.Errorf("urls = %q %q", got.BaseURL, got.AuthURL)
				}
				if got.MaxRetries != defaultMaxRetries || got.RequestsPerSecond != defaultRequestsPerSecond || got.RequestTimeout != 30*time.Second {
					t.Errorf("defaults = %d %g %s", got.MaxRetries, got.RequestsPerSecond, got.RequestTimeout)
				}
			},
		},
		{
			name:  "everything from the environment",
			model: func(m *providerModel) { *m = nullModel() },
			env: map[string]string{
				envAccountID: "env-acc", envRegion: "gb", envBaseURL: "http://127.0.0.1:1", envAuthURL: "http://127.0.0.1:2",
				envUsername: "eu", envAPIToken: "tok", envOTP: "123", envMaxRetries: "7",
				envMaxRequestsPerSecond: "2.5", envRequestTimeout: "1m",
			},
			check: func(t *testing.T, got client.Config) {
				if got.AccountID != "env-acc" || got.Username != "eu" || got.APIToken != "tok" || got.OTP != "123" ||
					got.MaxRetries != 7 || got.RequestsPerSecond != 2.5 || got.RequestTimeout != time.Minute ||
					got.BaseURL != "http://127.0.0.1:1" || got.AuthURL != "http://127.0.0.1:2" {
					t.Errorf("got %+v", got)
				}
			},
		},
		{
			name: "block wins over environment",
			env:  map[string]string{envAccountID: "env-acc", envUsername: "eu", envBaseURL: "http://env"},
			check: func(t *testing.T, got client.Config) {
				if got.AccountID != "acc" || got.Username != "u" || got.BaseURL != "https://svc.example.com" {
					t.Errorf("got %+v", got)
				}
			},
		},
		{
			name:  "zero turns the rate limit off",
			model: func(m *providerModel) { m.MaxRequestsPerSecond = types.Float64Value(0) },
			check: func(t *testing.T, got client.Config) {
				if got.RequestsPerSecond != 0 {
					t.Errorf("rps = %g", got.RequestsPerSecond)
				}
			},
		},
		{
			name: "jwt alone is enough",
			model: func(m *providerModel) {
				m.Username, m.Password, m.JWT = types.StringNull(), types.StringNull(), types.StringValue("x.y.z")
			},
		},
		{name: "missing account", model: func(m *providerModel) { m.AccountID = types.StringNull() }, errors: []string{"Missing account_id", envAccountID}},
		{name: "blank account", model: func(m *providerModel) { m.AccountID = types.StringValue("  ") }, errors: []string{"Invalid account_id", envAccountID}},
		{name: "blank account from env", model: func(m *providerModel) { m.AccountID = types.StringNull() }, env: map[string]string{envAccountID: " "}, errors: []string{"Invalid account_id", "from the " + envAccountID}},
		{name: "unknown account", model: func(m *providerModel) { m.AccountID = types.StringUnknown() }, errors: []string{"Unknown value for account_id", envAccountID}},
		{name: "unknown region", model: func(m *providerModel) { m.Region = types.StringValue("eu") }, errors: []string{"Invalid region", `"eu" is not a known region`, "us, gb", envRegion}},
		{name: "unknown region from env", env: map[string]string{envRegion: "mars"}, errors: []string{"Invalid region", envRegion}},
		{name: "region without address", model: func(m *providerModel) { m.BaseURL, m.AuthURL = types.StringNull(), types.StringNull() }, errors: []string{"No address for base_url", envBaseURL, "No address for auth_url", envAuthURL}},
		{name: "bad base url", model: func(m *providerModel) { m.BaseURL = types.StringValue("svc.example.com") }, errors: []string{"Invalid base_url", "http:// or https://", envBaseURL}},
		{name: "bad auth url from env", model: func(m *providerModel) { m.AuthURL = types.StringNull() }, env: map[string]string{envAuthURL: "https://"}, errors: []string{"Invalid auth_url", "no host", envAuthURL}},
		{name: "password and token", model: func(m *providerModel) { m.APIToken = types.StringValue("t") }, errors: []string{"Conflicting credentials", "Both password and api_token are set in the provider block"}},
		{name: "password and token from env", model: noCredentials, env: map[string]string{envUsername: "u", envPassword: "p", envAPIToken: "t"}, errors: []string{"Conflicting credentials", "Both " + envPassword + " and " + envAPIToken + " are set in the environment"}},
		{name: "no credentials", model: func(m *providerModel) { m.Username, m.Password = types.StringNull(), types.StringNull() }, errors: []string{"Missing credentials", envUsername, envPassword, envAPIToken, envJWT}},
		{name: "password without username", model: func(m *providerModel) { m.Username = types.StringNull() }, errors: []string{"Missing username", `set "username" in the provider block`}},
		{name: "password without username from env", model: noCredentials, env: map[string]string{envPassword: "p"}, errors: []string{"Missing username", "set " + envUsername + " in the environment"}},
		{name: "bad retries from env", env: map[string]string{envMaxRetries: "-1"}, errors: []string{"Invalid max_retries", envMaxRetries}},
		{name: "bad rate from env", env: map[string]string{envMaxRequestsPerSecond: "fast"}, errors: []string{"Invalid max_requests_per_second", envMaxRequestsPerSecond}},
		{name: "bad duration", model: func(m *providerModel) { m.RequestTimeout = types.StringValue("30") }, errors: []string{"Invalid request_timeout", "Go duration", envRequestTimeout}},
		{name: "zero duration from env", env: map[string]string{envRequestTimeout: "0s"}, errors: []string{"Invalid request_timeout", "greater than zero"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := baseModel()
			if tc.model != nil {
				tc.model(&m)
			}
			got, diags := resolveSettings(m, envOf(tc.env))
			var text strings.Builder
			for _, d := range diags.Errors() {
				text.WriteString(d.Summary() + ": " + d.Detail() + "\n")
			}
			if len(tc.errors) == 0 && diags.HasError() {
				t.Fatalf("unexpected errors:\n%s", text.String())
			}
			if len(tc.errors) > 0 && !diags.HasError() {
				t.Fatalf("expected errors %q, got none", tc.errors)
			}
			for _, want := range tc.errors {
				if !strings.Contains(text.String(), want) {
					t.Errorf("errors do not mention %q:\n%s", want, text.String())
				}
			}
			if tc.check != nil {
				tc.check(t, got)
			}
		})
	}
}

// noCredentials removes every credential argument from a provider block.
func noCredentials(m *providerModel) {
	m.Username, m.Password, m.APIToken, m.OTP, m.JWT = types.StringNull(), types.StringNull(), types.StringNull(), types.StringNull(), types.StringNull()
}

// nullModel is a provider block with nothing set.
func nullModel() providerModel {
	return providerModel{
		AccountID: types.StringNull(), Region: types.StringNull(), BaseURL: types.StringNull(), AuthURL: types.StringNull(),
		Username: types.StringNull(), Password: types.StringNull(), APIToken: types.StringNull(), OTP: types.StringNull(),
		JWT: types.StringNull(), MaxRetries: types.Int64Null(), MaxRequestsPerSecond: types.Float64Null(), RequestTimeout: types.StringNull(),
	}
}
