package client

import (
	"context"
	"net/http"
	"reflect"
	"testing"
)

// TestCatalogueShapes covers every shape SERVICE.md allows, for each catalogue.
func TestCatalogueShapes(t *testing.T) {
	t.Parallel()
	type entries = []CatalogueEntry
	tests := []struct {
		name    string
		cat     catalogue
		body    string
		status  int
		want    entries
		wantErr bool
	}{
		{"array of strings", eventsCatalogue, `["A","B"]`, 200, entries{{"A", ""}, {"B", ""}}, false},
		{"array of objects with name", logLevelsCatalogue, `[{"name":"INFO","description":"d"}]`, 200, entries{{"INFO", "d"}}, false},
		{"events with eventName", eventsCatalogue, `[{"eventName":"E","description":"d","category":"x"}]`, 200, entries{{"E", "d"}}, false},
		{"name wins over eventName", eventsCatalogue, `[{"eventName":"E","name":"N"}]`, 200, entries{{"N", ""}}, false},
		{"wrapper events", eventsCatalogue, `{"events":[{"eventName":"E1"},{"eventName":"E2","description":null}]}`, 200, entries{{"E1", ""}, {"E2", ""}}, false},
		{"wrapper of strings", destinationTypesCatalogue, `{"destinationTypes":["EVENT_STREAMS","EMAIL"]}`, 200, entries{{"EVENT_STREAMS", ""}, {"EMAIL", ""}}, false},
		{"wrapper with other members", logLevelsCatalogue, `{"count":3,"logLevels":[{"name":"INFO"}],"meta":{"v":1}}`, 200, entries{{"INFO", ""}}, false},
		{"unknown wrapper member", logLevelsCatalogue, `{"whatever":[{"name":"INFO"}]}`, 200, entries{{"INFO", ""}}, false},
		{"several arrays, preferred key", eventsCatalogue, `{"warnings":["w"],"events":["E"]}`, 200, entries{{"E", ""}}, false},
		{"several arrays, first", eventsCatalogue, `{"x":["X"],"y":["Y"]}`, 200, entries{{"X", ""}}, false},
		{"nested wrapper", destinationTypesCatalogue, `{"data":{"destinationTypes":[{"name":"EMAIL","description":"mail"}]}}`, 200, entries{{"EMAIL", "mail"}}, false},
		{"log level under logLevel", logLevelsCatalogue, `[{"logLevel":"ERROR"}]`, 200, entries{{"ERROR", ""}}, false},
		{"destination type under destinationType", destinationTypesCatalogue, `[{"destinationType":"EMAIL"}]`, 200, entries{{"EMAIL", ""}}, false},
		{"empty array", eventsCatalogue, `[]`, 200, entries{}, false},
		{"empty wrapper array", eventsCatalogue, `{"events":[]}`, 200, entries{}, false},
		{"null member", eventsCatalogue, `{"events":null}`, 200, entries{}, false},
		{"empty object", eventsCatalogue, `{}`, 200, entries{}, false},
		{"null", eventsCatalogue, `null`, 200, entries{}, false},
		{"empty body", eventsCatalogue, ``, 200, entries{}, false},
		{"204", eventsCatalogue, ``, 204, entries{}, false},
		{"record without name", eventsCatalogue, `[{"description":"x"}]`, 200, nil, true},
		{"record with empty string", eventsCatalogue, `[""]`, 200, nil, true},
		{"number record", eventsCatalogue, `[1]`, 200, nil, true},
		{"object without array", eventsCatalogue, `{"name":"x"}`, 200, nil, true},
		{"scalar", eventsCatalogue, `"E"`, 200, nil, true},
		{"truncated", eventsCatalogue, `{"events":["A",`, 200, nil, true},
		{"trailing garbage", eventsCatalogue, `{"events":["A"]} x`, 200, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != tc.cat.path {
					t.Errorf("path %s, want %s", r.URL.Path, tc.cat.path)
				}
				if tc.status == 204 {
					w.WriteHeader(204)
					return
				}
				writeJSON(w, tc.status, tc.body)
			})
			c := f.newClient(nil)
			call := map[string]func(context.Context) ([]CatalogueEntry, error){
				eventsCatalogue.operation:           c.ListEvents,
				logLevelsCatalogue.operation:        c.ListLogLevels,
				destinationTypesCatalogue.operation: c.ListDestinationTypes,
			}[tc.cat.operation]
			got, err := call(context.Background())
			if tc.wantErr {
				if err == nil {
					t.Fatalf("no error, got %v", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("error %v", err)
			}
			if got == nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

// TestCatalogueNeedsAccount: without a pre-issued JWT, the catalogue calls need the default
// account whose token they use.
func TestCatalogueNeedsAccount(t *testing.T) {
	t.Parallel()
	f := newFake(t, eventsHandler)
	c := f.newClient(func(cfg *Config) { cfg.AccountID = "" })
	if _, err := c.ListEvents(context.Background()); err == nil {
		t.Fatal("no error without an account")
	}
	pre := f.newClient(func(cfg *Config) {
		cfg.AccountID, cfg.Username, cfg.Password, cfg.JWT = "", "", "", f.issue("any")
	})
	if _, err := pre.ListEvents(context.Background()); err != nil {
		t.Fatalf("pre-issued JWT without account: %v", err)
	}
}
