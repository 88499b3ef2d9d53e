package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// echoedPassword holds a slash (PHP writes \/), a non-ASCII letter (Python writes \u00e9),
// characters that Go and HTML escape (<, ', ") and ones that URLs escape (+, =).
const echoedPassword = `tok/AbC+123=é<'"`

// TestRedactorEscapings: a secret the other side echoes in another writer's escaping (issue
// 38, item 1) is redacted in every decoded string of an error body, in a body that is not the
// error shape and in a Location: the marker stands where it was, and neither the text nor
// anything it decodes to holds it.
func TestRedactorEscapings(t *testing.T) {
	t.Parallel()
	const token = `tok/AbC+123=` // a plain ASCII API token, as PHP writes it: tok\/AbC+123=
	tests := []struct {
		name, body string
		secret     string
	}{
		{"Python json.dumps (\\u00e9) in messages", `{"error": "Unauthorized", "messages": ["password tok/AbC+123=\u00e9<'\" rejected"]}`, echoedPassword},
		{"PHP json_encode (\\/) in messages", `{"error":"Unauthorized","messages":["password tok\/AbC+123=\u00e9<'\" rejected"]}`, echoedPassword},
		{"PHP json_encode of an API token", `{"error":"Unauthorized","messages":["token tok\/AbC+123= rejected"]}`, token},
		{"upper-case \\u003C in messages", `{"error":"Unauthorized","messages":["password tok\/AbC+123=\u00E9\u003C\u0027\u0022 rejected"]}`, echoedPassword},
		{"HTML entities in messages", `{"error":"Unauthorized","messages":["password tok/AbC+123=&eacute;&lt;&#x27;&quot; rejected"]}`, echoedPassword},
		{"decimal HTML entities in error", `{"error":"password tok&#47;AbC&#43;123&#61;&#233;&#60;&#39;&#34;"}`, echoedPassword},
		{"percent-encoding keeping / in path", `{"error":"Unauthorized","path":"/login?pw=tok/AbC%2B123%3D%C3%A9%3C%27%22"}`, echoedPassword},
		{"escaped in errorId", `{"error":"Internal server error","errorId":"tok\/AbC+123\u003d"}`, token},
		{"escaped in a message member", `{"message":"token tok\u002fAbC+123="}`, token},
		{"escaped in messages as one string", `{"error":"x","messages":"token tok\/AbC+123="}`, token},
		{"JSON entities in HTML entities", `{"error":"x","messages":["tok\/AbC\u0026#43;123="]}`, token},
		{"JSON that is not the error shape", `{"detail":"password tok\/AbC+123=\u00e9\u003c'\" rejected"}`, echoedPassword},
		{"HTML page", `<html><body><p>password tok/AbC+123=&eacute;&lt;&#x27;&quot; rejected</p></body></html>`, echoedPassword},
		{"plain text with JSON escapes", `password tok\/AbC+123=\u00e9\u003c'\" rejected`, echoedPassword},
		{"plain text, percent-encoded with a stray %", `100% wrong: tok/AbC%2B123%3D`, token},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			red := newRedactor(tt.secret, testOTP)
			e := newAPIError("generate JWT", http.MethodGet, "/auth/jwt/generate/a", http.StatusUnauthorized, []byte(tt.body), red)
			fields := map[string]string{"Error()": e.Error(), "ErrorText": e.ErrorText, "Path": e.Path, "ErrorID": e.ErrorID,
				"RawBody": e.RawBody, "Messages": strings.Join(e.Messages, "\n"), "logged body": string(red.bytes([]byte(tt.body)))}
			shown := ""
			for what, text := range fields {
				revealsNo(t, what, text, tt.secret)
				shown += text
			}
			if !strings.Contains(shown, RedactedMarker) {
				t.Errorf("no field shows %s: %v", RedactedMarker, fields)
			}
		})
	}
}

