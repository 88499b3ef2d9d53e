package provider

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/testsupport"
)

// TestAddPlanReadFailure: a failed plan-time read is an error when the answer is definite and
// a warning when it may pass, each with the failure's own detail and the read's own text; a
// read the plan does not go on without is an error either way, and only a definite answer
// says that planning again will not help.
func TestAddPlanReadFailure(t *testing.T) {
	const url = "https://svc.example.com/rest/v1/events"
	read := planRead{warning: "W summary", error: "E summary", skipped: "What was skipped.", needed: "What it is for."}
	required := planRead{error: "E summary", needed: "What it is for."}
	cases := []struct {
		name   string
		err    error
		want   diag.Severity
		detail []string
	}{
		{"401", &httpapi.APIError{Operation: "list events", StatusCode: 401, URL: url},
			diag.SeverityError, []string{"HTTP 401", "Authentication failed"}},
		{"403 for the provider's account", fmt.Errorf("list events: %w", &httpapi.APIError{Operation: "generate JWT", StatusCode: 403,
			JWTEndpoint: true, AccountID: "acc-typo", URL: "https://auth.example.com/auth/jwt/generate/acc-typo"}),
			diag.SeverityError, []string{"The address https://auth.example.com/auth/jwt/generate/acc-typo answered", `no access to this account ("acc-typo")`, envAccountID}},
		{"the service's own 404", &httpapi.APIError{Operation: "list events", StatusCode: 404, ErrorText: "Entity not found", URL: url},
			diag.SeverityError, []string{"HTTP 404"}},
		{"a 404 that is not the service's", &httpapi.APIError{Operation: "list events", StatusCode: 404, RawBody: "<html>Not Found</html>",
			URL: "https://svc.example.com/rest/v1/rest/v1/events"},
			diag.SeverityError, []string{"The address https://svc.example.com/rest/v1/rest/v1/events answered", "not the service's own answer", "base_url (" + envBaseURL + ")"}},
		{"a redirect", &httpapi.APIError{Operation: "list events", StatusCode: 301, Location: "https://new.example.com/rest/v1/events", URL: url},
			diag.SeverityError, []string{"redirects to https://new.example.com/rest/v1/events"}},
		{"500", &httpapi.APIError{Operation: "list events", Method: http.MethodGet, StatusCode: 500, ErrorID: "e-1", URL: url},
			diag.SeverityWarning, []string{"HTTP 500", "Error ID: e-1"}},
		{"502", &httpapi.APIError{Operation: "list events", Method: http.MethodGet, StatusCode: 502, Attempts: 3, URL: url},
			diag.SeverityWarning, []string{"HTTP 502", "3 attempts"}},
		{"429", &httpapi.APIError{Operation: "list events", Method: http.MethodGet, StatusCode: 429, Throttled: true, URL: url},
			diag.SeverityWarning, []string{"HTTP 429", "limiting requests"}},
		{"a timeout", fmt.Errorf("list events: GET /rest/v1/events: %w", context.DeadlineExceeded),
			diag.SeverityWarning, []string{"timed out", "request_timeout"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			passes := tc.want == diag.SeverityWarning
			for _, r := range []planRead{read, required} {
				var diags diag.Diagnostics
				addPlanReadFailure(&diags, r, tc.err)
				if len(diags) != 1 {
					t.Fatalf("got %d diagnostics, want 1: %v", len(diags), diags)
				}
				d := diags[0]
				severity, summary, text, note := diag.SeverityError, r.error, r.needed, definiteNote
				switch {
				case passes && r.warning != "":
					severity, summary, text, note = diag.SeverityWarning, r.warning, r.skipped, passingNote
				case passes:
					note = passingNote
				}
				if d.Severity() != severity || d.Summary() != summary {
					t.Errorf("got %s %q, want %s %q", d.Severity(), d.Summary(), severity, summary)
				}
				for _, phrase := range append([]string{text, note}, tc.detail...) {
					if !strings.Contains(d.Detail(), phrase) {
						t.Errorf("the detail lacks %q:\n%s", phrase, d.Detail())
					}
				}
			}
		})
	}
}

