package mockserver_test

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
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
		sub := mockserver.Subscription{
			EventName:         fmt.Sprintf("EVENT.%02d", (i*7)%n),
			DestinationType:   "EVENT_STREAMS",
			LogLevel:          levels[i%3],
			EventStreamsTopic: fmt.Sprintf("topic-%d", i%4),
			Enabled:           i%2 == 0,
			CreatedDate:       int64(1_700_000_000_000 + (i/2)*1000), // pairs share a createdDate
			LastUpdatedDate:   int64(1_700_000_000_000 + (n-i)*10),
			CreatedBy:         "seed",
			LastUpdatedUserID: "seed",
		}
		// Every other text field (the ids aside, which PutSubscription assigns) varies too.
		v := reflect.ValueOf(&sub).Elem()
		for j, name := range jsonNames[mockserver.Subscription]() {
			if f := v.Field(j); f.Kind() == reflect.String && f.String() == "" && name != "subscriptionId" && name != "accountId" {
				f.SetString(fmt.Sprintf("%s-%d", name, (i*3)%7))
			}
		}
		s.PutSubscription(account, sub)
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

// sortKey returns the comparison of the member with the JSON name field, read from the
// struct by reflection, for checking the server's order independently of its field table.
func sortKey(field string) func(a, b mockserver.Subscription) int {
	index := slices.Index(jsonNames[mockserver.Subscription](), field)
	return func(a, b mockserver.Subscription) int {
		var c int
		if index >= 0 {
			x, y := reflect.ValueOf(a).Field(index), reflect.ValueOf(b).Field(index)
			switch x.Kind() {
			case reflect.Bool:
				c = cmp.Compare(fmt.Sprint(x.Bool()), fmt.Sprint(y.Bool())) // "false" < "true"
			case reflect.Int64:
				c = cmp.Compare(x.Int(), y.Int())
			default:
				c = strings.Compare(x.String(), y.String())
			}
		}
		return cmp.Or(c, cmp.Compare(a.CreatedDate, b.CreatedDate), strings.Compare(a.SubscriptionID, b.SubscriptionID))
	}
}

// TestListSorting pages through the list sorted by every member of a subscription, both ways,
// and by default.
func TestListSorting(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	stored := seed(e.srv, testAccount, 30)
	tests := []struct {
		sortBy, direction string
	}{
		{"", ""}, {"", "DESC"}, {"createdDate", "desc"}, {"eventName", ""}, {"lastUpdatedDate", "asc"},
	}
	for _, name := range jsonNames[mockserver.Subscription]() {
		tests = append(tests, struct{ sortBy, direction string }{name, "ASC"}, struct{ sortBy, direction string }{name, "DESC"})
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
	fields := strings.Join(jsonNames[mockserver.Subscription](), ", ")
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
