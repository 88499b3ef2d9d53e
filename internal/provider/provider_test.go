package provider

import (
	"fmt"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// Credentials of the mock's test users.
const (
	testAccount     = "acc-test"
	testUser        = "demo"
	testPassword    = "demo-password"
	testTokenUser   = "sso-user"
	testAPIToken    = "tok-3f9a2c"
	testOTPUser     = "mfa-user"
	testOTPPassword = "mfa-password"
	testOTP         = "493817"
)

// testProviderFactories serves the provider in-process to the Terraform CLI.
var testProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"eventnotify": ProtocolServer("test"),
}

// TestMain makes acceptance runs hermetic: no CLI configuration file, no
// EVENTNOTIFY_* variables from the caller's shell, and a loud failure when
// TF_ACC is set but no terraform binary can be found (plugin-testing would
// otherwise try to download one). It finds out whether the CLI is Terraform or
// OpenTofu (TF_ACC_TERRAFORM_PATH may name either) and sets what
// plugin-testing needs for it.
func TestMain(m *testing.M) {
	os.Setenv("TF_CLI_CONFIG_FILE", os.DevNull)
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "EVENTNOTIFY_") {
			os.Unsetenv(name)
		}
	}
	if os.Getenv("TF_ACC") != "" {
		cli, err := setUpAcceptanceCLI()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		acceptanceCLI = cli
		fmt.Printf("acceptance tests run %s\n", cli)
	}
	os.Exit(m.Run())
}

// testMock is a mock service started for one test.
type testMock struct {
	*mockserver.Server
	URL string
}

// newTestMock starts a fresh mock server for one test, with a password user,
// an API-token user and an OTP user, all allowed on testAccount.
func newTestMock(t testing.TB) *testMock {
	t.Helper()
	srv := mockserver.New(mockserver.Config{Users: []mockserver.User{
		{Username: testUser, Password: testPassword},
		{Username: testTokenUser, APIToken: testAPIToken},
		{Username: testOTPUser, Password: testOTPPassword, OTP: testOTP},
	}})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &testMock{Server: srv, URL: ts.URL}
}

// providerConfig is a test's provider block: the mock's account and
// addresses, the password user, no client-side rate limit and two retries,
// unless the test changes a field. String renders it as HCL; tests change
// the fields, never the rendered text.
type providerConfig struct {
	accountID            string
	baseURL, authURL     string
	credentials          string // HCL lines
	maxRequestsPerSecond string
	maxRetries           int
	extra                []string // more lines inside the block
}

// providerConfig returns the mock's default provider block, with extra lines.
func (m *testMock) providerConfig(extra ...string) providerConfig {
	return providerConfig{
		accountID:            testAccount,
		baseURL:              m.URL,
		authURL:              m.URL,
		credentials:          fmt.Sprintf("username = %q\n  password = %q", testUser, testPassword),
		maxRequestsPerSecond: "0",
		maxRetries:           2,
		extra:                extra,
	}
}

// String renders the provider block.
func (p providerConfig) String() string {
	return fmt.Sprintf(`
provider "eventnotify" {
  account_id              = %q
  base_url                = %q
  auth_url                = %q
  max_requests_per_second = %s
  max_retries             = %d
  %s
  %s
}
`, p.accountID, p.baseURL, p.authURL, p.maxRequestsPerSecond, p.maxRetries, p.credentials, strings.Join(p.extra, "\n  "))
}

// providerBlock renders the mock's default provider block; extra lines are
// added inside the block.
func (m *testMock) providerBlock(extra ...string) string { return m.providerConfig(extra...).String() }

// providerBlockWith renders the mock's provider block with the given
// credential lines.
func (m *testMock) providerBlockWith(credentials string, extra ...string) string {
	p := m.providerConfig(extra...)
	p.credentials = credentials
	return p.String()
}

