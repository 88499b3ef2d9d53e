package provider

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
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
		{"401 of the JWT endpoint", &httpapi.APIError{Operation: "generate JWT", StatusCode: 401, JWTEndpoint: true},
			[]string{"Check username with password or api_token", envPassword, "PLATFORM_TOKEN.<username>", envOTP}, []string{"pre-issued"}},
		{"401 with a one-time password", &httpapi.APIError{Operation: "generate JWT", StatusCode: 401, JWTEndpoint: true, OTPSent: true},
			[]string{"may have expired or been used", "api_token (" + envAPIToken + ")", "unattended"}, nil},
		{"401 with a pre-issued JWT", &httpapi.APIError{Operation: "list events", StatusCode: 401, PreIssuedJWT: true},
			[]string{"pre-issued jwt (" + envJWT + ") was rejected", "has not expired"}, []string{"one-time password"}},
		{"403 names the account", &httpapi.APIError{Operation: "read subscription", StatusCode: 403, AccountID: "acc-9"},
			[]string{`no access to this account ("acc-9")`, envAccountID}, nil},
		{"the service's 404", &httpapi.APIError{Operation: "read subscription", StatusCode: 404, ErrorText: "Entity not found", URL: "https://svc/rest/v1/accounts/a/subscriptions/s"},
			[]string{"The address https://svc/rest/v1/accounts/a/subscriptions/s answered", "does not exist"}, []string{"base_url"}},
		{"a gateway's 404", &httpapi.APIError{Operation: "list subscriptions", StatusCode: 404, Messages: []string{"Not Found"}, URL: "https://gw/rest/v1/accounts/a/subscriptions"},
			[]string{"The address https://gw/rest/v1/accounts/a/subscriptions answered", "not the service's own answer", "state is unchanged", "base_url (" + envBaseURL + ")"}, nil},
		{"a 404 of the JWT endpoint", &httpapi.APIError{Operation: "generate JWT", StatusCode: 404, JWTEndpoint: true, URL: "https://gw/auth/jwt/generate/a"},
			[]string{"not the service's own answer", "auth_url (" + envAuthURL + ")"}, nil},
		{"a redirect", &httpapi.APIError{Operation: "delete subscription", StatusCode: 301, Location: "https://new/rest/v1/accounts/a/subscriptions/s"},
			[]string{"redirects to https://new/rest/v1/accounts/a/subscriptions/s", "never follows redirects", "nothing was changed", "base_url (" + envBaseURL + ")"}, nil},
		{"a 5xx on a write", &httpapi.APIError{Operation: "update subscription", Method: "PUT", StatusCode: 502, Attempts: 3},
			[]string{"may or may not have taken effect", "terraform plan", "3 attempts"}, []string{"Try again later"}},
		{"a 5xx on a read", &httpapi.APIError{Operation: "list events", Method: "GET", StatusCode: 500, ErrorID: "e-1"},
			[]string{"Try again later", "with the error ID", "Error ID: e-1"}, nil},
		{"a lost create with candidates", &client.UnknownOutcomeError{Operation: "create subscriptions", AccountID: "acc-1",
			Candidates: []string{"id-1", "id-2"}, Missing: 1, Cause: errors.New("HTTP 504")},
			[]string{"was lost or unreadable (HTTP 504)", "  - id-1\n  - id-2", "terraform import eventnotify_subscription.<name> acc-1/<id>",
				// A candidate may be another run's (issue 37 item 8): how to check, and what re-running does.
				"A candidate may be held by another configuration: another Terraform run or provider configuration",
				`terraform state list and terraform state show in the other configurations that manage account "acc-1"`,
				"created_date (data source eventnotify_subscription", "Import the one that no other state holds",
				"Applying again without importing one creates another copy"},
			[]string{"try again", "Try again"}},
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

