package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// getStats reads GET /_mock/stats.
func getStats(t *testing.T, baseURL string) stats {
	t.Helper()
	resp, err := http.Get(baseURL + "/_mock/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("stats: status %d", resp.StatusCode)
	}
	var st stats
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

// getText reads a text body.
func getText(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: status %d, %v", url, resp.StatusCode, err)
	}
	return string(b)
}

func TestRunLatencySeedAndStats(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-listen", "127.0.0.1:0", "-latency", "100ms", "-seed", "250"}, pw, io.Discard)
		pw.Close()
	}()
	kv := keyValues(t, readLines(t, pr, 5))
	baseURL := kv["EVENTNOTIFY_BASE_URL"]

	if st := getStats(t, baseURL); st.Total != 0 || st.Subscriptions != 250 || st.JWTFetches != 0 {
		t.Errorf("stats at start = %+v, want no request and 250 seeded subscriptions", st)
	}
	token, status := fetchJWT(t, baseURL, "demo-account", "demo", "demo-password")
	if status != http.StatusOK {
		t.Fatalf("JWT status %d", status)
	}
	start := time.Now()
	if got := get(t, baseURL+"/rest/v1/accounts/demo-account/subscriptions?pageSize=100&pageNumber=2", token); got != http.StatusOK {
		t.Errorf("list status %d", got)
	}
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Errorf("request took %s, want at least the 100ms latency", d)
	}
	get(t, baseURL+"/rest/v1/events", token)

	st := getStats(t, baseURL)
	want := map[string]int{
		"GET /auth/jwt/generate/{accountId}":              1,
		"GET /rest/v1/accounts/{accountId}/subscriptions": 1,
		"GET /rest/v1/events":                             1,
	}
	if st.Total != 3 || st.JWTFetches != 1 || len(st.Requests) != len(want) {
		t.Errorf("stats = %+v", st)
	}
	for k, n := range want {
		if st.Requests[k] != n {
			t.Errorf("requests[%q] = %d, want %d (%v)", k, st.Requests[k], n, st.Requests)
		}
	}
	// The injected latency is not counted as handling time.
	if st.HandlerSeconds <= 0 || st.HandlerSeconds >= 0.25 {
		t.Errorf("handler_seconds = %g, want more than 0 and well under the 3 x 100ms of latency", st.HandlerSeconds)
	}

	text := getText(t, baseURL+"/_mock/stats?format=text")
	wantText := "total\t3\njwt_fetches\t1\nhandler_seconds\t"
	wantRequests := "subscriptions\t250\n" +
		"request\tGET /auth/jwt/generate/{accountId}\t1\n" +
		"request\tGET /rest/v1/accounts/{accountId}/subscriptions\t1\n" +
		"request\tGET /rest/v1/events\t1\n"
	if !strings.HasPrefix(text, wantText) || !strings.HasSuffix(text, wantRequests) {
		t.Errorf("text stats:\n%s\nwant them to start with %q and end with %q", text, wantText, wantRequests)
	}

	resp, err := http.Post(baseURL+"/_mock/reset", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Errorf("reset: status %d", resp.StatusCode)
	}
	if st := getStats(t, baseURL); st.Total != 0 || st.JWTFetches != 0 || st.HandlerSeconds != 0 || st.Subscriptions != 250 {
		t.Errorf("stats after reset = %+v", st)
	}
	resp, err = http.Get(baseURL + "/_mock/nope")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown control endpoint: status %d, want 404", resp.StatusCode)
	}
	// The control endpoints are not service requests.
	if st := getStats(t, baseURL); st.Total != 0 {
		t.Errorf("control requests were counted: %+v", st)
	}

	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
}

func TestRunLatencySeedFlagErrors(t *testing.T) {
	for _, args := range [][]string{{"-latency", "-1s"}, {"-seed", "-1"}, {"-latency", "soon"}, {"-seed", "x"}} {
		err := run(t.Context(), append([]string{"-listen", "127.0.0.1:0"}, args...), io.Discard, io.Discard)
		if !errors.As(err, new(usageError)) {
			t.Errorf("%s: err = %v, want a usage error", strings.Join(args, " "), err)
		}
	}
}
