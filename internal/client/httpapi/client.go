// Package httpapi is the generic HTTP layer of the client of the Event Notifications
// Configuration Service: it sends one call of any operation of the service, and knows nothing
// of subscriptions. Package client (the typed operations and the subscription engine) is built
// on it; this package never imports client (TestImportRules, at the module's root).
//
// A Client authenticates with JWTs that it generates from Basic credentials (a password, or
// an API token with the user name "PLATFORM_TOKEN.<username>", optionally with a one-time
// password) and caches per account, or with a pre-issued JWT. It limits its own request
// rate, retries what is safe to retry, turns failures into typed errors (*APIError and the
// sentinels of errors.go), never follows a redirect, sends plain http to loopback addresses
// only, and logs through tflog without ever logging a credential.
package httpapi

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/time/rate"
)

// Client sends the calls of the service's operations. It is safe for concurrent use; package
// client builds one per provider instance with New.
type Client struct {
	cfg        Config
	basePath   string // path of cfg.BaseURL, prefixed to URL paths in logs and errors
	httpClient *http.Client
	limiter    *rate.Limiter // nil when unlimited
	secrets    []string      // values masked in every log entry
	tokens     tokenCache
	now        func() time.Time
}

// New validates cfg and builds a Client that reads the time from time.Now. It does no network
// I/O.
func New(cfg Config) (*Client, error) { return NewWithClock(cfg, time.Now) }

// NewWithClock is New with the clock that the Client reads for token expiry and Retry-After
// dates: package client passes its own, so that one clock serves both layers (and a test that
// sets it sets it for both).
func NewWithClock(cfg Config, now func() time.Time) (*Client, error) {
	cfg, err := cfg.Normalize()
	if err != nil {
		return nil, fmt.Errorf("invalid client configuration: %w", err)
	}
	c := &Client{
		cfg:     cfg,
		limiter: newLimiter(cfg.RequestsPerSecond),
		now:     now,
	}
	if u, err := url.Parse(cfg.BaseURL); err == nil {
		c.basePath = strings.TrimRight(u.Path, "/")
	}
	c.httpClient = newHTTPClient(cfg.HTTPClient, c.limiter, cfg.RequestTimeout)
	c.tokens.entries = make(map[string]cachedToken)
	c.secrets = secretValues(cfg)
	return c, nil
}

// SlotDelay returns how long the next request would wait for the rate limiter, and nil when
// requests are not limited: batched writes wait that long for others to share their request.
func (c *Client) SlotDelay() func() time.Duration {
	if c.limiter == nil {
		return nil
	}
	return func() time.Duration { return limiterDelay(c.limiter, c.now()) }
}

// secretValues lists every credential that must never appear in a log entry, the encoded
// Basic auth header value included.
func secretValues(cfg Config) []string {
	var out []string
	for _, s := range []string{cfg.Password, cfg.APIToken, cfg.OTP, cfg.JWT} {
		if s != "" {
			out = append(out, s)
		}
	}
	if user, pass := cfg.basicCredentials(); pass != "" {
		out = append(out, base64.StdEncoding.EncodeToString([]byte(user+":"+pass)))
	}
	return out
}

// newHTTPClient returns the Client's own http.Client: a copy of base (or a new client on a
// clone of http.DefaultTransport) whose transport waits for the rate limiter, applies the
// per-attempt timeout and sends plain-http requests to loopback addresses only.
func newHTTPClient(base *http.Client, limiter *rate.Limiter, timeout time.Duration) *http.Client {
	var hc http.Client
	var rt http.RoundTripper
	if base != nil {
		hc = *base
		rt = base.Transport
	}
	if rt == nil {
		rt = clonedDefaultTransport()
	}
	hc.Transport = &transport{base: rt, plain: plainHTTPTransport(rt), limiter: limiter, timeout: timeout}
	// Never follow a redirect: Go would turn a DELETE, PUT or POST into a GET (a delete or an
	// update would seem to succeed without happening) and could carry the bearer token to
	// another address. The 3xx answer itself becomes an *APIError naming its Location.
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &hc
}

// clonedDefaultTransport clones http.DefaultTransport, so that nothing shared is changed.
func clonedDefaultTransport() http.RoundTripper {
	if t, ok := http.DefaultTransport.(*http.Transport); ok {
		return t.Clone()
	}
	return http.DefaultTransport
}

// String describes the Client without any secret.
func (c *Client) String() string {
	if c == nil {
		return "httpapi.Client(nil)"
	}
	return fmt.Sprintf("httpapi.Client{BaseURL:%q, AuthURL:%q, AccountID:%q}", c.cfg.BaseURL, c.cfg.AuthURL, c.cfg.AccountID)
}

// GoString is String, so that %#v reveals no secret.
func (c *Client) GoString() string { return c.String() }

// ErrNoAccount is returned when a call names no account and no default is configured.
var ErrNoAccount = errors.New("no account ID given and no default account ID configured")

// Account returns accountID, or the configured default when it is empty, once CheckAccountID
// accepts it: every request for an account passes here before anything is sent.
func (c *Client) Account(accountID string) (string, error) {
	if accountID != "" {
		if err := CheckAccountID(accountID); err != nil {
			return "", err
		}
		return accountID, nil
	}
	if c.cfg.AccountID != "" {
		return c.cfg.AccountID, nil
	}
	return "", ErrNoAccount
}

// AccountPath is the service path of an account's resource, with every segment escaped.
func AccountPath(accountID string, segments ...string) string {
	var b strings.Builder
	b.WriteString("/rest/v1/accounts/")
	b.WriteString(url.PathEscape(accountID))
	for _, s := range segments {
		b.WriteByte('/')
		b.WriteString(s)
	}
	return b.String()
}
