package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// MaxResponseBody bounds how much of a response body is read; a larger answer fails with
// errResponseTooLarge rather than being read in part.
const MaxResponseBody = 32 << 20

// errResponseTooLarge is the read error of a body longer than MaxResponseBody.
var errResponseTooLarge = fmt.Errorf("the response body is larger than the provider's read limit of %d MiB", MaxResponseBody>>20)

// httpRequest is one logical call to send, with all its attempts.
type httpRequest struct {
	operation string
	method    string
	url       string // absolute, query included
	path      string // URL path, for logs and errors
	body      []byte // nil: no body
	bearer    string // JWT for a service call
	basicUser string // Basic auth for the JWT endpoint
	basicPass string
	otp       string
	logBodies bool // TRACE-log bodies (never for the JWT endpoint)
	auth      bool // the JWT endpoint (auth_url), not the service (base_url)
	repeat    bool // may be repeated after the service may have acted (idempotent)
}

// Response is the final answer of a call.
type Response struct {
	// Status is the HTTP status.
	Status int
	// Body is the body, read to its end.
	Body []byte

	readErr  error  // the body could not be read to its end
	attempts int    // HTTP attempts made, retries included
	url      string // the address that answered, without the query
	location string // Location of a 3xx answer, resolved against url
	throttle bool   // 429, or 503 with Retry-After: the service declined the request for now
	red      redactor
}

// Redact returns s, a string decoded from Body (a bulk item's message), with every secret of
// the request (its bearer JWT, the configured secrets) replaced by RedactedMarker, in whatever
// escaping the answer wrote it.
func (r *Response) Redact(s string) string { return r.red.value(s) }

// success reports a 2xx status.
func (r *Response) success() bool { return r.Status >= 200 && r.Status < 300 }

// Call describes a call of one of the service's operations.
type Call struct {
	// Operation names the call in errors and logs, such as "list subscriptions".
	Operation string
	// Method is the HTTP method.
	Method string
	// AccountID is the account whose JWT authenticates the call.
	AccountID string
	// Path is the URL path relative to the base URL, every segment escaped (AccountPath).
	Path string
	// Query is the URL query, or nil.
	Query url.Values
	// In is encoded as the JSON request body; nil sends no body.
	In any
	// Repeat marks a write that may be repeated although its method is not idempotent.
	Repeat bool
}

// Do runs a call of a service operation: it encodes the body, obtains the account's JWT, sends
// the request with retries, and on a 401 refreshes the JWT once and repeats the request once. A
// non-2xx answer becomes an *APIError. A transport failure of a write (any method but GET and
// HEAD) that may have reached the service matches AnswerLost.
func (c *Client) Do(ctx context.Context, sc Call) (*Response, error) {
	var body []byte
	if sc.In != nil {
		b, err := json.Marshal(sc.In)
		if err != nil {
			return nil, fmt.Errorf("%s: could not encode the request: %w", sc.Operation, err)
		}
		body = b
	}
	u := c.cfg.BaseURL + sc.Path
	if len(sc.Query) > 0 {
		u += "?" + sc.Query.Encode()
	}
	ctx = maskSecrets(ctx, c.secrets...)
	token, err := c.token(ctx, sc.AccountID)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sc.Operation, err)
	}
	req := &httpRequest{
		operation: sc.Operation,
		method:    sc.Method,
		url:       u,
		path:      c.basePath + sc.Path,
		body:      body,
		bearer:    token,
		logBodies: true,
		repeat:    sc.Repeat,
	}
	resp, err := c.send(ctx, req)
	if err != nil {
		return nil, err
	}
	if resp.Status == http.StatusUnauthorized && c.cfg.JWT == "" {
		tflog.Debug(ctx, "JWT rejected by the service; refreshing it and repeating the request once",
			map[string]any{"operation": sc.Operation, "account_id": sc.AccountID})
		c.tokens.invalidate(sc.AccountID, token)
		token, err = c.token(ctx, sc.AccountID)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sc.Operation, err)
		}
		req.bearer = token
		if resp, err = c.send(ctx, req); err != nil {
			return nil, err
		}
	}
	if !resp.success() {
		return nil, c.apiError(req, sc.AccountID, resp)
	}
	if resp.readErr != nil {
		// The service answered with success, so a write has taken effect.
		return nil, MalformedResponse(sc.Operation, fmt.Errorf("could not read the response: %w", resp.readErr))
	}
	return resp, nil
}

