// Package testsupport starts the mock service (internal/mockserver) for the tests of the client,
// the provider and the mock itself: one harness, one set of test credentials.
//
// Only _test.go files import it (TestImportRules, at the module root, proves it). It imports the
// mock and the standard library only, so that the mock's own tests (package mockserver_test) may
// use it without an import cycle; that the mock never imports the client is a rule of
// TestImportRules too.
package testsupport

import (
	"net/http/httptest"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// The test credentials. The users are allowed on every account; Account is the one tests use
// unless they need a second one.
const (
	Account     = "acc-test"
	User        = "demo" // logs in with Password
	Password    = "demo-password"
	TokenUser   = "sso-user" // logs in with APIToken
	APIToken    = "tok-3f9a2c"
	OTPUser     = "mfa-user" // logs in with OTPPassword and OTP
	OTPPassword = "mfa-password"
	OTP         = "493817"
)

// Users returns the test users: User with a password, TokenUser with an API token, OTPUser with a
// password and a one-time password.
func Users() []mockserver.User {
	return []mockserver.User{
		{Username: User, Password: Password},
		{Username: TokenUser, APIToken: APIToken},
		{Username: OTPUser, Password: OTPPassword, OTP: OTP},
	}
}

// Mock is a mock service started for one test, behind its own HTTP server on a free port.
type Mock struct {
	*mockserver.Server
	URL  string           // the base URL of the service and of its JWT endpoint
	HTTP *httptest.Server // the HTTP server in front of the mock
}

// New returns a fresh mock service configured by cfg, with Users() when cfg has no users, for a
// test that serves it behind a handler of its own (one that holds an answer back, or changes
// it). Start serves it.
func New(cfg mockserver.Config) *mockserver.Server {
	if len(cfg.Users) == 0 {
		cfg.Users = Users()
	}
	return mockserver.New(cfg)
}

// Start starts a fresh mock service configured by cfg (with Users() when cfg has no users) and
// closes it when the test ends. The server is listening when Start returns: no test waits for it.
func Start(t testing.TB, cfg mockserver.Config) *Mock {
	t.Helper()
	srv := New(cfg)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &Mock{Server: srv, URL: ts.URL, HTTP: ts}
}