// TestUnknownOutcomeScopeDetail: the lost create of an account or topic resource says that
// nothing is lost track of, and, when there are candidates, that one may be another
// configuration's, how to check, and what the next apply does with them.
func TestUnknownOutcomeScopeDetail(t *testing.T) {
	withCandidates := &client.UnknownOutcomeError{Operation: "create subscriptions", AccountID: "acc-1",
		Candidates: []string{"id-1", "id-2"}, Cause: errors.New("HTTP 504")}
	heldElsewhere := []string{"A candidate may be held by another configuration",
		`terraform state list and terraform state show in the other configurations that manage account "acc-1"`,
		"created_date", "Terraform marks the resource tainted", "deletes every subscription the refresh reads into it",
		"gives an entry a candidate of its content", "left holding a deleted id"}
	for _, tc := range []struct {
		name  string
		scope subscriptionScope
		err   *client.UnknownOutcomeError
		want  []string
		not   []string
	}{
		{"account, candidates", subscriptionScope{}, withCandidates, append([]string{"may be what the request created: id-1, id-2",
			"every subscription of the account", "manage the same account: keep one holder"}, heldElsewhere...), nil},
		{"topic, candidates", topicScope("env-1", "orders"), withCandidates, append([]string{"every subscription of the topic",
			"manage the same topic: keep one holder"}, heldElsewhere...), nil},
		{"account, no candidate", subscriptionScope{}, &client.UnknownOutcomeError{Operation: "create subscriptions",
			AccountID: "acc-1", Cause: errors.New("HTTP 504")}, []string{"Nothing is lost track of"}, heldElsewhere},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := unknownOutcomeScopeDetail(tc.scope, tc.err)
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

// TestCreateWarning: a create that succeeded with a doubt is a warning that names the
// subscription and says what to check; any other error is not a warning. The unknown outcome
// without a Date header states its two-minute window.
func TestCreateWarning(t *testing.T) {
	cause := errors.New("HTTP 502 Bad Gateway")
	tests := []struct {
		name   string
		err    error
		ok     bool
		want   []string
		detail func(error) string
	}{
		{"late adoption", &client.LateAdoptionWarning{AccountID: "acc-1", SubscriptionID: "sub-9", CreatedDate: 1_790_000_000_000, WindowEnd: 1_789_999_990_000},
			true, []string{"sub-9", "acc-1", "2026-09-21T", "another Terraform run", "terraform state list", "terraform state rm"}, nil},
		{"created again", &client.RecreatedWarning{AccountID: "acc-1", SubscriptionID: "sub-7", Cause: cause},
			true, []string{"sub-7", "HTTP 502", "may yet create a copy", "eventnotify_subscriptions"}, nil},
		{"another error", cause, false, nil, nil},
		{"unknown outcome without a Date header", &client.UnknownOutcomeError{Operation: "create subscriptions", AccountID: "acc-1",
			Candidates: []string{"sub-3"}, ClockUnknown: true, Cause: cause}, false,
			[]string{"sub-3", "two minutes before the request was sent to two minutes after", "no Date header"},
			func(err error) string {
				var u *client.UnknownOutcomeError
				errors.As(err, &u)
				return unknownOutcomeDetail(u)
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			summary, detail, ok := createWarning(tt.err, "")
			if ok != tt.ok || (ok && summary == "") {
				t.Fatalf("createWarning(%v) = %q, %t; want a warning: %t", tt.err, summary, ok, tt.ok)
			}
			if tt.detail != nil {
				detail = tt.detail(tt.err)
			}
			for _, w := range tt.want {
				if !strings.Contains(detail, w) {
					t.Errorf("detail does not say %q:\n%s", w, detail)
				}
			}
		})
	}
}

// TestClientErrorDetail_tryAgain: the advice says to try again only after a failure that
// another attempt may fix (client.Transient); after a definite one it says what to change.
func TestClientErrorDetail_tryAgain(t *testing.T) {
	get := func(err error) error {
		return fmt.Errorf("list events: GET /rest/v1/events: %w",
			&url.Error{Op: "Get", URL: "https://eventnotify.example.com/rest/v1/events", Err: err})
	}
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	for _, tc := range []struct {
		name      string
		err       error
		transient bool
		want      []string
	}{
		{"connection refused", get(refused), true, []string{"connection refused", "reach the service, then try again"}},
		{"no such host", get(&net.DNSError{Err: "no such host", Name: "evntnotify.example.com", IsNotFound: true}), false,
			[]string{"no such host", "Trying again unchanged fails the same way", "base_url's or auth_url's: " + envBaseURL}},
		{"https to a plain http server", get(http.ErrSchemeMismatch), false, []string{"fails the same way", envBaseURL}},
		{"an id the client refuses", httpapi.NewIDError(`account id "a/b" holds a "/"`), false,
			[]string{`"a/b"`, "correct what the error names"}},
		{"a timeout", fmt.Errorf("list events: %w", context.DeadlineExceeded), true, []string{"request_timeout", "try again"}},
		{"cancelled", fmt.Errorf("list events: %w", context.Canceled), false, []string{"cancelled"}},
		{"a 400", &httpapi.APIError{Operation: "create subscriptions", Method: "POST", StatusCode: 400, Messages: []string{"logLevel is invalid"}},
			false, []string{"correct the values the messages name"}},
		{"a 403", &httpapi.APIError{Operation: "list subscriptions", Method: "GET", StatusCode: 403, AccountID: "acc-9"}, false,
			[]string{"Check account_id"}},
		{"a 429", &httpapi.APIError{Operation: "list events", Method: "GET", StatusCode: 429}, true, []string{"and try again"}},
		{"a 500 on a read", &httpapi.APIError{Operation: "list events", Method: "GET", StatusCode: 500}, true, []string{"Try again later"}},
		{"a listing that kept changing", &client.IncompleteListingError{AccountID: "acc-1"}, true, []string{"try again once it is not"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := client.Transient(tc.err); got != tc.transient {
				t.Fatalf("client.Transient = %t, want %t: the case is not the kind it names", got, tc.transient)
			}
			got := clientErrorDetail(tc.err)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("detail lacks %q:\n%s", w, got)
				}
			}
			if !tc.transient && strings.Contains(strings.ToLower(got), "try again") {
				t.Errorf("the detail of a failure that another attempt cannot fix advises trying again:\n%s", got)
			}
		})
	}
}
