package client_test

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// A listing whose pages disagree with their metadata is made again: 150 subscriptions on
// pages of 100, disturbed once, are listed whole, at the cost of one more listing.
func TestMockListingDisagreementListedAgain(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		fault     mockserver.Fault
		wantPages int // list requests
		wantCount int // subscriptions the account holds afterwards
	}{
		{"undisturbed", mockserver.Fault{}, 2, 150},
		// Page 0 says last, while its totalPages says 2: listed again.
		{"page 0 claims to be the last", mockserver.Fault{ClaimLast: true}, 3, 150},
		// Page 1 counts 149 in all where page 0 counted 150: listed again.
		{"one deleted between the pages", mockserver.Fault{ShiftPages: 1}, 4, 149},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newMockEnv(t, mockserver.Config{})
			e.seed(itAccount, 150)
			if tt.fault != (mockserver.Fault{}) {
				tt.fault.Count = 1
				e.mock.InjectFault(tt.fault)
			}
			got, err := e.client().ListSubscriptions(ctx(t), itAccount, client.ListOptions{})
			if err != nil {
				t.Fatalf("ListSubscriptions: %v", err)
			}
			want := e.mock.Subscriptions(itAccount)
			if len(want) != tt.wantCount {
				t.Fatalf("the mock holds %d subscriptions, want %d", len(want), tt.wantCount)
			}
			wantSubs(t, got, fromMockAll(want))
			e.wantCount(http.MethodGet, mockserver.RouteSubscriptions, tt.wantPages)
		})
	}
}

// A listing that disagrees with its metadata every time is an *IncompleteListingError after
// three listings, carrying what the last one listed.
func TestMockListingDisagreesEveryTime(t *testing.T) {
	t.Parallel()
	e := newMockEnv(t, mockserver.Config{})
	seeded := e.seed(itAccount, 150)
	e.mock.InjectFault(mockserver.Fault{ClaimLast: true})
	_, err := e.client().ListSubscriptions(ctx(t), itAccount, client.ListOptions{})
	var incomplete *client.IncompleteListingError
	if !errors.As(err, &incomplete) {
		t.Fatalf("ListSubscriptions error %v, want an *IncompleteListingError", err)
	}
	if incomplete.Attempts != 3 || incomplete.AccountID != itAccount || len(incomplete.Subscriptions) != 100 {
		t.Errorf("error %+v, want 3 attempts on %s with the 100 of page 0", incomplete, itAccount)
	}
	if incomplete.Subscriptions[0].ID != seeded[0].SubscriptionID {
		t.Errorf("first listed %s, want %s", incomplete.Subscriptions[0].ID, seeded[0].SubscriptionID)
	}
	e.wantCount(http.MethodGet, mockserver.RouteSubscriptions, 3)
}

// A subscription deleted and another created between two pages changes no count: the
// listing cannot reveal it, and misses the subscription that moved to the page already read.
// This is why the callers that would act on an absence confirm it with a read.
func TestMockListingShiftWithoutTrace(t *testing.T) {
	t.Parallel()
	e := newMockEnv(t, mockserver.Config{})
	seeded := e.seed(itAccount, 150)
	e.mock.InjectFault(mockserver.Fault{ShiftPages: 1, ShiftReplace: true, Count: 1})
	got, err := e.client().ListSubscriptions(ctx(t), itAccount, client.ListOptions{})
	if err != nil {
		t.Fatalf("ListSubscriptions: %v", err)
	}
	listed := ids(got)
	if len(got) != 150 || slices.Contains(listed, seeded[100].SubscriptionID) {
		t.Errorf("listed %d, with %s: want 150 without it (it moved to page 0 after page 0 was read)", len(got), seeded[100].SubscriptionID)
	}
	e.wantCount(http.MethodGet, mockserver.RouteSubscriptions, 2)
}

