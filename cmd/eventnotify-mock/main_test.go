package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// envRunMain makes the test binary run main() instead of the tests, with
// the newline-separated arguments of envArgs (see TestMainSignals).
const (
	envRunMain = "EVENTNOTIFY_MOCK_TEST_RUN_MAIN"
	envArgs    = "EVENTNOTIFY_MOCK_TEST_ARGS"
)

func TestMain(m *testing.M) {
	if os.Getenv(envRunMain) == "1" {
		os.Args = append([]string{"eventnotify-mock"}, strings.Split(os.Getenv(envArgs), "\n")...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// readLines reads the first n lines of r, and drains the rest.
func readLines(t *testing.T, r io.Reader, n int) []string {
	t.Helper()
	out, _ := readOutput(t, r, n)
	return out
}

// readOutput reads the first n lines of r; rest gives the lines after them once r ends.
func readOutput(t *testing.T, r io.Reader, n int) (first []string, rest <-chan []string) {
	t.Helper()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var out []string
	timeout := time.After(10 * time.Second)
	for len(out) < n {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("output ended after %q", out)
			}
			out = append(out, l)
		case <-timeout:
			t.Fatalf("timed out waiting for output; got %q", out)
		}
	}
	restc := make(chan []string, 1)
	go func() { // drain the rest
		var more []string
		for l := range lines {
			more = append(more, l)
		}
		restc <- more
	}()
	return out, restc
}

func keyValues(t *testing.T, lines []string) map[string]string {
	t.Helper()
	kv := make(map[string]string)
	for _, l := range lines {
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			t.Fatalf("line %q is not KEY=VALUE", l)
		}
		kv[k] = v
	}
	return kv
}

// fetchJWT gets a JWT from the mock at baseURL.
func fetchJWT(t *testing.T, baseURL, account, user, password string) (string, int) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, baseURL+"/auth/jwt/generate/"+account, nil)
	req.SetBasicAuth(user, password)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("JWT request: %v", err)
	}
	defer resp.Body.Close()
	var body struct {
		Token string `json:"token"`
	}
	if resp.StatusCode == http.StatusOK {
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
			t.Fatalf("JWT body: %v", err)
		}
	}
	return body.Token, resp.StatusCode
}