// TestPlanReads_accountListing plans the creation of eventnotify_account_subscriptions while
// the account's listing fails: the plan never goes on without showing what the first apply
// deletes; a failure that may pass (500) says to plan again, a definite answer (403) that
// planning again will not help.
func TestPlanReads_accountListing(t *testing.T) {
	cases := []struct {
		status   int
		severity tfprotov6.DiagnosticSeverity
		summary  string
		detail   []string
	}{
		{http.StatusInternalServerError, tfprotov6.DiagnosticSeverityError, "Unable to list the subscriptions of account " + testAccount,
			[]string{"which of its subscriptions the first apply deletes", passingNote, "HTTP 500"}},
		{http.StatusForbidden, tfprotov6.DiagnosticSeverityError, "Unable to list the subscriptions of account " + testAccount,
			[]string{"which of its subscriptions the first apply deletes", definiteNote, "HTTP 403"}},
	}
	for _, tc := range cases {
		t.Run(http.StatusText(tc.status), func(t *testing.T) {
			m := newTestMock(t)
			m.InjectFault(mockserver.Fault{Method: http.MethodGet, Route: mockserver.RouteSubscriptions, Status: tc.status})
			p := newEventNamePlans(t, m)
			diags := p.plan(planRequest{typeName: accountSubscriptionsType, config: p.account(map[string]any{"a": "ATOM.STATUS"}, false)})
			if len(diags) != 1 || diags[0].Severity != tc.severity || diags[0].Summary != tc.summary {
				t.Fatalf("got %v, want one %s %q", diagnosticSet(diags), tc.severity, tc.summary)
			}
			for _, phrase := range tc.detail {
				if !strings.Contains(diags[0].Detail, phrase) {
					t.Errorf("the detail lacks %q:\n%s", phrase, diags[0].Detail)
				}
			}
		})
	}
}

// restrictedMock starts a mock whose password user may use testAccount only: any other
// account is refused with 403 when its JWT is generated, as the service refuses an account
// the user has no access to.
func restrictedMock(t *testing.T) *testMock {
	t.Helper()
	return fromHarness(t, testsupport.Start(t, mockserver.Config{Users: []mockserver.User{
		{Username: testUser, Password: testPassword, Accounts: []string{testAccount}},
	}}))
}

// TestAccPlanReads_wrongAccount runs the CLI with an account id the user has no access to: the
// plan fails (exit 1, not 2), each resource naming the cause and the account, and nothing is
// written. Regression test: the plan warned "Event names not checked" and exited 2, and the
// apply failed once per resource.
func TestAccPlanReads_wrongAccount(t *testing.T) {
	m := restrictedMock(t)
	w := newCLIWorkspace(t, m)
	w.write("main.tf", requiredProviders+subscriptionConfig(minimalArgs...)+
		acctConfig(acctEntry{key: "a", event: "ATOM.STATUS", level: "INFO"}))
	out, code := w.run([]string{envAccountID + "=acc-typo"}, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	if code != 1 {
		t.Fatalf("the plan exits %d, want 1:\n%s", code, out)
	}
	text := diagnosticText(out)
	for _, phrase := range []string{
		"Error: Event names cannot be checked: the events catalogue could not be read",
		"/auth/jwt/generate/acc-typo answered \"generate JWT\" with HTTP 403 Forbidden",
		`no access to this account ("acc-typo")`, "Check account_id (" + envAccountID + ")",
		"the plan stops here",
	} {
		if !strings.Contains(text, phrase) {
			t.Errorf("the plan does not say %q:\n%s", phrase, out)
		}
	}
	if strings.Contains(text, "Event names not checked") {
		t.Errorf("the plan still warns that the names were not checked:\n%s", out)
	}
	if n := m.writeRequests(); n != 0 {
		t.Errorf("the plan sent %d writes", n)
	}
}

// TestAccPlanReads_baseURLWithServicePath runs the CLI with EVENTNOTIFY_BASE_URL pasted with
// the service's path: the provider refuses it when it is configured, naming the variable and
// the value to use, and sends nothing.
func TestAccPlanReads_baseURLWithServicePath(t *testing.T) {
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	w.write("main.tf", requiredProviders+subscriptionConfig(minimalArgs...))
	out, code := w.run([]string{envBaseURL + "=" + m.URL + "/rest/v1"}, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	if code != 1 {
		t.Fatalf("the plan exits %d, want 1:\n%s", code, out)
	}
	text := diagnosticText(out)
	for _, phrase := range []string{
		"Invalid base_url", `ends with "/rest/v1"`, `use "` + m.URL + `" instead`,
		"from the " + envBaseURL + " environment variable", `argument "base_url"`,
	} {
		if !strings.Contains(text, phrase) {
			t.Errorf("the plan does not say %q:\n%s", phrase, out)
		}
	}
	if n := m.Count("", ""); n != 0 {
		t.Errorf("the refused configuration sent %d requests", n)
	}
}
