package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// fullSubscriptionWireJSON carries every field of the spec's Subscription.
const fullSubscriptionWireJSON = `{
	"subscriptionId": "6f1c2a9e-0b7d-4c36-9a51-2b8f3e4d5c6a",
	"eventName": "USER_CREATED",
	"destinationType": "EVENT_STREAMS",
	"logLevel": "WARNING",
	"accountId": "acc-1",
	"destinationEmail": "ops@example.com",
	"eventStreamsEnvironment": "env-42",
	"eventStreamsEnvironmentName": "Production",
	"eventStreamsTopic": "audit",
	"enabled": false,
	"createdDate": 1700000000123,
	"lastUpdatedDate": 1700000999456,
	"createdBy": "creator@example.com",
	"lastUpdatedUserId": "updater@example.com"`

// fullSubscriptionJSON is a service answer: every field, plus one the client must ignore.
const fullSubscriptionJSON = fullSubscriptionWireJSON + `,
	"someFutureField": {"ignored": true}
}`

// fullSubscription is fullSubscriptionJSON decoded.
func fullSubscription() Subscription {
	return Subscription{
		ID:                          "6f1c2a9e-0b7d-4c36-9a51-2b8f3e4d5c6a",
		AccountID:                   "acc-1",
		EventName:                   "USER_CREATED",
		DestinationType:             "EVENT_STREAMS",
		LogLevel:                    "WARNING",
		DestinationEmail:            "ops@example.com",
		EventStreamsEnvironment:     "env-42",
		EventStreamsEnvironmentName: "Production",
		EventStreamsTopic:           "audit",
		Enabled:                     false,
		CreatedDate:                 1700000000123,
		LastUpdatedDate:             1700000999456,
		CreatedBy:                   "creator@example.com",
		LastUpdatedUserID:           "updater@example.com",
	}
}

func boolPtr(b bool) *bool { return &b }

