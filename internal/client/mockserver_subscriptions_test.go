package client_test

import (
	"cmp"
	"errors"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// sortSubs orders subscriptions as the spec's listSubscribedEventsForAccount with sortBy/sortDirection would:
// by the field, then createdDate, then subscriptionId; DESC is the exact reverse.
func sortSubs(subs []mockserver.Subscription, sortBy, dir string) []mockserver.Subscription {
	out := slices.Clone(subs)
	field := func(s mockserver.Subscription) string {
		switch sortBy {
		case "eventName":
			return s.EventName
		case "logLevel":
			return s.LogLevel
		case "eventStreamsTopic":
			return s.EventStreamsTopic
		}
		return ""
	}
	slices.SortFunc(out, func(a, b mockserver.Subscription) int {
		if sortBy == "enabled" && a.Enabled != b.Enabled {
			if !a.Enabled {
				return -1
			}
			return 1
		}
		return cmp.Or(strings.Compare(field(a), field(b)), cmp.Compare(a.CreatedDate, b.CreatedDate),
			strings.Compare(a.SubscriptionID, b.SubscriptionID))
	})
	if strings.EqualFold(dir, "DESC") {
		slices.Reverse(out)
	}
	return out
}

// listSubscribedEventsForAccount: the client pages through every page, passes sortBy and sortDirection through,
// and stops at the last page (no request beyond it).
func TestMockListSubscriptionsPagesThrough(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		n             int
		pageSize      int
		maxPageSize   int // mock's clamp; 0 = default (100)
		sortBy        string
		sortDirection string
		wantRequests  int
	}{
		{name: "default order, three pages", n: 7, pageSize: 3, wantRequests: 3},
		{name: "exact multiple of the page size", n: 6, pageSize: 3, wantRequests: 2},
		{name: "one page", n: 4, pageSize: 10, wantRequests: 1},
		{name: "page size 1", n: 3, pageSize: 1, wantRequests: 3},
		{name: "eventName DESC", n: 5, pageSize: 2, sortBy: "eventName", sortDirection: "DESC", wantRequests: 3},
		{name: "eventName ASC", n: 5, pageSize: 2, sortBy: "eventName", sortDirection: "ASC", wantRequests: 3},
		{name: "logLevel ASC (ties by createdDate)", n: 8, pageSize: 3, sortBy: "logLevel", sortDirection: "ASC", wantRequests: 3},
		{name: "logLevel lower-case desc", n: 8, pageSize: 3, sortBy: "logLevel", sortDirection: "desc", wantRequests: 3},
		{name: "enabled DESC", n: 6, pageSize: 4, sortBy: "enabled", sortDirection: "DESC", wantRequests: 2},
		{name: "sortBy without direction", n: 5, pageSize: 2, sortBy: "eventStreamsTopic", wantRequests: 3},
		{name: "client default page size, server clamps to 4", n: 10, maxPageSize: 4, wantRequests: 3},
		{name: "page size above the server's maximum", n: 9, pageSize: 50, maxPageSize: 4, wantRequests: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newMockEnv(t, mockserver.Config{MaxPageSize: tt.maxPageSize})
			seeded := e.seed(itAccount, tt.n)
			e.seed(itOther, 2) // another account's subscriptions are never listed
			c := e.client()

			got, err := c.ListSubscriptions(ctx(t), itAccount, client.ListOptions{
				PageSize: tt.pageSize, SortBy: tt.sortBy, SortDirection: tt.sortDirection,
			})
			if err != nil {
				t.Fatalf("ListSubscriptions: %v", err)
			}
			wantSubs(t, got, fromMockAll(sortSubs(seeded, tt.sortBy, tt.sortDirection)))
			e.wantCount(http.MethodGet, mockserver.RouteSubscriptions, tt.wantRequests)
			e.wantJWTFetches(1)
			for _, r := range e.mock.Requests() {
				if r.Route == mockserver.RouteSubscriptions && r.Status != http.StatusOK {
					t.Errorf("request %s %s answered %d, want 200", r.Method, r.Path, r.Status)
				}
			}
		})
	}
}

