package provider

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/echoprovider"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// jwtTestFactories serves the provider and plugin-testing's echo provider,
// which copies its provider block's data into the state of an echo resource:
// the only way to look at an ephemeral resource's values in a test.
var jwtTestFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"eventnotify": testProviderFactories["eventnotify"],
	"echo":        echoprovider.NewProviderServer(),
}

// jwtAccount is the account the tests' eventnotify_jwt resources ask tokens for.
const jwtAccount = "acc-jwt"

// authRecorder sits in front of a test mock and records every JWT the mock
// issues and the bearer token of every service call, so that a test can tell
// which token a request used and look for the tokens where they must not be.
type authRecorder struct {
	next http.Handler

	mu     sync.Mutex
	issued []recordedJWT
	calls  []recordedCall
}

// recordedJWT is a token the JWT endpoint issued.
type recordedJWT struct{ account, token string }

// recordedCall is a service call and the bearer token it carried.
type recordedCall struct{ method, path, token string }

// withAuthRecorder returns a mock that reaches m's store through an
// authRecorder, and the recorder.
func withAuthRecorder(t *testing.T, m *testMock) (*testMock, *authRecorder) {
	t.Helper()
	rec := &authRecorder{next: m.Server}
	ts := httptest.NewServer(rec)
	t.Cleanup(ts.Close)
	return &testMock{Server: m.Server, URL: ts.URL}, rec
}

// ServeHTTP passes the request on and records it.
func (a *authRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	account, isJWT := strings.CutPrefix(r.URL.Path, "/auth/jwt/generate/")
	if !isJWT {
		token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		a.mu.Lock()
		a.calls = append(a.calls, recordedCall{method: r.Method, path: r.URL.Path, token: token})
		a.mu.Unlock()
		a.next.ServeHTTP(w, r)
		return
	}
	cw := &capturingWriter{ResponseWriter: w, status: http.StatusOK}
	a.next.ServeHTTP(cw, r)
	if cw.status != http.StatusOK {
		return
	}
	a.mu.Lock()
	a.issued = append(a.issued, recordedJWT{account: account, token: tokenFromBody(cw.body.Bytes())})
	a.mu.Unlock()
}

// tokensFor returns the tokens issued for the account.
func (a *authRecorder) tokensFor(account string) []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []string
	for _, j := range a.issued {
		if j.account == account {
			out = append(out, j.token)
		}
	}
	return out
}

// bearers returns the tokens of the service calls with the method and path.
func (a *authRecorder) bearers(method, path string) []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []string
	for _, c := range a.calls {
		if c.method == method && c.path == path {
			out = append(out, c.token)
		}
	}
	return out
}

// secrets returns every issued token and its signature, the strings that no
// plan, state or output may hold.
func (a *authRecorder) secrets() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []string
	for _, j := range a.issued {
		out = append(out, j.token, j.token[strings.LastIndex(j.token, ".")+1:])
	}
	return out
}

// findSecret returns a description of the first secret that data holds, or "".
func (a *authRecorder) findSecret(data []byte) string {
	for _, s := range a.secrets() {
		if s != "" && bytes.Contains(data, []byte(s)) {
			return fmt.Sprintf("a JWT the mock issued (%d characters from %q)", len(s), s[:min(8, len(s))])
		}
	}
	return ""
}

// capturingWriter keeps a copy of the status and body written through it.
type capturingWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (w *capturingWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *capturingWriter) Write(p []byte) (int, error) {
	w.body.Write(p)
	return w.ResponseWriter.Write(p)
}

// tokenFromBody reads the token of a JWT endpoint response: a JSON object
// with a token member, a JSON string, or plain text.
func tokenFromBody(body []byte) string {
	var obj map[string]string
	if json.Unmarshal(body, &obj) == nil {
		for _, k := range []string{"token", "jwt", "access_token"} {
			if obj[k] != "" {
				return obj[k]
			}
		}
	}
	var s string
	if json.Unmarshal(body, &s) == nil {
		return s
	}
	return strings.TrimSpace(string(body))
}

// jwtClaimsOf decodes a JWT's payload without verifying it.
func jwtClaimsOf(token string) (map[string]any, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, fmt.Errorf("not a JWT: %d parts", len(parts))
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return nil, err
	}
	claims := map[string]any{}
	return claims, json.Unmarshal(payload, &claims)
}

