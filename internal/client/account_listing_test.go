package client

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// TestAccountSubscriptions follows one Client through the calls of a plan and an apply of
// eventnotify_account_subscriptions: the second call is served from the first one's listing,
// a write to the account makes the next call list again, a failed listing is never served
// (the next call lists again and reports the service's answer), and a negative TTL lists
// every time.
func TestAccountSubscriptions(t *testing.T) {
	t.Parallel()
	e := newCacheEnv(t, mockserver.Config{})
	subs := e.seed(cacheAccount, 150)
	c := e.client()
	wantIDs := make([]string, len(subs))
	for i, s := range subs {
		wantIDs[i] = strings.ToLower(s.SubscriptionID)
	}
	slices.Sort(wantIDs)
	steps := []struct {
		name      string
		before    func()
		wantLists int // list pages requested by the step
		wantErr   bool
		wantN     int
	}{
		{name: "first call lists", wantLists: 2, wantN: 150},
		{name: "second call is served", wantLists: 0, wantN: 150},
		{name: "a read joins the listing", before: func() { mustRead(t, c, "", subs[3].SubscriptionID) }, wantLists: 0, wantN: 150},
		{name: "a conclusive write updates it", before: func() {
			if _, err := c.BulkDeleteSubscriptions(t.Context(), "", []string{subs[0].SubscriptionID}); err != nil {
				t.Fatal(err)
			}
		}, wantLists: 0, wantN: 149},
		{name: "an inconclusive write drops it", before: func() {
			remove := e.mock.InjectFault(mockserver.Fault{Method: http.MethodPatch, Route: mockserver.RouteSubscriptions, DropStatuses: 1, AfterWork: true, Count: 1})
			defer remove()
			if _, err := c.BulkDeleteSubscriptions(t.Context(), "", []string{subs[1].SubscriptionID}); err != nil {
				t.Fatal(err)
			}
		}, wantLists: 2, wantN: 148},
		{name: "a failed listing is an error", before: func() {
			c.listings.invalidate(cacheAccount)
			e.mock.InjectFault(mockserver.Fault{Method: http.MethodGet, Route: mockserver.RouteSubscriptions, Status: http.StatusForbidden, Count: 1})
		}, wantLists: 1, wantErr: true},
		{name: "and is not served", wantLists: 2, wantN: 148},
	}
	for _, step := range steps {
		if step.before != nil {
			step.before()
		}
		before := e.lists()
		got, err := c.AccountSubscriptions(t.Context(), "")
		if lists := e.lists() - before; lists != step.wantLists {
			t.Errorf("%s: %d list requests, want %d", step.name, lists, step.wantLists)
		}
		if (err != nil) != step.wantErr {
			t.Fatalf("%s: error %v, want one: %t", step.name, err, step.wantErr)
		}
		if err != nil {
			var apiErr *httpapi.APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusForbidden {
				t.Errorf("%s: error %v, want the service's 403", step.name, err)
			}
			continue
		}
		if len(got) != step.wantN {
			t.Fatalf("%s: %d subscriptions, want %d", step.name, len(got), step.wantN)
		}
		if !slices.IsSortedFunc(got, func(a, b Subscription) int { return strings.Compare(strings.ToLower(a.ID), strings.ToLower(b.ID)) }) {
			t.Errorf("%s: not ordered by id", step.name)
		}
		if step.wantN == len(subs) && strings.ToLower(got[0].ID) != wantIDs[0] {
			t.Errorf("%s: first id %s, want %s", step.name, got[0].ID, wantIDs[0])
		}
	}

	off := e.client(func(cfg *Config) { cfg.ListCacheTTL = -1 })
	before := e.lists()
	for range 2 {
		if _, err := off.AccountSubscriptions(t.Context(), ""); err != nil {
			t.Fatal(err)
		}
	}
	if lists := e.lists() - before; lists != 4 {
		t.Errorf("with the cache off: %d list requests for two calls, want 4", lists)
	}
}

// TestAccountSubscriptionsConcurrentShareOneListing: the readers of one account that a plan
// refreshes at once (topic and account resources and data sources through AccountSubscriptions,
// single resources through ReadSubscription) share one listing of the account: one pass over
// the account (3 pages of 100 for 250 subscriptions) in all, and no single read.
func TestAccountSubscriptionsConcurrentShareOneListing(t *testing.T) {
	t.Parallel()
	e := newCacheEnv(t, mockserver.Config{})
	subs := e.seed(cacheAccount, 250)
	c := e.client()
	start := make(chan struct{})
	errs := make(chan error, 20)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			<-start
			var err error
			if i%2 == 0 {
				var got []Subscription
				if got, err = c.AccountSubscriptions(t.Context(), ""); err == nil && len(got) != len(subs) {
					err = fmt.Errorf("AccountSubscriptions returned %d subscriptions, want %d", len(got), len(subs))
				}
			} else {
				_, err = c.ReadSubscription(t.Context(), "", subs[i].SubscriptionID)
			}
			errs <- err
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := e.lists(); n != 3 {
		t.Errorf("20 concurrent readers made %d list requests, want one pass of 3 pages", n)
	}
	if n := e.mock.Count(http.MethodGet, mockserver.RouteSubscription); n != 0 {
		t.Errorf("%d single reads, want none: every subscription read was listed", n)
	}
}