// TestOperationsWire checks every operation's method, path, query and body JSON names, and
// the decoding of its response.
func TestOperationsWire(t *testing.T) {
	t.Parallel()
	full := fullSubscription()
	subPath := "/rest/v1/accounts/acc-1/subscriptions"
	one := subPath + "/6f1c2a9e-0b7d-4c36-9a51-2b8f3e4d5c6a"
	inFull := SubscriptionInput{
		EventName: "USER_CREATED", DestinationType: "EVENT_STREAMS", LogLevel: "WARNING",
		EventStreamsEnvironment: "env-42", EventStreamsEnvironmentName: "Production", EventStreamsTopic: "audit",
		Enabled: boolPtr(false),
	}
	inFullJSON := `{"eventName":"USER_CREATED","destinationType":"EVENT_STREAMS","logLevel":"WARNING",
		"eventStreamsEnvironment":"env-42","eventStreamsEnvironmentName":"Production","eventStreamsTopic":"audit","enabled":false}`
	inMin := SubscriptionInput{EventName: "E", DestinationType: "EVENT_STREAMS", LogLevel: "INFO"}
	inMinJSON := `{"eventName":"E","destinationType":"EVENT_STREAMS","logLevel":"INFO"}`

	tests := []struct {
		name       string
		call       func(ctx context.Context, c *Client) (any, error)
		method     string
		path       string
		query      map[string][]string
		reqBody    string // "" => no body expected
		status     int
		respBody   string
		want       any
		wantAbsent []string // JSON names that must not appear in the request body
	}{
		{
			name: "1 list subscriptions page",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListSubscriptionsPage(ctx, "", 0, ListOptions{SortBy: "eventName", SortDirection: "DESC"})
			},
			method: http.MethodGet, path: subPath,
			query:  map[string][]string{"pageNumber": {"0"}, "pageSize": {"100"}, "sortBy": {"eventName"}, "sortDirection": {"DESC"}},
			status: 200,
			respBody: `{"subscriptions":[` + fullSubscriptionJSON + `],"paginationMetadata":{"pageNumber":0,"pageSize":100,
				"totalPages":1,"totalElements":1,"numberOfElements":1,"first":true,"last":true}}`,
			want: &Page{Subscriptions: []Subscription{full}, PageNumber: 0, PageSize: 100, TotalPages: 1, TotalElements: 1,
				NumberOfElements: 1, First: true, Last: true},
		},
		{
			name: "2 replace subscriptions (201)",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ReplaceSubscriptions(ctx, "acc-1", []SubscriptionInput{inFull, inMin})
			},
			method: http.MethodPut, path: subPath,
			reqBody:    `{"subscriptions":[` + inFullJSON + `,` + inMinJSON + `]}`,
			status:     201,
			respBody:   `{"subscriptions":[` + fullSubscriptionJSON + `]}`,
			want:       []Subscription{full},
			wantAbsent: serverManaged,
		},
		{
			name: "2 replace subscriptions (204, none)",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ReplaceSubscriptions(ctx, "acc-1", nil)
			},
			method: http.MethodPut, path: subPath,
			reqBody: `{"subscriptions":[]}`,
			status:  204,
			want:    []Subscription{},
		},
		{
			name: "3 create subscriptions",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateSubscriptions(ctx, "acc-1", []SubscriptionInput{inMin})
			},
			method: http.MethodPost, path: subPath,
			reqBody:  `{"subscriptions":[` + inMinJSON + `]}`,
			status:   201,
			respBody: `{"subscriptions":[{"subscriptionId":"6b0e4c8a-1d2f-4a3b-9c5d-7e8f9a0b1c2d","eventName":"E","destinationType":"EVENT_STREAMS","logLevel":"INFO","accountId":"acc-1"}]}`,
			want: []Subscription{{ID: "6b0e4c8a-1d2f-4a3b-9c5d-7e8f9a0b1c2d", EventName: "E", DestinationType: "EVENT_STREAMS", LogLevel: "INFO",
				AccountID: "acc-1", Enabled: true}},
			wantAbsent: []string{"enabled", "eventStreamsEnvironment", "eventStreamsEnvironmentName", "eventStreamsTopic", "subscriptionId"},
		},
		{
			name: "4 delete all subscriptions",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.DeleteAllSubscriptions(ctx, "acc-1")
			},
			method: http.MethodDelete, path: subPath, status: 204,
		},
		{
			name: "5 bulk delete",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.BulkDeleteSubscriptions(ctx, "acc-1", []string{"a", "b"})
			},
			method: http.MethodPatch, path: subPath,
			reqBody: `{"operation":"delete","subscriptionIds":["a","b"]}`,
			status:  207,
			respBody: `{"operationStatuses":[{"subscriptionId":"a","httpEquivalentCode":204,"message":"Deleted successfully"},
				{"subscriptionId":"b","httpEquivalentCode":404,"message":"Subscription not found"}]}`,
			want: []OperationStatus{{SubscriptionID: "a", HTTPEquivalentCode: 204, Message: "Deleted successfully"},
				{SubscriptionID: "b", HTTPEquivalentCode: 404, Message: "Subscription not found"}},
			wantAbsent: []string{"subscriptions"},
		},
		{
			name: "5 bulk update",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.BulkUpdateSubscriptions(ctx, "acc-1", []Subscription{full, {ID: "b", EventName: "E", DestinationType: "EMAIL", LogLevel: "ERROR", Enabled: true}})
			},
			method: http.MethodPatch, path: subPath,
			reqBody: `{"operation":"update","subscriptions":[` + fullSubscriptionWireJSON + `},
				{"subscriptionId":"b","eventName":"E","destinationType":"EMAIL","logLevel":"ERROR","enabled":true}]}`,
			status: 207,
			respBody: `{"operationStatuses":[{"subscriptionId":"6f1c2a9e-0b7d-4c36-9a51-2b8f3e4d5c6a","httpEquivalentCode":400,"message":"Unable to update createdDate"},
				{"subscriptionId":"b","httpEquivalentCode":200,"message":"Updated successfully"}]}`,
			want: []OperationStatus{{SubscriptionID: "6f1c2a9e-0b7d-4c36-9a51-2b8f3e4d5c6a", HTTPEquivalentCode: 400, Message: "Unable to update createdDate"},
				{SubscriptionID: "b", HTTPEquivalentCode: 200, Message: "Updated successfully"}},
			wantAbsent: []string{"subscriptionIds"},
		},
		{
			name: "6 read subscription, top level (SERVICE.md rule 5 sample)",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.GetSubscription(ctx, "", full.ID)
			},
			method: http.MethodGet, path: one, status: 200, respBody: fullSubscriptionJSON, want: &full,
		},
		{
			name: "6 read subscription, wrapped (SERVICE.md rule 5 schema)",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.GetSubscription(ctx, "acc-1", full.ID)
			},
			method: http.MethodGet, path: one, status: 200,
			respBody: `{"subscription":` + fullSubscriptionJSON + `,"paginationMetadata":null}`, want: &full,
		},
		{
			name: "7 update subscription, wrapped",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.UpdateSubscription(ctx, "acc-1", full.ID, inFull)
			},
			method: http.MethodPut, path: one,
			reqBody:  `{"subscription":` + inFullJSON + `}`,
			status:   200,
			respBody: `{"subscription":` + fullSubscriptionJSON + `}`,
			want:     &full,
			wantAbsent: []string{"subscriptionId", "accountId", "createdDate", "lastUpdatedDate", "createdBy",
				"lastUpdatedUserId", "subscriptions"},
		},
		{
			name: "7 update subscription, top level",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.UpdateSubscription(ctx, "acc-1", full.ID, inMin)
			},
			method: http.MethodPut, path: one,
			reqBody: `{"subscription":` + inMinJSON + `}`,
			status:  200, respBody: fullSubscriptionJSON, want: &full,
		},
		{
			name: "8 delete subscription",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.DeleteSubscription(ctx, "acc-1", full.ID)
			},
			method: http.MethodDelete, path: one, status: 204,
		},
		{
			name: "9 create event streams topic",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateEventStreamTopic(ctx, "acc-1", TopicInput{EnvironmentID: "env-42", SubscriptionName: "sub-a", TopicName: "audit", TopicDescription: "Audit events"})
			},
			method: http.MethodPost, path: "/rest/v1/accounts/acc-1/eventStreams/topic/subscription",
			reqBody: `{"eventStreamsEnvironmentId":"env-42","eventStreamsSubscriptionName":"sub-a","topicName":"audit","topicDescription":"Audit events"}`,
			status:  201,
			respBody: `{"data":{"eventStreamsSubscriptionCreate":{"name":"sub-a","topic":{"name":"audit",
				"environment":{"id":"env-42"},"subscriptionCount":3}}}}`,
			want: &TopicResult{SubscriptionName: "sub-a", TopicName: "audit", EnvironmentID: "env-42", SubscriptionCount: 3},
		},
		{
			name: "9 create event streams topic, no description",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateEventStreamTopic(ctx, "acc-1", TopicInput{EnvironmentID: "env-42", SubscriptionName: "sub-a", TopicName: "audit"})
			},
			method: http.MethodPost, path: "/rest/v1/accounts/acc-1/eventStreams/topic/subscription",
			reqBody: `{"eventStreamsEnvironmentId":"env-42","eventStreamsSubscriptionName":"sub-a","topicName":"audit"}`,
			status:  201,
			respBody: `{"data":{"eventStreamsSubscriptionCreate":{"name":"sub-a","topic":{"name":"audit",
				"environment":{"id":"env-42"},"subscriptionCount":1}}}}`,
			want:       &TopicResult{SubscriptionName: "sub-a", TopicName: "audit", EnvironmentID: "env-42", SubscriptionCount: 1},
			wantAbsent: []string{"topicDescription"},
		},
		{
			name:   "10 list log levels",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.ListLogLevels(ctx) },
			method: http.MethodGet, path: "/rest/v1/log-levels", status: 200,
			respBody: `{"logLevels":[{"name":"INFO","description":"Informational"},{"name":"WARNING"},{"name":"ERROR","description":"Errors only"}]}`,
			want:     []CatalogueEntry{{"INFO", "Informational"}, {"WARNING", ""}, {"ERROR", "Errors only"}},
		},
		{
			name:   "11 list events",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.ListEvents(ctx) },
			method: http.MethodGet, path: "/rest/v1/events", status: 200,
			respBody: `{"events":[{"eventName":"USER_CREATED","description":"A user was created"},{"eventName":"USER_DELETED"}]}`,
			want:     []CatalogueEntry{{"USER_CREATED", "A user was created"}, {"USER_DELETED", ""}},
		},
		{
			name:   "12 list destination types",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.ListDestinationTypes(ctx) },
			method: http.MethodGet, path: "/rest/v1/destination-types", status: 200,
			respBody: `{"destinationTypes":[{"name":"EVENT_STREAMS","description":"Event streams topic"},{"name":"EMAIL","description":"E-mail"}]}`,
			want:     []CatalogueEntry{{"EVENT_STREAMS", "Event streams topic"}, {"EMAIL", "E-mail"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
				if tc.respBody == "" {
					w.WriteHeader(tc.status)
					return
				}
				writeJSON(w, tc.status, tc.respBody)
			})
			c := f.newClient(nil)
			got, err := tc.call(context.Background(), c)
			if err != nil {
				t.Fatalf("call: %v", err)
			}
			reqs := f.api()
			if len(reqs) != 1 {
				t.Fatalf("got %d service requests, want 1", len(reqs))
			}
			r := reqs[0]
			if r.Method != tc.method || r.Path != tc.path {
				t.Errorf("request %s %s, want %s %s", r.Method, r.Path, tc.method, tc.path)
			}
			if tc.query != nil && !reflect.DeepEqual(r.Query, tc.query) {
				t.Errorf("query %v, want %v", r.Query, tc.query)
			}
			if tc.query == nil && len(r.Query) != 0 {
				t.Errorf("unexpected query %v", r.Query)
			}
			if !strings.HasPrefix(r.Auth, "Bearer ") {
				t.Errorf("Authorization %q is not a bearer token", r.Auth)
			}
			if r.UserAgent != testUA {
				t.Errorf("User-Agent %q, want %q", r.UserAgent, testUA)
			}
			if tc.reqBody == "" {
				if len(r.Body) != 0 {
					t.Errorf("unexpected request body %s", r.Body)
				}
			} else {
				if r.ContentType != "application/json" {
					t.Errorf("Content-Type %q", r.ContentType)
				}
				jsonEqual(t, r.Body, tc.reqBody)
			}
			for _, name := range tc.wantAbsent {
				if strings.Contains(string(r.Body), `"`+name+`"`) {
					t.Errorf("request body carries %q: %s", name, r.Body)
				}
			}
			if tc.want == nil {
				return
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("result\n got: %+v\nwant: %+v", deref(got), deref(tc.want))
			}
		})
	}
}

