package httpapi

import "testing"

// The credentials of the tests of this package; the tests of package client have their own
// (fake_test.go).
const (
	testAccount  = "acc-1"
	testUser     = "alice@example.com"
	testPassword = "pw-Zq8secretpassword"
	testOTP      = "493817"
)

// noUnsafeText fails when s holds a character that a terminal would act on.
func noUnsafeText(t *testing.T, what, s string) {
	t.Helper()
	if HasUnsafeRune(s) {
		t.Errorf("%s holds a control, format or separator character, or is not UTF-8: %q", what, s)
	}
}