// listSubscribedEventsForAccount, one page at a time: the client reads the mock's paginationMetadata.
func TestMockListSubscriptionsPageMetadata(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t)
	seeded := e.seed(itAccount, 5)
	tests := []struct {
		page int
		want client.Page
	}{
		{0, client.Page{PageNumber: 0, PageSize: 2, TotalPages: 3, TotalElements: 5, NumberOfElements: 2, First: true, Last: false}},
		{1, client.Page{PageNumber: 1, PageSize: 2, TotalPages: 3, TotalElements: 5, NumberOfElements: 2, First: false, Last: false}},
		{2, client.Page{PageNumber: 2, PageSize: 2, TotalPages: 3, TotalElements: 5, NumberOfElements: 1, First: false, Last: true}},
		{7, client.Page{PageNumber: 7, PageSize: 2, TotalPages: 3, TotalElements: 5, NumberOfElements: 0, First: false, Last: true}},
	}
	for _, tt := range tests {
		p, err := c.ListSubscriptionsPage(ctx(t), itAccount, tt.page, client.ListOptions{PageSize: 2})
		if err != nil {
			t.Fatalf("page %d: %v", tt.page, err)
		}
		subs := p.Subscriptions
		p.Subscriptions = nil
		if !reflect.DeepEqual(*p, tt.want) {
			t.Errorf("page %d metadata:\n got  %+v\n want %+v", tt.page, *p, tt.want)
		}
		from := min(tt.page*2, len(seeded))
		to := min(from+2, len(seeded))
		if subs == nil {
			t.Errorf("page %d: Subscriptions is nil, want a non-nil slice", tt.page)
		}
		wantSubs(t, subs, fromMockAll(seeded[from:to]))
	}
	e.wantCount(http.MethodGet, mockserver.RouteSubscriptions, len(tests))
}

// listSubscribedEventsForAccount on an account without subscriptions: 204 and 404 (SERVICE.md rule 2 gives both) and an
// empty 200 page all mean "none".
func TestMockListSubscriptionsEmptyAccount(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusNoContent, http.StatusNotFound, http.StatusOK} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			t.Parallel()
			e := newMockEnv(t, mockserver.Config{})
			e.mock.SetEmptyListStatus(status)
			c := e.client()

			got, err := c.ListSubscriptions(ctx(t), itAccount, client.ListOptions{})
			if err != nil {
				t.Fatalf("ListSubscriptions: %v", err)
			}
			if got == nil || len(got) != 0 {
				t.Errorf("ListSubscriptions = %#v, want an empty non-nil slice", got)
			}
			page, err := c.ListSubscriptionsPage(ctx(t), "", 0, client.ListOptions{PageSize: 5})
			if err != nil {
				t.Fatalf("ListSubscriptionsPage: %v", err)
			}
			if len(page.Subscriptions) != 0 || !page.Last || !page.First {
				t.Errorf("empty page = %+v, want no subscriptions, First and Last", page)
			}
			e.wantCount(http.MethodGet, mockserver.RouteSubscriptions, 2)
			for _, r := range e.mock.Requests() {
				if r.Route == mockserver.RouteSubscriptions && r.Status != status {
					t.Errorf("mock answered %d, want %d", r.Status, status)
				}
			}
		})
	}
}