// deref makes pointers print their values.
func deref(v any) any {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		return rv.Elem().Interface()
	}
	return v
}

// TestListEmptyAccount: 204 and the service's own 404 both mean "no subscriptions"; a 404
// that is not the service's (no body, an HTML page, a router's JSON) is an error.
func TestListEmptyAccount(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		handler http.HandlerFunc
		wantErr bool
	}{
		{"204", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) }, false},
		{"404 service body", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 404, `{"error":"Entity not found","messages":["No subscriptions found for account acc-1"],"path":"/rest/v1/accounts/acc-1/subscriptions"}`)
		}, false},
		{"404 no body", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotFound) }, true},
		{"404 gateway JSON", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 404, `{"message":"Not Found"}`)
		}, true},
		{"200 empty list", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, `{"subscriptions":[],"paginationMetadata":{"pageNumber":0,"totalPages":0,"last":true}}`)
		}, false},
		{"200 empty body", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) }, false},
		// An HTML 404 means a wrong base URL, not an empty account.
		{"404 html page", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(404)
			_, _ = w.Write([]byte("<html><body>nginx: not found</body></html>"))
		}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, tc.handler)
			c := f.newClient(nil)
			got, err := c.ListSubscriptions(context.Background(), "acc-1", ListOptions{})
			if tc.wantErr {
				// An error, but not httpapi.ErrNotFound: callers drop resources from state on
				// httpapi.ErrNotFound, and a wrong base URL must not look like a deletion.
				var apiErr *httpapi.APIError
				if err == nil || !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusNotFound || errors.Is(err, httpapi.ErrNotFound) {
					t.Fatalf("got %v, %v; want a 404 error that is not ErrNotFound", got, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ListSubscriptions: %v", err)
			}
			if got == nil || len(got) != 0 {
				t.Fatalf("got %#v, want an empty non-nil slice", got)
			}
			if n := len(f.api()); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
	}
}

