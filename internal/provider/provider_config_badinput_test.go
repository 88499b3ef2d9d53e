package provider

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// Bad input: every rejected value gives a diagnostic that names the argument
// (or the import id) and what is accepted, and nothing is written to the
// service. TestResolveSettings and TestAccProvider_configurationErrors hold the
// first cases; these add the rest.

// TestResolveSettings_badInput runs bad values of every provider argument, from
// the provider block and from the environment, through Configure's resolution.
// Each error names the argument, its environment variable and what is
// accepted, and never repeats a credential.
func TestResolveSettings_badInput(t *testing.T) {
	const secret = "s3cr3t-in-url"
	cases := []struct {
		name   string
		model  func(m *providerModel)
		env    map[string]string
		errors []string // each must appear in the errors' summaries or details
	}{
		// Empty strings and white space, Unicode white space included.
		{name: "empty account_id", model: func(m *providerModel) { m.AccountID = types.StringValue("") }, errors: []string{"Invalid account_id", "empty or only white space", envAccountID}},
		{name: "tab account_id from env", model: func(m *providerModel) { m.AccountID = types.StringNull() }, env: map[string]string{envAccountID: "\t"}, errors: []string{"Invalid account_id", "from the " + envAccountID}},
		{name: "no-break space account_id", model: func(m *providerModel) { m.AccountID = types.StringValue("\u00a0") }, errors: []string{"Invalid account_id", "empty or only white space"}},
		{name: "empty username", model: func(m *providerModel) { m.Username = types.StringValue("") }, errors: []string{"Invalid username", envUsername}},
		{name: "blank username from env", model: noCredentials, env: map[string]string{envUsername: "  ", envPassword: "p"}, errors: []string{"Invalid username", "from the " + envUsername}},
		{name: "empty password", model: func(m *providerModel) { m.Password = types.StringValue("") }, errors: []string{"Invalid password", envPassword}},
		{name: "blank api_token from env", model: noCredentials, env: map[string]string{envUsername: "u", envAPIToken: " "}, errors: []string{"Invalid api_token", envAPIToken}},
		{name: "blank otp", model: func(m *providerModel) { m.OTP = types.StringValue("   ") }, errors: []string{"Invalid otp", envOTP}},
		{name: "blank jwt from env", model: noCredentials, env: map[string]string{envJWT: "\u2003"}, errors: []string{"Invalid jwt", "from the " + envJWT}},
		{name: "blank region", model: func(m *providerModel) { m.Region = types.StringValue(" ") }, errors: []string{"Invalid region", envRegion}},

		// Unknown regions (the block's are rejected earlier, by the schema's
		// validator, which also refuses "US"; see the acceptance test).
		{name: "unknown region", model: func(m *providerModel) { m.Region = types.StringValue("eu-west") }, errors: []string{"Invalid region", `"eu-west" is not a known region`, "Accepted values: us, gb", envRegion}},
		{name: "unknown region from env", env: map[string]string{envRegion: "u s"}, errors: []string{"Invalid region", `"u s" is not a known region`, "us, gb"}},

		// Bad URLs.
		{name: "empty base_url", model: func(m *providerModel) { m.BaseURL = types.StringValue("") }, errors: []string{"Invalid base_url", "http:// or https://", envBaseURL}},
		{name: "base_url without scheme", model: func(m *providerModel) { m.BaseURL = types.StringValue("svc.example.com") }, errors: []string{"Invalid base_url", "must start with http:// or https://"}},
		{name: "ftp base_url from env", model: func(m *providerModel) { m.BaseURL = types.StringNull() }, env: map[string]string{envBaseURL: "ftp://svc.example.com"}, errors: []string{"Invalid base_url", "http:// or https://", "from the " + envBaseURL}},
		{name: "base_url without host", model: func(m *providerModel) { m.BaseURL = types.StringValue("https://") }, errors: []string{"Invalid base_url", "has no host"}},
		{name: "base_url with query", model: func(m *providerModel) { m.BaseURL = types.StringValue("https://svc.example.com/?region=us") }, errors: []string{"Invalid base_url", "must not have a query or fragment"}},
		{name: "auth_url with fragment", model: func(m *providerModel) { m.AuthURL = types.StringValue("https://auth.example.com/#top") }, errors: []string{"Invalid auth_url", "must not have a query or fragment", envAuthURL}},
		{name: "auth_url with spaces", model: func(m *providerModel) { m.AuthURL = types.StringValue(" https://auth.example.com ") }, errors: []string{"Invalid auth_url", "leading or trailing white space"}},
		{name: "unparsable auth_url from env", model: func(m *providerModel) { m.AuthURL = types.StringNull() }, env: map[string]string{envAuthURL: "http://[::1"}, errors: []string{"Invalid auth_url", "not a valid URL", envAuthURL}},
		{name: "base_url with credentials", model: func(m *providerModel) { m.BaseURL = types.StringValue("https://demo:" + secret + "@svc.example.com") }, errors: []string{"Invalid base_url", "must not carry credentials", "set username with password or api_token"}},
		{name: "ftp auth_url with credentials from env", model: func(m *providerModel) { m.AuthURL = types.StringNull() }, env: map[string]string{envAuthURL: "ftp://demo:" + secret + "@auth.example.com"}, errors: []string{"Invalid auth_url", "http:// or https://"}},
		// A URL that does not parse is not quoted with its user information either.
		{name: "unparsable base_url with credentials from env", model: func(m *providerModel) { m.BaseURL = types.StringNull() }, env: map[string]string{envBaseURL: "https://svc:" + secret + "%t@svc.example.com"}, errors: []string{"Invalid base_url", `"https://***@svc.example.com" is not a valid URL`, "from the " + envBaseURL}},
		{name: "unparsable auth_url with credentials", model: func(m *providerModel) { m.AuthURL = types.StringValue("https://svc:" + secret + "/x@auth.example.com") }, errors: []string{"Invalid auth_url", `"https://***@auth.example.com"`}},

		// Plain http:// anywhere but this machine.
		{name: "plain http base_url", model: func(m *providerModel) { m.BaseURL = types.StringValue("http://svc.example.com") }, errors: []string{"Invalid base_url", "plain http://", "use https://", envBaseURL}},
		{name: "plain http auth_url from env", model: func(m *providerModel) { m.AuthURL = types.StringNull() }, env: map[string]string{envAuthURL: "http://10.1.2.3:8080"}, errors: []string{"Invalid auth_url", "plain http://", "from the " + envAuthURL}},

		// The service's own paths, which the provider appends: the value to use is named.
		{name: "base_url with /rest/v1", model: func(m *providerModel) { m.BaseURL = types.StringValue("https://svc.example.com/rest/v1") },
			errors: []string{"Invalid base_url", `ends with "/rest/v1"`, `use "https://svc.example.com" instead`, `argument "base_url"`, envBaseURL}},
		{name: "base_url with a request path from env", model: func(m *providerModel) { m.BaseURL = types.StringNull() },
			env:    map[string]string{envBaseURL: "https://gw.example.com/eventnotify/rest/v1/events"},
			errors: []string{"Invalid base_url", `"/rest/v1/events"`, `use "https://gw.example.com/eventnotify" instead`, "from the " + envBaseURL}},
		{name: "auth_url with /auth/jwt from env", model: func(m *providerModel) { m.AuthURL = types.StringNull() },
			env:    map[string]string{envAuthURL: "https://auth.example.com/auth/jwt"},
			errors: []string{"Invalid auth_url", `use "https://auth.example.com" instead`, "from the " + envAuthURL}},
		{name: "auth_url with the JWT request's path", model: func(m *providerModel) {
			m.AuthURL = types.StringValue("https://auth.example.com/auth/jwt/generate/acc-1")
		},
			errors: []string{"Invalid auth_url", `"/auth/jwt/generate/acc-1"`, `use "https://auth.example.com" instead`, envAuthURL}},

		// Numbers and durations from the environment (the schema checks the block's).
		{name: "negative max_retries from env", env: map[string]string{envMaxRetries: "-1"}, errors: []string{"Invalid max_retries", "whole number from 0 to 100", envMaxRetries}},
		{name: "max_retries over 100 from env", env: map[string]string{envMaxRetries: "101"}, errors: []string{"Invalid max_retries", "from 0 to 100"}},
		{name: "fractional max_retries from env", env: map[string]string{envMaxRetries: "1.5"}, errors: []string{"Invalid max_retries", "whole number"}},
		{name: "word max_retries from env", env: map[string]string{envMaxRetries: "three"}, errors: []string{"Invalid max_retries", "whole number"}},
		{name: "negative rate from env", env: map[string]string{envMaxRequestsPerSecond: "-5"}, errors: []string{"Invalid max_requests_per_second", "0 or more (0 turns the limit off)", envMaxRequestsPerSecond}},
		{name: "NaN rate from env", env: map[string]string{envMaxRequestsPerSecond: "NaN"}, errors: []string{"Invalid max_requests_per_second", "0 or more"}},
		{name: "infinite rate from env", env: map[string]string{envMaxRequestsPerSecond: "Inf"}, errors: []string{"Invalid max_requests_per_second", "0 or more"}},
		{name: "out of range rate from env", env: map[string]string{envMaxRequestsPerSecond: "1e400"}, errors: []string{"Invalid max_requests_per_second", "0 or more"}},
		{name: "empty request_timeout", model: func(m *providerModel) { m.RequestTimeout = types.StringValue("") }, errors: []string{"Invalid request_timeout", "Go duration such as 30s", envRequestTimeout}},
		{name: "negative request_timeout", model: func(m *providerModel) { m.RequestTimeout = types.StringValue("-5s") }, errors: []string{"Invalid request_timeout", "greater than zero"}},
		{name: "request_timeout without unit from env", env: map[string]string{envRequestTimeout: "30"}, errors: []string{"Invalid request_timeout", "Go duration such as 30s", "from the " + envRequestTimeout}},
		{name: "request_timeout in words from env", env: map[string]string{envRequestTimeout: "thirty seconds"}, errors: []string{"Invalid request_timeout", "Go duration"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := baseModel()
			if tc.model != nil {
				tc.model(&m)
			}
			_, diags := resolveSettings(m, envOf(tc.env))
			if !diags.HasError() {
				t.Fatalf("no error; want %q", tc.errors)
			}
			var text strings.Builder
			for _, d := range diags.Errors() {
				text.WriteString(d.Summary() + ": " + d.Detail() + "\n")
			}
			for _, want := range tc.errors {
				if !strings.Contains(text.String(), want) {
					t.Errorf("errors do not mention %q:\n%s", want, text.String())
				}
			}
			if strings.Contains(text.String(), secret) {
				t.Errorf("an error repeats the password of a URL:\n%s", text.String())
			}
		})
	}
}

