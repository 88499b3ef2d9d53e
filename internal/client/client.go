// Package client is the typed HTTP client of the Event Notifications Configuration Service:
// all twelve operations of the service and its JWT endpoint.
//
// A Client authenticates with JWTs that it generates from Basic credentials (a password, or
// an API token with the user name "PLATFORM_TOKEN.<username>", optionally with a one-time
// password) and caches per account, or with a pre-issued JWT. It limits its own request
// rate, retries what is safe to retry, reads the service's ambiguous shapes tolerantly, and
// logs through tflog without ever logging a credential.
package client

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// Client calls the service. It is safe for concurrent use; create one per provider instance
// with New.
type Client struct {
	cfg        Config
	basePath   string // path of cfg.BaseURL, prefixed to URL paths in logs and errors
	httpClient *http.Client
	limiter    *rate.Limiter // nil when unlimited
	secrets    []string      // values masked in every log entry
	tokens     tokenCache
	listings   listingCache  // per-account listings behind ReadSubscription
	claims     claimSet      // subscription IDs handed to callers, never adopted for another
	listLimits listingLimits // bounds of every listing (listing_bounds.go)
	createGate createGate    // orders creates with the reads that settle lost answers
	lost       lostCreates   // what the Client's lost creates still look for, by content
	writes     accountWrites // orders writes with UpdateListed (account_writes.go)
	creates    *batchQueue[SubscriptionInput, *Subscription]
	deletes    *batchQueue[string, deleted]
	now        func() time.Time

	events eventCatalogue // the events catalogue, read once

	// bulkUpdateRefused is set once the service refused a bulk update as a whole: updates
	// go through single PUTs from then on (bulk_update.go).
	bulkUpdateRefused atomic.Bool
}

// New validates cfg and builds a Client. It does no network I/O.
func New(cfg Config) (*Client, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	c := &Client{
		cfg:        cfg,
		limiter:    newLimiter(cfg.RequestsPerSecond),
		listLimits: defaultListingLimits(),
		now:        time.Now,
	}
	if u, err := url.Parse(cfg.BaseURL); err == nil {
		c.basePath = strings.TrimRight(u.Path, "/")
	}
	c.httpClient = newHTTPClient(cfg.HTTPClient, c.limiter, cfg.RequestTimeout)
	c.tokens.entries = make(map[string]cachedToken)
	c.secrets = secretValues(cfg)
	var slotDelay func() time.Duration
	if c.limiter != nil {
		slotDelay = func() time.Duration { return limiterDelay(c.limiter, c.now()) }
	}
	c.creates = newBatchQueue(cfg, slotDelay, c.sendCreates)
	c.deletes = newBatchQueue(cfg, slotDelay, c.sendDeletes)
	return c, nil
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
		return "client.Client(nil)"
	}
	return fmt.Sprintf("client.Client{BaseURL:%q, AuthURL:%q, AccountID:%q}", c.cfg.BaseURL, c.cfg.AuthURL, c.cfg.AccountID)
}

// GoString is String, so that %#v reveals no secret.
func (c *Client) GoString() string { return c.String() }

// errNoAccount is returned when a call names no account and no default is configured.
var errNoAccount = errors.New("no account ID given and no default account ID configured")

// account returns accountID, or the configured default when it is empty, once CheckAccountID
// accepts it: every request for an account passes here before anything is sent.
func (c *Client) account(accountID string) (string, error) {
	if accountID != "" {
		if err := CheckAccountID(accountID); err != nil {
			return "", err
		}
		return accountID, nil
	}
	if c.cfg.AccountID != "" {
		return c.cfg.AccountID, nil
	}
	return "", errNoAccount
}

// accountPath is the service path of an account's resource, with every segment escaped.
func accountPath(accountID string, segments ...string) string {
	var b strings.Builder
	b.WriteString("/rest/v1/accounts/")
	b.WriteString(url.PathEscape(accountID))
	for _, s := range segments {
		b.WriteByte('/')
		b.WriteString(s)
	}
	return b.String()
}