// TestRedactorLocation: a redirect's Location that percent-encodes the secret but keeps '/',
// or writes '+' for a space, is redacted (the URL's other parts are kept).
func TestRedactorLocation(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, location, secret, keep string }{
		{"path keeps /", "https://elsewhere.example/login/tok/AbC%2B123%3D%C3%A9%3C%27%22/x", echoedPassword, "https://elsewhere.example/login/"},
		{"query keeps / and +", "https://elsewhere.example/login?pw=tok/AbC+123%3D%C3%A9%3C%27%22", echoedPassword, "https://elsewhere.example/login?pw="},
		{"query writes + for a space", "https://elsewhere.example/?pw=sec+ret%2Fone", "sec ret/one", "https://elsewhere.example/?pw="},
		{"lower-case hex", "https://elsewhere.example/?t=tok%2fAbC%2b123%3d", "tok/AbC+123=", "https://elsewhere.example/?t="},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := newRedactor(tt.secret).value(tt.location)
			revealsNo(t, "Location", got, tt.secret)
			if !strings.HasPrefix(got, tt.keep) || !strings.Contains(got, RedactedMarker) {
				t.Errorf("value(%q) = %q, want %q, then %s", tt.location, got, tt.keep, RedactedMarker)
			}
		})
	}
}