// TestResolveSettings_goodInputFromEnv: variables that look odd but are
// unambiguous are accepted: numbers and region names are trimmed, region names
// compared without regard to case, and an empty variable counts as unset.
func TestResolveSettings_goodInputFromEnv(t *testing.T) {
	for _, env := range []map[string]string{
		{envMaxRetries: " 3 ", envMaxRequestsPerSecond: "0.5", envRequestTimeout: "1m30s", envRegion: ""},
		{envRegion: "US"},
		{envRegion: " gb "},
	} {
		if _, diags := resolveSettings(baseModel(), envOf(env)); diags.HasError() {
			t.Errorf("%v: errors: %v", env, diags)
		}
	}
}

// TestAccBadInput_providerArguments runs bad provider blocks through the
// Terraform CLI, with a subscription to create: each fails before any request.
func TestAccBadInput_providerArguments(t *testing.T) {
	cases := []struct {
		name   string
		block  func(m *testMock) string
		expect []string
	}{
		{"empty account_id", func(m *testMock) string { p := m.providerConfig(); p.accountID = ""; return p.String() },
			[]string{"account_id", "must not be empty or only white space", "a non-blank string"}},
		{"upper-case region", func(m *testMock) string { return m.providerBlock(`region = "US"`) },
			[]string{"region", `value must be one of: ["us" "gb"]`, `got: "US"`}},
		{"empty base_url", func(m *testMock) string { p := m.providerConfig(); p.baseURL, p.authURL = "", ""; return p.String() },
			[]string{"Invalid base_url", "must start with http:// or https://", "an absolute http or https URL"}},
		{"base_url with credentials", func(m *testMock) string {
			p := m.providerConfig()
			p.baseURL = strings.Replace(m.URL, "://", "://demo:pw-in-url@", 1)
			p.authURL = p.baseURL
			return p.String()
		}, []string{"Invalid base_url", "must not carry credentials", "set username with password or api_token"}},
		{"plain http base_url", func(m *testMock) string {
			p := m.providerConfig()
			p.baseURL = strings.Replace(m.URL, "127.0.0.1", "eventnotify.example.com", 1)
			return p.String()
		}, []string{"Invalid base_url", "plain http://", "credentials and tokens would cross the network unencrypted", "use https://"}},
		{"base_url with /rest/v1", func(m *testMock) string {
			p := m.providerConfig()
			p.baseURL = m.URL + "/rest/v1"
			return p.String()
		}, []string{"Invalid base_url", `ends with "/rest/v1"`, "use", "instead"}},
		{"blank username", func(m *testMock) string {
			return m.providerBlockWith(fmt.Sprintf("username = \" \"\n  password = %q", testPassword))
		}, []string{"username", "must not be empty or only white space"}},
		{"negative max_retries", func(m *testMock) string { return m.providerBlockRetries(-1) },
			[]string{"max_retries", "value must be between 0 and 100, got: -1"}},
		{"negative max_requests_per_second", func(m *testMock) string {
			p := m.providerConfig()
			p.maxRequestsPerSecond = "-1"
			return p.String()
		}, []string{"max_requests_per_second", "value must be at least 0.000000, got: -1.000000"}},
		{"request_timeout without unit", func(m *testMock) string { return m.providerBlock(`request_timeout = "30"`) },
			[]string{"Invalid request_timeout", "Go duration such as 30s"}},
		{"negative request_timeout", func(m *testMock) string { return m.providerBlock(`request_timeout = "-1m"`) },
			[]string{"Invalid request_timeout", "must be greater than zero"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			m.expectRejectedWithoutRequests(t, tc.block(m)+subscriptionConfig(minimalArgs...), errorPattern(tc.expect...))
		})
	}
}

