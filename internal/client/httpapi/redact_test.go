package httpapi

import (
	"encoding/base64"
	"encoding/json"
	"html"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
)

// hostilePassword holds the characters that JSON, HTML and URLs write otherwise.
const hostilePassword = `pw<&"sec ret'>+/%`

// withoutMarkers replaces each RedactedMarker by a NUL, so that a secret found in the rest
// was not redacted (and not made up of a marker and its neighbours).
func withoutMarkers(s string) string { return strings.ReplaceAll(s, RedactedMarker, "\x00") }

func TestRedactor(t *testing.T) {
	t.Parallel()
	jwt := "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"
	basic := base64.StdEncoding.EncodeToString([]byte(testUser + ":" + hostilePassword))
	jsonText, _ := json.Marshal("password " + hostilePassword + " rejected")
	tests := []struct {
		name, in, want string
	}{
		{"no secret", "nothing to hide", "nothing to hide"},
		{"raw password", "bad password " + hostilePassword + "!", "bad password " + RedactedMarker + "!"},
		{"JSON string", string(jsonText), `"password ` + RedactedMarker + ` rejected"`},
		{"HTML page", "<p>" + html.EscapeString(hostilePassword) + "</p>", "<p>" + RedactedMarker + "</p>"},
		{"query", "?p=" + url.QueryEscape(hostilePassword), "?p=" + RedactedMarker},
		{"path", "/u/" + url.PathEscape(hostilePassword), "/u/" + RedactedMarker},
		{"Basic header", "Authorization: Basic " + basic, "Authorization: Basic " + RedactedMarker},
		{"bearer", "Bearer " + jwt + " expired", "Bearer " + RedactedMarker + " expired"},
		{"OTP twice", testOTP + "," + testOTP, RedactedMarker + "," + RedactedMarker},
		{"secret holding another", "[" + jwt + testOTP + "]", "[" + RedactedMarker + RedactedMarker + "]"},
	}
	red := newRedactor(hostilePassword, testOTP, "", basic, jwt)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := red.text(tt.in); got != tt.want {
				t.Errorf("text(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if got := string(red.bytes([]byte(tt.in))); got != tt.want {
				t.Errorf("bytes(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	if in := []byte("nothing to hide"); &red.bytes(in)[0] != &in[0] {
		t.Error("bytes copied a text that holds no secret")
	}
	if got := newRedactor("", "").text("a b"); got != "a b" {
		t.Errorf("a redactor without secrets changed the text: %q", got)
	}
}

// TestRedactorRandom places secrets, in every form the redactor knows, at random places of
// random text: none survives.
func TestRedactorRandom(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(29, 2))
	alphabet := []rune("ab<>&\"'%+/ =\x1b\r\n\u202eé")
	randomText := func(n int) string {
		r := make([]rune, n)
		for i := range r {
			r[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(r)
	}
	forms := []func(string) string{
		func(s string) string { return s },
		html.EscapeString, url.QueryEscape, url.PathEscape,
		func(s string) string { return jsonInner(s, true) },
		func(s string) string { return jsonInner(s, false) },
	}
	for i := range 2000 {
		secrets := []string{randomText(minMaskedSecretLen + rng.IntN(10)), randomText(minMaskedSecretLen + rng.IntN(10))}
		red := newRedactor(secrets...)
		var b strings.Builder
		for range 1 + rng.IntN(4) {
			b.WriteString(randomText(rng.IntN(20)))
			s := secrets[rng.IntN(len(secrets))]
			b.WriteString(forms[rng.IntN(len(forms))](s))
		}
		in := b.String()
		out := withoutMarkers(red.text(in))
		for _, s := range secrets {
			for _, form := range forms {
				// A secret that overlaps another may be cut; check each whole, unless the two overlap.
				f := form(s)
				if strings.Contains(out, f) && !overlapsAnother(f, secrets, s) {
					t.Fatalf("case %d: %q survived in %q (from %q)", i, f, out, in)
				}
			}
		}
		if !strings.Contains(red.text(in), RedactedMarker) {
			t.Fatalf("case %d: no marker in %q", i, red.text(in))
		}
	}
}

// overlapsAnother reports whether f and a form of another secret share characters that one
// could begin and the other end with, so that a cut is legitimate.
func overlapsAnother(f string, secrets []string, self string) bool {
	for _, o := range secrets {
		if o != self && (strings.Contains(f, o) || strings.Contains(o, f)) {
			return true
		}
	}
	return false
}

// FuzzRedactor: whatever the text, a secret placed in it in any form the redactor knows
// is not in the result.
func FuzzRedactor(f *testing.F) {
	f.Add("before ", hostilePassword, " after", uint8(0))
	f.Add("<p>", "a&b", "</p>", uint8(1))
	f.Add(`"`, "x\"y\\z", `"`, uint8(4))
	f.Fuzz(func(t *testing.T, before, secret, after string, form uint8) {
		if maskedAsWholeValue(secret) || strings.Contains(secret, "\x00") {
			return
		}
		forms := []string{secret, html.EscapeString(secret), url.QueryEscape(secret), url.PathEscape(secret),
			jsonInner(secret, true), jsonInner(secret, false)}
		placed := forms[int(form)%len(forms)]
		out := withoutMarkers(newRedactor(secret).text(before + placed + after))
		if strings.Contains(out, secret) {
			t.Fatalf("secret %q survived in %q", secret, out)
		}
	})
}

// BenchmarkRedactBody measures the redaction of a logged 1 MiB answer that holds no secret
// (the common case), one that holds the bearer once, and one full of escapes to decode.
func BenchmarkRedactBody(b *testing.B) {
	jwt := "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"
	red := newRedactor(hostilePassword, testOTP, base64.StdEncoding.EncodeToString([]byte(testUser+":"+hostilePassword)), jwt)
	clean := []byte(strings.Repeat(`{"subscriptionId":"00000000-0000-4000-8000-000000000001","eventName":"ATOM.STATUS"},`, 1<<20/84))
	for _, bc := range []struct {
		name string
		body []byte
	}{{"no secret", clean}, {"one secret", append(append([]byte{}, clean...), jwt...)},
		{"escapes, no secret", []byte(strings.Repeat(`{"description":"A \u0026 B \/ 50% + &amp;"},`, 1<<20/44))}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.body)))
			for b.Loop() {
				red.bytes(bc.body)
			}
		})
	}
}
