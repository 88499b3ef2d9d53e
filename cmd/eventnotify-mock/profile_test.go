package main

import (
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testPassword is the mock's password in the profile tests.
const testPassword = "profile-test-password"

// TestRunProfile: the mock started with -profile serves it: here a bare-token JWT body and
// answers without a Date header, and the note names the file. (The probe's profile of a mock
// started with -profile equals it: cmd/eventnotify-probe's TestProbeOfMockProcess.)
func TestRunProfile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "profile.json")
	if err := os.WriteFile(file, []byte(`{"jwtBody":"text","dateHeader":false,"rateLimit":{"status429":0}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	kv, stop := startMockOutput(t, "-listen", "127.0.0.1:0", "-password", testPassword, "-profile", file)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, kv["EVENTNOTIFY_AUTH_URL"]+"/auth/jwt/generate/"+kv["EVENTNOTIFY_ACCOUNT_ID"], nil)
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(kv["EVENTNOTIFY_USERNAME"], testPassword)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || strings.Count(string(body), ".") != 2 || strings.ContainsAny(string(body), `{"`) {
		t.Errorf("JWT endpoint: %d, a body of %d bytes that is not a bare token", resp.StatusCode, len(body))
	}
	if _, ok := resp.Header["Date"]; ok {
		t.Errorf("the answer carries a Date header: %q", resp.Header.Get("Date"))
	}
	if note := stop(); !strings.Contains(note, "serving with the profile "+file) {
		t.Errorf("standard error does not name the profile: %q", note)
	}
}

// TestRunProfileRefused: a profile with a bad value is refused at start, naming the member.
func TestRunProfileRefused(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ name, content, want string }{
		{"bad value", `{"catalogShape":"xml"}`, `"catalogShape"`},
		{"not JSON", `catalogShape: xml`, "not a JSON object"},
		{"missing file", "", "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".json")
			if tt.content != "" {
				if err := os.WriteFile(file, []byte(tt.content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			var stdout strings.Builder
			err := run(t.Context(), []string{"-listen", "127.0.0.1:0", "-profile", file}, &stdout, io.Discard)
			if !errorsAsUsage(err) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want a usage error containing %s", err, tt.want)
			}
			if stdout.Len() != 0 {
				t.Errorf("printed %q before failing", stdout.String())
			}
		})
	}
}

// errorsAsUsage reports whether err is a usageError.
func errorsAsUsage(err error) bool {
	return errors.As(err, new(usageError))
}
