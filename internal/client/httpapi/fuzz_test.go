package httpapi

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzErrorBody builds the error of any failed answer: no panic, a one-line
// summary that names the operation and the status, the sentinels matching the
// status, and a raw excerpt (a proxy's page) that is short valid UTF-8.
func FuzzErrorBody(f *testing.F) {
	for _, b := range []string{
		`{"error":"Bad Request","messages":["Must provide a valid eventName"],"path":"/rest/v1/accounts/a/subscriptions"}`,
		`{"error":"Internal server error","messages":[],"path":"/p","errorId":"5f0c7a2e-93d1-4b8e-a6f4-0d2c9e1b7a35"}`,
		`{"error":"Forbidden","messages":"Access Denied"}`, `{"message":"only a message"}`, `{"messages":[1,null,{"a":1}]}`,
		`<html><body><h1>502 Bad Gateway</h1></body></html>`, ``, `null`, "\xff\xfe\x00", strings.Repeat("é", 600),
	} {
		for _, status := range []int{400, 401, 403, 404, 429, 500, 502, 503} {
			f.Add(status, []byte(b))
		}
	}
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		if status < 100 || status > 999 {
			return
		}
		e := newAPIError("list events", http.MethodGet, "/rest/v1/events", status, body, redactor{})
		msg := e.Error()
		if !strings.HasPrefix(msg, "list events: HTTP "+strconv.Itoa(status)) {
			t.Fatalf("message %q does not start with the operation and status", msg)
		}
		if len(e.RawBody) > RawBodyLimit || !utf8.ValidString(e.RawBody) {
			t.Fatalf("raw body excerpt of %d bytes, valid UTF-8 %t", len(e.RawBody), utf8.ValidString(e.RawBody))
		}
		for what, text := range map[string]string{"Error()": msg, "ErrorText": e.ErrorText, "Path": e.Path, "ErrorID": e.ErrorID,
			"RawBody": e.RawBody, "Messages": strings.Join(e.Messages, "")} {
			if HasUnsafeRune(text) {
				t.Fatalf("%s holds a control, format or separator character: %q", what, text)
			}
		}
		if len(e.Messages) > MaxServiceMessages {
			t.Fatalf("%d messages kept", len(e.Messages))
		}
		for _, m := range e.Messages {
			if len(m) > MaxServiceTextBytes {
				t.Fatalf("a message of %d bytes kept", len(m))
			}
		}
		if e.RawBody != "" && (e.ErrorText != "" || len(e.Messages) > 0) {
			t.Fatalf("both a raw excerpt and the service's error shape: %+v", e)
		}
		for sentinel, want := range map[error]int{ErrUnauthorized: 401, ErrForbidden: 403} {
			if e.Is(sentinel) != (status == want) {
				t.Fatalf("HTTP %d matches %v: %t", status, sentinel, e.Is(sentinel))
			}
		}
		// Only the service's own 404 (its error shape with "Entity not found") says that
		// an entity is gone; no body, a proxy's or a router's 404 must not.
		if e.Is(ErrNotFound) && (status != 404 || e.RawBody != "" || !strings.EqualFold(e.ErrorText, entityNotFound)) {
			t.Fatalf("HTTP %d with body %q matches ErrNotFound", status, body)
		}
		if status == 404 && len(strings.TrimSpace(string(body))) == 0 && e.Is(ErrNotFound) {
			t.Fatal("a 404 without a body matches ErrNotFound")
		}
	})
}

// FuzzTokenBody reads any body of the JWT endpoint: no panic; a token read is
// one bearer value (no white space, quotes or brackets) whose expiry is after
// the fetch, with a refresh margin inside its lifetime.
func FuzzTokenBody(f *testing.F) {
	for _, b := range []string{
		"eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjE3MDAwMDAwMDB9.c2ln", `"eyJ.a.b"`, `{"token":"t"}`, `{"jwt":"t"}`, `{"access_token":"Bearer t"}`,
		`{"token":{"nested":"x"}}`, "\xef\xbb\xbftoken\n", "Bearer  ", `{"token":""}`, "<html>", "a b",
		"eyJhbGciOiJub25lIn0.eyJleHAiOjEsImlhdCI6Mn0.", "eyJhbGciOiJub25lIn0.eyJleHAiOiIxZTMwMCJ9.",
		"tok\x1b[2Jen", "tok\u202een", `{"token":"a\u0085b"}`, strings.Repeat("a", 20000),
	} {
		f.Add([]byte(b))
	}
	now := time.Unix(1700000000, 0)
	f.Fuzz(func(t *testing.T, body []byte) {
		token, err := parseTokenBody(body)
		if err != nil {
			if token != "" {
				t.Fatalf("token %q with error %v", token, err)
			}
			return
		}
		if token == "" || strings.ContainsAny(token, " \t\r\n\"'<>{}[]") || HasUnsafeRune(token) || len(token) > MaxTokenBytes {
			t.Fatalf("token %q is not one bearer value", token)
		}
		expiresAt, lifetime := tokenExpiry(token, now)
		if !expiresAt.After(now) || lifetime <= 0 {
			t.Fatalf("token %q expires at %v (lifetime %v), not after the fetch at %v", token, expiresAt, lifetime, now)
		}
		if m := refreshMargin(lifetime); m < 0 || m > lifetime || m > maxRefreshMargin {
			t.Fatalf("refresh margin %v for a lifetime of %v", m, lifetime)
		}
	})
}

// malformedBodies are answers that neither the JWT endpoint's decoder nor the error decoder may
// panic on (package client runs its own decoders over the same list, in its wire_test.go).
var malformedBodies = []string{
	"", " ", "{", "}", "[", "]", "[{", "null", "true", "42", `"str"`, "<html><body>502</body></html>",
	`{"subscriptions":{}}`, `{"subscriptions":[1,2]}`, `{"subscription":[]}`, `{"subscription":"x"}`,
	`{"paginationMetadata":"x"}`, `{"paginationMetadata":{"totalPages":"many"}}`, `{"subscriptions":[null]}`,
	`{"operationStatuses":[{"httpEquivalentCode":"x"}]}`, `{"data":null}`, `{"data":{"eventStreamsSubscriptionCreate":[]}}`,
	`{"data":{"eventStreamsSubscriptionCreate":{"topic":{"environment":"x"}}}}`, `[null,{"name":null},{"eventName":1}]`,
	`{"a":[1],"b":[2]}`, `{"a":{"b":{"c":[]}}}`, `{"error":`, `{"error":"x","messages":[1,null,{"a":1}]}`,
	"\x00\xff\xfe", `{"token":{"nested":"x"}}`, `{"subscriptionId":"a","createdDate":1e400}`,
}

// TestMalformedBodiesNoPanic runs the token and error decoders over malformed input; the error
// keeps at most RawBodyLimit bytes of a body.
func TestMalformedBodiesNoPanic(t *testing.T) {
	t.Parallel()
	for _, body := range malformedBodies {
		b := []byte(body)
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("panic on %q: %v", b, r)
				}
			}()
			_, _ = parseTokenBody(b)
			e := newAPIError("op", "GET", "/p", 502, b, redactor{})
			_ = e.Error()
			if len(e.RawBody) > RawBodyLimit {
				t.Errorf("RawBody of %d bytes", len(e.RawBody))
			}
		}()
	}
}
