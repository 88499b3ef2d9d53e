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

// TestRunSeedFile: -seed with a file stores its subscriptions in the account before the
// mock prints its address, known ids included.
func TestRunSeedFile(t *testing.T) {
	const knownID = "3f2d9a54-8a7b-4c61-9d0e-5b8f1c2a7e90"
	file := filepath.Join(t.TempDir(), "existing.json")
	seedJSON := `{"subscriptions": [
		{"subscriptionId": "` + knownID + `", "eventName": "ATOM.STATUS", "destinationType": "EMAIL", "logLevel": "ERROR"},
		{"eventName": "FLOW.FAILED", "destinationType": "EVENT_STREAMS", "logLevel": "INFO", "eventStreamsTopic": "alerts", "enabled": false}
	]}`
	if err := os.WriteFile(file, []byte(seedJSON), 0o600); err != nil {
		t.Fatal(err)
	}
	baseURL := startMock(t, "-listen", "127.0.0.1:0", "-seed", file)
	token, status := fetchJWT(t, baseURL, "demo-account", "demo", "demo-password")
	if status != http.StatusOK {
		t.Fatalf("JWT status %d", status)
	}
	accountURL := baseURL + "/rest/v1/accounts/demo-account/subscriptions"
	if got := get(t, accountURL+"/"+knownID, token); got != http.StatusOK {
		t.Errorf("GET the seeded id: status %d, want 200", got)
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, accountURL, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || strings.Count(string(body), `"subscriptionId"`) != 2 ||
		!strings.Contains(string(body), `"eventStreamsTopic":"alerts"`) || !strings.Contains(string(body), `"createdBy":"seed"`) {
		t.Errorf("listing: status %d, body %s; want the two seeded subscriptions", resp.StatusCode, body)
	}
}

// TestRunSeedFileErrors: a -seed file that cannot be read or holds an invalid subscription
// is a usage error, printed before anything is served.
func TestRunSeedFileErrors(t *testing.T) {
	dir := t.TempDir()
	invalid := filepath.Join(dir, "invalid.json")
	if err := os.WriteFile(invalid, []byte(`[{"eventName": "ATOM.STATUS", "destinationType": "SMS", "logLevel": "ERROR"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		seed    string
		wantErr string
	}{
		{"missing file", filepath.Join(dir, "missing.json"), "neither a number of subscriptions nor a readable file"},
		{"invalid subscription", invalid, "subscriptions[0]: Must provide a valid destinationType"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout strings.Builder
			err := run(t.Context(), []string{"-listen", "127.0.0.1:0", "-seed", tt.seed}, &stdout, io.Discard)
			if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err = %v, want a usage error saying %q", err, tt.wantErr)
			}
			if stdout.Len() != 0 {
				t.Errorf("printed %q before failing", stdout.String())
			}
		})
	}
}
