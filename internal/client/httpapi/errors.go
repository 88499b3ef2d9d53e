package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"
)

// Sentinel errors matched by *APIError through errors.Is.
var (
	// ErrNotFound matches the service's own word that an entity is missing: an *APIError of a
	// service operation with HTTP status 404 and the service's error body, whose "error" is
	// "Entity not found". A 404 without a body, with another body (a gateway's or router's
	// "Not Found", an HTML page), or from the JWT endpoint does not match it.
	ErrNotFound = errors.New("not found")
	// ErrRedirect matches an *APIError with a 3xx status: the client never follows a
	// redirect, so that a write is never turned into a GET and the bearer token never travels
	// to another address. APIError.Location names where the answer pointed.
	ErrRedirect = errors.New("redirect not followed")
	// ErrUnauthorized matches an *APIError with HTTP status 401.
	ErrUnauthorized = errors.New("unauthorized")
	// ErrForbidden matches an *APIError with HTTP status 403.
	ErrForbidden = errors.New("forbidden")
	// ErrUntrustedCertificate matches the error of a request refused because the server's TLS
	// certificate could not be verified; no request, and no credential, was sent.
	ErrUntrustedCertificate = errors.New("untrusted TLS certificate")
	// ErrMalformedResponse matches the error of a successful answer whose body could not be
	// decoded: the service was reached, and a write may have taken effect.
	ErrMalformedResponse = errors.New("malformed response")
)

// ErrNoBody is the decoding error of an empty body that must carry a value.
var ErrNoBody = errors.New("the response body is empty")

// decodeError is the error of a 2xx answer whose body could not be decoded.
type decodeError struct {
	operation string
	err       error
}

// MalformedResponse wraps a decoding failure of operation's answer.
func MalformedResponse(operation string, err error) error {
	return &decodeError{operation: operation, err: err}
}

// Error names the operation and what was wrong, in terms of the body rather than Go types.
func (e *decodeError) Error() string {
	msg := e.err.Error()
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(e.err, &typeErr) && typeErr.Field != "":
		msg = fmt.Sprintf("the member %q holds a JSON %s where a %s is expected", typeErr.Field, typeErr.Value, typeErr.Type)
	case errors.As(e.err, &syntaxErr):
		msg = "the body is not valid JSON: " + msg
	}
	return "could not decode response of " + e.operation + ": " + msg
}

// Unwrap returns the decoding error.
func (e *decodeError) Unwrap() error { return e.err }

// Is makes errors.Is(err, ErrMalformedResponse) work.
func (e *decodeError) Is(target error) bool { return target == ErrMalformedResponse }

// RawBodyLimit is how much of a body that is not the service's error shape APIError keeps.
const RawBodyLimit = 512

// APIError is a non-2xx answer of the service or of the JWT endpoint.
type APIError struct {
	// Operation names the call, such as "create subscriptions" or "generate JWT".
	Operation string
	// Method is the HTTP method of the request.
	Method string
	// URLPath is the path of the request URL.
	URLPath string
	// StatusCode is the HTTP status of the answer.
	StatusCode int
	// ErrorText is the body's "error" member.
	ErrorText string
	// Messages is the body's "messages" member: at most MaxServiceMessages of them, each
	// through ServiceText.
	Messages []string
	// MessagesOmitted is the number of the body's messages beyond MaxServiceMessages, not kept.
	MessagesOmitted int
	// Path is the body's "path" member.
	Path string
	// ErrorID is the body's "errorId" member (present on 500).
	ErrorID string
	// RawBody holds the first 512 bytes of a body that was not the service's JSON error
	// shape, such as a proxy's HTML page, through ServiceText.
	//
	// ErrorText, Messages, Path, ErrorID and RawBody are what the answer said, escaped by
	// ServiceText: they can be shown and logged as they are.
	RawBody string
	// URL is the address that answered: scheme, host and path, without the query.
	URL string
	// Location is the Location header of a 3xx answer, resolved against URL.
	Location string
	// JWTEndpoint tells that the answer came from the JWT endpoint (auth_url), not from the
	// service (base_url).
	JWTEndpoint bool
	// OTPSent tells that the request carried a one-time password (X-Platform-OTP).
	OTPSent bool
	// Attempts is the number of HTTP attempts made, retries included.
	Attempts int
	// Throttled tells that the answer declined the request for now (429, or 503 with
	// Retry-After): the service did not act on it.
	Throttled bool

	// AccountID is the account the call was made for.
	AccountID string
	// PreIssuedJWT tells that the call was authenticated with the configured pre-issued JWT.
	PreIssuedJWT bool
}

