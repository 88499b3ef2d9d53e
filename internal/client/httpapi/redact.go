package httpapi

import (
	"bytes"
	"cmp"
	"encoding/json"
	"html"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"
)

// What the other side says may repeat what it was sent: an auth endpoint or a proxy that
// echoes the request's credentials in an error body, a redirect whose Location carries the
// token. Before any answer text (an error body, a Location, a logged body) or transport text
// (an error of the connection, a proxy's status) is kept in an error or logged, every
// configured secret, the request's bearer token and the encoded Basic value are replaced by
// RedactedMarker; ServiceText escapes the result. The tflog masks of logging.go only cover
// the provider's own log entries: a diagnostic is logged again by the plugin SDK, outside
// them, so the error text itself must hold no secret.

// RedactedMarker stands for a secret in what the other side said.
const RedactedMarker = "[redacted]"

// maxTransportErrorBytes bounds the text of a transport error, escapes included: the
// provider's hint about a certificate (network_errors.go) is a few hundred bytes.
const maxTransportErrorBytes = 4096

// minMaskedSecretLen is the length, in characters, from which a secret is masked wherever it
// occurs. A shorter one (a test's one-letter password) occurs in ordinary text: masking each
// occurrence would spell it (url="htt***://..." for the password "p"), so it is masked only
// where a whole value equals it (SECURITY.md says why it is not refused). A one-time
// password, the shortest credential the service issues, has six digits.
const minMaskedSecretLen = 6

// maskedAsWholeValue reports whether secret is too short to be masked wherever it occurs.
func maskedAsWholeValue(secret string) bool {
	return utf8.RuneCountInString(secret) < minMaskedSecretLen
}

// maxRedactRounds bounds how often value adopts a decoded form of a text and looks again.
const maxRedactRounds = 4

// maxDecodeDepth is how many times the chain of decodings (JSON escapes, HTML character
// references, percent-encoding) is applied when a text is searched for a secret: each order
// of up to that many escapings is undone.
const maxDecodeDepth = 3

// redactor replaces secrets, in each form an answer may quote them, by RedactedMarker.
type redactor struct {
	secrets  []string          // masked wherever they occur
	whole    []string          // masked only as whole values (maskedAsWholeValue)
	forms    []string          // the forms of secrets that text replaces, longest first
	replacer *strings.Replacer // nil when there is no secret of secrets
}

// newRedactor returns a redactor of the given secrets; empty ones are skipped. Each secret
// is also looked for as a JSON string holds it (with and without Go's HTML escapes), as an
// HTML page holds it, and as a URL's query or path holds it; value and bytes also decode
// what they are given before they look.
func newRedactor(secrets ...string) redactor {
	var r redactor
	var forms []string
	for _, s := range secrets {
		switch {
		case s == "":
			continue
		case maskedAsWholeValue(s):
			r.whole = append(r.whole, s)
			continue
		}
		r.secrets = append(r.secrets, s)
		forms = append(forms, s, html.EscapeString(s), url.QueryEscape(s), url.PathEscape(s),
			jsonInner(s, true), jsonInner(s, false))
	}
	if len(forms) == 0 {
		return r
	}
	// strings.Replacer prefers, at one position, the pair given first: longest first makes a
	// secret that holds another replaced whole.
	slices.SortFunc(forms, func(a, b string) int {
		return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b))
	})
	forms = slices.Compact(forms)
	pairs := make([]string, 0, 2*len(forms))
	for _, f := range forms {
		pairs = append(pairs, f, RedactedMarker)
	}
	r.forms, r.replacer = forms, strings.NewReplacer(pairs...)
	return r
}

// jsonInner returns s as written inside a JSON string, without the quotes.
func jsonInner(s string, escapeHTML bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(s); err != nil {
		return s
	}
	out := strings.TrimSuffix(b.String(), "\n")
	return out[1 : len(out)-1]
}

// text returns s with every form of a secret that newRedactor lists replaced by
// RedactedMarker, in one pass, and RedactedMarker when s, trimmed, is a secret masked only as
// a whole value. It does not decode s: value does.
func (r redactor) text(s string) string {
	if r.isWhole(s) {
		return RedactedMarker
	}
	if r.replacer == nil || !slices.ContainsFunc(r.forms, func(f string) bool { return strings.Contains(s, f) }) {
		return s
	}
	return r.replacer.Replace(s)
}

