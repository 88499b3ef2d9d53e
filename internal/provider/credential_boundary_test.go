package provider

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// Credentials never cross a boundary: a host named in a provider block never receives a
// credential exported for another (the environment's), a pre-issued JWT never goes out with
// a request for another account, a URL's password is never echoed, and wrong credentials
// are one error of the provider, checked before any resource runs.

// headerTap is a test server in front of a mock that records every credential-bearing
// header it receives, Basic auth values decoded: what a hostile host would learn.
type headerTap struct {
	next http.Handler
	mu   sync.Mutex
	seen []string // one entry per request
}

// newHeaderTap serves m behind a tap and returns the tap and its URL.
func newHeaderTap(t *testing.T, m *testMock) (*headerTap, string) {
	t.Helper()
	tap := &headerTap{next: m.Server}
	ts := httptest.NewServer(tap)
	t.Cleanup(ts.Close)
	return tap, ts.URL
}

// ServeHTTP records the request's credentials and passes it on.
func (h *headerTap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	seen := r.Method + " " + r.URL.String() + " Authorization=" + r.Header.Get("Authorization") +
		" X-Platform-OTP=" + r.Header.Get("X-Platform-OTP")
	if user, pass, ok := r.BasicAuth(); ok {
		seen += " basic-user=" + user + " basic-password=" + pass
	}
	h.mu.Lock()
	h.seen = append(h.seen, seen)
	h.mu.Unlock()
	h.next.ServeHTTP(w, r)
}

// requests returns what the tap recorded.
func (h *headerTap) requests() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.seen...)
}

// envCredentials are credentials exported for the default provider block, of a user that
// only the environment's mock knows.
type envCredentials struct {
	user, password, otp, jwt string
}

// secrets lists what must never reach another host, with the Basic auth value.
func (c envCredentials) secrets() map[string]string {
	return map[string]string{
		"the environment's user name": "basic-user=" + c.user,
		"the environment's password":  c.password,
		"the environment's OTP":       c.otp,
		"the environment's JWT":       c.jwt,
		"the environment's Basic auth value": base64.StdEncoding.EncodeToString(
			[]byte(c.user + ":" + c.password)),
	}
}