// expectRejectedWithoutRequests runs config, expects it to fail with expect,
// and checks that not a single request (not even a JWT fetch) reached the mock:
// what is rejected at plan or configure time must never reach the service.
func (m *testMock) expectRejectedWithoutRequests(t *testing.T, config string, expect *regexp.Regexp) {
	t.Helper()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		Steps:                    []resource.TestStep{{Config: config, ExpectError: expect}},
	})
	if n := m.Count("", ""); n != 0 {
		t.Errorf("a rejected configuration sent %d requests to the service", n)
	}
}

// errorPattern matches a diagnostic that contains the phrases in order,
// whatever line wrapping Terraform applies between their words.
func errorPattern(phrases ...string) *regexp.Regexp {
	quoted := make([]string, len(phrases))
	for i, p := range phrases {
		words := strings.Fields(p)
		for j, w := range words {
			words[j] = regexp.QuoteMeta(w)
		}
		quoted[i] = strings.Join(words, `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(quoted, `.*`))
}

// TestAccProvider_configurationErrors runs invalid provider blocks through
// the Terraform CLI and checks the diagnostics name the argument and its
// environment variable.
func TestAccProvider_configurationErrors(t *testing.T) {
	m := newTestMock(t)
	cases := []struct {
		name   string
		config string
		expect *regexp.Regexp
	}{
		{
			name: "missing account_id",
			config: fmt.Sprintf(`provider "eventnotify" {
  base_url = %q
  auth_url = %q
  username = "demo"
  password = "demo-password"
}`, m.URL, m.URL),
			expect: errorPattern("Missing account_id", `Set "account_id" in the provider block or the EVENTNOTIFY_ACCOUNT_ID environment variable`),
		},
		{
			name:   "unknown region",
			config: m.providerBlock(`region = "eu"`),
			expect: errorPattern("region", `value must be one of: ["us" "gb"]`),
		},
		{
			name: "region without addresses",
			config: `provider "eventnotify" {
  account_id = "a"
  region     = "gb"
  username   = "demo"
  password   = "demo-password"
}`,
			expect: errorPattern("No address for base_url", `region "gb"`, "EVENTNOTIFY_BASE_URL"),
		},
		{
			name:   "password and api_token",
			config: m.providerBlock(`api_token = "t"`),
			expect: errorPattern("Invalid Attribute Combination", "api_token"),
		},
		{
			name:   "malformed base_url",
			config: func() string { p := m.providerConfig(); p.baseURL = "ftp://x"; return p.String() }(),
			expect: errorPattern("Invalid base_url", "http:// or https://"),
		},
		{
			name:   "malformed request_timeout",
			config: m.providerBlock(`request_timeout = "soon"`),
			expect: errorPattern("Invalid request_timeout", "Go duration"),
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m.expectRejectedWithoutRequests(t, tc.config+"\ndata \"eventnotify_log_levels\" \"all\" {}\n", tc.expect)
		})
	}
}

// TestAccProvider_environment configures the provider from environment
// variables alone, and shows that the provider block wins over them: its
// credentials replace the environment's as a set.
func TestAccProvider_environment(t *testing.T) {
	m := newTestMock(t)
	m.setTestCatalogues()
	t.Setenv(envAccountID, testAccount)
	t.Setenv(envBaseURL, m.URL)
	t.Setenv(envAuthURL, m.URL)
	t.Setenv(envUsername, testUser)
	t.Setenv(envPassword, "wrong-password")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      `data "eventnotify_log_levels" "all" {}`,
				ExpectError: errorPattern("Invalid eventnotify credentials", "came from the environment", "HTTP 401"),
			},
			{
				Config: fmt.Sprintf(`provider "eventnotify" {
  password = %q
}
data "eventnotify_log_levels" "all" {}`, testPassword),
				ExpectError: errorPattern("Missing username", `set "username" in the provider block`, envUsername+", "+envPassword+" are not used"),
			},
			{
				Config: fmt.Sprintf(`provider "eventnotify" {
  username = %q
  password = %q
}
data "eventnotify_log_levels" "all" {}`, testUser, testPassword),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.eventnotify_log_levels.all", tfjsonpath.New("names"),
						knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("INFO"), knownvalue.StringExact("WARNING"), knownvalue.StringExact("ERROR")})),
				},
			},
		},
	})
}