// isWhole reports whether s, trimmed, is a secret masked only as a whole value.
func (r redactor) isWhole(s string) bool {
	return len(r.whole) > 0 && slices.Contains(r.whole, strings.TrimSpace(s))
}

// value returns s, a text the other side sent (a decoded member of an error body, a header,
// a body, a transport error), with every secret replaced by RedactedMarker: in the forms
// text replaces, and in any writer's escaping of it: s is decoded (JSON escapes, HTML
// character references, percent-encoding with and without '+' for a space, in every order
// up to maxDecodeDepth deep) and each decoded form is searched. When one holds a secret, that
// form is taken, its secrets replaced, and searched again; a text that still reveals one
// after maxRedactRounds, or whose decoded form is a secret masked only as a whole value,
// becomes RedactedMarker whole.
func (r redactor) value(s string) string {
	if len(r.secrets) == 0 && len(r.whole) == 0 {
		return s
	}
	out := r.text(s)
	for range maxRedactRounds {
		form, whole, found := r.revealing(out)
		switch {
		case !found:
			return out
		case whole:
			return RedactedMarker
		}
		out = r.text(form)
	}
	return RedactedMarker
}

// revealing returns the first of s and its decodings that holds a secret: one masked
// wherever it occurs (whole false) or, as its whole trimmed text, one masked only as a whole
// value (whole true). The decodings are those of chains of decoders: JSON escapes, HTML
// references, then percent-encoding as a path or as a query holds it, maxDecodeDepth times
// over, so that each order of up to maxDecodeDepth escapings is undone; every step is
// searched, so that decoding the characters of a secret (a '%' or '&' of its own) cannot
// hide it.
func (r redactor) revealing(s string) (form string, whole, found bool) {
	check := func(c string) bool {
		if r.isWhole(c) {
			whole, found = true, true
		} else {
			found = r.holdsSecret(c)
		}
		return found
	}
	if check(s) {
		return s, whole, found
	}
	for _, percent := range []func(string) string{decodePercent, decodeQuery} {
		cur := s
		for range maxDecodeDepth {
			changed := false
			for _, decode := range []func(string) string{decodeJSONEscapes, decodeHTML, percent} {
				d := decode(cur)
				if d == cur {
					continue
				}
				cur, changed = d, true
				if check(cur) {
					return cur, whole, found
				}
			}
			if !changed {
				break
			}
		}
	}
	return "", false, false
}

// holdsSecret reports whether s holds a secret masked wherever it occurs, outside the markers
// already in s.
func (r redactor) holdsSecret(s string) bool {
	if len(r.secrets) == 0 {
		return false
	}
	if strings.Contains(s, RedactedMarker) {
		s = strings.ReplaceAll(s, RedactedMarker, "\x00")
	}
	return slices.ContainsFunc(r.secrets, func(secret string) bool { return strings.Contains(s, secret) })
}

// The decoders below undo the escapings a writer may use for the characters of a secret: each
// returns its input unchanged when it holds nothing to decode. Text that is not an escape (a
// stray '%', a backslash before a letter) is left as it is, so it cannot hide the rest.

// decodeJSONEscapes decodes every run of JSON escapes in s (\/, \u00e9, \u003C, surrogate
// pairs) with encoding/json, wherever it stands: in a JSON string or not.
func decodeJSONEscapes(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	return decodeRuns(s, '\\', jsonEscapeLen, func(run string) (string, error) {
		var out string
		err := json.Unmarshal([]byte(`"`+run+`"`), &out)
		return out, err
	})
}

// jsonEscapeLen returns the length of the JSON escape at s[i] (a backslash), or 0.
func jsonEscapeLen(s string, i int) int {
	if i+1 >= len(s) {
		return 0
	}
	switch s[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if i+6 <= len(s) && isHex(s[i+2:i+6]) {
			return 6
		}
	}
	return 0
}

// percentEscapeLen returns the length of the percent-encoded byte at s[i] (a '%'), or 0.
func percentEscapeLen(s string, i int) int {
	if i+3 <= len(s) && isHex(s[i+1:i+3]) {
		return 3
	}
	return 0
}

