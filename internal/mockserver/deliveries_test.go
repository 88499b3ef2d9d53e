package mockserver_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// wireDelivery is a delivery as GET /_mock/deliveries answers it, written from the docs.
type wireDelivery struct {
	SubscriptionID          string `json:"subscriptionId"`
	AccountID               string `json:"accountId"`
	DestinationType         string `json:"destinationType"`
	DestinationEmail        string `json:"destinationEmail"`
	EventStreamsEnvironment string `json:"eventStreamsEnvironment"`
	EventStreamsTopic       string `json:"eventStreamsTopic"`
	EventName               string `json:"eventName"`
	LogLevel                string `json:"logLevel"`
}

// wireDeliveries is the body of GET /_mock/deliveries and of POST /_mock/events (which has no
// dropped, next or more).
type wireDeliveries struct {
	Deliveries []wireDelivery `json:"deliveries"`
	Dropped    int            `json:"dropped"`
	Next       int            `json:"next"`
	More       bool           `json:"more"`
}

// control serves one request to a /_mock/ handler.
func control(h http.HandlerFunc, method, path, body string) response {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	rec := httptest.NewRecorder()
	h(rec, req)
	return response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
}

// deliveriesOf decodes a 200 answer strictly.
func deliveriesOf(t *testing.T, r response) []wireDelivery {
	t.Helper()
	r.wantStatus(t, http.StatusOK)
	var body wireDeliveries
	decodeStrict(t, r.body, &body)
	if body.Deliveries == nil {
		t.Fatalf("deliveries is not a list in %s", r.body)
	}
	return body.Deliveries
}

// TestFireEventRule holds the mock's reading of the rule at every boundary: each minimum level
// against each fired level, enabled or not, the event name in another case, another event.
func TestFireEventRule(t *testing.T) {
	t.Parallel()
	levels := []string{"INFO", "WARNING", "ERROR"}
	for mi, minimum := range levels {
		for fi, fired := range levels {
			for _, enabled := range []bool{true, false} {
				for _, event := range []string{"PROCESS.EXECUTION", "process.Execution", "ATOM.STATUS"} {
					name := fmt.Sprintf("min %s fired %s enabled %v event %s", minimum, fired, enabled, event)
					t.Run(name, func(t *testing.T) {
						t.Parallel()
						srv := mockserver.New(mockserver.Config{})
						sub := srv.PutSubscription("acc-1", mockserver.Subscription{EventName: "PROCESS.EXECUTION",
							DestinationType: "EVENT_STREAMS", LogLevel: minimum, EventStreamsTopic: "t", Enabled: enabled})
						got, err := srv.FireEvent(mockserver.Event{AccountID: "acc-1", EventName: event, LogLevel: fired})
						if err != nil {
							t.Fatal(err)
						}
						want := enabled && mi <= fi && strings.EqualFold(event, "PROCESS.EXECUTION")
						if (len(got) == 1) != want || len(got) > 1 {
							t.Fatalf("deliveries %+v, want notified %v", got, want)
						}
						if want && got[0].SubscriptionID != sub.SubscriptionID {
							t.Errorf("delivery to %s, want %s", got[0].SubscriptionID, sub.SubscriptionID)
						}
					})
				}
			}
		}
	}
}

// TestHandleEvents fires events over HTTP at an account of email and event-streams
// subscriptions: the answer lists the deliveries of the event, GET /_mock/deliveries every one
// recorded in order, and ResetDeliveries clears them.
func TestHandleEvents(t *testing.T) {
	t.Parallel()
	srv := mockserver.New(mockserver.Config{Users: []mockserver.User{{Username: "u", Password: "p", Accounts: []string{"acc-1"}}}})
	put := func(id, event, level, topic string, enabled bool) {
		sub := mockserver.Subscription{SubscriptionID: id, EventName: event, DestinationType: "EVENT_STREAMS",
			LogLevel: level, EventStreamsEnvironment: "env-1", EventStreamsTopic: topic, Enabled: enabled}
		if topic == "" {
			sub.DestinationType, sub.EventStreamsEnvironment, sub.DestinationEmail = "EMAIL", "", "ops@example.com"
		}
		srv.PutSubscription("acc-1", sub)
	}
	put("00000000-0000-4000-8000-000000000003", "PROCESS.EXECUTION", "ERROR", "oncall", true)
	put("00000000-0000-4000-8000-000000000001", "process.execution", "INFO", "", true)
	put("00000000-0000-4000-8000-000000000002", "PROCESS.EXECUTION", "WARNING", "paused", false)
	put("00000000-0000-4000-8000-000000000004", "ATOM.STATUS", "INFO", "atoms", true)

	errorEvent := deliveriesOf(t, control(srv.HandleEvents, http.MethodPost, "/_mock/events",
		`{"accountId":"acc-1","eventName":"PROCESS.EXECUTION","logLevel":"ERROR"}`))
	want := []wireDelivery{
		{SubscriptionID: "00000000-0000-4000-8000-000000000001", AccountID: "acc-1", DestinationType: "EMAIL",
			DestinationEmail: "ops@example.com", EventName: "PROCESS.EXECUTION", LogLevel: "ERROR"},
		{SubscriptionID: "00000000-0000-4000-8000-000000000003", AccountID: "acc-1", DestinationType: "EVENT_STREAMS",
			EventStreamsEnvironment: "env-1", EventStreamsTopic: "oncall", EventName: "PROCESS.EXECUTION", LogLevel: "ERROR"},
	}
	if !reflect.DeepEqual(errorEvent, want) {
		t.Fatalf("deliveries of PROCESS.EXECUTION at ERROR\n got %+v\nwant %+v", errorEvent, want)
	}
	warning := deliveriesOf(t, control(srv.HandleEvents, http.MethodPost, "/_mock/events",
		`{"accountId":"acc-1","eventName":"Process.Execution","logLevel":"WARNING"}`))
	if len(warning) != 1 || warning[0].DestinationType != "EMAIL" || warning[0].EventName != "Process.Execution" {
		t.Fatalf("deliveries at WARNING %+v, want the INFO email subscription only, with the event as fired", warning)
	}
	if none := deliveriesOf(t, control(srv.HandleEvents, http.MethodPost, "/_mock/events",
		`{"accountId":"acc-1","eventName":"ENVIRONMENT.ALERT","logLevel":"ERROR"}`)); len(none) != 0 {
		t.Fatalf("an event nobody subscribes to delivered %+v", none)
	}

	all := deliveriesOf(t, control(srv.HandleDeliveries, http.MethodGet, "/_mock/deliveries", ""))
	if !reflect.DeepEqual(all, append(slices.Clone(want), warning...)) {
		t.Fatalf("GET /_mock/deliveries\n got %+v\nwant the first event's then the second's", all)
	}
	srv.ResetDeliveries()
	if after := deliveriesOf(t, control(srv.HandleDeliveries, http.MethodGet, "/_mock/deliveries", "")); len(after) != 0 {
		t.Fatalf("after ResetDeliveries: %+v", after)
	}
	if n := len(srv.Subscriptions("acc-1")); n != 4 {
		t.Errorf("ResetDeliveries left %d subscriptions, want the 4 stored", n)
	}
}