// updateSubscriptions: PUT on the collection replaces everything (SERVICE.md rule 1), with 201, 200 and 204.
func TestMockReplaceSubscriptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		seed       int
		in         []client.SubscriptionInput
		wantStatus int
	}{
		{name: "creates when the account has none", seed: 0, in: []client.SubscriptionInput{validInput("A"), validInput("B")}, wantStatus: http.StatusCreated},
		{name: "replaces existing ones", seed: 3, in: []client.SubscriptionInput{validInput("C")}, wantStatus: http.StatusOK},
		{name: "none supplied, none existing", seed: 0, in: nil, wantStatus: http.StatusNoContent},
		{name: "none supplied deletes all", seed: 2, in: []client.SubscriptionInput{}, wantStatus: http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, c := newMockClient(t)
			old := e.seed(itAccount, tt.seed)
			if len(tt.in) > 0 {
				tt.in[0].Enabled = boolPtr(false)
			}

			got, err := c.ReplaceSubscriptions(ctx(t), itAccount, tt.in)
			if err != nil {
				t.Fatalf("ReplaceSubscriptions: %v", err)
			}
			if got == nil || len(got) != len(tt.in) {
				t.Fatalf("ReplaceSubscriptions returned %#v, want %d subscriptions", got, len(tt.in))
			}
			if n := len(e.mock.Subscriptions(itAccount)); n != len(tt.in) {
				t.Fatalf("mock holds %d subscriptions, want %d", n, len(tt.in))
			}
			for i, s := range got {
				checkCreated(t, s, tt.in[i])
				if stored, ok := e.mock.Subscription(itAccount, s.ID); !ok || fromMock(stored) != s {
					t.Errorf("returned %+v, stored %+v (found %v)", s, stored, ok)
				}
				for _, o := range old {
					if s.ID == o.SubscriptionID {
						t.Errorf("replacement kept the old id %s", s.ID)
					}
				}
			}
			wantLastStatus(t, e, http.MethodPut, tt.wantStatus)
			e.wantCount(http.MethodPut, mockserver.RouteSubscriptions, 1)
		})
	}
}

// createSubscriptions: POST creates (201), an empty list creates nothing (204).
func TestMockCreateSubscriptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		seed       int
		in         []client.SubscriptionInput
		wantStatus int
	}{
		{name: "two into an empty account", in: []client.SubscriptionInput{validInput("A"), {EventName: "B", DestinationType: "EMAIL", LogLevel: "ERROR", Enabled: boolPtr(false)}}, wantStatus: http.StatusCreated},
		{name: "one added to existing ones", seed: 2, in: []client.SubscriptionInput{{EventName: "C", DestinationType: "EVENT_STREAMS", LogLevel: "INFO", Enabled: boolPtr(true)}}, wantStatus: http.StatusCreated},
		{name: "empty list", seed: 1, in: []client.SubscriptionInput{}, wantStatus: http.StatusNoContent},
		{name: "nil list", in: nil, wantStatus: http.StatusNoContent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, c := newMockClient(t)
			old := e.seed(itAccount, tt.seed)

			got, err := c.CreateSubscriptions(ctx(t), "", tt.in) // "" = the configured account
			if err != nil {
				t.Fatalf("CreateSubscriptions: %v", err)
			}
			if got == nil || len(got) != len(tt.in) {
				t.Fatalf("CreateSubscriptions returned %#v, want %d subscriptions", got, len(tt.in))
			}
			for i, s := range got {
				checkCreated(t, s, tt.in[i])
				stored, ok := e.mock.Subscription(itAccount, s.ID)
				if !ok {
					t.Errorf("subscription %s is not stored", s.ID)
					continue
				}
				if fromMock(stored) != s {
					t.Errorf("returned %+v, stored %+v", s, stored)
				}
			}
			if n := len(e.mock.Subscriptions(itAccount)); n != len(old)+len(tt.in) {
				t.Errorf("mock holds %d subscriptions, want %d", n, len(old)+len(tt.in))
			}
			wantLastStatus(t, e, http.MethodPost, tt.wantStatus)
			e.wantCount(http.MethodPost, mockserver.RouteSubscriptions, 1)
		})
	}
}

