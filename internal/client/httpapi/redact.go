package httpapi

import (
	"bytes"
	"cmp"
	"encoding/json"
	"html"
	"net/url"
	"slices"
	"strings"
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

// redactor replaces secrets, in each form an answer may quote them, by RedactedMarker.
type redactor struct {
	forms    []string          // longest first
	replacer *strings.Replacer // nil when there is no secret
}

// newRedactor returns a redactor of the given secrets; empty ones are skipped. Each secret
// is also looked for as a JSON string holds it (with and without Go's HTML escapes), as an
// HTML page holds it, and as a URL's query or path holds it.
func newRedactor(secrets ...string) redactor {
	var forms []string
	for _, s := range secrets {
		if s == "" {
			continue
		}
		forms = append(forms, s, html.EscapeString(s), url.QueryEscape(s), url.PathEscape(s),
			jsonInner(s, true), jsonInner(s, false))
	}
	if len(forms) == 0 {
		return redactor{}
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
	return redactor{forms: forms, replacer: strings.NewReplacer(pairs...)}
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

// text returns s with every secret replaced by RedactedMarker, in one pass.
func (r redactor) text(s string) string {
	if !slices.ContainsFunc(r.forms, func(f string) bool { return strings.Contains(s, f) }) {
		return s
	}
	return r.replacer.Replace(s)
}

// bytes returns b with every secret replaced by RedactedMarker; b itself, not copied, when it
// holds none (the common case, checked with a fast search per form).
func (r redactor) bytes(b []byte) []byte {
	if !slices.ContainsFunc(r.forms, func(f string) bool { return bytes.Contains(b, []byte(f)) }) {
		return b
	}
	return []byte(r.replacer.Replace(string(b)))
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
	return &quotedError{err: err, text: serviceText(red.text(err.Error()), maxTransportErrorBytes)}
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
