package client

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// The tests of this file put the client behind an auth endpoint and a service that repeat
// the request's credentials in their answers (issue 29, item 2): the error and the log
// hold httpapi.RedactedMarker where the credential was.

// logStrings decodes a tflogtest buffer and returns every string value of every entry.
func logStrings(t *testing.T, buf *bytes.Buffer) []string {
	t.Helper()
	entries, err := tflogtest.MultilineJSONDecode(buf)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		for k, v := range e {
			if s, ok := v.(string); ok {
				out = append(out, k+"="+s)
			}
		}
	}
	return out
}

// noSecrets fails when s holds one of the secrets.
func noSecrets(t *testing.T, what, s string, secrets map[string]string) {
	t.Helper()
	for name, secret := range secrets {
		if strings.Contains(s, secret) {
			t.Errorf("%s holds the %s: %q", what, name, s)
		}
	}
}

func TestEchoedSecretsRedacted(t *testing.T) {
	basic := base64.StdEncoding.EncodeToString([]byte(testUser + ":" + hostilePassword))
	// echoJSON and echoHTML answer what they were sent: the Authorization header, and the
	// password and OTP as the endpoint would have read them.
	echoJSON := func(status int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			body, err := json.Marshal(map[string]any{"error": "rejected", "messages": []string{
				"Authorization: " + r.Header.Get("Authorization") + "\x1b[2K",
				"password " + hostilePassword + " is wrong", "OTP " + r.Header.Get("X-Platform-OTP") + " expired"}})
			if err != nil {
				t.Error(err)
			}
			writeJSON(w, status, string(body))
		}
	}
	echoHTML := func(status int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(status)
			fmt.Fprintf(w, "<html><body><pre>%s\n%s\n%s</pre>\x1b]0;pwned\x07</body></html>",
				html.EscapeString(r.Header.Get("Authorization")), html.EscapeString(hostilePassword),
				html.EscapeString(r.Header.Get("X-Platform-OTP")))
		}
	}
	tests := []struct {
		name    string
		jwt     http.HandlerFunc // the JWT endpoint's answer; nil: the fake's
		service http.HandlerFunc
		is      error // a sentinel the error still matches
	}{
		{"JWT endpoint echoes in JSON (401)", echoJSON(http.StatusUnauthorized), nil, httpapi.ErrUnauthorized},
		{"JWT endpoint echoes in HTML (403)", echoHTML(http.StatusForbidden), nil, httpapi.ErrForbidden},
		{"service echoes the bearer in JSON (401)", nil, echoJSON(http.StatusUnauthorized), httpapi.ErrUnauthorized},
		{"service echoes the bearer in HTML (502)", nil, echoHTML(http.StatusBadGateway), nil},
		{"service redirects with the bearer in the query", nil, func(w http.ResponseWriter, r *http.Request) {
			token := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
			http.Redirect(w, r, "https://elsewhere.example/login?token="+token+"&pw="+hostilePassword, http.StatusFound)
		}, httpapi.ErrRedirect},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			service := tc.service
			if service == nil {
				service = func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, `[]`) }
			}
			f := newFake(t, service)
			f.set(func(f *fakeAPI) {
				f.acceptPass, f.requireOTP, f.jwtHandler = hostilePassword, testOTP, tc.jwt
			})
			c := f.newClient(func(cfg *Config) { cfg.Password, cfg.OTP, cfg.MaxRetries = hostilePassword, testOTP, 0 })
			var buf bytes.Buffer
			_, err := c.ListEvents(tflogtest.RootLogger(context.Background(), &buf))
			var apiErr *httpapi.APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("error %v is not an *APIError", err)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v does not match %v", err, tc.is)
			}
			secrets := map[string]string{"password": hostilePassword, "OTP": testOTP, "Basic value": basic}
			for i, r := range f.api() {
				if token, ok := strings.CutPrefix(r.Auth, "Bearer "); ok {
					secrets[fmt.Sprintf("bearer JWT %d", i)] = token
				}
			}
			if tc.service != nil && len(secrets) == 3 {
				t.Fatal("no service request carried a bearer JWT: the test would prove nothing")
			}
			text := err.Error() + " " + apiErr.RawBody + " " + strings.Join(apiErr.Messages, " ") + " " + apiErr.Location
			if !strings.Contains(text, httpapi.RedactedMarker) {
				t.Errorf("the error shows no %s: %s", httpapi.RedactedMarker, text)
			}
			noSecrets(t, "the error", text, secrets)
			noUnsafeText(t, "the error", text)
			for _, s := range logStrings(t, &buf) {
				noSecrets(t, "the log", s, secrets)
				noUnsafeText(t, "the log", s)
			}
		})
	}
}
