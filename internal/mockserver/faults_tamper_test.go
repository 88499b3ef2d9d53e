package mockserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// pageOf2 reads page n (page size 2) of the test account.
func (e *testEnv) pageOf2(token string, n int) wireWrapper {
	e.t.Helper()
	r := e.do(http.MethodGet, fmt.Sprintf("%s?pageNumber=%d&pageSize=2", subsPath(testAccount), n), token, nil)
	r.wantStatus(e.t, http.StatusOK)
	var w wireWrapper
	decodeStrict(e.t, r.body, &w)
	return w
}

// ids returns the ids of a page.
func (w wireWrapper) ids() []string {
	var out []string
	for _, s := range w.Subscriptions {
		out = append(out, s.SubscriptionID)
	}
	return out
}

// A listing fault changes one page (ClaimLast) or the account between two pages
// (ShiftPages), once per Count, and nothing else.
func TestFaultListing(t *testing.T) {
	tests := []struct {
		name  string
		fault mockserver.Fault
		// check gets the pages 0 and 1 as served after the fault, and the store's ids in the
		// default order before it.
		check func(t *testing.T, p0, p1 wireWrapper, before []string, after []mockserver.Subscription)
	}{
		{name: "page 0 claims to be the last", fault: mockserver.Fault{ClaimLast: true},
			check: func(t *testing.T, p0, p1 wireWrapper, before []string, after []mockserver.Subscription) {
				m := p0.PaginationMetadata
				if !m.Last || m.TotalPages != 3 || m.TotalElements != 5 || m.NumberOfElements != 2 {
					t.Errorf("page 0 metadata %+v, want last with the true counts (3 pages, 5 elements)", *m)
				}
				if p1.PaginationMetadata.Last || fmt.Sprint(p1.ids()) != fmt.Sprint(before[2:4]) {
					t.Errorf("page 1 %v last=%t, want %v and not last", p1.ids(), p1.PaginationMetadata.Last, before[2:4])
				}
				if len(after) != 5 {
					t.Errorf("the account holds %d subscriptions, want 5", len(after))
				}
			}},
		{name: "one deleted between the pages", fault: mockserver.Fault{ShiftPages: 1},
			check: func(t *testing.T, p0, p1 wireWrapper, before []string, after []mockserver.Subscription) {
				if fmt.Sprint(p0.ids()) != fmt.Sprint(before[:2]) || p0.PaginationMetadata.TotalElements != 5 {
					t.Errorf("page 0 %v of %d, want %v of 5", p0.ids(), p0.PaginationMetadata.TotalElements, before[:2])
				}
				// before[2] moved to page 0 and is never listed.
				if fmt.Sprint(p1.ids()) != fmt.Sprint(before[3:5]) || p1.PaginationMetadata.TotalElements != 4 {
					t.Errorf("page 1 %v of %d, want %v of 4", p1.ids(), p1.PaginationMetadata.TotalElements, before[3:5])
				}
				if len(after) != 4 || after[0].SubscriptionID != before[1] {
					t.Errorf("the account holds %d subscriptions from %s, want 4 without %s", len(after), after[0].SubscriptionID, before[0])
				}
			}},
		{name: "one replaced between the pages", fault: mockserver.Fault{ShiftPages: 1, ShiftReplace: true},
			check: func(t *testing.T, p0, p1 wireWrapper, before []string, after []mockserver.Subscription) {
				if fmt.Sprint(p1.ids()) != fmt.Sprint(before[3:5]) || p1.PaginationMetadata.TotalElements != 5 {
					t.Errorf("page 1 %v of %d, want %v of 5: the counts must not change", p1.ids(), p1.PaginationMetadata.TotalElements, before[3:5])
				}
				last := after[len(after)-1]
				if len(after) != 5 || last.SubscriptionID == before[0] || last.EventName == "" {
					t.Errorf("the account holds %d subscriptions, last %+v; want 5, a copy of %s under a new id last", len(after), last, before[0])
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, mockserver.Config{})
			token := e.jwt(testAccount)
			e.createN(token, testAccount, 5)
			var before []string
			for _, s := range e.srv.Subscriptions(testAccount) {
				before = append(before, s.SubscriptionID)
			}
			f := tt.fault
			f.Count = 1
			e.srv.InjectFault(f)
			// Other operations do not spend the fault.
			e.do(http.MethodGet, subsPath(testAccount)+"/"+before[0], token, nil).wantStatus(t, http.StatusOK)
			p0 := e.pageOf2(token, 0)
			p1 := e.pageOf2(token, 1)
			tt.check(t, p0, p1, before, e.srv.Subscriptions(testAccount))
			if again := e.pageOf2(token, 0); again.PaginationMetadata.Last {
				t.Error("the fault fired twice with Count 1")
			}
		})
	}
}

