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
	"net/url"
	"strings"
	"testing"
	"unicode/utf16"

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
	t.Parallel()
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
			t.Parallel()
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

// echoedPassword holds characters that each writer escapes its own way: '/' (PHP: \/), a
// non-ASCII letter and one beyond U+FFFF (Python and PHP: \u00e9, a surrogate pair), and
// the ones Go and HTML escape.
const echoedPassword = hostilePassword + "é😀"

// writerEscape returns s as the inside of a JSON string written by a writer that escapes
// each character it names with esc, and leaves the others alone.
func writerEscape(s string, esc func(r rune) (string, bool)) string {
	var b strings.Builder
	for _, r := range s {
		if e, ok := esc(r); ok {
			b.WriteString(e)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// uEscape writes r as \u escapes (a surrogate pair beyond U+FFFF) with the given hex format.
func uEscape(r rune, hex string) string {
	if r > 0xffff {
		hi, lo := utf16.EncodeRune(r)
		return fmt.Sprintf(`\u`+hex+`\u`+hex, hi, lo)
	}
	return fmt.Sprintf(`\u`+hex, r)
}

var (
	// pythonJSON is json.dumps with its default ensure_ascii.
	pythonJSON = func(s string) string {
		return writerEscape(s, func(r rune) (string, bool) {
			switch {
			case r == '"' || r == '\\':
				return `\` + string(r), true
			case r > 0x7e:
				return uEscape(r, "%04x"), true
			}
			return "", false
		})
	}
	// phpJSON is json_encode with its default flags: '/' as \/ too.
	phpJSON = func(s string) string {
		return strings.ReplaceAll(pythonJSON(s), "/", `\/`)
	}
	// upperJSON is Go's escaping with upper-case hex: \u003C, \u0026, \u003E.
	upperJSON = func(s string) string {
		return writerEscape(s, func(r rune) (string, bool) {
			switch r {
			case '"', '\\':
				return `\` + string(r), true
			case '<', '>', '&', '\'':
				return uEscape(r, "%04X"), true
			}
			return "", false
		})
	}
	// htmlEntities writes the references Go's html package does not: &#x27; and &quot;.
	htmlEntities = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `'`, "&#x27;", `"`, "&quot;").Replace
)

// TestEchoedSecretsOtherEscapings: the auth endpoint refuses the password and quotes it in
// another writer's escaping (issue 38, item 1); a service redirects with it percent-encoded
// but for its '/'. The error and the log hold the marker where it was, and neither holds it.
func TestEchoedSecretsOtherEscapings(t *testing.T) {
	t.Parallel()
	echo := func(inner func(string) string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, http.StatusUnauthorized, `{"error":"Unauthorized","messages":["password `+inner(echoedPassword)+` is wrong"],`+
				`"path":"/auth?pw=`+inner(echoedPassword)+`","errorId":"`+inner(echoedPassword)+`"}`)
		}
	}
	tests := []struct {
		name    string
		jwt     http.HandlerFunc
		service http.HandlerFunc
	}{
		{"Python json.dumps", echo(pythonJSON), nil},
		{"PHP json_encode", echo(phpJSON), nil},
		{"upper-case \\u003C", echo(upperJSON), nil},
		{"HTML entities in JSON", echo(htmlEntities), nil},
		{"HTML page", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, "<html><body><p>password %s is wrong</p></body></html>", htmlEntities(echoedPassword))
		}, nil},
		{"plain text in PHP's escaping", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, "password %s is wrong", phpJSON(echoedPassword))
		}, nil},
		{"redirect percent-encoding all but /", nil, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", "https://elsewhere.example/login?pw="+
				strings.ReplaceAll(url.QueryEscape(echoedPassword), "%2F", "/"))
			w.WriteHeader(http.StatusFound)
		}},
		{"service error in PHP's escaping", nil, echo(phpJSON)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			service := tc.service
			if service == nil {
				service = func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, `[]`) }
			}
			f := newFake(t, service)
			f.set(func(f *fakeAPI) { f.acceptPass, f.jwtHandler = echoedPassword, tc.jwt })
			c := f.newClient(func(cfg *Config) { cfg.Password, cfg.MaxRetries = echoedPassword, 0 })
			var buf bytes.Buffer
			_, err := c.ListEvents(tflogtest.RootLogger(context.Background(), &buf))
			var apiErr *httpapi.APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("error %v is not an *APIError", err)
			}
			text := strings.Join([]string{err.Error(), apiErr.RawBody, strings.Join(apiErr.Messages, " "), apiErr.Path,
				apiErr.ErrorID, apiErr.Location}, "\n")
			if !strings.Contains(err.Error(), httpapi.RedactedMarker) {
				t.Errorf("the error shows no %s: %s", httpapi.RedactedMarker, err)
			}
			escapings := map[string]string{"password": echoedPassword, "password (Python)": pythonJSON(echoedPassword),
				"password (PHP)": phpJSON(echoedPassword), "password (upper-case hex)": upperJSON(echoedPassword),
				"password (HTML)": htmlEntities(echoedPassword), "password's ASCII head": "sec ret'>+/%"}
			noSecrets(t, "the error", text, escapings)
			for _, s := range logStrings(t, &buf) {
				noSecrets(t, "the log", s, escapings)
			}
		})
	}
}

