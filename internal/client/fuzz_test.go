package client

import (
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// Fuzz targets of the response decoders, each with the invariants its callers
// rely on. FuzzDecoders (wire_test.go) runs every decoder on the same input and
// checks only that none panics; these check what comes out. `go test` runs
// their seeds (f.Add and testdata/fuzz/<target>); `go test -fuzz` explores:
//
//	go test -run '^$' -fuzz '^FuzzSubscriptionRoundTrip$' -fuzztime 5s ./internal/client/

// FuzzSubscriptionRoundTrip encodes a subscription of fuzzed fields as the
// service would, in each shape a single subscription or a list may arrive in,
// and checks that the decoders give back the same subscription.
func FuzzSubscriptionRoundTrip(f *testing.F) {
	f.Add("6f1c2a9e-0b7d-4c36-9a51-2b8f3e4d5c6a", "acc-1", "ATOM.STATUS", "EVENT_STREAMS", "WARNING", "env-1", "Production", "alerts", "ops@example.com", false, int64(1700000000123), int64(-1))
	f.Add("", "", "E", "", "", "", "", "", "", true, int64(0), int64(9223372036854775807))
	f.Add("s\u00e9\"\\\n</script>", "\x00", "\xff\xfe", "EMAIL", "INFO", "\u2028", "", "", "", true, int64(-9223372036854775808), int64(1))
	f.Fuzz(func(t *testing.T, id, account, event, destination, level, env, envName, topic, email string, enabled bool, created, updated int64) {
		want := Subscription{
			ID: id, AccountID: account, EventName: event, DestinationType: destination, LogLevel: level,
			EventStreamsEnvironment: env, EventStreamsEnvironmentName: envName, EventStreamsTopic: topic,
			DestinationEmail: email, Enabled: enabled, CreatedDate: created, LastUpdatedDate: updated,
			CreatedBy: email, LastUpdatedUserID: account,
		}
		one, err := json.Marshal(want)
		if err != nil {
			t.Fatalf("encoding: %v", err)
		}
		// JSON carries valid UTF-8 only: invalid bytes arrive as U+FFFD; a log level is read
		// in its canonical spelling.
		want = validUTF8(want)
		want.LogLevel = canonicalLogLevel(want.LogLevel)

		if want.ID != "" || want.EventName != "" {
			for _, body := range []string{string(one), `{"subscription":` + string(one) + `}`, `{"subscriptions":[` + string(one) + `]}`} {
				got, err := decodeSingleSubscription([]byte(body))
				if err != nil {
					t.Fatalf("decoding %s: %v", body, err)
				}
				if !reflect.DeepEqual(*got, want) {
					t.Fatalf("decoded %s\n got %+v\nwant %+v", body, *got, want)
				}
			}
		}
		for _, body := range []string{`[` + string(one) + `,` + string(one) + `]`, `{"subscriptions":[` + string(one) + `,` + string(one) + `]}`} {
			w, err := decodeSubscriptionWrapper([]byte(body))
			if err != nil {
				t.Fatalf("decoding %s: %v", body, err)
			}
			if got := w.list(); len(got) != 2 || !reflect.DeepEqual(got[0], want) || !reflect.DeepEqual(got[1], want) {
				t.Fatalf("decoded %s\n got %+v\nwant twice %+v", body, got, want)
			}
		}
	})
}

// validUTF8 replaces each invalid byte of every string field with U+FFFD, as
// encoding/json does (and as converting to runes does).
func validUTF8(s Subscription) Subscription {
	v := reflect.ValueOf(&s).Elem()
	for i := range v.NumField() {
		if fv := v.Field(i); fv.Kind() == reflect.String {
			fv.SetString(string([]rune(fv.String())))
		}
	}
	return s
}

// FuzzSubscriptionWrapper decodes any body as a list answer (listSubscribedEventsForAccount) and
// a single answer (getSubscribedEventForAccount and updateSubscription): no panic, a list is never nil, a page
// counts what it holds, and a single answer is a subscription or an error.
func FuzzSubscriptionWrapper(f *testing.F) {
	for _, b := range malformedBodies {
		f.Add([]byte(b), 0, 100)
	}
	f.Add([]byte(fullSubscriptionJSON), 0, 100)
	f.Add([]byte(`{"subscriptions":[{"subscriptionId":"a"}],"paginationMetadata":{"pageNumber":"3","pageSize":1e2,"totalPages":-1,"last":false}}`), 2, 1)
	f.Add([]byte(`{"subscriptions":[],"paginationMetadata":{"totalPages":9223372036854775807,"numberOfElements":-5}}`), 7, 1)
	f.Fuzz(func(t *testing.T, body []byte, pageNumber, pageSize int) {
		if pageNumber < 0 || pageSize <= 0 {
			t.Skip("ListSubscriptionsPage asks for pages from 0, of at least 1")
		}
		if w, err := decodeSubscriptionWrapper(body); err == nil {
			list := w.list()
			if list == nil {
				t.Fatal("list() returned nil")
			}
			p := w.page(pageNumber, pageSize)
			if p.Subscriptions == nil || len(p.Subscriptions) != len(list) {
				t.Fatalf("page holds %v, want the %d listed", p.Subscriptions, len(list))
			}
			if w.PaginationMetadata == nil && p.NumberOfElements != len(list) {
				t.Fatalf("page without metadata counts %d of %d", p.NumberOfElements, len(list))
			}
			if len(list) == 0 && !p.Last {
				t.Fatal("an empty page is not the last: paging would not end")
			}
		}
		s, err := decodeSingleSubscription(body)
		if (s == nil) == (err == nil) {
			t.Fatalf("decodeSingleSubscription = %v, %v: want exactly one of them", s, err)
		}
		if s != nil && s.ID == "" && s.EventName == "" {
			t.Fatalf("a subscription with neither an id nor an event name: %+v", s)
		}
	})
}

// FuzzCatalogue decodes any body as each of the three catalogues: no panic,
// and on success a non-nil list whose every record has a name.
func FuzzCatalogue(f *testing.F) {
	for _, b := range []string{
		`["INFO","WARNING"]`, `[{"name":"INFO","description":"d"}]`, `{"events":[{"eventName":"E"}]}`,
		`{"data":{"destinationTypes":[{"destinationType":"EMAIL"}]}}`, `{"x":["X"],"logLevels":[{"logLevel":"ERROR"}]}`,
		`{"a":{"b":{"c":["deep"]}}}`, `{"events":null}`, `{}`, ``, `[{"name":""}]`, `[1]`, `{"events":["A"]} x`,
	} {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, cat := range []catalogue{eventsCatalogue, logLevelsCatalogue, destinationTypesCatalogue} {
			entries, err := decodeCatalogue(body, cat)
			if err != nil {
				if entries != nil {
					t.Fatalf("%s: entries %v with error %v", cat.operation, entries, err)
				}
				continue
			}
			if entries == nil {
				t.Fatalf("%s: nil list without error", cat.operation)
			}
			for i, e := range entries {
				if e.Name == "" {
					t.Fatalf("%s: record %d has no name", cat.operation, i)
				}
			}
		}
	})
}

