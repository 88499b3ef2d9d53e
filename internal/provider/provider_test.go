package provider

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestMain makes acceptance runs hermetic: no CLI configuration file, no
// EVENTNOTIFY_* variables from the caller's shell, and a loud failure when
// TF_ACC is set but no terraform binary can be found (plugin-testing would
// otherwise try to download one). It finds out whether the CLI is Terraform or
// OpenTofu (TF_ACC_TERRAFORM_PATH may name either) and sets what
// plugin-testing needs for it. A live run (EVENTNOTIFY_ACC_LIVE) or a sweep (-sweep) keeps the
// EVENTNOTIFY_* variables, which name the service (acc_live_test.go).
func TestMain(m *testing.M) {
	serveRestapiStubIfAsked() // the CLI runs this binary as the REST provider (restapi_stub_test.go)
	os.Setenv("TF_CLI_CONFIG_FILE", os.DevNull)
	newerCLIs = os.Getenv(newerCLIsEnv) // not for the provider: kept before the EVENTNOTIFY_* variables go
	flag.Parse()
	live, err := liveFromEnv(flag.Lookup("sweep").Value.String() != "")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	liveRun = live
	// A live run or a sweep keeps the variables: they name the service (acc_live_test.go).
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "EVENTNOTIFY_") && liveRun == nil {
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
	// Runs the tests, failing the run on any call the fast path answered otherwise than the
	// framework (fast_path_parity_test.go), or the sweepers when -sweep is given (sweep_test.go).
	resource.TestMain(parityRun{m})
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
