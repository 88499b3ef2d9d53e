package client

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// TestSecretsNeverLogged runs calls at TRACE in every auth mode, with a service that even
// echoes the credentials back, and asserts that none of them reaches the log.
func TestSecretsNeverLogged(t *testing.T) {
	t.Parallel()
	modes := []struct {
		name    string
		mutate  func(f *fakeAPI, cfg *Config)
		fake    func(f *fakeAPI)
		secrets []string // configured secrets besides JWTs
	}{
		{"password and OTP", func(f *fakeAPI, cfg *Config) { cfg.OTP = testOTP }, func(f *fakeAPI) { f.requireOTP = testOTP },
			[]string{testPassword, testOTP, base64.StdEncoding.EncodeToString([]byte(testUser + ":" + testPassword))}},
		{"API token", func(f *fakeAPI, cfg *Config) { cfg.Password, cfg.APIToken = "", testAPIToken },
			func(f *fakeAPI) { f.acceptUser, f.acceptPass = "PLATFORM_TOKEN."+testUser, testAPIToken },
			[]string{testAPIToken, base64.StdEncoding.EncodeToString([]byte("PLATFORM_TOKEN." + testUser + ":" + testAPIToken))}},
		{"pre-issued JWT", func(f *fakeAPI, cfg *Config) {
			cfg.Username, cfg.Password, cfg.AuthURL = "", "", ""
			cfg.JWT = f.issue(testAccount)
		}, nil, nil},
	}
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
				auth := r.Header.Get("Authorization")
				switch {
				case r.Method == http.MethodPost:
					// Echo every credential in a 400 so that the TRACE body log would carry it.
					echo := append([]string{auth}, mode.secrets...)
					msgs := ""
					for i, s := range echo {
						if i > 0 {
							msgs += ","
						}
						msgs += fmt.Sprintf("%q", "credential "+s+" echoed")
					}
					writeJSON(w, 400, `{"error":"Bad Request","messages":[`+msgs+`],"path":"/"}`)
				case strings.HasSuffix(r.URL.Path, "/events"):
					writeJSON(w, 200, fmt.Sprintf(`{"events":[{"name":"E","description":%q}]}`, strings.TrimPrefix(auth, "Bearer ")))
				default:
					writeJSON(w, 503, `{"error":"Service Unavailable","messages":["retry"],"path":"/"}`)
				}
			})
			if mode.fake != nil {
				f.set(mode.fake)
			}
			var preIssued string
			c := f.newClient(func(cfg *Config) {
				mode.mutate(f, cfg)
				preIssued = cfg.JWT
				cfg.MaxRetries = 1
			})
			var buf bytes.Buffer
			ctx := tflogtest.RootLogger(context.Background(), &buf)

			if _, err := c.ListEvents(ctx); err != nil {
				t.Fatalf("ListEvents: %v", err)
			}
			_, _ = c.CreateSubscriptions(ctx, "", []SubscriptionInput{{EventName: "E", DestinationType: "EVENT_STREAMS", LogLevel: "INFO"}})
			_, _ = c.ListLogLevels(ctx) // 503, retried once: exercises retryablehttp's logger
			f.revokeAll()
			_, _ = c.ListDestinationTypes(ctx) // 401 -> refresh (or the pre-issued error)

			secrets := append([]string{}, mode.secrets...)
			if preIssued != "" {
				secrets = append(secrets, preIssued)
			}
			if tok, err := c.Token(context.Background(), ""); err == nil {
				secrets = append(secrets, tok)
			}
			for _, r := range append(f.api(), f.jwts()...) {
				if tok, ok := strings.CutPrefix(r.Auth, "Bearer "); ok {
					secrets = append(secrets, tok)
				}
			}
			out := buf.String()
			if !strings.Contains(out, "eventnotify API response") {
				t.Fatalf("no request log at all:\n%s", out)
			}
			for _, s := range secrets {
				if strings.Contains(out, s) {
					t.Errorf("log contains secret %q", s)
				}
			}
			if strings.Contains(out, "Authorization") || strings.Contains(out, "X-Platform-OTP") {
				t.Error("log mentions an auth header")
			}
			// The echoed secrets are redacted from the logged body before the log's masks apply.
			if !strings.Contains(out, httpapi.RedactedMarker) {
				t.Error("nothing was redacted although the service echoed secrets")
			}
		})
	}
}

// TestLogContent checks DEBUG and TRACE entries: fields of each attempt, bodies of service
// calls, and no body of the JWT endpoint.
func TestLogContent(t *testing.T) {
	t.Parallel()
	h, _ := scripted([]int{503}, nil, func(w http.ResponseWriter) { writeJSON(w, 200, `["ONLY_EVENT"]`) })
	f := newFake(t, h)
	c := f.newClient(nil)
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	if _, err := c.ListEvents(ctx); err != nil {
		t.Fatal(err)
	}
	entries, err := tflogtest.MultilineJSONDecode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var responses, retries, bodies int
	for _, e := range entries {
		msg, _ := e["@message"].(string)
		switch msg {
		case "eventnotify API response":
			responses++
			if e["@level"] != "debug" {
				t.Errorf("response logged at %v", e["@level"])
			}
			for _, k := range []string{"method", "path", "status", "attempt", "duration_ms", "operation"} {
				if _, ok := e[k]; !ok {
					t.Errorf("response entry lacks %q: %v", k, e)
				}
			}
			if e["operation"] == "list events" && e["status"] == float64(200) && e["attempt"] != float64(2) {
				t.Errorf("success logged as attempt %v, want 2", e["attempt"])
			}
		case "retrying request":
			retries++
		case "eventnotify API response body":
			bodies++
			if e["@level"] != "trace" {
				t.Errorf("body logged at %v", e["@level"])
			}
			if e["operation"] == httpapi.OpGenerateJWT {
				t.Error("the JWT endpoint's body was logged")
			}
		}
	}
	if responses != 3 { // JWT, 503, 200
		t.Errorf("%d response entries, want 3", responses)
	}
	if retries != 1 {
		t.Errorf("%d retry entries from retryablehttp, want 1", retries)
	}
	if bodies != 1 { // the final 200 body (a retried answer is drained); never the JWT
		t.Errorf("%d body entries, want 1", bodies)
	}
}