// A bulk delete whose 207 holds no status for some items, or cannot be read, settles those
// items with one read each: the service's 404 makes them 404, and one that still exists stays
// without a status.
func TestMockBulkDeleteSettledByReads(t *testing.T) {
	t.Parallel()
	html := mockserver.Fault{Status: http.StatusMultiStatus, Body: "<html><body>OK</body></html>", ContentType: "text/html"}
	tests := []struct {
		name      string
		fault     mockserver.Fault
		wantErr   error
		want      []int // status per item, 0: none
		wantReads int
		wantLeft  int
	}{
		{"statuses lost after the work", mockserver.Fault{DropStatuses: 2, AfterWork: true}, nil, []int{204, 204, 404, 404}, 2, 1},
		{"items neither done nor answered", mockserver.Fault{DropStatuses: 2}, nil, []int{204, 204, 0, 0}, 2, 3},
		{"HTML body after the work", withAfterWork(html), nil, []int{404, 404, 404, 404}, 4, 1},
		// Nothing done and nothing settled: the answer's own error.
		{"HTML body, nothing done", html, httpapi.ErrMalformedResponse, nil, 4, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newMockEnv(t, mockserver.Config{})
			subs := e.seed(itAccount, 5)
			tt.fault.Method, tt.fault.Route, tt.fault.Count = http.MethodPatch, mockserver.RouteSubscriptions, 1
			e.mock.InjectFault(tt.fault)
			var sent []string
			for _, s := range subs[:4] {
				sent = append(sent, s.SubscriptionID)
			}
			got, err := e.client().BulkDeleteSubscriptions(ctx(t), itAccount, sent)
			if !errors.Is(err, tt.wantErr) || (err != nil) != (tt.wantErr != nil) {
				t.Fatalf("BulkDeleteSubscriptions error %v, want %v", err, tt.wantErr)
			}
			if tt.want != nil {
				byID := make(map[string]int)
				for _, st := range got {
					byID[st.SubscriptionID] = st.HTTPEquivalentCode
				}
				for i, id := range sent {
					if byID[id] != tt.want[i] {
						t.Errorf("item %d: status %d, want %d (0: none)", i, byID[id], tt.want[i])
					}
				}
			}
			e.wantCount(http.MethodGet, mockserver.RouteSubscription, tt.wantReads)
			if n := len(e.mock.Subscriptions(itAccount)); n != tt.wantLeft {
				t.Errorf("the mock holds %d subscriptions, want %d", n, tt.wantLeft)
			}
		})
	}
}

// withAfterWork returns f acting after the work.
func withAfterWork(f mockserver.Fault) mockserver.Fault {
	f.AfterWork = true
	return f
}

// Batched deletes whose bulk answer misses statuses settle them with reads too: an item
// deleted is no error, an item the service did not act on is an error that says so.
func TestMockBatchedDeletesSettledByReads(t *testing.T) {
	t.Parallel()
	for _, afterWork := range []bool{true, false} {
		t.Run(fmt.Sprintf("afterWork=%t", afterWork), func(t *testing.T) {
			t.Parallel()
			e := newMockEnv(t, mockserver.Config{})
			subs := e.seed(itAccount, 6)
			e.mock.InjectFault(mockserver.Fault{DropStatuses: 2, AfterWork: afterWork, Count: 1})
			c := e.client(readyAt(6))
			errs := make([]error, 6)
			parallel(6, func(i int) { errs[i] = c.DeleteSubscriptionBatched(ctx(t), itAccount, subs[i].SubscriptionID) })
			failed := 0
			for _, err := range errs {
				if err != nil {
					failed++
					if !strings.Contains(err.Error(), "did not find it gone") {
						t.Errorf("error %q does not say the read found it", err)
					}
				}
			}
			wantFailed := 0
			if !afterWork {
				wantFailed = 2
			}
			if failed != wantFailed || len(e.mock.Subscriptions(itAccount)) != wantFailed {
				t.Errorf("%d deletes failed and the mock holds %d subscriptions, want %d and %d",
					failed, len(e.mock.Subscriptions(itAccount)), wantFailed, wantFailed)
			}
			e.wantCount(http.MethodPatch, mockserver.RouteSubscriptions, 1)
			e.wantCount(http.MethodGet, mockserver.RouteSubscription, 2)
		})
	}
}

// The read that settles a lost create meets a listing that shifts between its pages: the
// listing is made again, so the subscription the lost create made is found and adopted, not
// created a second time. (100 older subscriptions put the new one first on page 1; the shift
// moves it to page 0 after page 0 was read.)
func TestMockCreateLostSettledThroughShiftingListing(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t)
	e.seed(itAccount, 100)
	if _, err := c.Token(ctx(t), itAccount); err != nil {
		t.Fatalf("Token: %v", err)
	}
	e.mock.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
		Status: http.StatusGatewayTimeout, AfterWork: true, Count: 1})
	e.mock.InjectFault(mockserver.Fault{ShiftPages: 1, Count: 1})
	got, err := c.CreateSubscriptions(ctx(t), itAccount, []client.SubscriptionInput{validInput("NEW.EVENT")})
	if err != nil {
		t.Fatalf("CreateSubscriptions: %v", err)
	}
	e.wantCount(http.MethodPost, mockserver.RouteSubscriptions, 1)
	subs := e.mock.Subscriptions(itAccount)
	if len(subs) != 100 || subs[len(subs)-1].SubscriptionID != got[0].ID {
		t.Errorf("the mock holds %d subscriptions, the newest %s; want 100 (one shifted out), the newest %s adopted",
			len(subs), subs[len(subs)-1].SubscriptionID, got[0].ID)
	}
}
