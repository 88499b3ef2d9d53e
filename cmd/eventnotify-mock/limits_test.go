package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"
)

// guard bounds how long a test waits for the server to close a connection: not a measure,
// only so that a server that never closes fails the test instead of hanging it.
const guard = 30 * time.Second

// dialMock opens a raw connection to the mock at baseURL.
func dialMock(t *testing.T, baseURL string) net.Conn {
	t.Helper()
	u, err := url.Parse(baseURL)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if err := conn.SetDeadline(time.Now().Add(guard)); err != nil {
		t.Fatal(err)
	}
	return conn
}

// waitClosed reads r to its end and fails unless the server closed the connection (EOF), rather
// than the guard deadline passing.
func waitClosed(t *testing.T, r io.Reader) {
	t.Helper()
	if _, err := io.Copy(io.Discard, r); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("the server kept the connection open for %s", guard)
		}
		if !errors.Is(err, net.ErrClosed) && !strings.Contains(err.Error(), "connection reset") {
			t.Fatalf("reading the connection: %v", err)
		}
	}
}

// TestRunIdleTimeout: a keep-alive connection that sends no further request is closed by the
// server after -idle-timeout.
func TestRunIdleTimeout(t *testing.T) {
	baseURL := startMock(t, "-listen", "127.0.0.1:0", "-idle-timeout", "50ms")
	conn := dialMock(t, baseURL)
	if _, err := io.WriteString(conn, "GET /_mock/stats HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Close {
		t.Fatalf("status %d, close %v: want 200 on a connection kept alive", resp.StatusCode, resp.Close)
	}
	waitClosed(t, br)
}

// TestRunReadTimeout: a request whose body comes a byte at a time, and then not at all, has its
// connection closed after -read-timeout, and is not served as a create.
func TestRunReadTimeout(t *testing.T) {
	baseURL := startMock(t, "-listen", "127.0.0.1:0", "-read-timeout", "100ms")
	token, status := fetchJWT(t, baseURL, "demo-account", "demo", "demo-password")
	if status != http.StatusOK {
		t.Fatalf("JWT status %d", status)
	}
	conn := dialMock(t, baseURL)
	head := "POST /rest/v1/accounts/demo-account/subscriptions HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
		"Authorization: Bearer " + token + "\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
	if _, err := io.WriteString(conn, head+`{"s`); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	// The server may answer the cut-off request (400) before it closes; never 2xx.
	if resp, err := http.ReadResponse(br, nil); err == nil {
		resp.Body.Close()
		if resp.StatusCode < 400 {
			t.Errorf("the trickled request was answered %d", resp.StatusCode)
		}
	}
	waitClosed(t, br)
}

// TestRunMaxHeaderBytes: request headers over -max-header-bytes are answered 431; under it, served.
func TestRunMaxHeaderBytes(t *testing.T) {
	const limit = 4096
	baseURL := startMock(t, "-listen", "127.0.0.1:0", "-max-header-bytes", "4096")
	tests := []struct {
		name   string
		header int // bytes of one extra header's value
		want   int
	}{
		{"under the limit", limit / 2, http.StatusOK},
		// Go reads up to 4 KiB beyond MaxHeaderBytes before it refuses.
		{"over the limit", 3 * limit, http.StatusRequestHeaderFieldsTooLarge},
		{"far over the limit (a 900 kB path's worth)", 900 << 10, http.StatusRequestHeaderFieldsTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, _ := send(t, http.MethodGet, baseURL, "/_mock/stats", "", http.Header{"X-Filler": {strings.Repeat("a", tt.header)}})
			if status != tt.want {
				t.Errorf("status %d, want %d", status, tt.want)
			}
		})
	}
}

// TestRunLimitFlagErrors: limits that would turn the protection off are usage errors.
func TestRunLimitFlagErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-read-timeout", "0s"},
		{"-read-header-timeout", "-1s"},
		{"-idle-timeout", "0s"},
		{"-max-header-bytes", "0"},
		{"-max-subscriptions", "0"},
		{"-max-deliveries", "0"},
		{"-seed", "4", "-max-subscriptions", "3"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			err := run(t.Context(), append([]string{"-listen", "127.0.0.1:0"}, args...), io.Discard, io.Discard)
			if !errors.As(err, new(usageError)) {
				t.Errorf("err = %v, want a usage error", err)
			}
		})
	}
}