// checkCreated compares a subscription the service created from in.
func checkCreated(t *testing.T, s client.Subscription, in client.SubscriptionInput) {
	t.Helper()
	wantEnabled := in.Enabled == nil || *in.Enabled
	if s.ID == "" || s.AccountID != itAccount || s.EventName != in.EventName ||
		s.DestinationType != in.DestinationType || s.LogLevel != in.LogLevel ||
		s.EventStreamsEnvironment != in.EventStreamsEnvironment ||
		s.EventStreamsEnvironmentName != in.EventStreamsEnvironmentName ||
		s.EventStreamsTopic != in.EventStreamsTopic || s.Enabled != wantEnabled {
		t.Errorf("created %+v from %+v", s, in)
	}
	if s.CreatedBy != itUser || s.LastUpdatedUserID != itUser {
		t.Errorf("createdBy %q, lastUpdatedUserId %q, want %q", s.CreatedBy, s.LastUpdatedUserID, itUser)
	}
	if s.CreatedDate <= 0 || s.LastUpdatedDate < s.CreatedDate {
		t.Errorf("createdDate %d, lastUpdatedDate %d", s.CreatedDate, s.LastUpdatedDate)
	}
}

// wantLastStatus checks the status the mock recorded for the last request with method.
func wantLastStatus(t *testing.T, e *mockEnv, method string, want int) {
	t.Helper()
	reqs := e.mock.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if reqs[i].Method == method {
			if reqs[i].Status != want {
				t.Errorf("mock answered %s %s with %d, want %d", method, reqs[i].Path, reqs[i].Status, want)
			}
			return
		}
	}
	t.Errorf("no %s request in the mock's log", method)
}

// deleteSubscriptionForAccount: 204 deletes all; then the account is empty, and a second call is the
// spec's 404 naming the account.
func TestMockDeleteAllSubscriptions(t *testing.T) {
	t.Parallel()
	e := newMockEnv(t, mockserver.Config{})
	e.seed(itAccount, 3)
	other := e.seed(itOther, 1)
	c := e.client()

	if err := c.DeleteAllSubscriptions(ctx(t), itAccount); err != nil {
		t.Fatalf("DeleteAllSubscriptions: %v", err)
	}
	wantLastStatus(t, e, http.MethodDelete, http.StatusNoContent)
	if n := len(e.mock.Subscriptions(itAccount)); n != 0 {
		t.Errorf("mock still holds %d subscriptions", n)
	}
	if n := len(e.mock.Subscriptions(itOther)); n != len(other) {
		t.Errorf("the other account lost subscriptions: %d left", n)
	}

	err := c.DeleteAllSubscriptions(ctx(t), "")
	apiErr := wantAPIError(t, err, http.StatusNotFound, "No subscriptions found for account "+itAccount)
	wantErrorBody(t, apiErr, "Entity not found", subsPath(itAccount))
	e.wantCount(http.MethodDelete, mockserver.RouteSubscriptions, 2)
}

