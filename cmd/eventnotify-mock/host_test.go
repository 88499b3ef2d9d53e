package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

func TestHostPolicy(t *testing.T) {
	loopback := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	everywhere := &net.TCPAddr{IP: net.IPv6unspecified, Port: 8080}
	tests := []struct {
		name   string
		listen string
		addr   net.Addr
		allow  []string
		host   string
		want   bool
	}{
		{"127.0.0.1 with port", "127.0.0.1:8080", loopback, nil, "127.0.0.1:8080", true},
		{"127.0.0.1 without port", "127.0.0.1:8080", loopback, nil, "127.0.0.1", true},
		{"another loopback address", "127.0.0.1:8080", loopback, nil, "127.1.2.3:9", true},
		{"localhost", "127.0.0.1:8080", loopback, nil, "localhost:8080", true},
		{"localhost in capitals with a trailing dot", "127.0.0.1:8080", loopback, nil, "LocalHost.:8080", true},
		{"::1", "127.0.0.1:8080", loopback, nil, "[::1]:8080", true},
		{"::1 without port", "127.0.0.1:8080", loopback, nil, "[::1]", true},
		{"IPv4-mapped loopback", "127.0.0.1:8080", loopback, nil, "[::ffff:127.0.0.1]:8080", true},
		{"a rebinding name", "127.0.0.1:8080", loopback, nil, "attacker.example:8080", false},
		{"a name ending in localhost", "127.0.0.1:8080", loopback, nil, "evil-localhost:8080", false},
		{"a subdomain of localhost", "127.0.0.1:8080", loopback, nil, "a.localhost.attacker.example", false},
		{"0.0.0.0", ":8080", everywhere, nil, "0.0.0.0:8080", false},
		{"another machine's address", ":8080", everywhere, nil, "192.0.2.7:8080", false},
		{"no Host", "127.0.0.1:8080", loopback, nil, "", false},
		{"allowed name", ":8080", everywhere, []string{"mock"}, "mock:8080", true},
		{"allowed name, other case", ":8080", everywhere, []string{"Mock."}, "MOCK", true},
		{"allowed name given with a port", ":8080", everywhere, []string{"mock:1234"}, "mock:8080", true},
		{"allowed IPv6 address", ":8080", everywhere, []string{"[2001:db8::1]"}, "[2001:DB8:0::1]:8080", true},
		{"not the allowed name", ":8080", everywhere, []string{"mock"}, "mock.attacker.example", false},
		{"any host", ":8080", everywhere, []string{"*"}, "attacker.example", true},
		{"the -listen host name", "mock.internal:8080", &net.TCPAddr{IP: net.IPv4(10, 0, 0, 5), Port: 8080}, nil, "mock.internal:8080", true},
		{"the address it listens on", "mock.internal:8080", &net.TCPAddr{IP: net.IPv4(10, 0, 0, 5), Port: 8080}, nil, "10.0.0.5:8080", true},
		{"not the -listen host", "mock.internal:8080", &net.TCPAddr{IP: net.IPv4(10, 0, 0, 5), Port: 8080}, nil, "10.0.0.6:8080", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := newHostPolicy(tt.listen, tt.addr, tt.allow).allows(tt.host); got != tt.want {
				t.Errorf("allows(%q) = %v, want %v", tt.host, got, tt.want)
			}
		})
	}
}

// startMock runs the command with args and returns its base URL; it stops when the test ends.
func startMock(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, args, pw, io.Discard)
		pw.Close()
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	})
	return strings.TrimPrefix(readLines(t, pr, 1)[0], "EVENTNOTIFY_BASE_URL=")
}

// send makes a request to baseURL+path with the Host header host (none when "") and
// returns the status and body.
func send(t *testing.T, method, baseURL, path, host string, header http.Header) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, baseURL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.SetBasicAuth("demo", "demo-password")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestRunHostCheck: a request that names another host is refused with 421 and a message
// that says how to allow it, control endpoints included; cross-origin browser writes are
// refused too.
func TestRunHostCheck(t *testing.T) {
	baseURL := startMock(t, "-listen", "127.0.0.1:0", "-allow-host", "mock,ci-mock")
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(baseURL, "http://"))
	const jwtPath = "/auth/jwt/generate/demo-account"
	tests := []struct {
		name       string
		method     string
		path       string
		host       string
		header     http.Header
		wantStatus int
	}{
		{"the printed address", http.MethodGet, jwtPath, "", nil, http.StatusOK},
		{"localhost", http.MethodGet, jwtPath, "localhost:" + port, nil, http.StatusOK},
		{"::1", http.MethodGet, jwtPath, "[::1]:" + port, nil, http.StatusOK},
		{"an allowed name", http.MethodGet, jwtPath, "mock:" + port, nil, http.StatusOK},
		{"the second allowed name", http.MethodGet, jwtPath, "ci-mock", nil, http.StatusOK},
		{"a rebinding name", http.MethodGet, jwtPath, "attacker.example:" + port, nil, http.StatusMisdirectedRequest},
		{"a rebinding name, service path", http.MethodGet, "/rest/v1/events", "attacker.example", nil, http.StatusMisdirectedRequest},
		{"a rebinding name, control endpoint", http.MethodPost, "/_mock/reset", "attacker.example", nil, http.StatusMisdirectedRequest},
		{"a browser's cross-origin write", http.MethodPost, "/_mock/reset", "", http.Header{"Sec-Fetch-Site": {"cross-site"}}, http.StatusForbidden},
		{"a browser's cross-origin write with Origin", http.MethodPost, "/_mock/reset", "",
			http.Header{"Origin": {"http://attacker.example"}}, http.StatusForbidden},
		{"a write without browser headers", http.MethodPost, "/_mock/reset", "", nil, http.StatusNoContent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := send(t, tt.method, baseURL, tt.path, tt.host, tt.header)
			if status != tt.wantStatus {
				t.Fatalf("status %d, want %d; body %s", status, tt.wantStatus, body)
			}
			if status != http.StatusMisdirectedRequest {
				return
			}
			var e struct {
				Error    string   `json:"error"`
				Messages []string `json:"messages"`
				Path     string   `json:"path"`
			}
			if err := json.Unmarshal([]byte(body), &e); err != nil {
				t.Fatalf("body %q: %v", body, err)
			}
			if e.Error != "Misdirected Request" || len(e.Messages) != 1 || e.Path != tt.path ||
				!strings.Contains(e.Messages[0], `-allow-host "attacker.example"`) {
				t.Errorf("body = %+v, want the service's error shape and how to allow the host", e)
			}
		})
	}
}

// TestRunAllowAnyHost: -allow-host '*' turns the check off.
func TestRunAllowAnyHost(t *testing.T) {
	baseURL := startMock(t, "-listen", "127.0.0.1:0", "-allow-host", "*")
	if status, body := send(t, http.MethodGet, baseURL, "/auth/jwt/generate/demo-account", "anything.example", nil); status != http.StatusOK {
		t.Errorf("status %d, want 200; body %s", status, body)
	}
}
