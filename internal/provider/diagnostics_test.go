package provider

import (
	"errors"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// TestClientErrorDetail: the advice for each kind of failed answer, composed
// from the facts the client reports.
func TestClientErrorDetail(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want []string
		not  []string
	}{
		{"401 of the JWT endpoint", &client.APIError{Operation: "generate JWT", StatusCode: 401, JWTEndpoint: true},
			[]string{"Check username with password or api_token", envPassword, "PLATFORM_TOKEN.<username>", envOTP}, []string{"pre-issued"}},
		{"401 with a one-time password", &client.APIError{Operation: "generate JWT", StatusCode: 401, JWTEndpoint: true, OTPSent: true},
			[]string{"may have expired or been used", "api_token (" + envAPIToken + ")", "unattended"}, nil},
		{"401 with a pre-issued JWT", &client.APIError{Operation: "list events", StatusCode: 401, PreIssuedJWT: true},
			[]string{"pre-issued jwt (" + envJWT + ") was rejected", "has not expired"}, []string{"one-time password"}},
		{"403 names the account", &client.APIError{Operation: "read subscription", StatusCode: 403, AccountID: "acc-9"},
			[]string{`no access to this account ("acc-9")`, envAccountID}, nil},
		{"the service's 404", &client.APIError{Operation: "read subscription", StatusCode: 404, ErrorText: "Entity not found", URL: "https://svc/rest/v1/accounts/a/subscriptions/s"},
			[]string{"The address https://svc/rest/v1/accounts/a/subscriptions/s answered", "does not exist"}, []string{"base_url"}},
		{"a gateway's 404", &client.APIError{Operation: "list subscriptions", StatusCode: 404, Messages: []string{"Not Found"}, URL: "https://gw/rest/v1/accounts/a/subscriptions"},
			[]string{"The address https://gw/rest/v1/accounts/a/subscriptions answered", "not the service's own answer", "state is unchanged", "base_url (" + envBaseURL + ")"}, nil},
		{"a 404 of the JWT endpoint", &client.APIError{Operation: "generate JWT", StatusCode: 404, JWTEndpoint: true, URL: "https://gw/auth/jwt/generate/a"},
			[]string{"not the service's own answer", "auth_url (" + envAuthURL + ")"}, nil},
		{"a redirect", &client.APIError{Operation: "delete subscription", StatusCode: 301, Location: "https://new/rest/v1/accounts/a/subscriptions/s"},
			[]string{"redirects to https://new/rest/v1/accounts/a/subscriptions/s", "never follows redirects", "nothing was changed", "base_url (" + envBaseURL + ")"}, nil},
		{"a 5xx on a write", &client.APIError{Operation: "update subscription", Method: "PUT", StatusCode: 502, Attempts: 3},
			[]string{"may or may not have taken effect", "terraform plan", "3 attempts"}, []string{"Try again later"}},
		{"a 5xx on a read", &client.APIError{Operation: "list events", Method: "GET", StatusCode: 500, ErrorID: "e-1"},
			[]string{"Try again later", "with the error ID", "Error ID: e-1"}, nil},
		{"a lost create with candidates", &client.UnknownOutcomeError{Operation: "create subscriptions", AccountID: "acc-1",
			Candidates: []string{"id-1", "id-2"}, Missing: 1, Cause: errors.New("HTTP 504")},
			[]string{"was lost or unreadable (HTTP 504)", "  - id-1\n  - id-2", "terraform import eventnotify_subscription.<name> acc-1/<id>"}, []string{"try again", "Try again"}},
		{"a lost create that could not be read", &client.UnknownOutcomeError{Operation: "create subscriptions", AccountID: "acc-1",
			Missing: 1, Cause: errors.New("HTTP 504"), ReadErr: errors.New("HTTP 500")},
			[]string{"Reading the account to find out failed too: HTTP 500", "data source eventnotify_subscriptions", "terraform import"}, []string{"try again", "Try again"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := clientErrorDetail(tc.err)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("detail lacks %q:\n%s", w, got)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("detail has %q:\n%s", n, got)
				}
			}
		})
	}
}
