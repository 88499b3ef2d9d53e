package mockserver_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// jsonEqual compares b with the JSON text want.
func jsonEqual(t *testing.T, b []byte, want string) {
	t.Helper()
	var got, exp any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("body %s: %v", b, err)
	}
	if err := json.Unmarshal([]byte(want), &exp); err != nil {
		t.Fatalf("want %s: %v", want, err)
	}
	if !reflect.DeepEqual(got, exp) {
		t.Errorf("body = %s\nwant   %s", b, want)
	}
}

func TestCatalogueShapes(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	e.srv.SetEvents([]mockserver.CatalogueEntry{{"ATOM.STATUS", "status"}, {"PROCESS.EXECUTION", "exec"}})
	e.srv.SetLogLevels([]mockserver.CatalogueEntry{{"INFO", "i"}, {"ERROR", "e"}})
	e.srv.SetDestinationTypes([]mockserver.CatalogueEntry{{"EVENT_STREAMS", "es"}})
	type want struct{ events, logLevels, destTypes string }
	tests := []struct {
		name  string
		shape mockserver.CatalogueShape
		want  want
	}{
		{"wrapped objects", mockserver.CatalogueWrappedObjects, want{
			`{"events":[{"name":"ATOM.STATUS","description":"status"},{"name":"PROCESS.EXECUTION","description":"exec"}]}`,
			`{"logLevels":[{"name":"INFO","description":"i"},{"name":"ERROR","description":"e"}]}`,
			`{"destinationTypes":[{"name":"EVENT_STREAMS","description":"es"}]}`,
		}},
		{"array of objects", mockserver.CatalogueArrayObjects, want{
			`[{"name":"ATOM.STATUS","description":"status"},{"name":"PROCESS.EXECUTION","description":"exec"}]`,
			`[{"name":"INFO","description":"i"},{"name":"ERROR","description":"e"}]`,
			`[{"name":"EVENT_STREAMS","description":"es"}]`,
		}},
		{"array of strings", mockserver.CatalogueArrayStrings, want{
			`["ATOM.STATUS","PROCESS.EXECUTION"]`, `["INFO","ERROR"]`, `["EVENT_STREAMS"]`,
		}},
		{"wrapped strings", mockserver.CatalogueWrappedStrings, want{
			`{"events":["ATOM.STATUS","PROCESS.EXECUTION"]}`, `{"logLevels":["INFO","ERROR"]}`, `{"destinationTypes":["EVENT_STREAMS"]}`,
		}},
		{"eventName key", mockserver.CatalogueEventNameKey, want{
			`{"events":[{"eventName":"ATOM.STATUS","description":"status"},{"eventName":"PROCESS.EXECUTION","description":"exec"}]}`,
			`{"logLevels":[{"name":"INFO","description":"i"},{"name":"ERROR","description":"e"}]}`,
			`{"destinationTypes":[{"name":"EVENT_STREAMS","description":"es"}]}`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := e.with(t)
			e.srv.SetCatalogueShape(tt.shape)
			for path, body := range map[string]string{
				"/rest/v1/events": tt.want.events, "/rest/v1/log-levels": tt.want.logLevels, "/rest/v1/destination-types": tt.want.destTypes,
			} {
				r := e.do(http.MethodGet, path, token, nil)
				r.wantStatus(t, http.StatusOK)
				if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
					t.Errorf("%s Content-Type = %q", path, ct)
				}
				jsonEqual(t, r.body, body)
			}
		})
	}
}

func TestCatalogueDefaultsAndEmpty(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	names := func(path, member string) []string {
		r := e.do(http.MethodGet, path, token, nil)
		r.wantStatus(t, http.StatusOK)
		var body map[string][]struct {
			Name        string `json:"name"`
			Description string `json:"description"`
		}
		decodeStrict(t, r.body, &body)
		var out []string
		for _, rec := range body[member] {
			if rec.Description == "" {
				t.Errorf("%s: %s has no description", path, rec.Name)
			}
			out = append(out, rec.Name)
		}
		return out
	}
	if got := names("/rest/v1/events", "events"); !reflect.DeepEqual(got, []string{"ATOM.STATUS", "ATOM.DEPLOYMENT", "PROCESS.EXECUTION", "ENVIRONMENT.ALERT"}) {
		t.Errorf("events = %v", got)
	}
	if got := names("/rest/v1/log-levels", "logLevels"); !reflect.DeepEqual(got, []string{"INFO", "WARNING", "ERROR"}) {
		t.Errorf("log levels = %v", got)
	}
	if got := names("/rest/v1/destination-types", "destinationTypes"); !reflect.DeepEqual(got, []string{"EVENT_STREAMS", "EMAIL"}) {
		t.Errorf("destination types = %v", got)
	}

	// An empty catalogue is an empty array, never null, in every shape.
	e.srv.SetEvents(nil)
	for shape, want := range map[mockserver.CatalogueShape]string{
		mockserver.CatalogueWrappedObjects: `{"events":[]}`,
		mockserver.CatalogueArrayObjects:   `[]`,
		mockserver.CatalogueArrayStrings:   `[]`,
		mockserver.CatalogueWrappedStrings: `{"events":[]}`,
		mockserver.CatalogueEventNameKey:   `{"events":[]}`,
	} {
		e.srv.SetCatalogueShape(shape)
		r := e.do(http.MethodGet, "/rest/v1/events", token, nil)
		r.wantStatus(t, http.StatusOK)
		jsonEqual(t, r.body, want)
	}
}