// TestAccBadInput_subscriptionArguments adds to
// TestAccSubscriptionResource_invalidValues: enum casing and look-alikes, white
// space, very long strings and Unicode control or invisible characters are
// rejected at plan time, naming the argument and what it accepts.
func TestAccBadInput_subscriptionArguments(t *testing.T) {
	long := strings.Repeat("A", 257)
	cases := []struct {
		name, arg string
		expect    []string
	}{
		{"destination_type mixed case", `destination_type = "Event_Streams"`, []string{"destination_type", `value must be one of: ["EVENT_STREAMS" "EMAIL"]`, `got: "Event_Streams"`}},
		{"destination_type lower case", `destination_type = "email"`, []string{"destination_type", `value must be one of: ["EVENT_STREAMS" "EMAIL"]`}},
		{"destination_type with zero-width space", "destination_type = \"EVENT_STREAMS\u200b\"", []string{"destination_type", "value must be one of"}},
		{"log_level lower case", `log_level = "error"`, []string{"log_level", `value must be one of: ["INFO" "WARNING" "ERROR"]`, `got: "error"`}},
		{"log_level full-width", `log_level = "ＩＮＦＯ"`, []string{"log_level", `value must be one of: ["INFO" "WARNING" "ERROR"]`}},
		{"log_level empty", `log_level = ""`, []string{"log_level", "value must be one of"}},
		{"event_name white space", "event_name = \" \\t \"", []string{"event_name", "must not be empty or only white space"}},
		{"event_name ideographic space", "event_name = \"\u3000\"", []string{"event_name", "must not be empty or only white space"}},
		{"event_name 257 characters", `event_name = "` + long + `"`, []string{"event_name", "string length must be at most 256, got: 257"}},
		{"event_name with new line", `event_name = "ATOM.STATUS\n"`, []string{"event_name", `contains the control or invisible character U+000A`, "text without control or invisible formatting characters"}},
		{"event_name with zero-width space", "event_name = \"ATOM\u200b.STATUS\"", []string{"event_name", "U+200B", "text without control"}},
		{"event_name with direction override", "event_name = \"\u202eSUTATS.MOTA\"", []string{"event_name", "U+202E"}},
		{"topic with NUL", `event_streams_topic = "alerts\u0000"`, []string{"event_streams_topic", "U+0000"}},
		{"environment name with byte order mark", "event_streams_environment_name = \"\ufeffProduction\"", []string{"event_streams_environment_name", "U+FEFF"}},
		{"account_id with tab", `account_id = "acc\ttest"`, []string{"account_id", "U+0009"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { testInvalidSubscriptionArg(t, tc.arg, tc.expect...) })
	}
}

// TestAccBadInput_importIDs adds to TestAccSubscriptionResource_importErrors:
// ids in forms close to the accepted ones are refused with the accepted forms,
// and no import writes anything.
func TestAccBadInput_importIDs(t *testing.T) {
	const id = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
	cases := []struct {
		name, id string
		expect   []string
	}{
		{"braces", "{" + id + "}", []string{"Invalid import id", "is not a subscription id (a UUID)", "<account_id>/<subscription_id>"}},
		{"no dashes", strings.ReplaceAll(id, "-", ""), []string{"Invalid import id", "is not a subscription id"}},
		{"urn form", "urn:uuid:" + id, []string{"Invalid import id", "is not a subscription id"}},
		{"trailing slash", testAccount + "/", []string{"Invalid import id", `"" in the import id`, "is not a subscription id"}},
		{"leading space", " " + id, []string{"Invalid import id", "is not a subscription id"}},
		{"full-width digit", "３fa85f64-5717-4562-b3fc-2c963f66afa6", []string{"Invalid import id", "is not a subscription id"}},
		{"blank account", "\u00a0/" + id, []string{"Invalid import id", "empty account id"}},
		{"three parts", testAccount + "/" + id + "/", []string{"Invalid import id", "3 parts", "at most 2 are accepted"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				Steps: []resource.TestStep{{
					Config:        m.providerBlock() + subscriptionConfig(minimalArgs...),
					ResourceName:  subAddr,
					ImportState:   true,
					ImportStateId: tc.id,
					ExpectError:   errorPattern(tc.expect...),
				}},
			})
			m.noWrites(t)
			if n := m.Count(http.MethodGet, mockserver.RouteSubscription) + m.Count(http.MethodGet, mockserver.RouteSubscriptions); n != 0 {
				t.Errorf("a malformed import id was read from the service (%d requests)", n)
			}
		})
	}
}
