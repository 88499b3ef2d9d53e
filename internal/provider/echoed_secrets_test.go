package provider

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// TestAccSecurity_echoedCredentialsRedacted points auth_url at an endpoint that refuses the
// credentials and repeats them (the Basic header, the password and the one-time password)
// in its 401 or 403 body, with escape sequences around them (issue 29, item 2). Through the
// Terraform CLI, neither the output of plan, nor plan -json's diagnostics once decoded, nor
// the TRACE log (where the plugin SDK logs the diagnostic again, outside the provider's
// masks) holds a credential or a control character; the marker shows where they were.
func TestAccSecurity_echoedCredentialsRedacted(t *testing.T) {
	m := newTestMock(t)
	password, otp := randomSecret(t, `pw<&"`), randomSecret(t, "otp-")
	basic := base64.StdEncoding.EncodeToString([]byte(testUser + ":" + password))
	secrets := map[string]string{"password": password, "OTP": otp, "Basic value": basic}
	cases := []struct {
		name   string
		status int
		answer func(w http.ResponseWriter, r *http.Request)
	}{
		{"JSON 401", http.StatusUnauthorized, func(w http.ResponseWriter, r *http.Request) {
			body, _ := json.Marshal(map[string]any{"error": "Unauthorized", "messages": []string{
				"\x1b]0;pwned\x07rejected " + r.Header.Get("Authorization") + " (password " + password + ", OTP " +
					r.Header.Get("X-Platform-OTP") + ")\x1b[2K\rApply complete!"}})
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write(body)
		}},
		{"HTML 403", http.StatusForbidden, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprintf(w, "<html><body>\x1b]0;pwned\x07%s %s %s\x1b[2K\rApply complete!</body></html>",
				html.EscapeString(r.Header.Get("Authorization")), html.EscapeString(password),
				html.EscapeString(r.Header.Get("X-Platform-OTP")))
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var echoed atomic.Int32
			auth := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get("Authorization") == "Basic "+basic && r.Header.Get("X-Platform-OTP") == otp {
					echoed.Add(1)
				}
				tc.answer(w, r)
			}))
			t.Cleanup(auth.Close)

			w := newCLIWorkspace(t, m)
			w.env = append(w.env, envAuthURL+"="+auth.URL, envPassword+"="+password, envOTP+"="+otp)
			w.write("main.tf", requiredProviders+`
provider "eventnotify" {}

data "eventnotify_log_levels" "all" {}
`)
			logPath := filepath.Join(t.TempDir(), "plan.log")
			out, code := w.run([]string{"TF_LOG=TRACE", "TF_LOG_PATH=" + logPath}, "plan", "-input=false", "-no-color")
			if code == 0 {
				t.Fatalf("plan succeeded against an auth endpoint that refuses:\n%s", out)
			}
			logged, err := os.ReadFile(logPath)
			if err != nil {
				t.Fatal(err)
			}
			jsonOut, _ := w.run(nil, "plan", "-input=false", "-json")
			if echoed.Load() == 0 {
				t.Fatal("the auth endpoint never saw the credentials: the test would prove nothing")
			}
			texts := map[string]string{"plan output": out, "plan -json diagnostics": diagnosticsOf(jsonOut),
				"TRACE log": string(logged)}
			for name, text := range texts {
				if !strings.Contains(text, fmt.Sprintf("HTTP %d", tc.status)) || !strings.Contains(text, httpapi.RedactedMarker) {
					t.Errorf("the %s does not show the refusal with %s where the credentials were:\n%s", name,
						httpapi.RedactedMarker, text)
				}
				for what, secret := range secrets {
					if strings.Contains(text, secret) {
						t.Errorf("the %s holds the %s", name, what)
					}
				}
				if i := strings.IndexAny(text, "\x1b\x07\r"); i >= 0 {
					t.Errorf("the %s holds a raw control character: %q", name, text[max(0, i-40):min(len(text), i+40)])
				}
			}
		})
	}
}