// getSubscribedEventForAccount and updateSubscription in both single-subscription shapes of SERVICE.md rule 5.
func TestMockGetAndUpdateSubscriptionShapes(t *testing.T) {
	t.Parallel()
	shapes := map[string]mockserver.SingleShape{"flat": mockserver.SingleFlat, "wrapped": mockserver.SingleWrapped}
	for name, shape := range shapes {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newMockEnv(t, mockserver.Config{})
			e.mock.SetSingleShape(shape)
			// Every field set, so that every JSON name is checked.
			stored := e.mock.PutSubscription(itAccount, mockserver.Subscription{
				EventName:                   "ATOM.STATUS",
				DestinationType:             "EMAIL",
				LogLevel:                    "ERROR",
				DestinationEmail:            "ops@example.com",
				EventStreamsEnvironment:     "env-7",
				EventStreamsEnvironmentName: "Staging",
				EventStreamsTopic:           "t-7",
				Enabled:                     false,
				CreatedDate:                 1700000000123,
				LastUpdatedDate:             1700000000456,
				CreatedBy:                   "bob@example.com",
				LastUpdatedUserID:           "carol@example.com",
			})
			c := e.client()

			got, err := c.GetSubscription(ctx(t), itAccount, stored.SubscriptionID)
			if err != nil {
				t.Fatalf("GetSubscription: %v", err)
			}
			if *got != fromMock(stored) {
				t.Errorf("GetSubscription:\n got  %+v\n want %+v", *got, fromMock(stored))
			}

			tests := []struct {
				name string
				in   client.SubscriptionInput
			}{
				{"enabled omitted defaults to true", client.SubscriptionInput{EventName: "PROCESS.EXECUTION", DestinationType: "EVENT_STREAMS", LogLevel: "INFO", EventStreamsTopic: "t-8"}},
				{"enabled false", client.SubscriptionInput{EventName: "ATOM.DEPLOYMENT", DestinationType: "EVENT_STREAMS", LogLevel: "WARNING", EventStreamsEnvironment: "env-8", EventStreamsEnvironmentName: "QA", Enabled: boolPtr(false)}},
				{"enabled true", validInput("ENVIRONMENT.ALERT")},
			}
			for _, tt := range tests {
				upd, err := c.UpdateSubscription(ctx(t), "", stored.SubscriptionID, tt.in)
				if err != nil {
					t.Fatalf("%s: UpdateSubscription: %v", tt.name, err)
				}
				now, _ := e.mock.Subscription(itAccount, stored.SubscriptionID)
				if *upd != fromMock(now) {
					t.Errorf("%s: UpdateSubscription returned\n %+v\nstored\n %+v", tt.name, *upd, now)
				}
				wantEnabled := tt.in.Enabled == nil || *tt.in.Enabled
				if upd.EventName != tt.in.EventName || upd.DestinationType != tt.in.DestinationType ||
					upd.LogLevel != tt.in.LogLevel || upd.EventStreamsEnvironment != tt.in.EventStreamsEnvironment ||
					upd.EventStreamsEnvironmentName != tt.in.EventStreamsEnvironmentName ||
					upd.EventStreamsTopic != tt.in.EventStreamsTopic || upd.Enabled != wantEnabled {
					t.Errorf("%s: updated %+v from %+v", tt.name, *upd, tt.in)
				}
				if upd.ID != stored.SubscriptionID || upd.CreatedDate != stored.CreatedDate ||
					upd.CreatedBy != stored.CreatedBy || upd.AccountID != itAccount {
					t.Errorf("%s: server-managed fields changed: %+v", tt.name, *upd)
				}
				if upd.LastUpdatedUserID != itUser || upd.LastUpdatedDate < stored.LastUpdatedDate {
					t.Errorf("%s: lastUpdatedUserId %q, lastUpdatedDate %d", tt.name, upd.LastUpdatedUserID, upd.LastUpdatedDate)
				}
			}
			e.wantCount(http.MethodGet, mockserver.RouteSubscription, 1)
			e.wantCount(http.MethodPut, mockserver.RouteSubscription, len(tests))
		})
	}
}

// deleteSubscription, then 404 on getSubscribedEventForAccount, updateSubscription and deleteSubscription for the deleted id.
func TestMockDeleteSubscription(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t)
	subs := e.seed(itAccount, 2)
	id := subs[0].SubscriptionID

	if err := c.DeleteSubscription(ctx(t), itAccount, id); err != nil {
		t.Fatalf("DeleteSubscription: %v", err)
	}
	wantLastStatus(t, e, http.MethodDelete, http.StatusNoContent)
	if _, ok := e.mock.Subscription(itAccount, id); ok {
		t.Errorf("subscription %s still stored", id)
	}
	if _, ok := e.mock.Subscription(itAccount, subs[1].SubscriptionID); !ok {
		t.Errorf("the other subscription was deleted too")
	}

	msg := "No subscription found with id " + id
	err := c.DeleteSubscription(ctx(t), itAccount, id)
	wantErrorBody(t, wantAPIError(t, err, http.StatusNotFound, msg), "Entity not found", subPath(itAccount, id))
	_, err = c.GetSubscription(ctx(t), itAccount, id)
	wantErrorBody(t, wantAPIError(t, err, http.StatusNotFound, msg), "Entity not found", subPath(itAccount, id))
	_, err = c.UpdateSubscription(ctx(t), itAccount, id, validInput("X"))
	wantErrorBody(t, wantAPIError(t, err, http.StatusNotFound, msg), "Entity not found", subPath(itAccount, id))

	e.wantCount(http.MethodDelete, mockserver.RouteSubscription, 2)
	e.wantCount(http.MethodGet, mockserver.RouteSubscription, 1)
	e.wantCount(http.MethodPut, mockserver.RouteSubscription, 1)
	e.wantJWTFetches(1)
}

