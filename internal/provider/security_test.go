package provider

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// Security tests: no credential in logs or state, certificates verified,
// foreign and stale tokens rejected.
//
// The mock's own checks of tokens (expired, bad signature, another account's,
// with the spec's 401 and 403) are internal/mockserver TestServiceAuth and
// TestEveryOperationAuthenticates; TestAccSecurity_rejectedTokens shows how
// the provider reports them.

// jwtShape matches a compact JWS: base64url JSON header ("eyJ" is `{"`), then
// the payload, each followed by a dot.
var jwtShape = regexp.MustCompile(`eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.`)

// randomSecret returns a credential that cannot appear in a log by chance.
func randomSecret(t *testing.T, prefix string) string {
	t.Helper()
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return prefix + hex.EncodeToString(b)
}

// TestAccSecurity_noSecretsInLogsOrState runs a whole apply and plan with
// TF_LOG=TRACE through the Terraform CLI, with every kind of credential at
// once: a password with an OTP (from the environment), an API token and a
// pre-issued JWT (from provider blocks). Neither the TRACE logs, nor the CLI's
// output, nor the state holds a password, API token, OTP, Basic auth value or
// JWT, the generated ones included (found by their shape).
func TestAccSecurity_noSecretsInLogsOrState(t *testing.T) {
	m := newTestMock(t)
	otpUser, tokenUser := "sec-mfa-user", "sec-sso-user"
	password, otp, apiToken := randomSecret(t, "pw-"), randomSecret(t, "otp-"), randomSecret(t, "tok-")
	m.AddUser(mockserver.User{Username: otpUser, Password: password, OTP: otp})
	m.AddUser(mockserver.User{Username: tokenUser, APIToken: apiToken})
	preIssued := m.IssueJWT(testAccount, testUser, time.Now().Add(time.Hour))
	secrets := map[string]string{
		"password":              password,
		"OTP":                   otp,
		"API token":             apiToken,
		"pre-issued JWT":        preIssued,
		"password Basic value":  base64.StdEncoding.EncodeToString([]byte(otpUser + ":" + password)),
		"API token Basic value": base64.StdEncoding.EncodeToString([]byte("PLATFORM_TOKEN." + tokenUser + ":" + apiToken)),
	}

	w := newCLIWorkspace(t, m)
	env := w.env[:0:0]
	for _, kv := range w.env {
		if !strings.HasPrefix(kv, envUsername+"=") && !strings.HasPrefix(kv, envPassword+"=") {
			env = append(env, kv)
		}
	}
	// The default provider takes its credentials from the environment; the
	// aliases set their own, so they use none of the environment's.
	w.env = append(env, envUsername+"="+otpUser, envPassword+"="+password, envOTP+"="+otp)
	w.write("main.tf", requiredProviders+fmt.Sprintf(`
provider "eventnotify" {}

provider "eventnotify" {
  alias     = "token"
  username  = %q
  api_token = %q
}

provider "eventnotify" {
  alias = "jwt"
  jwt   = %q
}

resource "eventnotify_subscription" "password" {
  event_name       = "ATOM.STATUS"
  destination_type = "EVENT_STREAMS"
  log_level        = "ERROR"
}

resource "eventnotify_subscription" "token" {
  provider         = eventnotify.token
  event_name       = "PROCESS.EXECUTION"
  destination_type = "EVENT_STREAMS"
  log_level        = "WARNING"
}

resource "eventnotify_subscription" "jwt" {
  provider         = eventnotify.jwt
  event_name       = "ATOM.STATUS"
  destination_type = "EVENT_STREAMS"
  log_level        = "INFO"
}

data "eventnotify_log_levels" "all" {
  provider = eventnotify.token
}
`, tokenUser, apiToken, preIssued))

	logDir := t.TempDir()
	var texts []string
	for _, args := range [][]string{
		{"apply", "-auto-approve", "-input=false", "-no-color"},
		{"plan", "-detailed-exitcode", "-input=false", "-no-color"},
	} {
		logPath := filepath.Join(logDir, args[0]+".log")
		out := w.mustRun([]string{"TF_LOG=TRACE", "TF_LOG_PATH=" + logPath}, args...)
		log, err := os.ReadFile(logPath)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, out, string(log))
	}
	state, err := os.ReadFile(filepath.Join(w.dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Subscriptions(testAccount)) != 3 || m.JWTFetches() == 0 {
		t.Fatalf("the run did not create 3 subscriptions with generated JWTs: %d subscriptions, %d JWT fetches",
			len(m.Subscriptions(testAccount)), m.JWTFetches())
	}

	// The logs are worth searching: they hold the provider's TRACE entries,
	// request and response bodies included, and the JWT endpoint's calls.
	all := strings.Join(texts, "\n")
	for _, want := range []string{"eventnotify API request body", "eventnotify API response body", `operation="generate JWT"`} {
		if !strings.Contains(all, want) {
			t.Fatalf("the TRACE logs hold no %q: the test would prove nothing", want)
		}
	}
	// With TF_LOG set, the SDKs' own loggers stay on (main.go turns them off only without one).
	for _, want := range []string{"@module=sdk.framework", "@module=sdk.proto"} {
		if !strings.Contains(all, want) {
			t.Errorf("the TRACE logs hold no %q: the SDK's logs are missing", want)
		}
	}
	for name, text := range map[string]string{"apply output": texts[0], "apply TRACE log": texts[1],
		"plan output": texts[2], "plan TRACE log": texts[3], "state": string(state)} {
		for what, secret := range secrets {
			if strings.Contains(text, secret) {
				t.Errorf("the %s holds the %s", name, what)
			}
		}
		if jwt := jwtShape.FindString(text); jwt != "" {
			t.Errorf("the %s holds a JWT: %s...", name, jwt)
		}
	}
}