// TestRedactorShortSecrets: a secret shorter than minMaskedSecretLen is masked only as a whole
// value (issue 38, item 8): a text that merely holds its letters is unchanged, so that the
// masks do not spell it.
func TestRedactorShortSecrets(t *testing.T) {
	t.Parallel()
	red := newRedactor("p", "ab")
	tests := []struct{ in, want string }{
		{"http://127.0.0.1:8080/rest/v1/events", "http://127.0.0.1:8080/rest/v1/events"},
		{"password p is wrong", "password p is wrong"},
		{"p", RedactedMarker},
		{" ab\n", RedactedMarker},
		{"&#112;", RedactedMarker},
		{`\u0070`, RedactedMarker},
		{"%61%62", RedactedMarker},
	}
	for _, tt := range tests {
		if got := red.value(tt.in); got != tt.want {
			t.Errorf("value(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for body, want := range map[string]string{
		`{"m":"http://x.example/"}`:  `{"m":"http://x.example/"}`,
		`<p>password p is wrong</p>`: `<p>password p is wrong</p>`,
		`{"detail":"\u0070"}`:        RedactedMarker,
		`{"detail":{"ab":1}}`:        RedactedMarker,
		"  p\n":                      RedactedMarker,
	} {
		if got := string(red.bytes([]byte(body))); got != want {
			t.Errorf("bytes(%q) = %q, want %q", body, got, want)
		}
	}
	e := newAPIError("generate JWT", http.MethodGet, "/a", 401, []byte(`{"error":"Unauthorized","messages":["p","use p\u0061ssword"]}`), red)
	if got := strings.Join(e.Messages, "|"); got != RedactedMarker+"|use password" {
		t.Errorf("messages %q, want the whole-value message redacted and the other kept", got)
	}
}

// revealsNo fails when text, or any decoding of it (JSON escapes, HTML references,
// percent-encoding), holds secret outside a marker.
func revealsNo(t *testing.T, what, text, secret string) {
	t.Helper()
	if strings.Contains(withoutMarkers(text), secret) {
		t.Errorf("%s holds the secret %q: %q", what, secret, text)
	}
	if _, _, found := newRedactor(secret).revealing(text); found {
		t.Errorf("%s reveals the secret %q: %q", what, secret, text)
	}
}

// jsonEscapeRune writes r as a JSON string may hold it, in the escaping choice picks:
// itself (where JSON allows), its short escape (\/, \", \\, \n, ...), or \u escapes with
// lower- or upper-case hex (a surrogate pair beyond U+FFFF).
func jsonEscapeRune(b *strings.Builder, r rune, choice byte) {
	short := map[rune]string{'"': `\"`, '\\': `\\`, '/': `\/`, '\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\t': `\t`}
	hex := "%04x"
	if choice&4 != 0 {
		hex = "%04X"
	}
	switch s, ok := short[r]; {
	case choice%3 == 0 && r >= 0x20 && r != '"' && r != '\\':
		b.WriteRune(r)
	case choice%3 == 1 && ok:
		b.WriteString(s)
	case r > 0xffff:
		hi, lo := utf16.EncodeRune(r)
		fmt.Fprintf(b, `\u`+hex+`\u`+hex, hi, lo)
	default:
		fmt.Fprintf(b, `\u`+hex, r)
	}
}

// FuzzRedactorEscapings: a secret written in any JSON escaping of its characters (one
// escaping per character, as Python, PHP or any other writer might), in any member of an
// error body, in JSON of another shape or in plain text, never survives: not in the error, its
// fields, nor the logged body, not even once their JSON escapes are decoded.
func FuzzRedactorEscapings(f *testing.F) {
	f.Add("password ", echoedPassword+"x", " rejected", []byte{1, 2, 3, 4, 5, 6, 7}, uint8(0))
	f.Add("", "tok/AbC+123", "", []byte{1}, uint8(1))
	f.Add("x\\", "sécret😀<>&", "\"", []byte{2, 6, 0, 4}, uint8(6))
	f.Add("<p>", "a"+hostilePassword+"z", "</p>", []byte{0, 1, 2}, uint8(7))
	f.Fuzz(func(t *testing.T, before, secret, after string, choices []byte, place uint8) {
		if maskedAsWholeValue(secret) || !utf8.ValidString(before+secret+after) || strings.Contains(secret, "\x00") {
			return
		}
		// A secret that begins or ends with a space or punctuation could be made of the
		// error's own separators (": ", "; ") and a neighbour, without the body holding it.
		first, _ := utf8.DecodeRuneInString(secret)
		last, _ := utf8.DecodeLastRuneInString(secret)
		if edge := func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) }; edge(first) || edge(last) {
			return
		}
		var esc strings.Builder
		for i, r := range []rune(secret) {
			var c byte
			if len(choices) > 0 {
				c = choices[i%len(choices)]
			}
			jsonEscapeRune(&esc, r, c)
		}
		quoted := func(s string) string { b, _ := json.Marshal(s); return string(b[1 : len(b)-1]) }
		str := `"` + quoted(before) + esc.String() + quoted(after) + `"`
		var body string
		switch place % 8 {
		case 0:
			body = `{"error":"Unauthorized","messages":["first",` + str + `]}`
		case 1:
			body = `{"error":"Unauthorized","messages":` + str + `}`
		case 2:
			body = `{"error":` + str + `}`
		case 3:
			body = `{"error":"x","path":` + str + `}`
		case 4:
			body = `{"error":"x","errorId":` + str + `}`
		case 5:
			body = `{"message":` + str + `}`
		case 6:
			body = `{"detail":[` + str + `]}`
		default: // plain text that holds JSON escapes
			body = strings.TrimRight(before, `\`) + esc.String() + after
		}
		red := newRedactor(secret)
		e := newAPIError("generate JWT", http.MethodGet, "/auth/jwt/generate/a", http.StatusUnauthorized, []byte(body), red)
		logged := string(red.bytes([]byte(body)))
		for what, text := range map[string]string{"Error()": e.Error(), "ErrorText": e.ErrorText, "Path": e.Path,
			"ErrorID": e.ErrorID, "RawBody": e.RawBody, "Messages": strings.Join(e.Messages, "\x00"), "logged body": logged} {
			if strings.Contains(withoutMarkers(text), secret) {
				t.Fatalf("%s holds the secret %q: %q (body %q)", what, secret, text, body)
			}
			if decoded := decodeJSONEscapes(text); strings.Contains(withoutMarkers(decoded), secret) {
				t.Fatalf("%s holds the secret %q once decoded: %q (body %q)", what, secret, text, body)
			}
		}
		var v any
		if json.Unmarshal([]byte(logged), &v) == nil && strings.Contains(withoutMarkers(fmt.Sprint(v)), secret) {
			t.Fatalf("the logged body, decoded as JSON, holds the secret %q: %q", secret, logged)
		}
	})
}
