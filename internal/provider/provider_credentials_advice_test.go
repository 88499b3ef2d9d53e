package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestCredentialErrors_adviseEphemeralVariables (issue 38, item 4): every error that asks for
// credentials in a provider block says where they belong: input variables declared
// `ephemeral = true`, since a saved plan holds every other variable's value, `sensitive`
// ones too (TestAccSavedPlan_ephemeralPassword shows it), and what to do with an older CLI.
func TestCredentialErrors_adviseEphemeralVariables(t *testing.T) {
	home := map[string]string{envAccountID: "acc", envBaseURL: "https://svc.example.com", envAuthURL: "https://svc.example.com",
		envUsername: "env-user", envPassword: "env-pw"}
	with := func(kv ...string) map[string]string {
		out := map[string]string{}
		for k, v := range home {
			out[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			out[kv[i]] = kv[i+1]
		}
		return out
	}
	advice := []string{"input variables declared `ephemeral = true`", "Terraform 1.10, OpenTofu 1.11",
		"give them again to `apply tfplan`", "a saved plan holds the value of every other variable, `sensitive = true` ones too",
		"With an older CLI, export the EVENTNOTIFY_* variables", "keep no saved plan"}
	tests := []struct {
		name    string
		model   func(m *providerModel)
		env     map[string]string
		summary string
		refusal bool // the error is eventnotify_jwt's refusal (jwtExportPolicy.check), not the configuration's
	}{
		{name: "environment credentials, another base_url in the block",
			model:   func(m *providerModel) { m.BaseURL = types.StringValue("https://other.example.net") },
			env:     home,
			summary: "Credentials from the environment not sent to base_url"},
		{name: "environment JWT, another account in the block",
			model:   func(m *providerModel) { m.AccountID = types.StringValue("other-acc") },
			env:     with(envUsername, "", envPassword, "", envJWT, "env.jwt.token"),
			summary: "Pre-issued JWT from the environment not used for this account"},
		{name: "eventnotify_jwt on environment credentials",
			model:   func(*providerModel) {},
			env:     home,
			summary: "JWT from the environment's credentials not handed out", refusal: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := nullModel()
			tc.model(&m)
			_, src, diags := resolveSettingsAndSource(m, envOf(tc.env))
			if tc.refusal {
				if diags.HasError() {
					t.Fatalf("unexpected errors:\n%s", diagText(diags))
				}
				var refused diag.Diagnostics
				src.jwtExport().check(&refused)
				diags = refused
			}
			text := diagText(diags)
			for _, want := range append([]string{tc.summary}, advice...) {
				if !strings.Contains(text, want) {
					t.Errorf("the error does not say %q:\n%s", want, text)
				}
			}
		})
	}
}