// FuzzBulkStatuses covers the 207 body of bulkOperationsOnSubscriptionsForAccount: any body decodes or
// fails without a panic, and statuses of fuzzed items encoded in both of its
// shapes (the wrapper and a bare array) come back unchanged and in order.
func FuzzBulkStatuses(f *testing.F) {
	f.Add([]byte(`{"operationStatuses":[{"subscriptionId":"a","httpEquivalentCode":204,"message":"Deleted successfully"},{"subscriptionId":"b","httpEquivalentCode":"404","message":"Subscription not found"}]}`), "a", 200, "Updated successfully")
	f.Add([]byte(`[{"subscriptionId":"x","httpEquivalentCode":4e2}]`), "b", 400, "Unable to update createdDate")
	f.Add([]byte(`{"operationStatuses":null}`), "", 0, "")
	f.Add([]byte(`{"operationStatuses":[{"httpEquivalentCode":"x"}]}`), "\xff", -1, "\u2028")
	f.Fuzz(func(t *testing.T, body []byte, id string, code int, message string) {
		if statuses, err := decodeOperationStatuses(body, nil); err == nil && statuses == nil {
			t.Fatal("nil statuses without error")
		}
		item := wireOperationStatus{SubscriptionID: id, HTTPEquivalentCode: flexInt64(code), Message: message}
		items, _ := json.Marshal([]wireOperationStatus{item, item})
		want := OperationStatus{SubscriptionID: string([]rune(id)), HTTPEquivalentCode: code, Message: httpapi.ServiceText(string([]rune(message)))}
		for _, b := range []string{string(items), `{"operationStatuses":` + string(items) + `}`} {
			got, err := decodeOperationStatuses([]byte(b), nil)
			if err != nil || len(got) != 2 || got[0] != want || got[1] != want {
				t.Fatalf("decoded %s: %+v, %v; want twice %+v", b, got, err, want)
			}
		}
	})
}

// TestMalformedResponseErrors: a 2xx answer that cannot be decoded is an
// error that matches httpapi.ErrMalformedResponse (the provider then warns that a
// write may have taken effect) and describes the body, not Go types.
func TestMalformedResponseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body string
		want string
	}{
		{`{"subscriptions":[{"subscriptionId":"3fa8`, "could not decode response of create subscriptions: the body is not valid JSON: unexpected end of JSON input"},
		{`{"subscriptions":[{"subscriptionId":42}]}`, `could not decode response of create subscriptions: the member "subscriptions.subscriptionId" holds a JSON number where a string is expected`},
		{`{"subscriptions":[{"subscriptionId":"a","enabled":"yes"}]}`, `the member "subscriptions.enabled" holds a JSON string where a bool is expected`},
		{`{"subscriptions":{}}`, `the member "subscriptions" holds a JSON object where a []client.Subscription is expected`},
	}
	for _, tc := range tests {
		f := newFake(t, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, http.StatusCreated, tc.body) })
		_, err := f.newClient(nil).CreateSubscriptions(t.Context(), "", nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.body, err, tc.want)
		}
		if !errors.Is(err, httpapi.ErrMalformedResponse) {
			t.Errorf("%s: error %v does not match ErrMalformedResponse", tc.body, err)
		}
	}
}