// apiError turns a failed answer to r into an *APIError.
func (c *Client) apiError(r *httpRequest, accountID string, resp *Response) *APIError {
	red := c.redactorFor(r)
	e := newAPIError(r.operation, r.method, r.path, resp.Status, resp.Body, red)
	e.AccountID = accountID
	e.PreIssuedJWT = !r.auth && c.cfg.JWT != ""
	e.Attempts = resp.attempts
	e.URL = resp.url
	e.Location = ServiceText(red.value(resp.location))
	e.JWTEndpoint = r.auth
	e.OTPSent = r.otp != ""
	e.Throttled = resp.throttle
	return e
}

// send performs one logical request through go-retryablehttp and reads the final answer.
// A transport or context error comes back wrapped with the operation's name.
func (c *Client) send(ctx context.Context, r *httpRequest) (*Response, error) {
	if r.bearer != "" {
		ctx = maskSecrets(ctx, r.bearer)
	}
	ctx, info := withCallInfo(ctx, r.operation)
	red := c.redactorFor(r)
	var rawBody any
	if r.body != nil {
		rawBody = r.body
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, r.method, r.url, rawBody)
	if err != nil {
		return nil, fmt.Errorf("%s: could not build the request: %w", r.operation, err)
	}
	req.Header.Set("User-Agent", c.cfg.UserAgent)
	req.Header.Set("Accept", "application/json")
	if r.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	switch {
	case r.bearer != "":
		req.Header.Set("Authorization", "Bearer "+r.bearer)
	case r.basicUser != "" || r.basicPass != "":
		req.SetBasicAuth(r.basicUser, r.basicPass)
		req.Header.Set("Accept", "application/json, text/plain")
	}
	if r.otp != "" {
		req.Header.Set("X-Platform-OTP", r.otp)
	}
	if r.logBodies {
		logBody(ctx, "eventnotify API request body", r.operation, r.body)
	}
	resp, err := c.retryClientSafe(ctx, r.repeat || idempotent(r.method)).Do(req)
	if err != nil {
		maybeSent := r.method != http.MethodGet && r.method != http.MethodHead && mayHaveReachedServer(ctx, err)
		if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
			err = fmt.Errorf("%w: %w", ctxErr, err)
		}
		argument := "base_url"
		if r.auth {
			argument = "auth_url"
		}
		err = explainNetworkError(err, r.url, argument)
		// The transport's text may quote the other side (a certificate's names, a proxy's status).
		err = fmt.Errorf("%s: %s %s: %w", r.operation, r.method, r.path, quoteError(err, red))
		if maybeSent {
			err = &lostAnswerError{err: err}
		}
		return nil, err
	}
	defer resp.Body.Close()
	if !r.auth && resp.StatusCode >= 200 && resp.StatusCode < 300 {
		probeFrom(ctx).answered(resp.Header, time.Now())
	}
	out := &Response{Status: resp.StatusCode, attempts: int(info.attempts.Load()), red: red}
	out.throttle = resp.StatusCode == http.StatusTooManyRequests ||
		(resp.StatusCode == http.StatusServiceUnavailable && strings.TrimSpace(resp.Header.Get("Retry-After")) != "")
	if resp.Request != nil && resp.Request.URL != nil {
		u := *resp.Request.URL
		u.RawQuery, u.Fragment, u.User = "", "", nil
		out.url = u.String()
		if loc, err := resp.Location(); err == nil && resp.StatusCode >= 300 && resp.StatusCode < 400 {
			loc.User = nil
			out.location = loc.String()
		}
	}
	out.Body, out.readErr = io.ReadAll(io.LimitReader(resp.Body, MaxResponseBody+1))
	if out.readErr == nil && len(out.Body) > MaxResponseBody {
		out.Body, out.readErr = out.Body[:MaxResponseBody], errResponseTooLarge
	}
	if out.readErr != nil {
		out.readErr = quoteError(out.readErr, red)
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, fmt.Errorf("%s: reading the response: %w", r.operation, ctxErr)
		}
	}
	if r.logBodies {
		logBody(ctx, "eventnotify API response body", r.operation, red.bytes(out.Body))
	}
	return out, nil
}