// TestHandleEventsBadInput answers each bad request with its status and the service's error
// body, names what is wrong, and records nothing.
func TestHandleEventsBadInput(t *testing.T) {
	t.Parallel()
	srv := mockserver.New(mockserver.Config{Users: []mockserver.User{{Username: "u", Password: "p", Accounts: []string{"acc-1"}}}})
	srv.PutSubscription("acc-1", mockserver.Subscription{EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS", LogLevel: "INFO", Enabled: true})
	tests := []struct {
		name, method, body string
		status             int
		errValue, message  string
	}{
		{"unknown account", http.MethodPost, `{"accountId":"acc-2","eventName":"ATOM.STATUS","logLevel":"INFO"}`,
			http.StatusNotFound, "Not Found", `unknown account "acc-2"`},
		{"bad JSON", http.MethodPost, `{"accountId":"acc-1",`, http.StatusBadRequest, "Bad Request", "Malformed event"},
		{"not an object", http.MethodPost, `["acc-1"]`, http.StatusBadRequest, "Bad Request", "Malformed event"},
		{"empty body", http.MethodPost, ``, http.StatusBadRequest, "Bad Request", "Malformed event"},
		{"unknown member", http.MethodPost, `{"accountId":"acc-1","eventName":"ATOM.STATUS","logLevel":"INFO","topic":"x"}`,
			http.StatusBadRequest, "Bad Request", `unknown field "topic"`},
		{"level not a string", http.MethodPost, `{"accountId":"acc-1","eventName":"ATOM.STATUS","logLevel":2}`,
			http.StatusBadRequest, "Bad Request", "Malformed event"},
		{"two values", http.MethodPost, `{"accountId":"acc-1","eventName":"ATOM.STATUS","logLevel":"INFO"} {}`,
			http.StatusBadRequest, "Bad Request", "more than one JSON value"},
		{"unknown level", http.MethodPost, `{"accountId":"acc-1","eventName":"ATOM.STATUS","logLevel":"DEBUG"}`,
			http.StatusBadRequest, "Bad Request", `logLevel "DEBUG" is not a log level: use INFO, WARNING, ERROR`},
		{"level in lower case", http.MethodPost, `{"accountId":"acc-1","eventName":"ATOM.STATUS","logLevel":"info"}`,
			http.StatusBadRequest, "Bad Request", `logLevel "info" is not a log level`},
		{"no event name", http.MethodPost, `{"accountId":"acc-1","eventName":" ","logLevel":"INFO"}`,
			http.StatusBadRequest, "Bad Request", "eventName is required"},
		{"no account", http.MethodPost, `{"eventName":"ATOM.STATUS","logLevel":"INFO"}`,
			http.StatusBadRequest, "Bad Request", "accountId is required"},
		{"GET", http.MethodGet, ``, http.StatusMethodNotAllowed, "Method Not Allowed", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := control(srv.HandleEvents, tt.method, "/_mock/events", tt.body)
			e := r.wantError(t, tt.status, tt.errValue, "/_mock/events")
			if tt.message != "" && (len(e.Messages) != 1 || !strings.Contains(e.Messages[0], tt.message)) {
				t.Errorf("messages %q, want one that says %q", e.Messages, tt.message)
			}
		})
	}
	r := control(srv.HandleDeliveries, http.MethodPost, "/_mock/deliveries", "")
	r.wantError(t, http.StatusMethodNotAllowed, "Method Not Allowed", "/_mock/deliveries")
	if got := r.header.Get("Allow"); got != http.MethodGet {
		t.Errorf("Allow = %q, want GET", got)
	}
	if d := srv.Deliveries(); len(d) != 0 {
		t.Errorf("bad requests recorded deliveries: %+v", d)
	}
}
