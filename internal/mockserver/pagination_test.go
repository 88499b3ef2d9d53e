package mockserver_test

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// seed stores n subscriptions with distinct createdDates and varied
// fields directly, and returns them in the default order.
func seed(s *mockserver.Server, account string, n int) []mockserver.Subscription {
	levels := []string{"INFO", "WARNING", "ERROR"}
	for i := range n {
		s.PutSubscription(account, mockserver.Subscription{
			EventName:         fmt.Sprintf("EVENT.%02d", (i*7)%n),
			DestinationType:   "EVENT_STREAMS",
			LogLevel:          levels[i%3],
			EventStreamsTopic: fmt.Sprintf("topic-%d", i%4),
			Enabled:           i%2 == 0,
			CreatedDate:       int64(1_700_000_000_000 + (i/2)*1000), // pairs share a createdDate
			LastUpdatedDate:   int64(1_700_000_000_000 + (n-i)*10),
			CreatedBy:         "seed",
			LastUpdatedUserID: "seed",
		})
	}
	return s.Subscriptions(account)
}

func (e *testEnv) listPage(token, account, query string) (wireWrapper, response) {
	e.t.Helper()
	r := e.do(http.MethodGet, subsPath(account)+"?"+query, token, nil)
	r.wantStatus(e.t, http.StatusOK)
	var w wireWrapper
	decodeStrict(e.t, r.body, &w)
	if w.PaginationMetadata == nil || w.Subscriptions == nil {
		e.t.Fatalf("list body without subscriptions or paginationMetadata: %s", r.body)
	}
	return w, r
}

func TestListPagination(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	all := seed(e.srv, testAccount, 45)

	tests := []struct {
		query string
		page  wirePage
		from  int // index into all of the first element
	}{
		{"", wirePage{0, 20, 3, 45, 20, true, false}, 0},
		{"pageNumber=1", wirePage{1, 20, 3, 45, 20, false, false}, 20},
		{"pageNumber=2", wirePage{2, 20, 3, 45, 5, false, true}, 40},
		{"pageNumber=3", wirePage{3, 20, 3, 45, 0, false, true}, 45},
		{"pageNumber=99999", wirePage{99999, 20, 3, 45, 0, false, true}, 45},
		{"pageSize=10&pageNumber=4", wirePage{4, 10, 5, 45, 5, false, true}, 40},
		{"pageSize=45", wirePage{0, 45, 1, 45, 45, true, true}, 0},
		{"pageSize=1&pageNumber=44", wirePage{44, 1, 45, 45, 1, false, true}, 44},
		{"pageSize=500", wirePage{0, 100, 1, 45, 45, true, true}, 0}, // clamped to 100
		{"pageNumber=&pageSize=", wirePage{0, 20, 3, 45, 20, true, false}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			e := e.with(t)
			w, _ := e.listPage(token, testAccount, tt.query)
			if *w.PaginationMetadata != tt.page {
				t.Errorf("metadata = %+v, want %+v", *w.PaginationMetadata, tt.page)
			}
			for i, s := range w.Subscriptions {
				if s.SubscriptionID != all[tt.from+i].SubscriptionID {
					t.Fatalf("element %d = %s, want %s (default order)", i, s.SubscriptionID, all[tt.from+i].SubscriptionID)
				}
			}
		})
	}
}

func TestListPageSizeConfig(t *testing.T) {
	e := newEnv(t, mockserver.Config{DefaultPageSize: 7, MaxPageSize: 10})
	token := e.jwt(testAccount)
	seed(e.srv, testAccount, 25)
	w, _ := e.listPage(token, testAccount, "")
	if w.PaginationMetadata.PageSize != 7 || len(w.Subscriptions) != 7 || w.PaginationMetadata.TotalPages != 4 {
		t.Errorf("default page = %+v", *w.PaginationMetadata)
	}
	w, _ = e.listPage(token, testAccount, "pageSize=11")
	if w.PaginationMetadata.PageSize != 10 || len(w.Subscriptions) != 10 {
		t.Errorf("clamped page = %+v", *w.PaginationMetadata)
	}
}

// sortKey returns the comparison of the field named by the spec, for
// checking the server's order independently.
func sortKey(field string) func(a, b mockserver.Subscription) int {
	return func(a, b mockserver.Subscription) int {
		var c int
		switch field {
		case "eventName":
			c = strings.Compare(a.EventName, b.EventName)
		case "logLevel":
			c = strings.Compare(a.LogLevel, b.LogLevel)
		case "eventStreamsTopic":
			c = strings.Compare(a.EventStreamsTopic, b.EventStreamsTopic)
		case "enabled":
			c = cmp.Compare(fmt.Sprint(a.Enabled), fmt.Sprint(b.Enabled)) // "false" < "true"
		case "lastUpdatedDate":
			c = cmp.Compare(a.LastUpdatedDate, b.LastUpdatedDate)
		case "subscriptionId":
			c = strings.Compare(a.SubscriptionID, b.SubscriptionID)
		}
		return cmp.Or(c, cmp.Compare(a.CreatedDate, b.CreatedDate), strings.Compare(a.SubscriptionID, b.SubscriptionID))
	}
}

