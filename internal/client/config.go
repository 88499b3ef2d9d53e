package client

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"
)

const (
	// defaultRetryWaitMin is the shortest back-off between two attempts.
	defaultRetryWaitMin = time.Second
	// defaultRetryWaitMax is the longest back-off between two attempts.
	defaultRetryWaitMax = 30 * time.Second
	// defaultUserAgent is sent when Config.UserAgent is empty.
	defaultUserAgent = "terraform-provider-eventnotify"
	// apiTokenUserPrefix turns a user name into the Basic auth user name of an API token.
	apiTokenUserPrefix = "PLATFORM_TOKEN."
)

// Errors of CheckCredentials: the rules a combination of credentials can break.
var (
	// ErrConflictingCredentials: a password and an API token are both set.
	ErrConflictingCredentials = errors.New("a password and an API token are mutually exclusive")
	// ErrMissingUsername: a password or API token without a user name.
	ErrMissingUsername = errors.New("a username is required unless a pre-issued JWT is configured")
	// ErrMissingCredentials: neither a password, an API token nor a pre-issued JWT.
	ErrMissingCredentials = errors.New("a password or an API token is required unless a pre-issued JWT is configured")
)

// CheckCredentials checks that the credentials are one usable form: a pre-issued JWT, or a
// user name with either a password or an API token. The error joins every rule broken, each
// matching its sentinel through errors.Is.
func CheckCredentials(username, password, apiToken, jwt string) error {
	if jwt != "" {
		return nil
	}
	var errs []error
	if password != "" && apiToken != "" {
		errs = append(errs, ErrConflictingCredentials)
	}
	if password == "" && apiToken == "" {
		errs = append(errs, ErrMissingCredentials)
	}
	if username == "" {
		errs = append(errs, ErrMissingUsername)
	}
	return errors.Join(errs...)
}

// Config is everything New needs to build a Client. The zero values of the optional fields
// select the documented defaults. Its String and GoString methods redact every secret, so a
// Config can be logged or printed with %v, %+v or %#v safely.
type Config struct {
	// BaseURL is the service address; "/rest/v1/..." is appended (a trailing slash is tolerated).
	BaseURL string
	// AuthURL is the address of the JWT service; "/auth/jwt/generate/{accountId}" is appended.
	// It may be empty when JWT is set.
	AuthURL string
	// AccountID is the default account: calls given an empty account ID use it, and its JWT
	// authenticates the catalogue calls.
	AccountID string
	// Username is the Basic auth user name used to generate JWTs.
	Username string
	// Password is the Basic auth password. It conflicts with APIToken.
	Password string
	// APIToken replaces the password; the Basic auth user name then is "PLATFORM_TOKEN."+Username.
	APIToken string
	// OTP is a time-based one-time password sent as X-Platform-OTP when a JWT is generated.
	OTP string
	// JWT is a token issued elsewhere. When set, no Basic credentials are needed and no JWT is
	// ever fetched; a 401 is reported as a rejected (probably expired) JWT. With AccountID set
	// it authenticates that account only: a call for another account fails with
	// ErrPreIssuedJWTAccount before anything is sent. Without AccountID every call names its
	// account, and the caller vouches that the token is that account's.
	JWT string
	// MaxRetries is the number of retries after the first attempt; a negative value means 0.
	MaxRetries int
	// RequestsPerSecond limits every HTTP attempt of the Client, JWT fetches and retries
	// included; 0 means unlimited.
	RequestsPerSecond float64
	// RequestTimeout bounds each attempt (connection, headers and body); 0 means none.
	RequestTimeout time.Duration
	// UserAgent is the full User-Agent header value, such as
	// "terraform-provider-eventnotify/1.2.3".
	UserAgent string
	// HTTPClient is an optional base client. The Client works on a copy of it whose transport
	// is wrapped with the rate limiter; nil means a new client on a clone of
	// http.DefaultTransport. When its Transport is an *http.Transport, plain-http requests
	// go through a clone of it whose DialContext (its own dialer underneath) connects to
	// loopback addresses only; any other RoundTripper is used as it is for them.
	HTTPClient *http.Client
	// RetryWaitMin is the shortest back-off between attempts (default 1s).
	RetryWaitMin time.Duration
	// RetryWaitMax is the longest back-off between attempts (default 30s); a Retry-After
	// header from the service takes precedence.
	RetryWaitMax time.Duration
	// ListPageSize is the page size with which ReadSubscription lists an account
	// (default 100, the largest page the service is known to accept; a service that
	// clamps it to less still pages correctly).
	ListPageSize int
	// MaxBatchSize is the most subscriptions that one request of CreateSubscriptionBatched or
	// DeleteSubscriptionBatched carries (default DefaultMaxBatchSize); 1 sends every write on
	// its own.
	MaxBatchSize int
	// BatchWindow is how long a batched write waits for others to share its request (default
	// DefaultBatchWindow).
	BatchWindow time.Duration
	// BatchReady, when set, replaces the batch window: a batch is sent as soon as it is full or
	// BatchReady returns true for its account and number of writes. It makes batching
	// deterministic in tests.
	BatchReady func(accountID string, pending int) bool
	// ListCacheTTL is how long ReadSubscription serves reads from one listing of an
	// account (default 1 minute); a negative value disables the listing cache, so that
	// ReadSubscription is GetSubscription. See subscription_cache.go.
	ListCacheTTL time.Duration
	// SettleWait, when set, replaces the waits between the reads that look for what a create
	// whose answer was lost has made (see create_settle.go): it is called with each wait's
	// length and returns early with the context's error. It lets tests run the grace period
	// without waiting for it.
	SettleWait func(ctx context.Context, d time.Duration) error
}

