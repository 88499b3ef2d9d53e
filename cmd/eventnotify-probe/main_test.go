package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

const (
	account  = "probe-cmd-account"
	user     = "cmd-user"
	password = "cmd-pass-1f9a-secret"
	apiToken = "cmd-token-77c2-secret"
)

// mock starts the in-process mock with a user of password and API token.
func mock(t *testing.T) (*httptest.Server, *mockserver.Server) {
	t.Helper()
	srv := mockserver.New(mockserver.Config{Users: []mockserver.User{{Username: user, Password: password, APIToken: apiToken, Accounts: []string{account}}}})
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return hs, srv
}

// jwtOf is a JWT the mock issues for the account.
func jwtOf(t *testing.T, url string) string {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, url+"/auth/jwt/generate/"+account, nil)
	req.SetBasicAuth(user, password)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct{ Token string }
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || body.Token == "" {
		t.Fatalf("JWT: %v", err)
	}
	return body.Token
}

// TestRun: the exit code is 0 once the probe reached the service and authenticated, whichever
// credentials, 1 otherwise with a message saying what to set; no secret is printed or written.
func TestRun(t *testing.T) {
	hs, _ := mock(t)
	jwt := jwtOf(t, hs.URL)
	base := map[string]string{"EVENTNOTIFY_BASE_URL": hs.URL, "EVENTNOTIFY_AUTH_URL": hs.URL, "EVENTNOTIFY_ACCOUNT_ID": account, "EVENTNOTIFY_USERNAME": user}
	with := func(kv ...string) map[string]string {
		env := map[string]string{}
		for k, v := range base {
			env[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			env[kv[i]] = kv[i+1]
		}
		return env
	}
	tests := []struct {
		name     string
		env      map[string]string
		args     []string
		code     int
		wantOut  string // in standard output
		wantErr  string // in standard error
		wantFile bool   // -profile-out written
	}{
		{"password", with("EVENTNOTIFY_PASSWORD", password), []string{"-write"}, 0, `bulkUpdate:              "items"`, "", true},
		{"api token", with("EVENTNOTIFY_API_TOKEN", apiToken), nil, 0, `jwtBody:                 "object"`, "", true},
		{"pre-issued jwt", with("EVENTNOTIFY_USERNAME", "", "EVENTNOTIFY_JWT", jwt), nil, 0, "a JWT was given (EVENTNOTIFY_JWT)", "", true},
		{"other account", with("EVENTNOTIFY_PASSWORD", password), []string{"-account", "not-mine"}, 1, "", "may not access account \"not-mine\"", false},
		{"wrong password", with("EVENTNOTIFY_PASSWORD", password+"x"), nil, 1, "", "check EVENTNOTIFY_USERNAME and EVENTNOTIFY_PASSWORD", false},
		{"nothing set", map[string]string{}, nil, 1, "", "set EVENTNOTIFY_BASE_URL", false},
		{"bad flag", base, []string{"-nope"}, 2, "", "flag provided but not defined", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "profile.json")
			var stdout, stderr strings.Builder
			code := run(t.Context(), append(tt.args, "-max-requests-per-second", "0", "-profile-out", file), func(k string) string { return tt.env[k] }, &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tt.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tt.wantOut) || !strings.Contains(stderr.String(), tt.wantErr) {
				t.Errorf("stdout %q, stderr %q; want %q and %q", stdout.String(), stderr.String(), tt.wantOut, tt.wantErr)
			}
			written, err := os.ReadFile(file)
			if (err == nil) != tt.wantFile {
				t.Errorf("profile written: %v, want %v", err == nil, tt.wantFile)
			}
			all := stdout.String() + stderr.String() + string(written)
			for _, secret := range []string{password, apiToken, jwt} {
				if strings.Contains(all, secret) {
					t.Errorf("a secret was printed or written")
				}
			}
		})
	}
}