// TestAccCredentials_blockHostNeverGetsEnvironmentCredentials runs aliased provider blocks
// that name their own host (a second mock behind a tap) while the default block's
// credentials (user name, password, OTP and a JWT) are exported: the alias's host never
// receives any of them, whether the alias has its own credentials, only some, or none.
func TestAccCredentials_blockHostNeverGetsEnvironmentCredentials(t *testing.T) {
	cases := []struct {
		name string
		// alias is the aliased block's credential lines; {{env_jwt}} stands for the exported JWT.
		alias string
		// expect is the error of the run, nil when it succeeds.
		expect []string
	}{
		{
			name:  "alias with its own password",
			alias: fmt.Sprintf("username = %q\n  password = %q", testUser, testPassword),
		},
		{
			name:  "alias with its own api_token while a password is exported",
			alias: fmt.Sprintf("username = %q\n  api_token = %q", testTokenUser, testAPIToken),
		},
		{
			name:  "alias with only a password",
			alias: fmt.Sprintf("password = %q", testPassword),
			expect: []string{"Missing username", `set "username" in the provider block`,
				envUsername + ", " + envPassword + ", " + envOTP + ", " + envJWT + " are not used"},
		},
		{
			// However the configuration got it, EVENTNOTIFY_JWT is the environment's.
			name:  "alias whose jwt is the environment's",
			alias: "jwt = \"{{env_jwt}}\"",
			expect: []string{"Credentials from the environment not sent to base_url", "its jwt is the token exported in " + envJWT,
				"counts as a credential from the environment", envAllowJWTExport + "=true"},
		},
		{
			name: "alias with no credentials, the environment's for another address",
			expect: []string{"Credentials from the environment not sent to base_url", "an address that " + envBaseURL + " does not name",
				"set the credentials in this provider block"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home, alias := newTestMock(t), newTestMock(t)
			tap, aliasURL := newHeaderTap(t, alias)
			creds := envCredentials{user: "env-user", password: randomSecret(t, "env-pw-"), otp: randomSecret(t, "env-otp-")}
			home.AddUser(mockserver.User{Username: creds.user, Password: creds.password, OTP: creds.otp})
			creds.jwt = home.IssueJWT(testAccount, creds.user, time.Now().Add(time.Hour))

			w := newCLIWorkspace(t, home)
			env := w.env[:0:0]
			for _, kv := range w.env {
				name, _, _ := strings.Cut(kv, "=")
				if name != envUsername && name != envPassword {
					env = append(env, kv)
				}
			}
			w.env = append(env, envUsername+"="+creds.user, envPassword+"="+creds.password, envOTP+"="+creds.otp, envJWT+"="+creds.jwt)
			w.write("main.tf", requiredProviders+fmt.Sprintf(`
provider "eventnotify" {}

provider "eventnotify" {
  alias    = "other"
  base_url = %q
  auth_url = %q
  %s
}

resource "eventnotify_subscription" "home" {
  event_name       = "ATOM.STATUS"
  destination_type = "EVENT_STREAMS"
  log_level        = "ERROR"
}

resource "eventnotify_subscription" "other" {
  provider         = eventnotify.other
  event_name       = "ATOM.STATUS"
  destination_type = "EVENT_STREAMS"
  log_level        = "ERROR"
}
`, aliasURL, aliasURL, strings.ReplaceAll(tc.alias, "{{env_jwt}}", creds.jwt)))

			out, code := w.run(nil, "apply", "-auto-approve", "-input=false", "-no-color")
			switch {
			case tc.expect == nil && code != 0:
				t.Fatalf("apply exited %d:\n%s", code, out)
			case tc.expect == nil:
				if len(home.Subscriptions(testAccount)) != 1 || len(alias.Subscriptions(testAccount)) != 1 {
					t.Fatalf("%d subscriptions at home, %d at the alias's host; want 1 and 1",
						len(home.Subscriptions(testAccount)), len(alias.Subscriptions(testAccount)))
				}
			case code == 0:
				t.Fatalf("apply succeeded; want %q:\n%s", tc.expect, out)
			case !errorPattern(tc.expect...).MatchString(out):
				t.Fatalf("the output does not say %q:\n%s", tc.expect, out)
			}
			seen := tap.requests()
			if tc.expect != nil && len(seen) != 0 {
				t.Errorf("a rejected alias sent %d requests to its host:\n%s", len(seen), strings.Join(seen, "\n"))
			}
			if tc.expect == nil && len(seen) == 0 {
				t.Fatal("the alias's host received no request: the test proves nothing")
			}
			for _, req := range seen {
				for what, secret := range creds.secrets() {
					if strings.Contains(req, secret) {
						t.Errorf("the alias's host received %s: %s", what, req)
					}
				}
			}
			for what, secret := range creds.secrets() {
				if strings.Contains(out, secret) {
					t.Errorf("the output holds %s", what)
				}
			}
		})
	}
}

// TestAccCredentials_environmentCredentialsNotForBlockAddresses: with no address in the
// environment, the environment's credentials are not sent to the addresses a provider block
// names: the configuration fails, says what to do, and nothing reaches the block's host.
func TestAccCredentials_environmentCredentialsNotForBlockAddresses(t *testing.T) {
	m := newTestMock(t)
	t.Setenv(envUsername, testUser)
	t.Setenv(envPassword, testPassword)
	t.Setenv(envBaseURL, "")
	t.Setenv(envAuthURL, "")
	p := m.providerConfig()
	p.credentials = ""
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		Steps: []resource.TestStep{{
			Config: p.String() + subscriptionConfig(minimalArgs...),
			ExpectError: errorPattern("Credentials from the environment not sent to base_url",
				"an address that "+envBaseURL+" does not name (which is not set)",
				"export "+envBaseURL+" instead"),
		}},
	})
	if n := m.Count("", ""); n != 0 {
		t.Errorf("the block's host received %d requests", n)
	}
}