func TestListSorting(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	stored := seed(e.srv, testAccount, 30)
	tests := []struct {
		sortBy, direction string
	}{
		{"", ""}, {"", "DESC"}, {"createdDate", "ASC"}, {"createdDate", "desc"},
		{"eventName", ""}, {"eventName", "DESC"}, {"logLevel", "ASC"}, {"logLevel", "DESC"},
		{"enabled", "ASC"}, {"enabled", "DESC"}, {"lastUpdatedDate", "asc"}, {"eventStreamsTopic", "DESC"},
		{"subscriptionId", "ASC"}, {"subscriptionId", "DESC"},
	}
	for _, tt := range tests {
		t.Run(tt.sortBy+" "+tt.direction, func(t *testing.T) {
			e := e.with(t)
			want := slices.Clone(stored)
			slices.SortFunc(want, sortKey(tt.sortBy))
			if strings.EqualFold(tt.direction, "DESC") {
				slices.Reverse(want)
			}
			// Page through with an odd page size and compare the concatenation.
			var got []string
			for page := 0; ; page++ {
				q := url.Values{"pageSize": {"7"}, "pageNumber": {fmt.Sprint(page)}}
				if tt.sortBy != "" {
					q.Set("sortBy", tt.sortBy)
				}
				if tt.direction != "" {
					q.Set("sortDirection", tt.direction)
				}
				w, _ := e.listPage(token, testAccount, q.Encode())
				for _, s := range w.Subscriptions {
					got = append(got, s.SubscriptionID)
				}
				if w.PaginationMetadata.Last {
					break
				}
			}
			if len(got) != len(want) {
				t.Fatalf("paged %d, want %d", len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i].SubscriptionID {
					t.Fatalf("position %d = %s, want %s", i, got[i], want[i].SubscriptionID)
				}
			}
		})
	}
}

// TestListSeesWrites checks that the sorted cache is dropped by every
// kind of write.
func TestListSeesWrites(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	created := e.createN(token, testAccount, 3)
	names := func() []string {
		w, _ := e.listPage(token, testAccount, "sortBy=eventName")
		var out []string
		for _, s := range w.Subscriptions {
			out = append(out, s.EventName)
		}
		return out
	}
	names()
	path := subsPath(testAccount) + "/" + created[0].SubscriptionID
	e.do(http.MethodPut, path, token, map[string]any{"subscription": withFields(map[string]any{"eventName": "A.FIRST"})}).wantStatus(t, http.StatusOK)
	if got := names(); got[0] != "A.FIRST" {
		t.Errorf("after PUT: %v", got)
	}
	e.srv.ModifySubscription(testAccount, created[1].SubscriptionID, func(s *mockserver.Subscription) { s.EventName = "0.ZERO" })
	if got := names(); got[0] != "0.ZERO" {
		t.Errorf("after ModifySubscription: %v", got)
	}
	e.do(http.MethodPatch, subsPath(testAccount), token, map[string]any{"operation": "update", "subscriptions": []any{
		map[string]any{"subscriptionId": created[2].SubscriptionID, "eventName": "0.AAA"},
	}}).wantStatus(t, http.StatusMultiStatus)
	if got := names(); got[0] != "0.AAA" {
		t.Errorf("after bulk update: %v", got)
	}
	e.do(http.MethodDelete, subsPath(testAccount)+"/"+created[2].SubscriptionID, token, nil).wantStatus(t, http.StatusNoContent)
	if got := names(); len(got) != 2 || got[0] != "0.ZERO" {
		t.Errorf("after delete: %v", got)
	}
}

func TestListQueryValidation(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	seed(e.srv, testAccount, 3)
	fields := "subscriptionId, eventName, destinationType, logLevel, accountId, destinationEmail, eventStreamsEnvironment, " +
		"eventStreamsEnvironmentName, eventStreamsTopic, enabled, createdDate, lastUpdatedDate, createdBy, lastUpdatedUserId"
	tests := []struct {
		query, want string
	}{
		{"pageNumber=-1", `pageNumber must be an integer greater than or equal to 0, got "-1"`},
		{"pageNumber=abc", `pageNumber must be an integer greater than or equal to 0, got "abc"`},
		{"pageNumber=1.5", `pageNumber must be an integer greater than or equal to 0, got "1.5"`},
		{"pageNumber=3000000000", `pageNumber must be an integer greater than or equal to 0, got "3000000000"`},
		{"pageSize=0", `pageSize must be an integer greater than or equal to 1, got "0"`},
		{"pageSize=-5", `pageSize must be an integer greater than or equal to 1, got "-5"`},
		{"pageSize=ten", `pageSize must be an integer greater than or equal to 1, got "ten"`},
		{"sortBy=name", `Invalid sortBy "name". Supported values are: ` + fields},
		{"sortBy=created_date", `Invalid sortBy "created_date". Supported values are: ` + fields},
		{"sortDirection=UP", `Invalid sortDirection "UP". Supported values are: ASC, DESC`},
		{"sortBy=eventName&sortDirection=descending", `Invalid sortDirection "descending". Supported values are: ASC, DESC`},
	}
	path := subsPath(testAccount)
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			e := e.with(t)
			e.do(http.MethodGet, path+"?"+tt.query, token, nil).wantError(t, http.StatusBadRequest, "Bad Request", path, tt.want)
		})
	}
	// Validation comes before the empty-account answer.
	emptyToken := e.jwt("empty")
	e.do(http.MethodGet, subsPath("empty")+"?pageSize=0", emptyToken, nil).wantStatus(t, http.StatusBadRequest)
}