// TestRunReadTimeoutWithLatency: -latency does not count against -read-timeout: the mock waits
// before it reads the body, and a body larger than Go's read buffer is read after the wait.
func TestRunReadTimeoutWithLatency(t *testing.T) {
	baseURL := startMock(t, "-listen", "127.0.0.1:0", "-read-timeout", "50ms", "-latency", "200ms")
	token, status := fetchJWT(t, baseURL, "demo-account", "demo", "demo-password")
	if status != http.StatusOK {
		t.Fatalf("JWT status %d, want 200", status)
	}
	body := `{"subscriptions": [{"eventName": "ATOM.STATUS", "destinationType": "EMAIL", "logLevel": "ERROR"}]}` + strings.Repeat(" ", 64<<10)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, baseURL+"/rest/v1/accounts/demo-account/subscriptions", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	msg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		t.Fatalf("create: status %d, %s; want 2xx", resp.StatusCode, msg)
	}
}

// TestRunMemoryLimits: -max-subscriptions bounds the account (a create that would pass it is
// answered 409 and stores nothing) and -max-deliveries the deliveries kept (the oldest dropped,
// counted in GET /_mock/deliveries's dropped).
func TestRunMemoryLimits(t *testing.T) {
	baseURL := startMock(t, "-listen", "127.0.0.1:0", "-seed", "2", "-max-subscriptions", "3", "-max-deliveries", "4")
	token, status := fetchJWT(t, baseURL, "demo-account", "demo", "demo-password")
	if status != http.StatusOK {
		t.Fatalf("JWT status %d", status)
	}
	item := `{"eventName": "ATOM.STATUS", "destinationType": "EMAIL", "logLevel": "ERROR"}`
	for _, tt := range []struct {
		items int
		want  int
		body  string
	}{
		{2, http.StatusConflict, `{"error":"Conflict","messages":["Account demo-account would hold 4 subscriptions: the mock keeps at most 3 per account ` +
			`(eventnotify-mock -max-subscriptions); delete some first. Nothing was stored"],"path":"/rest/v1/accounts/demo-account/subscriptions"}`},
		{1, http.StatusCreated, ""},
		{1, http.StatusConflict, `{"error":"Conflict","messages":["Account demo-account would hold 4 subscriptions: the mock keeps at most 3 per account ` +
			`(eventnotify-mock -max-subscriptions); delete some first. Nothing was stored"],"path":"/rest/v1/accounts/demo-account/subscriptions"}`},
	} {
		body := `{"subscriptions": [` + strings.TrimSuffix(strings.Repeat(item+",", tt.items), ",") + `]}`
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, baseURL+"/rest/v1/accounts/demo-account/subscriptions", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.want || (tt.body != "" && string(got) != tt.body) {
			t.Errorf("create %d: status %d, body %s; want %d %s", tt.items, resp.StatusCode, got, tt.want, tt.body)
		}
	}
	// The seeded two hear ATOM.STATUS at ERROR, and so does the created one: 3 per event.
	for range 3 {
		if status, heard := postEvent(t, baseURL, `{"accountId":"demo-account","eventName":"ATOM.STATUS","logLevel":"ERROR"}`); status != http.StatusOK || len(heard) != 3 {
			t.Fatalf("event: status %d, %d deliveries; want 200 and 3", status, len(heard))
		}
	}
	var page struct {
		Deliveries []map[string]string `json:"deliveries"`
		Dropped    int                 `json:"dropped"`
		Next       int                 `json:"next"`
		More       bool                `json:"more"`
	}
	if err := json.Unmarshal([]byte(getText(t, baseURL+"/_mock/deliveries")), &page); err != nil {
		t.Fatal(err)
	}
	if len(page.Deliveries) != 4 || page.Dropped != 5 || page.Next != 9 || page.More {
		t.Errorf("GET /_mock/deliveries: %d deliveries, dropped %d, next %d, more %v; want 4, 5, 9, false", len(page.Deliveries), page.Dropped, page.Next, page.More)
	}
}