// TestAccSecurity_untrustedCertificate points the provider at the mock behind
// TLS with a certificate no system trusts: the run fails with a message that
// says so, and no request reaches the service (the handshake fails before the
// Basic credentials are sent).
func TestAccSecurity_untrustedCertificate(t *testing.T) {
	m := newTestMock(t)
	ts := httptest.NewTLSServer(m.Server)
	t.Cleanup(ts.Close)
	tlsMock := &testMock{Server: m.Server, URL: ts.URL}
	// tlsMock shares m's server and counters: nothing may reach it over an unverified connection.
	tlsMock.expectRejectedWithoutRequests(t, tlsMock.providerBlock()+`data "eventnotify_log_levels" "all" {}`,
		errorPattern("Unable to generate a JWT for account "+testAccount, "x509: certificate signed by unknown authority",
			"TLS certificate could not be verified", "no request (and no credential) was sent"))
}

// TestAccSecurity_rejectedTokens uses pre-issued JWTs the service must refuse:
// expired and badly signed ones are 401s that say the JWT was rejected and fail
// the plan, so no write is sent; one of another account is a 403 at the create
// that names the account.
func TestAccSecurity_rejectedTokens(t *testing.T) {
	other := mockserver.New(mockserver.Config{})
	// A token the service rejects fails the plan, where the events catalogue is read with it (a
	// 401 is definite: planning again gives the same answer), and nothing is sent to be
	// created. A token of another account reads the catalogue, which belongs to no account,
	// and fails at the create.
	cases := []struct {
		name    string
		token   func(m *testMock) string
		expect  *regexp.Regexp
		creates int
	}{
		{"expired", func(m *testMock) string { return m.IssueJWT(testAccount, testUser, time.Now().Add(-time.Minute)) },
			errorPattern("Event names cannot be checked", "HTTP 401", "EVENTNOTIFY_JWT", "has not expired"), 0},
		{"bad signature", func(*testMock) string { return other.IssueJWT(testAccount, testUser, time.Now().Add(time.Hour)) },
			errorPattern("Event names cannot be checked", "HTTP 401", "EVENTNOTIFY_JWT"), 0},
		{"another account", func(m *testMock) string { return m.IssueJWT("acc-other", testUser, time.Now().Add(time.Hour)) },
			errorPattern("Unable to create subscription", "HTTP 403", "Access Denied", "no access to this account"), 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				CheckDestroy:             m.checkMockEmpty(),
				Steps: []resource.TestStep{{
					Config:      m.providerBlockWith(fmt.Sprintf("jwt = %q", tc.token(m))) + subscriptionConfig(minimalArgs...),
					ExpectError: tc.expect,
				}},
			})
			if n := m.Count(http.MethodPost, mockserver.RouteSubscriptions); n != tc.creates {
				t.Errorf("%d create requests, want %d (a rejected JWT is not retried)", n, tc.creates)
			}
			if n := m.JWTFetches(); n != 0 {
				t.Errorf("%d JWT fetches with a pre-issued JWT", n)
			}
		})
	}
}