// String describes the configuration with every secret redacted.
func (c Config) String() string {
	httpClient := "nil"
	if c.HTTPClient != nil {
		httpClient = "set"
	}
	return fmt.Sprintf("client.Config{BaseURL:%q, AuthURL:%q, AccountID:%q, Username:%q, Password:%s, "+
		"APIToken:%s, OTP:%s, JWT:%s, MaxRetries:%d, RequestsPerSecond:%g, RequestTimeout:%s, "+
		"UserAgent:%q, HTTPClient:%s, RetryWaitMin:%s, RetryWaitMax:%s}",
		c.BaseURL, c.AuthURL, c.AccountID, c.Username, redacted(c.Password),
		redacted(c.APIToken), redacted(c.OTP), redacted(c.JWT), c.MaxRetries, c.RequestsPerSecond,
		c.RequestTimeout, c.UserAgent, httpClient, c.RetryWaitMin, c.RetryWaitMax)
}

// GoString is String, so that %#v redacts secrets too.
func (c Config) GoString() string { return c.String() }

// redacted tells whether a secret is set without revealing it.
func redacted(secret string) string {
	if secret == "" {
		return `""`
	}
	return "(sensitive)"
}

// normalize validates the configuration and fills in defaults.
func (c Config) normalize() (Config, error) {
	var errs []error
	c.BaseURL = strings.TrimRight(strings.TrimSpace(c.BaseURL), "/")
	c.AuthURL = strings.TrimRight(strings.TrimSpace(c.AuthURL), "/")
	if c.BaseURL == "" {
		errs = append(errs, errors.New("the service base URL is required"))
	} else if err := CheckURL(c.BaseURL); err != nil {
		errs = append(errs, fmt.Errorf("invalid base URL: %w", err))
	}
	if c.JWT == "" {
		if c.AuthURL == "" {
			errs = append(errs, errors.New("the auth URL is required to generate JWTs"))
		} else if err := CheckURL(c.AuthURL); err != nil {
			errs = append(errs, fmt.Errorf("invalid auth URL: %w", err))
		}
		if err := CheckCredentials(c.Username, c.Password, c.APIToken, c.JWT); err != nil {
			errs = append(errs, err)
		}
	} else if c.AuthURL != "" {
		if err := CheckURL(c.AuthURL); err != nil {
			errs = append(errs, fmt.Errorf("invalid auth URL: %w", err))
		}
	}
	if c.AccountID != "" {
		if err := CheckAccountID(c.AccountID); err != nil {
			errs = append(errs, err)
		}
	}
	if c.MaxRetries < 0 {
		c.MaxRetries = 0
	}
	if math.IsNaN(c.RequestsPerSecond) || c.RequestsPerSecond < 0 {
		errs = append(errs, fmt.Errorf("requests per second must be 0 (unlimited) or positive, got %g", c.RequestsPerSecond))
	}
	if c.RequestTimeout < 0 {
		errs = append(errs, fmt.Errorf("the request timeout must not be negative, got %s", c.RequestTimeout))
	}
	if c.RetryWaitMin < 0 || c.RetryWaitMax < 0 {
		errs = append(errs, errors.New("retry wait bounds must not be negative"))
	}
	if c.RetryWaitMin == 0 {
		c.RetryWaitMin = defaultRetryWaitMin
	}
	if c.RetryWaitMax == 0 {
		c.RetryWaitMax = defaultRetryWaitMax
	}
	if c.RetryWaitMax < c.RetryWaitMin {
		c.RetryWaitMax = c.RetryWaitMin
	}
	if c.UserAgent == "" {
		c.UserAgent = defaultUserAgent
	}
	if c.MaxBatchSize <= 0 {
		c.MaxBatchSize = DefaultMaxBatchSize
	}
	if c.BatchWindow < 0 {
		errs = append(errs, fmt.Errorf("the batch window must not be negative, got %s", c.BatchWindow))
	}
	if c.BatchWindow == 0 {
		c.BatchWindow = DefaultBatchWindow
	}
	if c.ListPageSize <= 0 {
		c.ListPageSize = defaultListPageSize
	}
	if c.ListCacheTTL == 0 {
		c.ListCacheTTL = defaultListCacheTTL
	}
	if len(errs) > 0 {
		return c, fmt.Errorf("invalid client configuration: %w", errors.Join(errs...))
	}
	return c, nil
}

