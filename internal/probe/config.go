package probe

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// Defaults of Config.
const (
	// DefaultRequestsPerSecond keeps the probe well under the platform APIs' published limit
	// (10 a second): it never provokes throttling.
	DefaultRequestsPerSecond = 5
	// DefaultRequestTimeout bounds each request.
	DefaultRequestTimeout = 30 * time.Second
	// MaxOwnSubscriptions is the most subscriptions -write creates.
	MaxOwnSubscriptions = 10
	// TopicPrefix starts the eventStreamsTopic of every subscription the probe creates.
	TopicPrefix = "tfacc-probe-"
)

// Config is what a probe needs: the service's addresses, the account, the credentials and how
// requests are sent. Its String method redacts every secret.
type Config struct {
	BaseURL   string // the service address; "/rest/v1/..." is appended
	AuthURL   string // the JWT service address; "/auth/jwt/generate/{accountId}" is appended
	AccountID string // the account probed
	Username  string
	Password  string // conflicts with APIToken
	APIToken  string // sent as the password of user PLATFORM_TOKEN.<Username>
	OTP       string // sent as X-Platform-OTP to the JWT endpoint
	JWT       string // a JWT issued elsewhere: no JWT is generated
	// Write lets the probe create (and always delete) up to MaxOwnSubscriptions subscriptions of
	// its own, whose topic starts with TopicPrefix.
	Write bool
	// RequestsPerSecond limits the probe's requests, which are sent one at a time; 0 means
	// DefaultRequestsPerSecond and a negative value no limit.
	RequestsPerSecond float64
	// RequestTimeout bounds each request; 0 means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// HTTPClient is an optional base client (its Transport is used; its CheckRedirect and
	// Timeout are not): nil means a clone of http.DefaultTransport.
	HTTPClient *http.Client
}

// String describes the configuration with every secret redacted.
func (c Config) String() string {
	shown := func(s string) string {
		if s == "" {
			return `""`
		}
		return "(sensitive)"
	}
	return fmt.Sprintf("probe.Config{BaseURL:%q, AuthURL:%q, AccountID:%q, Username:%q, Password:%s, APIToken:%s, OTP:%s, JWT:%s, Write:%t}",
		c.BaseURL, c.AuthURL, c.AccountID, c.Username, shown(c.Password), shown(c.APIToken), shown(c.OTP), shown(c.JWT), c.Write)
}

// GoString is String, so that %#v redacts secrets too.
func (c Config) GoString() string { return c.String() }

// ConfigFromEnv reads the variables the provider reads: EVENTNOTIFY_BASE_URL,
// EVENTNOTIFY_AUTH_URL, EVENTNOTIFY_REGION (the region's addresses when those are unset),
// EVENTNOTIFY_ACCOUNT_ID, EVENTNOTIFY_USERNAME, EVENTNOTIFY_PASSWORD, EVENTNOTIFY_API_TOKEN,
// EVENTNOTIFY_OTP and EVENTNOTIFY_JWT.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	c := Config{
		BaseURL:   getenv("EVENTNOTIFY_BASE_URL"),
		AuthURL:   getenv("EVENTNOTIFY_AUTH_URL"),
		AccountID: getenv("EVENTNOTIFY_ACCOUNT_ID"),
		Username:  getenv("EVENTNOTIFY_USERNAME"),
		Password:  getenv("EVENTNOTIFY_PASSWORD"),
		APIToken:  getenv("EVENTNOTIFY_API_TOKEN"),
		OTP:       getenv("EVENTNOTIFY_OTP"),
		JWT:       getenv("EVENTNOTIFY_JWT"),
	}
	if c.BaseURL == "" || c.AuthURL == "" {
		name := cmpOr(strings.TrimSpace(getenv("EVENTNOTIFY_REGION")), httpapi.DefaultRegion)
		r, ok := httpapi.LookupRegion(name)
		if !ok {
			return c, fmt.Errorf("EVENTNOTIFY_REGION %q is not a region (%s)", name, strings.Join(httpapi.RegionNames(), ", "))
		}
		c.BaseURL, c.AuthURL = cmpOr(c.BaseURL, r.BaseURL), cmpOr(c.AuthURL, r.AuthURL)
	}
	return c, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// check validates c and fills in the defaults; its error says which variable to set.
func (c Config) check() (Config, error) {
	var errs []error
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	c.AuthURL = strings.TrimRight(c.AuthURL, "/")
	if c.BaseURL == "" {
		errs = append(errs, errors.New("set EVENTNOTIFY_BASE_URL to the service's address (the region table holds none)"))
	} else if err := httpapi.CheckURL(c.BaseURL); err != nil {
		errs = append(errs, fmt.Errorf("EVENTNOTIFY_BASE_URL: %w", err))
	}
	if c.AccountID == "" {
		errs = append(errs, errors.New("set EVENTNOTIFY_ACCOUNT_ID (or -account) to the account to probe"))
	} else if err := httpapi.CheckAccountID(c.AccountID); err != nil {
		errs = append(errs, err)
	}
	if c.JWT == "" {
		if c.AuthURL == "" {
			errs = append(errs, errors.New("set EVENTNOTIFY_AUTH_URL to the JWT service's address (the region table holds none), or EVENTNOTIFY_JWT to a JWT"))
		} else if err := httpapi.CheckURL(c.AuthURL); err != nil {
			errs = append(errs, fmt.Errorf("EVENTNOTIFY_AUTH_URL: %w", err))
		}
		switch err := httpapi.CheckCredentials(c.Username, c.Password, c.APIToken, c.JWT); {
		case errors.Is(err, httpapi.ErrConflictingCredentials):
			errs = append(errs, errors.New("set only one of EVENTNOTIFY_PASSWORD and EVENTNOTIFY_API_TOKEN"))
		case err != nil:
			errs = append(errs, errors.New("set EVENTNOTIFY_USERNAME with EVENTNOTIFY_PASSWORD or EVENTNOTIFY_API_TOKEN, or EVENTNOTIFY_JWT"))
		}
	}
	if c.RequestsPerSecond == 0 {
		c.RequestsPerSecond = DefaultRequestsPerSecond
	}
	if c.RequestTimeout <= 0 {
		c.RequestTimeout = DefaultRequestTimeout
	}
	return c, errors.Join(errs...)
}

// basicCredentials are the Basic auth user name and password sent to the JWT endpoint.
func (c Config) basicCredentials() (user, pass string) {
	if c.APIToken != "" {
		user = c.Username
		if !strings.HasPrefix(user, httpapi.APITokenUserPrefix) {
			user = httpapi.APITokenUserPrefix + user
		}
		return user, c.APIToken
	}
	return c.Username, c.Password
}
