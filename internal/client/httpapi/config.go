package httpapi

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
	// APITokenUserPrefix turns a user name into the Basic auth user name of an API token.
	APITokenUserPrefix = "PLATFORM_TOKEN."
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

// Config is everything New needs to build a Client: the service's addresses, the credentials
// and how requests are sent. The zero values of the optional fields select the documented
// defaults. Its String and GoString methods redact every secret, so a
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
	// RetryWait, when set, replaces the wait between two attempts of a request: it is called
	// with the wait's length (what a Retry-After header asks for, capped, or the back-off) and
	// returns early with the context's error. It lets tests check the waits without waiting
	// for them; nil (the provider's case) waits on a real timer that the context ends.
	RetryWait func(ctx context.Context, d time.Duration) error
}

// String describes the configuration with every secret redacted.
func (c Config) String() string {
	httpClient := "nil"
	if c.HTTPClient != nil {
		httpClient = "set"
	}
	retryWait := "nil"
	if c.RetryWait != nil {
		retryWait = "set"
	}
	return fmt.Sprintf("httpapi.Config{BaseURL:%q, AuthURL:%q, AccountID:%q, Username:%q, Password:%s, "+
		"APIToken:%s, OTP:%s, JWT:%s, MaxRetries:%d, RequestsPerSecond:%g, RequestTimeout:%s, "+
		"UserAgent:%q, HTTPClient:%s, RetryWaitMin:%s, RetryWaitMax:%s, RetryWait:%s}",
		c.BaseURL, c.AuthURL, c.AccountID, c.Username, redacted(c.Password),
		redacted(c.APIToken), redacted(c.OTP), redacted(c.JWT), c.MaxRetries, c.RequestsPerSecond,
		c.RequestTimeout, c.UserAgent, httpClient, c.RetryWaitMin, c.RetryWaitMax, retryWait)
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

// Normalize validates the configuration and fills in defaults. The error joins every problem
// found.
func (c Config) Normalize() (Config, error) {
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
	return c, errors.Join(errs...)
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
		if !strings.HasPrefix(user, APITokenUserPrefix) {
			user = APITokenUserPrefix + user
		}
		return user, c.APIToken
	}
	return c.Username, c.Password
}