// CheckURL accepts an absolute http or https URL with a host and without credentials, query,
// fragment, surrounding white space or the service's own paths ("/rest/v1...", "/auth/jwt...",
// a *ServicePathError naming the URL to use instead): what base_url and auth_url may be. Plain http is
// accepted for this machine only (localhost, 127.0.0.0/8, ::1): anywhere else the Basic
// credentials, the one-time password and the JWTs would cross the network unencrypted. An
// error never quotes what could be the URL's user information, query or fragment, whether the URL
// parses or not.
func CheckURL(s string) error {
	shown := shownURL(s)
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("%q is not a valid URL", shown)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%q must start with http:// or https://", shown)
	case u.Host == "":
		return fmt.Errorf("%q has no host", shown)
	case u.User != nil:
		return fmt.Errorf("%q must not carry credentials (user:password@)", shown)
	case u.RawQuery != "" || u.Fragment != "":
		return fmt.Errorf("%q must not have a query or fragment", shown)
	case s != strings.TrimSpace(s):
		return fmt.Errorf("%q has leading or trailing white space", shown)
	case u.Scheme == "http" && !loopbackHost(u.Hostname()):
		return fmt.Errorf("%q uses plain http:// for a host other than this machine, so credentials and tokens "+
			"would cross the network unencrypted: use https:// (plain http is accepted only for localhost, "+
			"127.0.0.1 and ::1, such as the mock server on this machine; a mock in another container or host serves "+
			"https when started with -tls)", shown)
	}
	return checkServicePath(shown, u)
}

// basicCredentials returns the Basic auth user name and password used to generate JWTs.
func (c Config) basicCredentials() (user, pass string) {
	if c.APIToken != "" {
		user = c.Username
		if !strings.HasPrefix(user, apiTokenUserPrefix) {
			user = apiTokenUserPrefix + user
		}
		return user, c.APIToken
	}
	return c.Username, c.Password
}