// DropStatuses leaves the last items of a bulk answer without a status: after the work, the
// items were deleted; before it, they were neither deleted nor answered.
func TestFaultDropStatuses(t *testing.T) {
	for _, afterWork := range []bool{true, false} {
		t.Run(fmt.Sprintf("afterWork=%t", afterWork), func(t *testing.T) {
			e := newEnv(t, mockserver.Config{})
			token := e.jwt(testAccount)
			subs := e.createN(token, testAccount, 5)
			e.srv.InjectFault(mockserver.Fault{DropStatuses: 2, AfterWork: afterWork, Count: 1})
			ids := []string{subs[0].SubscriptionID, subs[1].SubscriptionID, subs[2].SubscriptionID, subs[3].SubscriptionID}
			r := e.do(http.MethodPatch, subsPath(testAccount), token, map[string]any{"operation": "delete", "subscriptionIds": ids})
			r.wantStatus(t, http.StatusMultiStatus)
			var resp wirePatchResponse
			decodeStrict(t, r.body, &resp)
			if len(resp.OperationStatuses) != 2 || resp.OperationStatuses[1].SubscriptionID != ids[1] {
				t.Fatalf("statuses %+v, want those of the first two items", resp.OperationStatuses)
			}
			wantLeft := 1
			if !afterWork {
				wantLeft = 3
			}
			if n := len(e.srv.Subscriptions(testAccount)); n != wantLeft {
				t.Errorf("the account holds %d subscriptions, want %d", n, wantLeft)
			}
			r = e.do(http.MethodPatch, subsPath(testAccount), token, map[string]any{"operation": "delete", "subscriptionIds": ids[3:]})
			decodeStrict(t, r.body, &resp)
			if len(resp.OperationStatuses) != 1 {
				t.Errorf("the fault fired twice with Count 1: %+v", resp.OperationStatuses)
			}
		})
	}
}

// ForgeMember serves a forged member in every subscription of a success answer, on the
// listing, a read and a create alike, and leaves the store as it was.
func TestFaultForge(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	created := e.createN(token, testAccount, 1)[0]
	forged := "ops\x1b]8;;https://evil.example\a\r\n  + forged\u202e"
	e.srv.InjectFault(mockserver.Fault{ForgeMember: "eventStreamsTopic", ForgeValue: forged})
	check := func(t *testing.T, s wireSubscription) {
		t.Helper()
		if s.EventStreamsTopic != forged {
			t.Errorf("served topic %q, want the forged value", s.EventStreamsTopic)
		}
		if s.SubscriptionID == "" || s.EventName != "ATOM.STATUS" || s.CreatedDate == 0 || s.CreatedBy == "" {
			t.Errorf("the other members changed: %+v", s)
		}
	}
	t.Run("listing", func(t *testing.T) {
		r := e.do(http.MethodGet, subsPath(testAccount), token, nil)
		r.wantStatus(t, http.StatusOK)
		var w wireWrapper
		decodeStrict(t, r.body, &w)
		if len(w.Subscriptions) != 1 {
			t.Fatalf("%d subscriptions listed, want 1", len(w.Subscriptions))
		}
		check(t, w.Subscriptions[0])
	})
	t.Run("read", func(t *testing.T) {
		r := e.do(http.MethodGet, subsPath(testAccount)+"/"+created.SubscriptionID, token, nil)
		r.wantStatus(t, http.StatusOK)
		var s wireSubscription
		decodeStrict(t, r.body, &s)
		check(t, s)
	})
	t.Run("create", func(t *testing.T) {
		r := e.do(http.MethodPost, subsPath(testAccount), token, map[string]any{"subscriptions": []any{validItem()}})
		r.wantStatus(t, http.StatusCreated)
		var w wireWrapper
		decodeStrict(t, r.body, &w)
		check(t, w.Subscriptions[0])
	})
	for _, s := range e.srv.Subscriptions(testAccount) {
		if s.EventStreamsTopic != "alerts" {
			t.Errorf("the store holds topic %q, want the created %q", s.EventStreamsTopic, "alerts")
		}
	}
}

// Truncate serves the answer of a request that succeeded with its status and the first bytes
// of its body only: the update is held by the store, the body is cut, and a request that
// fails (404 here) gets its whole answer.
func TestFaultTruncate(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	created := e.createN(token, testAccount, 1)[0]
	path := subsPath(testAccount) + "/" + created.SubscriptionID
	e.srv.InjectFault(mockserver.Fault{Method: http.MethodPut, Route: mockserver.RouteSubscription, Truncate: 20, Count: 1})

	missing := e.do(http.MethodPut, subsPath(testAccount)+"/00000000-0000-4000-8000-0000000000ff", token,
		map[string]any{"subscription": validItem()})
	missing.wantStatus(t, http.StatusNotFound)
	if !json.Valid(missing.body) {
		t.Errorf("the 404 was cut: %q", missing.body)
	}
	r := e.do(http.MethodPut, path, token, map[string]any{"subscription": withFields(map[string]any{"logLevel": "INFO"})})
	r.wantStatus(t, http.StatusOK)
	if len(r.body) != 20 || json.Valid(r.body) {
		t.Errorf("body %q (%d bytes), want its first 20 bytes, not valid JSON", r.body, len(r.body))
	}
	if s, ok := e.srv.Subscription(testAccount, created.SubscriptionID); !ok || s.LogLevel != "INFO" {
		t.Errorf("the store holds %+v (found %v), want the update's log level INFO", s, ok)
	}
	again := e.do(http.MethodPut, path, token, map[string]any{"subscription": validItem()})
	again.wantStatus(t, http.StatusOK)
	if !json.Valid(again.body) {
		t.Errorf("the fault fired twice with Count 1: %q", again.body)
	}
}