// Error names the operation, the status and the service's messages: facts only; what a user
// can do about them is the caller's to say.
func (e *APIError) Error() string {
	var b strings.Builder
	op := e.Operation
	if op == "" {
		op = "request"
	}
	fmt.Fprintf(&b, "%s: HTTP %d", op, e.StatusCode)
	statusText := http.StatusText(e.StatusCode)
	if statusText != "" {
		b.WriteString(" " + statusText)
	}
	var details []string
	if e.ErrorText != "" && !strings.EqualFold(e.ErrorText, statusText) {
		details = append(details, e.ErrorText)
	}
	if len(e.Messages) > 0 {
		details = append(details, strings.Join(e.Messages, "; "))
	}
	if e.MessagesOmitted > 0 {
		details = append(details, fmt.Sprintf("(%d more messages not shown)", e.MessagesOmitted))
	}
	if len(details) == 0 && e.RawBody != "" {
		details = append(details, "response body: "+shorten(e.RawBody, 200))
	}
	if len(details) > 0 {
		b.WriteString(": " + strings.Join(details, ": "))
	}
	if e.ErrorID != "" {
		fmt.Fprintf(&b, " (error ID %s)", e.ErrorID)
	}
	switch {
	case e.StatusCode == http.StatusUnauthorized && e.PreIssuedJWT:
		b.WriteString(" (the pre-issued JWT was rejected)")
	case e.StatusCode == http.StatusUnauthorized && e.OTPSent:
		b.WriteString(" (with a one-time password)")
	case e.StatusCode == http.StatusForbidden && e.AccountID != "":
		fmt.Fprintf(&b, " (account %q)", e.AccountID)
	}
	if e.Location != "" {
		fmt.Fprintf(&b, " (redirected to %s, not followed)", e.Location)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (after %d attempts)", e.Attempts)
	}
	return b.String()
}

// Is makes errors.Is(err, ErrNotFound), ErrRedirect, ErrUnauthorized and ErrForbidden work.
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrNotFound:
		// Only the service's own 404 says an entity is missing. A proxy's HTML page, a
		// router's "Not Found" for a path it does not serve (a wrong base_url) or any answer
		// of the JWT endpoint must not make callers conclude that a subscription was deleted.
		return e.StatusCode == http.StatusNotFound && e.serviceNotFound()
	case ErrRedirect:
		return e.StatusCode >= 300 && e.StatusCode < 400
	case ErrUnauthorized:
		return e.StatusCode == http.StatusUnauthorized
	case ErrForbidden:
		return e.StatusCode == http.StatusForbidden
	}
	return false
}

// entityNotFound is the service's "error" value of a 404.
const entityNotFound = "Entity not found"

// serviceNotFound reports whether the error is the service's own "Entity not found": its JSON
// error body with that error value, from a service operation. No body, a proxy's HTML page, a
// router's JSON "Not Found" for a path it does not serve (a wrong base URL) and anything from
// the JWT endpoint are not.
func (e *APIError) serviceNotFound() bool {
	return !e.JWTEndpoint && e.RawBody == "" && strings.EqualFold(e.ErrorText, entityNotFound)
}

// wireError is the service's error body.
type wireError struct {
	Error    string          `json:"error"`
	Messages json.RawMessage `json:"messages"`
	Message  string          `json:"message"`
	Path     string          `json:"path"`
	ErrorID  string          `json:"errorId"`
}

// newAPIError builds an APIError from a failed answer. It never fails: a body that is not the
// service's error shape is kept as a short RawBody excerpt. Every string the body decodes to
// (error, messages, path, errorId) and the excerpt pass through red.value and red.bytes: a
// secret the other side echoes is redacted in whatever escaping it wrote it.
func newAPIError(op, method, urlPath string, status int, body []byte, red redactor) *APIError {
	e := &APIError{Operation: op, Method: method, URLPath: urlPath, StatusCode: status}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return e
	}
	var w wireError
	if trimmed[0] == '{' && json.Unmarshal(trimmed, &w) == nil {
		msgs := decodeMessages(w.Messages)
		if len(msgs) == 0 && w.Message != "" {
			msgs = []string{w.Message}
		}
		if w.Error != "" || len(msgs) > 0 {
			e.ErrorText, e.Path, e.ErrorID = ServiceText(red.value(w.Error)), ServiceText(red.value(w.Path)), ServiceText(red.value(w.ErrorID))
			for i := range min(len(msgs), MaxServiceMessages) {
				msgs[i] = red.value(msgs[i])
			}
			e.Messages, e.MessagesOmitted = serviceMessages(msgs)
			return e
		}
	}
	e.RawBody = ServiceTextBytes(bytes.TrimSpace(red.bytes(body)), RawBodyLimit)
	return e
}

// decodeMessages reads "messages" as an array of strings, or as one string.
func decodeMessages(raw json.RawMessage) []string {
	if len(raw) == 0 {
		return nil
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return list
	}
	var one string
	if json.Unmarshal(raw, &one) == nil && one != "" {
		return []string{one}
	}
	var mixed []any
	if json.Unmarshal(raw, &mixed) == nil {
		for _, m := range mixed {
			if m != nil {
				list = append(list, fmt.Sprint(m))
			}
		}
	}
	return list
}

// Excerpt returns at most limit bytes of b as valid UTF-8 (invalid bytes become U+FFFD).
func Excerpt(b []byte, limit int) string {
	if len(b) > 4*limit {
		b = b[:4*limit]
	}
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	if len(s) <= limit {
		return s
	}
	s = s[:limit]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// shorten collapses whitespace and cuts s to at most n runes, for one-line messages.
func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
