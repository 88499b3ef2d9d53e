package client

import (
	"encoding/json"
	"testing"
)

// TestBulkUpdateItemWire: a bulk update item carries every string setting of its
// SubscriptionInput, empty ones included (so that an update clears what it leaves empty),
// and leaves out enabled when it is nil. The fields themselves are held equal to
// SubscriptionInput's by the conversion bulkSettings(input), which compiles only while both
// list the same fields in the same order.
func TestBulkUpdateItemWire(t *testing.T) {
	tests := []struct {
		name  string
		input SubscriptionInput
		want  string
	}{
		{"email, event streams settings cleared", SubscriptionInput{EventName: "ATOM.STATUS", DestinationType: "EMAIL", LogLevel: "ERROR"},
			`{"subscriptionId":"s-1","eventName":"ATOM.STATUS","destinationType":"EMAIL","logLevel":"ERROR","eventStreamsEnvironment":"","eventStreamsEnvironmentName":"","eventStreamsTopic":""}`},
		{"enabled given", SubscriptionInput{EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS", LogLevel: "INFO", EventStreamsEnvironment: "env-1", EventStreamsTopic: "t", Enabled: new(false)},
			`{"subscriptionId":"s-1","eventName":"ATOM.STATUS","destinationType":"EVENT_STREAMS","logLevel":"INFO","eventStreamsEnvironment":"env-1","eventStreamsEnvironmentName":"","eventStreamsTopic":"t","enabled":false}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(wireBulkUpdateItem{SubscriptionID: "s-1", bulkSettings: bulkSettings(tt.input)})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("item = %s\nwant    %s", got, tt.want)
			}
		})
	}
}
