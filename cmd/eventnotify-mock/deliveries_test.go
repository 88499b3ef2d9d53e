package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// postEvent fires an event at the command and returns the status and the deliveries answered.
func postEvent(t *testing.T, baseURL, body string) (int, []map[string]string) {
	t.Helper()
	resp, err := http.Post(baseURL+"/_mock/events", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var answer struct {
		Deliveries []map[string]string `json:"deliveries"`
	}
	if resp.StatusCode == http.StatusOK {
		if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode, answer.Deliveries
}

// getDeliveries reads GET /_mock/deliveries.
func getDeliveries(t *testing.T, baseURL string) []map[string]string {
	t.Helper()
	var answer struct {
		Deliveries []map[string]string `json:"deliveries"`
	}
	if err := json.Unmarshal([]byte(getText(t, baseURL+"/_mock/deliveries")), &answer); err != nil {
		t.Fatal(err)
	}
	return answer.Deliveries
}

// TestRunDeliveries drives the command's /_mock/events and /_mock/deliveries as a user's CI does:
// an event heard by the seeded subscriptions, one heard by none, one for an account that the
// command does not serve, a bad level, then /_mock/reset, which clears the deliveries and keeps
// the subscriptions.
func TestRunDeliveries(t *testing.T) {
	baseURL := startMock(t, "-listen", "127.0.0.1:0", "-account", "ci-account", "-seed", "3")

	// The seeded subscriptions: ATOM.STATUS at ERROR, enabled, topics seeded-000000 to 000002.
	status, heard := postEvent(t, baseURL, `{"accountId":"ci-account","eventName":"atom.status","logLevel":"ERROR"}`)
	if status != http.StatusOK || len(heard) != 3 {
		t.Fatalf("ATOM.STATUS at ERROR: status %d, deliveries %v; want 200 and the 3 seeded subscriptions", status, heard)
	}
	for _, d := range heard {
		if !strings.HasPrefix(d["eventStreamsTopic"], "seeded-") || d["destinationType"] != "EVENT_STREAMS" ||
			d["eventName"] != "atom.status" || d["logLevel"] != "ERROR" || d["accountId"] != "ci-account" || d["subscriptionId"] == "" {
			t.Errorf("delivery %v", d)
		}
	}
	if status, heard := postEvent(t, baseURL, `{"accountId":"ci-account","eventName":"ATOM.STATUS","logLevel":"WARNING"}`); status != http.StatusOK || len(heard) != 0 {
		t.Errorf("ATOM.STATUS at WARNING: status %d, deliveries %v; want 200 and none (the subscriptions start at ERROR)", status, heard)
	}
	if status, _ := postEvent(t, baseURL, `{"accountId":"demo-account","eventName":"ATOM.STATUS","logLevel":"ERROR"}`); status != http.StatusNotFound {
		t.Errorf("an account the command does not serve: status %d, want 404", status)
	}
	if status, _ := postEvent(t, baseURL, `{"accountId":"ci-account","eventName":"ATOM.STATUS","logLevel":"FATAL"}`); status != http.StatusBadRequest {
		t.Errorf("an unknown level: status %d, want 400", status)
	}
	if status, _ := postEvent(t, baseURL, `not json`); status != http.StatusBadRequest {
		t.Errorf("bad JSON: status %d, want 400", status)
	}
	if got := getDeliveries(t, baseURL); len(got) != 3 {
		t.Errorf("GET /_mock/deliveries: %d deliveries, want the 3 of the first event", len(got))
	}
	if code, _ := send(t, http.MethodDelete, baseURL, "/_mock/deliveries", "", nil); code != http.StatusMethodNotAllowed {
		t.Errorf("DELETE /_mock/deliveries: status %d, want 405", code)
	}

	resp, err := http.Post(baseURL+"/_mock/reset", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := getDeliveries(t, baseURL); len(got) != 0 {
		t.Errorf("after /_mock/reset: deliveries %v, want none", got)
	}
	if st := getStats(t, baseURL); st.Subscriptions != 3 || st.Total != 0 {
		t.Errorf("after /_mock/reset: stats %+v, want the 3 subscriptions kept and no request counted", st)
	}
}
