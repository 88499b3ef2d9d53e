package provider

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf16"

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

// phpEscape writes s as PHP's json_encode does inside a JSON string: '/' as \/, every
// character beyond ASCII as \u escapes; pythonEscape as Python's json.dumps does (no \/).
func phpEscape(s string) string { return strings.ReplaceAll(pythonEscape(s), "/", `\/`) }

func pythonEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case r > 0xffff:
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, hi, lo)
		case r > 0x7e:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestAccSecurity_echoedCredentialsOtherEscapings points auth_url at an endpoint that refuses
// the password and quotes it in another writer's escaping (issue 38, item 1): PHP's \/ and
// \u00e9, Python's, upper-case \u003C, HTML references Go does not write (&#x27;, &quot;), a
// redirect whose Location percent-encodes it but for its '/'. Through the CLI, neither the
// output of plan, nor its -json diagnostics, nor the TRACE log (with the framework's entry
// "Response contains error diagnostic") holds the password, in any of these forms.
func TestAccSecurity_echoedCredentialsOtherEscapings(t *testing.T) {
	m := newTestMock(t)
	password := randomSecret(t, `tok/AbC+123=é<'"`)
	upper := strings.NewReplacer(`"`, `\"`, "<", `\u003C`, "'", `\u0027`).Replace(password)
	entities := strings.NewReplacer("<", "&lt;", "'", "&#x27;", `"`, "&quot;").Replace(password)
	percent := strings.ReplaceAll(url.QueryEscape(password), "%2F", "/")
	forms := map[string]string{"password": password, "PHP form": phpEscape(password), "Python form": pythonEscape(password),
		"upper-case form": upper, "HTML form": entities, "percent form": percent}
	jsonAnswer := func(inner string) func(w http.ResponseWriter, r *http.Request) {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"error":"Unauthorized","messages":["password %s is wrong"],"errorId":"%s"}`, inner, inner)
		}
	}
	cases := []struct {
		name   string
		status int
		answer func(w http.ResponseWriter, r *http.Request)
	}{
		{"PHP json_encode", http.StatusUnauthorized, jsonAnswer(phpEscape(password))},
		{"Python json.dumps", http.StatusUnauthorized, jsonAnswer(pythonEscape(password))},
		{"upper-case hex", http.StatusUnauthorized, jsonAnswer(upper)},
		{"HTML references", http.StatusUnauthorized, jsonAnswer(entities)},
		{"redirect keeping /", http.StatusFound, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", "https://elsewhere.example/login?pw="+percent)
			w.WriteHeader(http.StatusFound)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var asked atomic.Int32
			auth := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if _, pass, ok := r.BasicAuth(); ok && pass == password {
					asked.Add(1)
				}
				tc.answer(w, r)
			}))
			t.Cleanup(auth.Close)

			w := newCLIWorkspace(t, m)
			w.env = append(w.env, envAuthURL+"="+auth.URL, envPassword+"="+password)
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
			if asked.Load() == 0 {
				t.Fatal("the auth endpoint never saw the password: the test would prove nothing")
			}
			if !strings.Contains(string(logged), "Response contains error diagnostic") {
				t.Error("the TRACE log has no entry \"Response contains error diagnostic\": the test would not cover it")
			}
			texts := map[string]string{"plan output": out, "plan -json diagnostics": diagnosticsOf(jsonOut),
				"TRACE log": string(logged)}
			for name, text := range texts {
				if !strings.Contains(text, fmt.Sprintf("HTTP %d", tc.status)) || !strings.Contains(text, httpapi.RedactedMarker) {
					t.Errorf("the %s does not show the refusal with %s where the password was:\n%s", name,
						httpapi.RedactedMarker, text)
				}
				for what, secret := range forms {
					if strings.Contains(text, secret) {
						t.Errorf("the %s holds the %s", name, what)
					}
				}
			}
		})
	}
}

// TestAccSecurity_shortPasswordNotSpelled: with the one-letter password "p" (issue 38, item
// 8), the TRACE log of a plan masks no part of a word: url="htt***://..." would spell it.
func TestAccSecurity_shortPasswordNotSpelled(t *testing.T) {
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	w.env = append(w.env, envPassword+"=p")
	w.write("main.tf", requiredProviders+`
provider "eventnotify" {}

data "eventnotify_log_levels" "all" {}
`)
	logPath := filepath.Join(t.TempDir(), "plan.log")
	out, _ := w.run([]string{"TF_LOG=TRACE", "TF_LOG_PATH=" + logPath}, "plan", "-input=false", "-no-color")
	logged, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(logged), "/auth/jwt/generate/") {
		t.Fatalf("the TRACE log shows no JWT request: the test would prove nothing\n%s", out)
	}
	if loc := regexp.MustCompile(`[[:alnum:]]\*\*\*|\*\*\*[[:alnum:]]`).FindIndex(logged); loc != nil {
		t.Errorf("the TRACE log masks part of a word, which spells the password: %q",
			logged[max(0, loc[0]-60):min(len(logged), loc[1]+60)])
	}
}