// checkJWTFor checks that a value is a JWT the mock issued for the account.
func checkJWTFor(rec *authRecorder, account string) knownvalue.Check {
	return knownvalue.StringFunc(func(v string) error {
		if !slices.Contains(rec.tokensFor(account), v) {
			return fmt.Errorf("the token is none of the %d the mock issued for %s", len(rec.tokensFor(account)), account)
		}
		claims, err := jwtClaimsOf(v)
		if err != nil {
			return err
		}
		if claims["accountId"] != account {
			return fmt.Errorf("the token's accountId is %v, want %s", claims["accountId"], account)
		}
		return nil
	})
}

// checkExpiresSoon checks an RFC 3339 time about 5 minutes ahead (the mock's
// token lifetime), in UTC and in whole seconds.
func checkExpiresSoon() knownvalue.Check {
	return knownvalue.StringFunc(func(v string) error {
		at, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return fmt.Errorf("expires_at %q is not RFC 3339: %v", v, err)
		}
		if !strings.HasSuffix(v, "Z") {
			return fmt.Errorf("expires_at %q is not in UTC", v)
		}
		if d := time.Until(at); d < 3*time.Minute || d > 5*time.Minute+2*time.Second {
			return fmt.Errorf("expires_at %q is %v away, want about 5m", v, d.Round(time.Second))
		}
		return nil
	})
}

// noSecretInPlan is a plan check that the saved plan (terraform show -json)
// holds none of the tokens the mock issued.
type noSecretInPlan struct{ rec *authRecorder }

func (c noSecretInPlan) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	data, err := json.Marshal(req.Plan)
	if err != nil {
		resp.Error = err
		return
	}
	if found := c.rec.findSecret(data); found != "" {
		resp.Error = fmt.Errorf("the plan holds %s", found)
	}
}

// noSecretInState is a state check that the state (outputs included) holds
// none of the tokens the mock issued.
type noSecretInState struct{ rec *authRecorder }

func (c noSecretInState) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	data, err := json.Marshal(req.State)
	if err != nil {
		resp.Error = err
		return
	}
	if found := c.rec.findSecret(data); found != "" {
		resp.Error = fmt.Errorf("the state holds %s", found)
	}
}

// TestAccJWTEphemeralResource_values opens tokens for the provider's account
// and for another one, and looks at them through the echo provider.
func TestAccJWTEphemeralResource_values(t *testing.T) {
	m, rec := withAuthRecorder(t, newTestMock(t))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: jwtTestFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureEphemeralResources)},
		Steps: []resource.TestStep{{
			Config: m.providerBlock("allow_jwt_export = true") + fmt.Sprintf(`
ephemeral "eventnotify_jwt" "default" {}

ephemeral "eventnotify_jwt" "other" {
  account_id = %q
}

provider "echo" {
  data = {
    default = ephemeral.eventnotify_jwt.default
    other   = ephemeral.eventnotify_jwt.other
  }
}

resource "echo" "jwt" {}
`, jwtAccount),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("echo.jwt", tfjsonpath.New("data").AtMapKey("default"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"account_id": knownvalue.StringExact(testAccount),
					"token":      checkJWTFor(rec, testAccount),
					"expires_at": checkExpiresSoon(),
				})),
				statecheck.ExpectKnownValue("echo.jwt", tfjsonpath.New("data").AtMapKey("other"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"account_id": knownvalue.StringExact(jwtAccount),
					"token":      checkJWTFor(rec, jwtAccount),
					"expires_at": checkExpiresSoon(),
				})),
			},
		}},
	})
}

