package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// startMockOutput runs the command with args and returns its standard output's variables (the
// first four; stop adds the others) and stop, which stops it and returns its standard error.
func startMockOutput(t *testing.T, args ...string) (kv map[string]string, stop func() string) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	var stderr syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, args, pw, &stderr)
		pw.Close()
	}()
	lines, rest := readOutput(t, pr, 4)
	kv = keyValues(t, lines)
	return kv, func() string {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
		for k, v := range keyValues(t, <-rest) {
			kv[k] = v
		}
		return stderr.String()
	}
}

// secretFile writes content to a file of its own and returns its name.
func secretFile(t *testing.T, content string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(name, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestRunCredentialSources: the password and the API token can come from the environment or a
// file instead of the command line (which every local user can read); they sign in, are never
// printed, and the note names where they came from.
func TestRunCredentialSources(t *testing.T) {
	const secret = "s3cret-from-elsewhere-81b2"
	tests := []struct {
		name     string
		env      map[string]string
		args     func(t *testing.T) []string
		user     string
		wantNote string
	}{
		{"password from the environment", map[string]string{envPassword: secret}, nil,
			"demo", "password: the value of EVENTNOTIFY_MOCK_PASSWORD (not printed)"},
		{"password from a file", nil,
			func(t *testing.T) []string { return []string{"-password-file", secretFile(t, secret+"\n")} },
			"demo", "password: the value of the file "},
		{"API token from the environment", map[string]string{envAPIToken: secret}, nil,
			"PLATFORM_TOKEN.demo", "API token: the value of EVENTNOTIFY_MOCK_API_TOKEN (not printed)"},
		{"API token from a file, CRLF", nil,
			func(t *testing.T) []string { return []string{"-api-token-file", secretFile(t, secret+"\r\n")} },
			"PLATFORM_TOKEN.demo", "API token: the value of the file "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			args := []string{"-listen", "127.0.0.1:0"}
			if tt.args != nil {
				args = append(args, tt.args(t)...)
			}
			kv, stop := startMockOutput(t, args...)
			base := kv["EVENTNOTIFY_BASE_URL"]
			if _, status := fetchJWT(t, base, "demo-account", tt.user, secret); status != http.StatusOK {
				t.Errorf("sign-in with the secret: status %d, want 200", status)
			}
			if _, status := fetchJWT(t, base, "demo-account", tt.user, secret[:len(secret)-1]); status != http.StatusUnauthorized {
				t.Errorf("sign-in with a wrong secret: status %d, want 401", status)
			}
			stderr := stop()
			if p, ok := kv["EVENTNOTIFY_PASSWORD"]; ok && tt.user == "demo" {
				t.Errorf("printed EVENTNOTIFY_PASSWORD=%s for a password of the user's", p)
			}
			if !strings.Contains(stderr, tt.wantNote) {
				t.Errorf("standard error %q does not say %q", stderr, tt.wantNote)
			}
			for k, v := range kv {
				if strings.Contains(v, secret) {
					t.Errorf("printed %s=%s", k, v)
				}
			}
			if strings.Contains(stderr, secret) {
				t.Errorf("standard error holds the secret: %q", stderr)
			}
		})
	}
}

// TestRunCredentialSourceErrors: a secret given two ways, or by a missing, empty or multi-line
// file, is a usage error, and nothing is printed.
func TestRunCredentialSourceErrors(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		args func(t *testing.T) []string
		want string
	}{
		{"flag and environment", map[string]string{envPassword: "a"},
			func(*testing.T) []string { return []string{"-password", "b"} }, "the password is given by -password and EVENTNOTIFY_MOCK_PASSWORD"},
		{"flag and file", nil,
			func(t *testing.T) []string { return []string{"-api-token", "b", "-api-token-file", secretFile(t, "a")} },
			"the api-token is given by -api-token and -api-token-file"},
		{"file and environment", map[string]string{envPassword: "a"},
			func(t *testing.T) []string { return []string{"-password-file", secretFile(t, "a")} }, "given by -password-file and EVENTNOTIFY_MOCK_PASSWORD"},
		{"missing file", nil,
			func(t *testing.T) []string { return []string{"-password-file", filepath.Join(t.TempDir(), "none")} }, "-password-file: open "},
		{"empty file", nil,
			func(t *testing.T) []string { return []string{"-password-file", secretFile(t, "\n")} }, "is empty"},
		{"two lines", nil,
			func(t *testing.T) []string { return []string{"-api-token-file", secretFile(t, "a\nb\n")} }, "holds more than one line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			var stdout strings.Builder
			err := run(t.Context(), append([]string{"-listen", "127.0.0.1:0"}, tt.args(t)...), &stdout, io.Discard)
			if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want a usage error holding %q", err, tt.want)
			}
			if stdout.Len() != 0 {
				t.Errorf("printed %q before failing", stdout.String())
			}
		})
	}
}

// TestRunEveryInterfaceNote: listening on every interface, the note says plainly that the Host
// check does not keep other machines out, and, with the public demo password, that anyone who
// reaches the port can sign in with the printed credentials.
func TestRunEveryInterfaceNote(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		want    []string
		notWant []string
	}{
		{"demo password", []string{"-listen", "0.0.0.0:0"}, nil,
			[]string{"The Host check keeps out web pages, not other machines", "can sign in with the demo credentials printed here, which are public",
				"set a password of your own (EVENTNOTIFY_MOCK_PASSWORD or -password-file)"},
			[]string{"It answers only requests to localhost"}},
		{"demo password given on the command line", []string{"-listen", ":0", "-password", "demo-password"}, nil,
			[]string{"can sign in with the demo credentials printed here, which are public"}, nil},
		{"a password of the user's", []string{"-listen", ":0"}, map[string]string{envPassword: "pw-of-the-user-77"},
			[]string{"The Host check keeps out web pages, not other machines", "and has the password or API token can sign in"},
			[]string{"which are public"}},
		{"loopback only", []string{"-listen", "127.0.0.1:0"}, nil, nil,
			[]string{"every interface", "anyone who can reach"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			_, stop := startMockOutput(t, tt.args...)
			stderr := stop()
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("standard error %q does not say %q", stderr, w)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(stderr, w) {
					t.Errorf("standard error %q says %q", stderr, w)
				}
			}
		})
	}
}
