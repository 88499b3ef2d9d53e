package httpapi

import (
	"errors"
	"strings"
	"testing"
)

// TestCheckURL_neverQuotesUserinfo: whatever is wrong with a URL, parsed or not, its error
// never holds the password of its user information, and says what is wrong.
func TestCheckURL_neverQuotesUserinfo(t *testing.T) {
	t.Parallel()
	const secret = "S3cr%t-pw"
	cases := []struct {
		url, want string
	}{
		{"https://svc:" + secret + "@host", "not a valid URL"},                   // the case: a bad escape
		{"https://svc:S3cr/t-pw@host", "not a valid URL"},                        // a slash ends the authority early
		{"svc:" + secret + "@host", "must start with http:// or https://"},       // no scheme
		{"https://svc:S3cr@t-pw@host.example.com", "must not carry credentials"}, // "@" in the password
		{"ftp://svc:S3cr-pw@host", "must start with http:// or https://"},
		{"https://svc:S3cr-pw@host/?q=1", "must not carry credentials"},
		{" https://svc:S3cr-pw@host", "must not carry credentials"},
		{"http://svc:S3cr-pw@host.example.com", "must not carry credentials"},
		{"https://svc:S3cr-pw@", "has no host"},
	}
	for _, tc := range cases {
		err := CheckURL(tc.url)
		if err == nil {
			t.Errorf("%q accepted", tc.url)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %q does not say %q", tc.url, err, tc.want)
		}
		for _, part := range []string{"S3cr", "t-pw", "svc:"} {
			if strings.Contains(err.Error(), part) {
				t.Errorf("%q: error %q quotes the user information (%q)", tc.url, err, part)
			}
		}
		if !strings.Contains(err.Error(), hiddenUserinfo+"@") {
			t.Errorf("%q: error %q does not show where the user information was", tc.url, err)
		}
	}
}

// TestCheckURL_neverQuotesQuery: whatever is wrong with a URL, its error never holds its
// query or fragment, where a token may be (issue 29, item 9), and shows where it was.
func TestCheckURL_neverQuotesQuery(t *testing.T) {
	t.Parallel()
	const token = "Tok3n-s3cret"
	cases := []struct {
		url, want, shown string
	}{
		{"https://host.example/?access_token=" + token, "must not have a query or fragment", `"https://host.example/?***"`},
		{"https://host.example/#access_token=" + token, "must not have a query or fragment", `"https://host.example/#***"`},
		{"https://host.example/rest/v1/events?token=" + token, "must not have a query or fragment", "?***"},
		{"https://host.example/%zz?token=" + token, "not a valid URL", `"https://host.example/%zz?***"`},
		{"ftp://host.example/?token=" + token, "must start with http:// or https://", "?***"},
		{"http://host.example/?token=" + token, "must not have a query or fragment", "?***"},
		{"https://svc:pw@host.example/?token=" + token, "must not carry credentials", `"https://***@host.example/?***"`},
		{"https://host.example?a=1#token=" + token, "must not have a query or fragment", `"https://host.example?***"`},
		// An "@" after a "?" or "#": user information or query, the string does not say.
		{"https://host.example/?token=abc@" + token, "must not have a query or fragment", `"https://***"`},
		{"https://svc:" + token + "?x@host.example", "", `"https://***"`},
	}
	for _, tc := range cases {
		err := CheckURL(tc.url)
		if err == nil {
			t.Errorf("%q accepted", tc.url)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.shown) {
			t.Errorf("%q: error %q does not say %q and show %q", tc.url, err, tc.want, tc.shown)
		}
		if strings.Contains(err.Error(), token) || strings.Contains(err.Error(), "Tok3n") {
			t.Errorf("%q: error %q quotes the query", tc.url, err)
		}
	}
}

// TestCheckURL_plainHTTP: plain http is refused unless the host is this machine, where
// nothing crosses a network (the mock server).
func TestCheckURL_plainHTTP(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"http://127.0.0.1:8080", "http://127.3.4.5", "http://localhost", "http://LOCALHOST.:9/x",
		"http://[::1]:8080", "https://svc.example.com", "https://10.0.0.7"} {
		if err := CheckURL(u); err != nil {
			t.Errorf("%q refused: %v", u, err)
		}
	}
	for _, u := range []string{"http://svc.example.com", "http://10.0.0.7:8080", "http://[::2]", "http://localhost.example.com",
		"http://127.0.0.1.example.com", "http://0.0.0.0:8080", "http://mock:8080"} {
		err := CheckURL(u)
		if err == nil || !strings.Contains(err.Error(), "plain http://") || !strings.Contains(err.Error(), "use https://") {
			t.Errorf("%q: error %v, want a refusal of plain http", u, err)
		}
	}
}

// TestCheckURL_servicePaths: a base_url or auth_url that already holds a path the provider
// appends is refused with the URL to use instead; a gateway's own prefix stays in it, and a
// path that merely looks alike is accepted.
func TestCheckURL_servicePaths(t *testing.T) {
	t.Parallel()
	cases := []struct {
		url, path, suggested string
	}{
		{"https://svc.example.com/rest/v1", "/rest/v1", "https://svc.example.com"},
		{"https://svc.example.com/rest/v1/", "/rest/v1", "https://svc.example.com"},
		{"https://svc.example.com/REST/V1/events", "/REST/V1/events", "https://svc.example.com"},
		{"https://svc.example.com/rest/v1/accounts/acc/subscriptions", "/rest/v1/accounts/acc/subscriptions", "https://svc.example.com"},
		{"https://gw.example.com:8443/eventnotify/rest/v1", "/rest/v1", "https://gw.example.com:8443/eventnotify"},
		{"https://auth.example.com/auth/jwt", "/auth/jwt", "https://auth.example.com"},
		{"https://auth.example.com/auth/jwt/generate", "/auth/jwt/generate", "https://auth.example.com"},
		{"https://auth.example.com/auth/jwt/generate/my-account", "/auth/jwt/generate/my-account", "https://auth.example.com"},
		{"http://127.0.0.1:8080/rest/v1", "/rest/v1", "http://127.0.0.1:8080"},
	}
	for _, tc := range cases {
		err := CheckURL(tc.url)
		var pathErr *ServicePathError
		if !errors.As(err, &pathErr) {
			t.Errorf("%q: error %v, want a ServicePathError", tc.url, err)
			continue
		}
		if pathErr.Path != tc.path || pathErr.Suggested != tc.suggested {
			t.Errorf("%q: path %q, suggested %q; want %q, %q", tc.url, pathErr.Path, pathErr.Suggested, tc.path, tc.suggested)
		}
		if !strings.Contains(err.Error(), `use "`+tc.suggested+`" instead`) {
			t.Errorf("%q: error %q does not name the value to use", tc.url, err)
		}
	}
	for _, u := range []string{"https://svc.example.com", "https://svc.example.com/", "https://gw.example.com/eventnotify",
		"https://svc.example.com/rest", "https://svc.example.com/rest/v2", "https://svc.example.com/auth",
		"https://svc.example.com/restv1", "https://svc.example.com/v1/rest"} {
		if err := CheckURL(u); err != nil {
			t.Errorf("%q refused: %v", u, err)
		}
	}
}