func get(t *testing.T, url, token string) int {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// syncBuffer is a strings.Builder safe for one writer and readers.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func TestRun(t *testing.T) {
	const (
		userPassword = "pw-of-the-user-3f9a"
		userToken    = "token-of-the-user-7c1e"
	)
	tests := []struct {
		name      string
		args      []string
		wantBase  string   // prefix of the base URL, before the port
		wantLines []string // keys after the base URL, in order: the whole output
		wantNotes []string // substrings of standard error
		user      string
		secret    string
		account   string
	}{
		{"defaults", []string{"-listen", "127.0.0.1:0"}, "http://127.0.0.1:",
			[]string{"EVENTNOTIFY_AUTH_URL", "EVENTNOTIFY_ACCOUNT_ID", "EVENTNOTIFY_USERNAME", "EVENTNOTIFY_PASSWORD"}, nil,
			"demo", "demo-password", "demo-account"},
		{"api token", []string{"-listen", "127.0.0.1:0", "-account", "acme", "-username", "ci", "-password", "", "-api-token", userToken, "-jwt-ttl", "1m"},
			"http://127.0.0.1:",
			[]string{"EVENTNOTIFY_AUTH_URL", "EVENTNOTIFY_ACCOUNT_ID", "EVENTNOTIFY_USERNAME"},
			[]string{"password sign-in is off", "API token: the value of -api-token (not printed), with the user name PLATFORM_TOKEN.ci"},
			"PLATFORM_TOKEN.ci", userToken, "acme"},
		{"user password", []string{"-listen", "127.0.0.1:0", "-password", userPassword}, "http://127.0.0.1:",
			[]string{"EVENTNOTIFY_AUTH_URL", "EVENTNOTIFY_ACCOUNT_ID", "EVENTNOTIFY_USERNAME"},
			[]string{"password: the value of -password (not printed)"},
			"demo", userPassword, "demo-account"},
		// A password given on the command line is never printed, even when it is the demo one.
		{"demo password given", []string{"-listen", "127.0.0.1:0", "-password", "demo-password"}, "http://127.0.0.1:",
			[]string{"EVENTNOTIFY_AUTH_URL", "EVENTNOTIFY_ACCOUNT_ID", "EVENTNOTIFY_USERNAME"},
			[]string{"password: the value of -password (not printed)"},
			"demo", "demo-password", "demo-account"},
		{"every IPv4 interface", []string{"-listen", "0.0.0.0:0", "-api-token", userToken}, "http://127.0.0.1:",
			[]string{"EVENTNOTIFY_AUTH_URL", "EVENTNOTIFY_ACCOUNT_ID", "EVENTNOTIFY_USERNAME", "EVENTNOTIFY_PASSWORD"},
			[]string{"listening on every interface, port ", "API token: the value of -api-token (not printed)"},
			"PLATFORM_TOKEN.demo", userToken, "demo-account"},
		{"every interface, no host", []string{"-listen", ":0"}, "http://127.0.0.1:",
			[]string{"EVENTNOTIFY_AUTH_URL", "EVENTNOTIFY_ACCOUNT_ID", "EVENTNOTIFY_USERNAME", "EVENTNOTIFY_PASSWORD"},
			[]string{"listening on every interface, port "},
			"demo", "demo-password", "demo-account"},
		{"every IPv6 interface", []string{"-listen", "[::]:0"}, "http://[::1]:",
			[]string{"EVENTNOTIFY_AUTH_URL", "EVENTNOTIFY_ACCOUNT_ID", "EVENTNOTIFY_USERNAME", "EVENTNOTIFY_PASSWORD"},
			[]string{"listening on every interface, port "},
			"demo", "demo-password", "demo-account"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.Contains(tt.wantBase, "[::1]") && !ipv6Loopback(t) {
				t.Skip("no IPv6 loopback on this machine")
			}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			pr, pw := io.Pipe()
			var stderr syncBuffer
			done := make(chan error, 1)
			go func() {
				done <- run(ctx, tt.args, pw, &stderr)
				pw.Close()
			}()
			lines, rest := readOutput(t, pr, 1+len(tt.wantLines))
			port, ok := strings.CutPrefix(lines[0], "EVENTNOTIFY_BASE_URL="+tt.wantBase)
			if !ok || port == "" || port == "0" {
				t.Fatalf("first line = %q, want EVENTNOTIFY_BASE_URL=%s<port>", lines[0], tt.wantBase)
			}
			for i, key := range tt.wantLines {
				if k, _, _ := strings.Cut(lines[i+1], "="); k != key {
					t.Errorf("line %d = %q, want key %s", i+2, lines[i+1], key)
				}
			}
			kv := keyValues(t, lines)
			baseURL := kv["EVENTNOTIFY_BASE_URL"]
			if kv["EVENTNOTIFY_AUTH_URL"] != baseURL || kv["EVENTNOTIFY_ACCOUNT_ID"] != tt.account {
				t.Errorf("output = %v", kv)
			}
			if p, printed := kv["EVENTNOTIFY_PASSWORD"]; printed && p != "demo-password" {
				t.Errorf("printed EVENTNOTIFY_PASSWORD=%q; only the default demo password may be printed", p)
			}

			token, status := fetchJWT(t, kv["EVENTNOTIFY_AUTH_URL"], tt.account, tt.user, tt.secret)
			if status != http.StatusOK {
				t.Fatalf("JWT status %d", status)
			}
			if got := get(t, baseURL+"/rest/v1/accounts/"+tt.account+"/subscriptions", token); got != http.StatusNoContent {
				t.Errorf("list status %d, want 204", got)
			}
			if got := get(t, baseURL+"/rest/v1/events", token); got != http.StatusOK {
				t.Errorf("events status %d, want 200", got)
			}
			// The user may access the -account account only.
			if _, status := fetchJWT(t, baseURL, "other-account", tt.user, tt.secret); status != http.StatusForbidden {
				t.Errorf("JWT for another account: status %d, want 403", status)
			}
			if _, status := fetchJWT(t, baseURL, tt.account, tt.user, "wrong"); status != http.StatusUnauthorized {
				t.Errorf("wrong secret: status %d, want 401", status)
			}

			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("run returned %v, want nil", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("run did not return after cancel")
			}
			if _, err := http.Get(baseURL + "/rest/v1/events"); err == nil {
				t.Errorf("still serving after shutdown")
			}
			if more := <-rest; len(more) > 0 {
				t.Errorf("more output after the variables: %q", more)
			}
			notes := stderr.String()
			for _, want := range tt.wantNotes {
				if !strings.Contains(notes, want) {
					t.Errorf("standard error %q does not say %q", notes, want)
				}
			}
			for _, secret := range []string{userPassword, userToken} {
				if strings.Contains(strings.Join(lines, "\n"), secret) || strings.Contains(notes, secret) {
					t.Errorf("a secret from the command line was printed: stdout %q, stderr %q", lines, notes)
				}
			}
		})
	}
}

func TestRunFlagErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"unknown flag", []string{"-port", "1"}},
		{"bad duration", []string{"-jwt-ttl", "soon"}},
		{"zero ttl", []string{"-jwt-ttl", "0s"}},
		{"no secret", []string{"-password", ""}},
		{"empty account", []string{"-account", ""}},
		{"empty username", []string{"-username", ""}},
		{"extra argument", []string{"serve"}},
		{"empty -allow-host", []string{"-allow-host", ""}},
		{"empty name in -allow-host", []string{"-allow-host", "mock,,ci"}},
		{"line break in account", []string{"-account", "a\nEVENTNOTIFY_BASE_URL=http://elsewhere"}},
		{"control character in username", []string{"-username", "demo\x1b[2J"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout strings.Builder
			err := run(t.Context(), append([]string{"-listen", "127.0.0.1:0"}, tt.args...), &stdout, io.Discard)
			if !errors.As(err, new(usageError)) {
				t.Errorf("err = %v, want a usage error", err)
			}
			if stdout.Len() != 0 {
				t.Errorf("printed %q before failing", stdout.String())
			}
		})
	}
	if err := run(t.Context(), []string{"-h"}, io.Discard, io.Discard); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-h: err = %v, want flag.ErrHelp", err)
	}
	// An address that cannot be listened on is a plain error.
	if err := run(t.Context(), []string{"-listen", "127.0.0.1:-1"}, io.Discard, io.Discard); err == nil || errors.As(err, new(usageError)) {
		t.Errorf("bad listen address: err = %v", err)
	}
}

// TestMainSignals runs the real main in a child process and stops it with
// each signal: it must exit 0.
func TestMainSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), envRunMain+"=1", envArgs+"=-listen\n127.0.0.1:0")
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			lines := readLines(t, stdout, 5)
			if !strings.HasPrefix(lines[0], "EVENTNOTIFY_BASE_URL=http://127.0.0.1:") {
				t.Fatalf("first line = %q", lines[0])
			}
			baseURL := strings.TrimPrefix(lines[0], "EVENTNOTIFY_BASE_URL=")
			token, status := fetchJWT(t, baseURL, "demo-account", "demo", "demo-password")
			if status != http.StatusOK || get(t, baseURL+"/rest/v1/log-levels", token) != http.StatusOK {
				t.Fatalf("mock not serving")
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Wait(); err != nil {
				t.Fatalf("exit after %v: %v; stderr %s", sig, err, stderr.String())
			}
		})
	}
}

// ipv6Loopback reports whether this machine can listen on ::1.
func ipv6Loopback(t *testing.T) bool {
	t.Helper()
	ln, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		return false
	}
	ln.Close()
	return true
}