// TestAccJWTEphemeralResource_preIssued refuses a token for another account
// than a pre-issued JWT's, and hands out the pre-issued JWT with its exp claim.
func TestAccJWTEphemeralResource_preIssued(t *testing.T) {
	m := newTestMock(t)
	expiresAt := time.Now().Add(3 * time.Minute).Truncate(time.Second)
	preIssued := m.IssueJWT(testAccount, testUser, expiresAt)
	provider := m.providerBlockWith(fmt.Sprintf("jwt = %q", preIssued), "allow_jwt_export = true")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: jwtTestFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureEphemeralResources)},
		Steps: []resource.TestStep{
			{
				Config: provider + fmt.Sprintf(`
ephemeral "eventnotify_jwt" "this" {
  account_id = %q
}

provider "echo" {
  data = ephemeral.eventnotify_jwt.this
}

resource "echo" "jwt" {}
`, jwtAccount),
				ExpectError: errorPattern("No JWT for this account", "pre-issued jwt", `account "acc-jwt"`),
			},
			{
				Config: provider + `
ephemeral "eventnotify_jwt" "this" {}

provider "echo" {
  data = ephemeral.eventnotify_jwt.this
}

resource "echo" "jwt" {}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("echo.jwt", tfjsonpath.New("data"), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"account_id": knownvalue.StringExact(testAccount),
						"token":      knownvalue.StringExact(preIssued),
						"expires_at": knownvalue.StringExact(expiresAt.UTC().Format(time.RFC3339)),
					})),
				},
			},
		},
	})
	if n := m.JWTFetches(); n != 0 {
		t.Errorf("a provider with a pre-issued JWT fetched %d JWTs", n)
	}
}

// TestAccJWTEphemeralResource_errors reports a failed token request with the
// service's status, and rejects a blank account at plan time.
func TestAccJWTEphemeralResource_errors(t *testing.T) {
	m := newTestMock(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureEphemeralResources)},
		Steps: []resource.TestStep{
			{
				Config:      m.providerBlockWith(`username = "demo"`+"\n"+`password = "wrong"`, "allow_jwt_export = true") + `ephemeral "eventnotify_jwt" "this" {}`,
				ExpectError: errorPattern("Invalid eventnotify credentials", "HTTP 401"),
			},
			{
				Config:      m.providerBlock("allow_jwt_export = true") + `ephemeral "eventnotify_jwt" "this" { account_id = " " }`,
				ExpectError: errorPattern("Invalid account_id"),
			},
		},
	})
}

// TestAccJWTEphemeralResource_configuresProvider configures an aliased
// provider block with nothing but the token, creates a subscription through
// it, and checks that the create request carried a token that the
// ephemeral resource was issued and that no plan or state holds a token.
func TestAccJWTEphemeralResource_configuresProvider(t *testing.T) {
	m, rec := withAuthRecorder(t, newTestMock(t))
	config := m.providerBlock("allow_jwt_export = true") + fmt.Sprintf(`
ephemeral "eventnotify_jwt" "other" {
  account_id = %[1]q
}

provider "eventnotify" {
  alias                   = "jwt"
  account_id              = %[1]q
  base_url                = %[2]q
  auth_url                = %[2]q
  max_requests_per_second = 0
  jwt                     = ephemeral.eventnotify_jwt.other.token
}

resource "eventnotify_subscription" "test" {
  provider         = eventnotify.jwt
  event_name       = "ATOM.STATUS"
  destination_type = "EVENT_STREAMS"
  log_level        = "ERROR"
}

output "subscription_id" {
  value = eventnotify_subscription.test.id
}
`, jwtAccount, m.URL)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureEphemeralResources)},
		CheckDestroy:             m.checkMockEmpty(jwtAccount),
		Steps: []resource.TestStep{{
			Config: config,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{noSecretInPlan{rec}, plancheck.ExpectResourceAction(subAddr, plancheck.ResourceActionCreate)},
				PostApplyPostRefresh: []plancheck.PlanCheck{noSecretInPlan{rec}, plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				noSecretInState{rec},
				statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("account_id"), knownvalue.StringExact(jwtAccount)),
			},
			Check: func(*terraform.State) error { return rec.checkCreatedWithEphemeralToken(m, jwtAccount) },
		}},
	})
}

// checkCreatedWithEphemeralToken checks that the account holds one
// subscription, created by a request whose bearer token the JWT endpoint
// issued for the account.
func (a *authRecorder) checkCreatedWithEphemeralToken(m *testMock, account string) error {
	if subs := m.Subscriptions(account); len(subs) != 1 {
		return fmt.Errorf("account %s holds %d subscriptions, want 1", account, len(subs))
	}
	creates := a.bearers(http.MethodPost, "/rest/v1/accounts/"+account+"/subscriptions")
	if len(creates) != 1 {
		return fmt.Errorf("%d create requests for account %s, want 1", len(creates), account)
	}
	issued := a.tokensFor(account)
	if len(issued) == 0 {
		return fmt.Errorf("the mock issued no token for account %s: the ephemeral resource was never opened", account)
	}
	if !slices.Contains(issued, creates[0]) {
		return fmt.Errorf("the create request's bearer token is none of the %d tokens issued for %s", len(issued), account)
	}
	return nil
}

// TestAccJWTEphemeralResource_neverStored applies the doc example through
// the CLI: the default provider block holds the credentials, an aliased one
// only the token. It scans the saved plan file (each file in it, and `show
// -json` of it), the state, the outputs and every command's output for the
// tokens the mock issued.
func TestAccJWTEphemeralResource_neverStored(t *testing.T) {
	m, rec := withAuthRecorder(t, newTestMock(t))
	w := newCLIWorkspace(t, m)
	w.require(featureEphemeralResources)
	w.copyFile("../../examples/ephemeral-resources/eventnotify_jwt/ephemeral-resource.tf", "main.tf")
	w.write("provider.tf", fmt.Sprintf(`provider "eventnotify" {
  username         = %q
  password         = %q
  allow_jwt_export = true
}

output "subscription" {
  value = eventnotify_subscription.audit
}
`, testUser, testPassword))
	// Only the default provider block holds credentials: the aliased one has no
	// way to a token but the ephemeral resource's.
	env := []string{"EVENTNOTIFY_USERNAME=", "EVENTNOTIFY_PASSWORD=", "TF_VAR_audit_account_id=" + jwtAccount}
	scan := func(what string, data []byte) {
		t.Helper()
		if found := rec.findSecret(data); found != "" {
			t.Errorf("%s holds %s", what, found)
		}
	}

	scan("terraform plan", []byte(w.mustRun(env, "plan", "-input=false", "-no-color", "-out=tfplan")))
	issued := rec.tokensFor(jwtAccount)
	if len(issued) == 0 {
		t.Fatal("planning issued no token for the ephemeral resource's account")
	}
	if rec.findSecret([]byte(`{"token":"`+issued[0]+`"}`)) == "" {
		t.Fatal("the scan does not find a token where there is one")
	}
	plan, err := os.ReadFile(filepath.Join(w.dir, "tfplan"))
	if err != nil {
		t.Fatal(err)
	}
	scan("the saved plan file", plan)
	zr, err := zip.NewReader(bytes.NewReader(plan), int64(len(plan)))
	if err != nil {
		t.Fatalf("the saved plan is not a zip archive: %v", err)
	}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		scan("the saved plan's "+f.Name, body)
	}
	scan("terraform show -json tfplan", []byte(w.mustRun(env, "show", "-json", "-no-color", "tfplan")))

	scan("terraform apply", []byte(w.mustRun(env, "apply", "-input=false", "-no-color", "tfplan")))
	if err := rec.checkCreatedWithEphemeralToken(m, jwtAccount); err != nil {
		t.Error(err)
	}
	state, err := os.ReadFile(filepath.Join(w.dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	scan("terraform.tfstate", state)
	if !regexp.MustCompile(`"account_id":\s*"` + jwtAccount + `"`).Match(state) {
		t.Errorf("the state does not hold the subscription of %s:\n%s", jwtAccount, state)
	}
	scan("terraform show -json", []byte(w.mustRun(env, "show", "-json", "-no-color")))
	outputs := w.mustRun(env, "output", "-json", "-no-color")
	scan("terraform output -json", []byte(outputs))
	if !strings.Contains(outputs, `"event_name"`) {
		t.Errorf("the outputs do not hold the subscription:\n%s", outputs)
	}

	out, code := w.run(env, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	scan("the second terraform plan", []byte(out))
	if code != 0 {
		t.Fatalf("second plan was not empty (exit %d):\n%s", code, out)
	}
	scan("terraform destroy", []byte(w.mustRun(env, "destroy", "-auto-approve", "-input=false", "-no-color")))
	if subs := m.Subscriptions(jwtAccount); len(subs) != 0 {
		t.Errorf("after destroy, account %s holds %d subscriptions", jwtAccount, len(subs))
	}
	if state, err := os.ReadFile(filepath.Join(w.dir, "terraform.tfstate")); err == nil {
		scan("terraform.tfstate after destroy", state)
	}
}