// pagedHandler serves total subscriptions in pages, the way the spec describes, with knobs
// for servers that omit parts of the metadata.
func pagedHandler(t *testing.T, total int, meta func(pageNumber, pageSize, totalPages int) string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		pn, err1 := strconv.Atoi(q.Get("pageNumber"))
		ps, err2 := strconv.Atoi(q.Get("pageSize"))
		if err1 != nil || err2 != nil {
			t.Errorf("bad paging query %v", q)
		}
		totalPages := (total + ps - 1) / ps
		var items []string
		for i := pn * ps; i < (pn+1)*ps && i < total; i++ {
			items = append(items, fmt.Sprintf(`{"subscriptionId":"00000000-0000-4000-8000-%012d","eventName":"E","destinationType":"EVENT_STREAMS","logLevel":"INFO"}`, i))
		}
		body := `{"subscriptions":[` + strings.Join(items, ",") + `]`
		if m := meta(pn, ps, totalPages); m != "" {
			body += `,"paginationMetadata":` + m
		}
		writeJSON(w, 200, body+"}")
	}
}

// TestListPaging pages through three pages and stops by each of the documented signals.
func TestListPaging(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		total     int
		pageSize  int
		meta      func(pn, ps, tp int) string
		wantCalls int
		wantItems int
		sameEvery bool // the server ignores pageNumber
	}{
		{"last flag", 250, 0, func(pn, ps, tp int) string {
			return fmt.Sprintf(`{"pageNumber":%d,"pageSize":%d,"totalPages":%d,"totalElements":250,"first":%t,"last":%t}`, pn, ps, tp, pn == 0, pn+1 >= tp)
		}, 3, 250, false},
		{"totalPages only", 250, 0, func(pn, ps, tp int) string {
			return fmt.Sprintf(`{"pageNumber":%d,"totalPages":%d}`, pn, tp)
		}, 3, 250, false},
		{"exact multiple, empty page ends", 200, 0, func(pn, ps, tp int) string {
			return fmt.Sprintf(`{"pageNumber":%d}`, pn)
		}, 3, 200, false},
		// A short page may be a page size the server clamped: only an empty page ends.
		{"no metadata, empty page ends", 250, 0, func(pn, ps, tp int) string { return "" }, 4, 250, false},
		{"small page size", 25, 10, func(pn, ps, tp int) string {
			return fmt.Sprintf(`{"pageNumber":%d,"pageSize":%d,"totalPages":%d,"last":%t}`, pn, ps, tp, pn+1 >= tp)
		}, 3, 25, false},
		{"server never says last", 100, 0, func(pn, ps, tp int) string { return `{"last":false,"totalPages":99}` }, 2, 100, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			handler := pagedHandler(t, tc.total, tc.meta)
			if tc.sameEvery {
				inner := handler
				handler = func(w http.ResponseWriter, r *http.Request) {
					q := r.URL.Query()
					q.Set("pageNumber", "0")
					r.URL.RawQuery = q.Encode()
					inner(w, r)
				}
			}
			f := newFake(t, handler)
			c := f.newClient(nil)
			got, err := c.ListSubscriptions(context.Background(), "", ListOptions{PageSize: tc.pageSize, SortBy: "createdDate", SortDirection: "ASC"})
			if err != nil {
				t.Fatalf("ListSubscriptions: %v", err)
			}
			if len(got) != tc.wantItems {
				t.Errorf("got %d subscriptions, want %d", len(got), tc.wantItems)
			}
			for i, s := range got {
				if want := fmt.Sprintf("00000000-0000-4000-8000-%012d", i); s.ID != want || !s.Enabled {
					t.Fatalf("item %d = %+v, want id %s enabled", i, s, want)
				}
			}
			reqs := f.api()
			if len(reqs) != tc.wantCalls {
				t.Fatalf("%d requests, want %d", len(reqs), tc.wantCalls)
			}
			wantSize := tc.pageSize
			if wantSize == 0 {
				wantSize = 100
			}
			for i, r := range reqs {
				want := map[string][]string{
					"pageNumber": {strconv.Itoa(i)}, "pageSize": {strconv.Itoa(wantSize)},
					"sortBy": {"createdDate"}, "sortDirection": {"ASC"},
				}
				if !reflect.DeepEqual(r.Query, want) {
					t.Errorf("request %d query %v, want %v", i, r.Query, want)
				}
			}
		})
	}
}

