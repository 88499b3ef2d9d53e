package httpapi

import (
	"errors"
	"strings"
	"testing"
)

// TestAPIErrorText covers the advice and the formatting of Error().
func TestAPIErrorText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  *APIError
		want []string
		not  []string
	}{
		// Facts only: the advice for each status is the provider's (see its statusHint).
		{&APIError{Operation: "generate JWT", StatusCode: 401, JWTEndpoint: true}, []string{"generate JWT: HTTP 401 Unauthorized"}, []string{". "}},
		{&APIError{Operation: "list events", StatusCode: 401, PreIssuedJWT: true}, []string{"list events: HTTP 401 Unauthorized"}, []string{". "}},
		{&APIError{Operation: "read subscription", StatusCode: 403, AccountID: "acc-9"}, []string{"read subscription: HTTP 403 Forbidden"}, []string{". "}},
		{&APIError{Operation: "x", StatusCode: 301, Location: "https://new.example.com/rest/v1/events"}, []string{"x: HTTP 301 Moved Permanently (redirected to https://new.example.com/rest/v1/events, not followed)"}, nil},
		{&APIError{StatusCode: 418}, []string{"request: HTTP 418 I'm a teapot"}, []string{". "}},
		{&APIError{Operation: "x", StatusCode: 599, RawBody: "a\n\n   b"}, []string{"x: HTTP 599: response body: a b"}, nil},
		{&APIError{Operation: "x", StatusCode: 503, Attempts: 3}, []string{"x: HTTP 503 Service Unavailable (after 3 attempts)"}, nil},
	}
	for _, tc := range tests {
		got := tc.err.Error()
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%q does not contain %q", got, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(got, n) {
				t.Errorf("%q contains %q", got, n)
			}
		}
	}
	if (&APIError{StatusCode: 404}).Is(errors.New("not found")) {
		t.Error("Is matched a foreign error")
	}
}