// isHex reports whether s is all hexadecimal digits.
func isHex(s string) bool {
	for i := range len(s) {
		if !strings.ContainsRune("0123456789abcdefABCDEF", rune(s[i])) {
			return false
		}
	}
	return true
}

// decodeRuns replaces each run of consecutive escapes in s (each starting with lead, of the
// length escapeLen gives) by decode's result; a run decode refuses is kept.
func decodeRuns(s string, lead byte, escapeLen func(string, int) int, decode func(string) (string, error)) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], lead)
		if j < 0 {
			break
		}
		i += j
		n := escapeLen(s, i)
		if n == 0 {
			i++
			continue
		}
		end := i + n
		for end < len(s) && s[end] == lead {
			m := escapeLen(s, end)
			if m == 0 {
				break
			}
			end += m
		}
		if out, err := decode(s[i:end]); err == nil {
			b.WriteString(s[last:i])
			b.WriteString(out)
			last = end
		}
		i = end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// decodeHTML decodes HTML character references (&#x27;, &quot;, &#39;).
func decodeHTML(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	return html.UnescapeString(s)
}

// decodePercent decodes every run of percent-encoded bytes in s, as a URL's path holds them
// ('+' is a plus).
func decodePercent(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	return decodeRuns(s, '%', percentEscapeLen, url.PathUnescape)
}

// decodeQuery decodes s as a URL's query holds it: '+' is a space.
func decodeQuery(s string) string {
	if !strings.Contains(s, "+") {
		return s
	}
	return decodePercent(strings.ReplaceAll(s, "+", " "))
}

// bytes returns b, a body the other side sent, with every secret replaced as value replaces
// it, and RedactedMarker whole when b is JSON that holds, as one of its strings, a secret
// masked only as a whole value. It returns b itself, not copied, when it holds none.
func (r redactor) bytes(b []byte) []byte {
	if len(r.secrets) == 0 && len(r.whole) == 0 {
		return b
	}
	if len(r.whole) == 0 && !bytes.ContainsAny(b, `\&%+`) &&
		!slices.ContainsFunc(r.secrets, func(s string) bool { return bytes.Contains(b, []byte(s)) }) &&
		!slices.ContainsFunc(r.forms, func(f string) bool { return bytes.Contains(b, []byte(f)) }) {
		return b // the common case: nothing to decode and no secret
	}
	s := string(b)
	out := r.value(s)
	if out != RedactedMarker && len(r.whole) > 0 && r.wholeInJSON(b) {
		return []byte(RedactedMarker)
	}
	if out == s {
		return b
	}
	return []byte(out)
}

// wholeInJSON reports whether b is JSON one of whose strings (a member's name or a value),
// or a decoding of one, is a secret masked only as a whole value.
func (r redactor) wholeInJSON(b []byte) bool {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return false
	}
	var walk func(v any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case string:
			_, whole, found := r.revealing(x)
			return found && whole
		case []any:
			return slices.ContainsFunc(x, walk)
		case map[string]any:
			for k, m := range x {
				if walk(k) || walk(m) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}

// redactorFor returns the redactor of what answers r: the configured secrets (with the
// encoded Basic value) and r's bearer token.
func (c *Client) redactorFor(r *httpRequest) redactor {
	return newRedactor(append(slices.Clip(c.secrets), r.bearer)...)
}

// quotedError is an error whose text came from the other side of the connection (a
// certificate's names, a proxy's status text): Error gives that text with the secrets
// redacted and escaped by ServiceText's rules; errors.Is and errors.As see the original
// error through Unwrap.
type quotedError struct {
	err  error
	text string
}

// quoteError wraps err so that its text holds no secret of red and no control character;
// nil stays nil.
func quoteError(err error, red redactor) error {
	if err == nil {
		return nil
	}
	return &quotedError{err: err, text: serviceText(red.value(err.Error()), maxTransportErrorBytes)}
}

// Error returns the redacted and escaped text.
func (e *quotedError) Error() string { return e.text }

// Unwrap returns the original error.
func (e *quotedError) Unwrap() error { return e.err }

// errorLogText is the text of err as it may be logged: escaped by ServiceText's rules (the
// log's masks hide the secrets).
func errorLogText(err error) string {
	return serviceText(err.Error(), maxTransportErrorBytes)
}