// TestAccCredentials_preIssuedJWTStaysWithItsAccount: a provider configured with a
// pre-issued JWT refuses a data source and resources of another account before anything
// is sent for that account (resources at plan time), and says what to do.
func TestAccCredentials_preIssuedJWTStaysWithItsAccount(t *testing.T) {
	const other = "acc-other"
	cases := []struct {
		name, config string
		expect       []string
	}{
		{"data source", `
data "eventnotify_subscriptions" "other" {
  account_id = "` + other + `"
}`, []string{"acc-other", "authenticates the configured account only", "Nothing was sent", "Leave account_id out"}},
		// A resource fails at plan time.
		{"resource", subscriptionConfig(append([]string{`account_id = "` + other + `"`}, minimalArgs...)...),
			[]string{"No JWT for this account", `authenticates account "acc-test" only`, `account "acc-other"`}},
		{"topic", `
resource "eventnotify_event_streams_topic" "other" {
  account_id        = "` + other + `"
  environment_id    = "env-1"
  subscription_name = "s"
  topic_name        = "t"
}`, []string{"No JWT for this account", `account "acc-other"`}},
		{"account subscriptions", `
resource "eventnotify_account_subscriptions" "other" {
  account_id = "` + other + `"
  subscriptions = {
    a = { event_name = "ATOM.STATUS", destination_type = "EMAIL", log_level = "ERROR" }
  }
}`, []string{"No JWT for this account", `account "acc-other"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				Steps: []resource.TestStep{{
					Config:      m.providerBlockWith(fmt.Sprintf("jwt = %q", m.IssueJWT(testAccount, testUser, time.Now().Add(time.Hour)))) + tc.config,
					ExpectError: errorPattern(tc.expect...),
				}},
			})
			for _, r := range m.Requests() {
				if strings.Contains(r.Path, other) {
					t.Errorf("a request for the other account was sent: %s %s", r.Method, r.Path)
				}
			}
			if n := m.JWTFetches(); n != 0 {
				t.Errorf("%d JWT fetches with a pre-issued JWT", n)
			}
		})
	}
}

// TestAccCredentials_urlPasswordNeverEchoed: an address with a password that does not even
// parse as a URL is refused without quoting the password, from the environment or the block.
func TestAccCredentials_urlPasswordNeverEchoed(t *testing.T) {
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	const secret = "S3cr%t-pw"
	w.env = append(w.env, envBaseURL+"=https://svc:"+secret+"@eventnotify.example.com")
	w.write("main.tf", requiredProviders+`
provider "eventnotify" {}

data "eventnotify_log_levels" "all" {}
`)
	out, code := w.run(nil, "plan", "-input=false", "-no-color")
	if code == 0 || !errorPattern("Invalid base_url", `"https://***@eventnotify.example.com" is not a valid URL`, envBaseURL).MatchString(out) {
		t.Fatalf("plan exited %d; want the address refused:\n%s", code, out)
	}
	w.write("main.tf", requiredProviders+`
provider "eventnotify" {
  auth_url = "https://svc:`+secret+`/x@eventnotify.example.com"
}

data "eventnotify_log_levels" "all" {}
`)
	out2, code := w.run(nil, "plan", "-input=false", "-no-color")
	if code == 0 || !errorPattern("Invalid auth_url", `"https://***@eventnotify.example.com"`).MatchString(out2) {
		t.Fatalf("plan exited %d; want the address refused:\n%s", code, out2)
	}
	// Terraform itself shows the block's source line; the provider's diagnostics never quote it.
	var diagnostics []string
	for _, line := range strings.Split(out+out2, "\n") {
		if !strings.Contains(line, "auth_url = ") {
			diagnostics = append(diagnostics, line)
		}
	}
	for _, part := range []string{"S3cr", "t-pw"} {
		if strings.Contains(strings.Join(diagnostics, "\n"), part) {
			t.Errorf("the output quotes the URL's password:\n%s\n%s", out, out2)
		}
	}
	if n := m.Count("", ""); n != 0 {
		t.Errorf("%d requests reached the service", n)
	}
}

// TestAccCredentials_wrongCredentialsOneError: with wrong credentials, five resources give
// one error, from the provider's configuration, after one request to the JWT endpoint; with
// state to refresh and without.
func TestAccCredentials_wrongCredentialsOneError(t *testing.T) {
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	w.write("main.tf", requiredProviders+`
provider "eventnotify" {}

resource "eventnotify_subscription" "five" {
  count               = 5
  event_name          = "ATOM.STATUS"
  destination_type    = "EVENT_STREAMS"
  log_level           = "ERROR"
  event_streams_topic = "topic-${count.index}"
}
`)
	wrong := []string{envPassword + "=wrong-password"}
	check := func(step string, args ...string) {
		t.Helper()
		before := m.Count("", "")
		jwtBefore := m.Count(http.MethodGet, mockserver.RouteJWT)
		out, code := w.run(wrong, args...)
		if code == 0 {
			t.Fatalf("%s succeeded with a wrong password:\n%s", step, out)
		}
		if n := strings.Count(out, "Error: "); n != 1 {
			t.Errorf("%s: %d errors, want 1:\n%s", step, n, out)
		}
		if !errorPattern("Error: Invalid eventnotify credentials", "rejected", "came from the environment",
			envUsername+", "+envPassword, "HTTP 401", "Check username with password or api_token").MatchString(out) {
			t.Errorf("%s: the error does not say what to check:\n%s", step, out)
		}
		if n := m.Count(http.MethodGet, mockserver.RouteJWT) - jwtBefore; n != 1 {
			t.Errorf("%s: %d requests to the JWT endpoint, want 1", step, n)
		}
		if n := m.Count("", "") - before; n != 1 {
			t.Errorf("%s: %d requests in all, want the 1 to the JWT endpoint", step, n)
		}
	}
	check("apply of five new resources", "apply", "-auto-approve", "-input=false", "-no-color")
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	if n := len(m.Subscriptions(testAccount)); n != 5 {
		t.Fatalf("%d subscriptions after apply, want 5", n)
	}
	check("plan refreshing five resources", "plan", "-input=false", "-no-color")
	w.mustRun(nil, "destroy", "-auto-approve", "-input=false", "-no-color")
}

// TestAccCredentials_environmentCredentialsStayOnTheirPath runs issue 38 item 3 through the
// CLI with a hostile path on loopback: one server whose /eventnotify/ is the service (the mock)
// and whose every other path is another tenant behind the same gateway (a tap that records
// credentials, then serves the mock too, so that a credential that leaked would work).
// EVENTNOTIFY_BASE_URL and EVENTNOTIFY_AUTH_URL name /eventnotify with the credentials beside
// them; a module's provider block names an address of its own. Another path, a longer first
// segment and percent-encoded dots or slashes fail at configure with the error naming both
// addresses, and the other path receives nothing; the environment's own address in another
// spelling (a trailing slash, an upper-case scheme and host, the default port written out, dot
// segments) is the environment's, and the module's subscription is created through
// /eventnotify.
func TestAccCredentials_environmentCredentialsStayOnTheirPath(t *testing.T) {
	cases := []struct {
		name string
		// address is the module block's base_url and auth_url; {{host}} stands for the
		// environment's host and port (localhost:port), {{port}} for the port alone.
		address string
		// expect is the error; nil when apply must succeed through /eventnotify.
		expect []string
	}{
		{name: "another tenant's path", address: "http://{{host}}/another-tenant",
			expect: []string{"Credentials from the environment not sent to base_url", "/another-tenant, an address that " + envBaseURL + " does not name",
				"which names http://{{host}}/eventnotify", "Addresses are compared whole, path included"}},
		{name: "a longer first segment", address: "http://{{host}}/eventnotify-other",
			expect: []string{"Credentials from the environment not sent to base_url", "/eventnotify-other"}},
		{name: "a deeper path", address: "http://{{host}}/eventnotify/another-tenant",
			expect: []string{"Credentials from the environment not sent to base_url"}},
		{name: "the host alone", address: "http://{{host}}",
			expect: []string{"Credentials from the environment not sent to base_url"}},
		{name: "percent-encoded dot-dot", address: "http://{{host}}/another-tenant/%2e%2e/eventnotify",
			expect: []string{"Credentials from the environment not sent to base_url", "percent-encoded dot, slash or backslash"}},
		{name: "percent-encoded slashes", address: "http://{{host}}/another-tenant%2F..%2Feventnotify",
			expect: []string{"Credentials from the environment not sent to base_url"}},
		{name: "the environment's address with a trailing slash", address: "http://{{host}}/eventnotify/"},
		{name: "the environment's address with the scheme and host in upper case", address: "HTTP://LocalHost:{{port}}/eventnotify"},
		{name: "the environment's address through dot segments", address: "http://{{host}}/another-tenant/../eventnotify/."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := newTestMock(t)
			other := &headerTap{next: http.StripPrefix("/another-tenant", home.Server)}
			service := http.StripPrefix("/eventnotify", home.Server)
			// A gateway that routes by the path as sent (an http.ServeMux would clean it first).
			gateway := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasPrefix(r.URL.EscapedPath(), "/eventnotify/") {
					service.ServeHTTP(w, r)
					return
				}
				other.ServeHTTP(w, r)
			}))
			t.Cleanup(gateway.Close)
			// localhost, which the client dials as 127.0.0.1, has letters to spell in upper case.
			port := gateway.URL[strings.LastIndex(gateway.URL, ":")+1:]
			host := "localhost:" + port
			envAddress := "http://" + host + "/eventnotify"
			address := strings.NewReplacer("{{host}}", host, "{{port}}", port).Replace(tc.address)

			w := newCLIWorkspace(t, home)
			w.env = append(w.env, envBaseURL+"="+envAddress, envAuthURL+"="+envAddress) // the last value wins
			w.write("main.tf", requiredProviders+`
module "tenant" {
  source = "./modules/tenant"
}
`)
			w.write("modules/tenant/main.tf", requiredProviders+fmt.Sprintf(`
provider "eventnotify" {
  base_url = %[1]q
  auth_url = %[1]q
}

resource "eventnotify_subscription" "tenant" {
  event_name       = "ATOM.STATUS"
  destination_type = "EVENT_STREAMS"
  log_level        = "ERROR"
}
`, address))
			w.mustRun(nil, "get", "-no-color")

			out, code := w.run(nil, "apply", "-auto-approve", "-input=false", "-no-color")
			var expect []string
			for _, e := range tc.expect {
				expect = append(expect, strings.ReplaceAll(e, "{{host}}", host))
			}
			switch {
			case tc.expect == nil && code != 0:
				t.Fatalf("apply exited %d:\n%s", code, out)
			case tc.expect == nil && len(home.Subscriptions(testAccount)) != 1:
				t.Fatalf("%d subscriptions after apply, want 1:\n%s", len(home.Subscriptions(testAccount)), out)
			case tc.expect != nil && code == 0:
				t.Fatalf("apply succeeded; want %q:\n%s", expect, out)
			case tc.expect != nil && !errorPattern(expect...).MatchString(out):
				t.Fatalf("the output does not say %q:\n%s", expect, out)
			}
			if seen := other.requests(); len(seen) != 0 {
				t.Errorf("the other path received %d requests:\n%s", len(seen), strings.Join(seen, "\n"))
			}
			if strings.Contains(out, testPassword) {
				t.Error("the output holds the environment's password")
			}
		})
	}
}
