package testsupport

import (
	"net/http"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// TestStart shows that every test user gets a JWT from a started mock, and a wrong password
// does not.
func TestStart(t *testing.T) {
	m := Start(t, mockserver.Config{})
	cases := []struct {
		name, user, password, otp string
		want                      int
	}{
		{"password", User, Password, "", http.StatusOK},
		{"api token", "PLATFORM_TOKEN." + TokenUser, APIToken, "", http.StatusOK},
		{"password and otp", OTPUser, OTPPassword, OTP, http.StatusOK},
		{"otp missing", OTPUser, OTPPassword, "", http.StatusUnauthorized},
		{"wrong password", User, "wrong", "", http.StatusUnauthorized},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, m.URL+"/auth/jwt/generate/"+Account, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.SetBasicAuth(tc.user, tc.password)
			if tc.otp != "" {
				req.Header.Set("X-Platform-OTP", tc.otp)
			}
			resp, err := m.HTTP.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Errorf("status %d, want %d", resp.StatusCode, tc.want)
			}
		})
	}
	if got := m.JWTFetches(); got != 3 {
		t.Errorf("JWTFetches() = %d, want 3", got)
	}
}