// TestShortSecretsNotSpelled: a one-letter password and a two-letter OTP (issue 38, item 8)
// are masked in the TRACE log only where a whole value is one of them: the request's URL,
// which holds both letters, is logged as it is, and no field or message is masked in part.
func TestShortSecretsNotSpelled(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, `[]`) })
	f.set(func(f *fakeAPI) { f.acceptPass, f.requireOTP = "p", "ht" })
	c := f.newClient(func(cfg *Config) { cfg.Password, cfg.OTP = "p", "ht" })
	var buf bytes.Buffer
	if _, err := c.ListEvents(tflogtest.RootLogger(context.Background(), &buf)); err != nil {
		t.Fatal(err)
	}
	logged := logStrings(t, &buf)
	urlSeen := false
	for _, s := range logged {
		_, v, _ := strings.Cut(s, "=")
		if strings.Contains(v, "***") && v != "***" {
			t.Errorf("a log value is masked in part, which spells a secret: %q", s)
		}
		urlSeen = urlSeen || strings.Contains(v, f.srv.URL+"/")
	}
	if !urlSeen {
		t.Errorf("no log entry holds the request's URL %s as it is:\n%s", f.srv.URL, strings.Join(logged, "\n"))
	}
}

// TestEchoedBearerInBulkMessage: a 207 answer whose item message quotes the request's bearer
// JWT with every character \u-escaped (issue 38, item 1: every decoded string) shows the
// marker in its place.
func TestEchoedBearerInBulkMessage(t *testing.T) {
	t.Parallel()
	id := "00000000-0000-4000-8000-000000000001"
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		token := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		writeJSON(w, 207, `{"operationStatuses":[{"subscriptionId":"`+id+`","httpEquivalentCode":401,"message":"token `+
			writerEscape(token, func(r rune) (string, bool) { return uEscape(r, "%04X"), true })+` expired"}]}`)
	})
	statuses, err := f.newClient(nil).BulkDeleteSubscriptions(context.Background(), "", []string{id})
	if err != nil || len(statuses) != 1 {
		t.Fatalf("BulkDeleteSubscriptions: %v, %v", statuses, err)
	}
	var bearer string
	for _, r := range f.api() {
		if token, ok := strings.CutPrefix(r.Auth, "Bearer "); ok {
			bearer = token
		}
	}
	if bearer == "" {
		t.Fatal("no request carried a bearer JWT: the test would prove nothing")
	}
	if m := statuses[0].Message; strings.Contains(m, bearer) || m != "token "+httpapi.RedactedMarker+" expired" {
		t.Errorf("message %q, want the bearer redacted", m)
	}
}