// A full life cycle through the client only: create, list, get, update, delete.
func TestMockSubscriptionLifeCycle(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t)

	created, err := c.CreateSubscriptions(ctx(t), "", []client.SubscriptionInput{validInput("A"), validInput("B"), validInput("C")})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	listed, err := c.ListSubscriptions(ctx(t), "", client.ListOptions{PageSize: 2, SortBy: "eventName", SortDirection: "DESC"})
	if err != nil {
		t.Fatalf("list: %v", err)
	}
	if got, want := ids(listed), []string{created[2].ID, created[1].ID, created[0].ID}; !slices.Equal(got, want) {
		t.Errorf("listed %v, want %v", got, want)
	}
	got, err := c.GetSubscription(ctx(t), "", created[1].ID)
	if err != nil || *got != created[1] {
		t.Fatalf("get = %+v, %v; want %+v", got, err, created[1])
	}
	if _, err := c.UpdateSubscription(ctx(t), "", created[1].ID, client.SubscriptionInput{EventName: "B2", DestinationType: "EMAIL", LogLevel: "ERROR"}); err != nil {
		t.Fatalf("update: %v", err)
	}
	if err := c.DeleteSubscription(ctx(t), "", created[0].ID); err != nil {
		t.Fatalf("delete: %v", err)
	}
	listed, err = c.ListSubscriptions(ctx(t), "", client.ListOptions{SortBy: "eventName"})
	if err != nil {
		t.Fatalf("list: %v", err)
	}
	if len(listed) != 2 || listed[0].EventName != "B2" || listed[0].DestinationType != "EMAIL" || listed[1].EventName != "C" {
		t.Errorf("after update and delete: %+v", listed)
	}
	e.wantJWTFetches(1)
}

// Only the spec's 404 for an empty account ("Entity not found", naming the account) means
// "no subscriptions": the mock's 404 for a path it does not serve (a base URL with a wrong
// prefix) must come back as an error, not as an empty account. (A base URL that ends with the
// service's own path, "/rest/v1", is refused before any request: TestCheckURL_servicePaths.)
func TestMockListSubscriptionsWrongBaseURL(t *testing.T) {
	t.Parallel()
	for _, suffix := range []string{"/rest", "/api"} {
		t.Run(suffix, func(t *testing.T) {
			t.Parallel()
			e := newMockEnv(t, mockserver.Config{})
			e.seed(itAccount, 2)
			e.mock.SetEmptyListStatus(http.StatusNotFound)
			c := e.client(func(c *client.Config) { c.BaseURL = e.srv.URL + suffix })
			got, err := c.ListSubscriptions(ctx(t), itAccount, client.ListOptions{})
			if err == nil {
				t.Fatalf("ListSubscriptions through a wrong base URL = %v, nil; want an error", got)
			}
			path := suffix + subsPath(itAccount)
			apiErr := wantAPIError(t, err, http.StatusNotFound, "No endpoint GET "+path)
			if apiErr.ErrorText != "Not Found" || apiErr.Path != path {
				t.Errorf("error %q, path %q", apiErr.ErrorText, apiErr.Path)
			}
			// Regression: callers drop resources from state on ErrNotFound, so a wrong
			// base URL must not look like a deleted subscription.
			if errors.Is(err, httpapi.ErrNotFound) {
				t.Errorf("errors.Is(err, ErrNotFound) = true for a 404 of a path the service does not serve")
			}
			e.wantCount(http.MethodGet, "", 2) // the JWT and the one list request
		})
	}
}
