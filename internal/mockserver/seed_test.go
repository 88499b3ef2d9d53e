package mockserver

import (
	"strings"
	"testing"
)

func TestSeedSubscriptions(t *testing.T) {
	const knownID = "0b9c1f0e-6f1e-4c53-9a52-2d4b8f0f6a11"
	tests := []struct {
		name    string
		body    string
		wantErr string // substring; "" = success
		want    []Subscription
	}{
		{
			name: "create request",
			body: `{"subscriptions": [
				{"eventName": "ATOM.STATUS", "destinationType": "EMAIL", "logLevel": "INFO"},
				{"eventName": "FLOW.FAILED", "destinationType": "EVENT_STREAMS", "logLevel": "ERROR",
				 "eventStreamsEnvironment": "env-1", "eventStreamsEnvironmentName": "prod", "eventStreamsTopic": "t", "enabled": false}]}`,
			want: []Subscription{
				{EventName: "ATOM.STATUS", DestinationType: "EMAIL", LogLevel: "INFO", Enabled: true},
				{EventName: "FLOW.FAILED", DestinationType: "EVENT_STREAMS", LogLevel: "ERROR",
					EventStreamsEnvironment: "env-1", EventStreamsEnvironmentName: "prod", EventStreamsTopic: "t"},
			},
		},
		{
			name: "bare array with a known id",
			body: `[{"subscriptionId": "` + strings.ToUpper(knownID) + `", "eventName": "ATOM.STATUS", "destinationType": "EMAIL", "logLevel": "WARNING"}]`,
			want: []Subscription{{SubscriptionID: knownID, EventName: "ATOM.STATUS", DestinationType: "EMAIL", LogLevel: "WARNING", Enabled: true}},
		},
		{name: "empty list", body: `{"subscriptions": []}`, want: []Subscription{}},
		{name: "invalid item named by index", body: `[{"eventName": "A", "destinationType": "EMAIL", "logLevel": "INFO"}, {"eventName": "A", "destinationType": "SMS", "logLevel": "INFO"}]`,
			wantErr: "subscriptions[1]: " + msgInvalidDestType},
		{name: "server-managed field", body: `[{"eventName": "A", "destinationType": "EMAIL", "logLevel": "INFO", "createdBy": "x"}]`,
			wantErr: "subscriptions[0]: createdBy is managed by the service"},
		{name: "id not a uuid", body: `[{"subscriptionId": "abc", "eventName": "A", "destinationType": "EMAIL", "logLevel": "INFO"}]`,
			wantErr: "subscriptions[0]: subscriptionId must be a uuid"},
		{name: "repeated id", body: `[{"subscriptionId": "` + knownID + `", "eventName": "A", "destinationType": "EMAIL", "logLevel": "INFO"},
			{"subscriptionId": "` + knownID + `", "eventName": "B", "destinationType": "EMAIL", "logLevel": "INFO"}]`,
			wantErr: "subscriptions[1]: subscriptionId " + knownID + " is repeated"},
		{name: "item not an object", body: `[1]`, wantErr: "subscriptions[0]: " + msgItemNotObject},
		{name: "unknown member of the request", body: `{"subscriptions": [], "extra": 1}`, wantErr: "extra"},
		{name: "subscriptions missing", body: `{}`, wantErr: `"subscriptions" must be an array`},
		{name: "not JSON", body: `subscriptions:`, wantErr: "not JSON"},
		{name: "a string", body: `"x"`, wantErr: `want {"subscriptions": [...]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(Config{})
			got, err := s.SeedSubscriptions("acct", "seeder", []byte(tt.body))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				if n := len(s.Subscriptions("acct")); n != 0 {
					t.Errorf("%d subscriptions stored after an error, want none", n)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d subscriptions, want %d", len(got), len(tt.want))
			}
			stored := s.Subscriptions("acct") // sorted by createdDate: body order
			for i, w := range tt.want {
				g := got[i]
				if w.SubscriptionID != "" && g.SubscriptionID != w.SubscriptionID {
					t.Errorf("[%d] id = %q, want %q", i, g.SubscriptionID, w.SubscriptionID)
				}
				if _, isUUID := canonicalID(g.SubscriptionID); !isUUID {
					t.Errorf("[%d] id %q is not a uuid", i, g.SubscriptionID)
				}
				if g.AccountID != "acct" || g.CreatedBy != "seeder" || g.LastUpdatedUserID != "seeder" || g.CreatedDate == 0 || g.LastUpdatedDate != g.CreatedDate {
					t.Errorf("[%d] managed fields = %+v", i, g)
				}
				w.SubscriptionID, w.AccountID, w.CreatedBy, w.LastUpdatedUserID = g.SubscriptionID, g.AccountID, g.CreatedBy, g.LastUpdatedUserID
				w.CreatedDate, w.LastUpdatedDate = g.CreatedDate, g.LastUpdatedDate
				if g != w {
					t.Errorf("[%d] = %+v, want %+v", i, g, w)
				}
				if stored[i] != g {
					t.Errorf("stored[%d] = %+v, want %+v (body order)", i, stored[i], g)
				}
			}
		})
	}
}

// TestSeedSubscriptionsExistingID: a seed never replaces a subscription, and an error stores nothing.
func TestSeedSubscriptionsExistingID(t *testing.T) {
	s := New(Config{})
	first, err := s.SeedSubscriptions("acct", "seeder", []byte(`[{"eventName": "A", "destinationType": "EMAIL", "logLevel": "INFO"}]`))
	if err != nil {
		t.Fatal(err)
	}
	body := `[{"eventName": "B", "destinationType": "EMAIL", "logLevel": "INFO"},
		{"subscriptionId": "` + first[0].SubscriptionID + `", "eventName": "C", "destinationType": "EMAIL", "logLevel": "INFO"}]`
	_, err = s.SeedSubscriptions("acct", "seeder", []byte(body))
	if err == nil || !strings.Contains(err.Error(), "subscriptions[1]: subscriptionId "+first[0].SubscriptionID+" already exists") {
		t.Fatalf("err = %v, want the existing id named", err)
	}
	if got := s.Subscriptions("acct"); len(got) != 1 || got[0] != first[0] {
		t.Errorf("account = %+v, want only %+v", got, first[0])
	}
}