// TestSubscriptionIDRequired guards against an empty ID turning a single-subscription call
// into a collection call.
func TestSubscriptionIDRequired(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) { t.Errorf("unexpected request %s %s", r.Method, r.URL) })
	c := f.newClient(nil)
	ctx := context.Background()
	if _, err := c.GetSubscription(ctx, "acc-1", ""); err == nil {
		t.Error("GetSubscription with empty id: no error")
	}
	if _, err := c.UpdateSubscription(ctx, "acc-1", "", SubscriptionInput{}); err == nil {
		t.Error("UpdateSubscription with empty id: no error")
	}
	if err := c.DeleteSubscription(ctx, "acc-1", ""); err == nil {
		t.Error("DeleteSubscription with empty id: no error")
	}
}

// TestPathEscaping: account and subscription IDs are path segments, escaped.
func TestPathEscaping(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var paths []string
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.EscapedPath())
		mu.Unlock()
		w.WriteHeader(204)
	})
	c := f.newClient(func(cfg *Config) { cfg.AccountID = "a b%c?" })
	if err := c.DeleteSubscription(context.Background(), "", "x y?#z"); err != nil {
		t.Fatalf("DeleteSubscription: %v", err)
	}
	if want := "/rest/v1/accounts/a%20b%25c%3F/subscriptions/x%20y%3F%23z"; len(paths) != 1 || paths[0] != want {
		t.Errorf("paths %v, want [%s]", paths, want)
	}
	if jw := f.jwts(); len(jw) != 1 || jw[0].Path != "/auth/jwt/generate/a%20b%25c%3F" {
		t.Errorf("JWT requests %+v", jw)
	}
}

// TestBaseURLWithPath keeps a base URL's own path prefix.
func TestBaseURLWithPath(t *testing.T) {
	t.Parallel()
	f := newFake(t, nil)
	f.set(func(f *fakeAPI) {
		f.handler = func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, `["E1"]`) }
	})
	// The fake serves everything under its root; a prefix must reach it verbatim.
	prefixSeen := make(chan string, 1)
	proxy := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case prefixSeen <- r.URL.Path:
		default:
		}
		r.URL.Path = strings.TrimPrefix(r.URL.Path, "/api")
		f.srv.Config.Handler.ServeHTTP(w, r)
	})
	srv := newServer(t, proxy)
	c := f.newClient(func(cfg *Config) { cfg.BaseURL = srv.URL + "/api/" })
	got, err := c.ListEvents(context.Background())
	if err != nil {
		t.Fatalf("ListEvents: %v", err)
	}
	if len(got) != 1 || got[0].Name != "E1" {
		t.Errorf("got %v", got)
	}
	if p := <-prefixSeen; p != "/api/rest/v1/events" {
		t.Errorf("path %q", p)
	}
}
