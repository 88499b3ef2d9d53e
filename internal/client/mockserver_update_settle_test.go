package client_test

import (
	"cmp"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// ghostID is a subscription id the mock's accounts do not hold.
const ghostID = "00000000-0000-4000-8000-0000000000ff"

// An update whose answer does not tell its outcome is read back with one GET, and what the
// service holds decides: the update's settings are success (with the subscription as read),
// others are ErrNotUpdated, a failed read is ErrOutcomeUnknown. An answer that tells (a 404)
// is read no further.
func TestMockUpdateSubscriptionReadBack(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		faults  []mockserver.Fault
		id      string // "" = the seeded subscription
		landed  bool   // whether the service holds the update afterwards
		is      error  // nil = success
		wantErr string // part of the error
		puts    int
		gets    int
	}{
		{name: "200 cut short after the work", faults: []mockserver.Fault{{Method: http.MethodPut, Route: mockserver.RouteSubscription, Truncate: 30}},
			landed: true, puts: 1, gets: 1},
		{name: "every answer dropped after the work", faults: []mockserver.Fault{{Method: http.MethodPut, Route: mockserver.RouteSubscription, Drop: true, AfterWork: true}},
			landed: true, puts: 4, gets: 1}, // the first attempt and MaxRetries (3), each repeated in full
		{name: "500 before the work", faults: []mockserver.Fault{{Method: http.MethodPut, Route: mockserver.RouteSubscription, Status: http.StatusInternalServerError}},
			is: client.ErrNotUpdated, wantErr: "HTTP 500", puts: 1, gets: 1},
		{name: "cut short, and the read fails", faults: []mockserver.Fault{
			{Method: http.MethodPut, Route: mockserver.RouteSubscription, Truncate: 30},
			{Method: http.MethodGet, Route: mockserver.RouteSubscription, Status: http.StatusInternalServerError}},
			landed: true, is: client.ErrOutcomeUnknown, wantErr: "reading the subscription back failed", puts: 1, gets: 1},
		{name: "the service's 404 needs no read", id: ghostID, is: httpapi.ErrNotFound, puts: 1, gets: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newMockEnv(t, mockserver.Config{})
			seeded := e.seed(itAccount, 1)[0]
			id := tt.id
			if id == "" {
				id = seeded.SubscriptionID
			}
			u := toggled(seeded)
			u.Input.LogLevel = "WARNING"
			for _, f := range tt.faults {
				e.mock.InjectFault(f)
			}
			got, err := e.client().UpdateSubscription(ctx(t), itAccount, id, u.Input)
			switch {
			case tt.is == nil && (err != nil || got == nil || got.LogLevel != "WARNING" || got.ID != id):
				t.Errorf("UpdateSubscription = %+v, %v; want the subscription as read back, with log level WARNING", got, err)
			case tt.is != nil && (!errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("error %v, want one matching %v and containing %q", err, tt.is, tt.wantErr)
			}
			if held, _ := e.mock.Subscription(itAccount, seeded.SubscriptionID); (held.LogLevel == "WARNING") != tt.landed {
				t.Errorf("the mock holds log level %s; the update landed: %v, want %v", held.LogLevel, !tt.landed, tt.landed)
			}
			e.wantCount(http.MethodPut, mockserver.RouteSubscription, tt.puts)
			e.wantCount(http.MethodGet, mockserver.RouteSubscription, tt.gets)
			e.wantCount(http.MethodGet, mockserver.RouteSubscriptions, 0)
		})
	}
}

// Bulk updates whose answers do not tell their outcome are read back together, once every
// request is answered: one listing of the account (ceil(M / 100) pages), not a GET each; only
// an id the listing lacks is read on its own, and the service's 404 makes it not found.
func TestMockUpdateSubscriptionsBulkReadBack(t *testing.T) {
	t.Parallel()
	lostAfterWork := mockserver.Fault{Method: http.MethodPatch, Route: mockserver.RouteSubscriptions, Drop: true, AfterWork: true}
	tests := []struct {
		name    string
		n       int
		ghost   bool // an update of ghostID is sent too (last)
		faults  []mockserver.Fault
		landed  bool
		is      error // of every item but the ghost; nil = success
		patches int
		read    int // results read back; 0 = all
		pages   int // listing requests
		gets    int // single reads
	}{
		{name: "every answer lost after the work", n: 100, ghost: true, faults: []mockserver.Fault{lostAfterWork},
			landed: true, patches: 2 * 4, pages: 1, gets: 1}, // 101 updates: two requests, each tried 4 times
		{name: "250 subscriptions, every answer lost after the work", n: 250, faults: []mockserver.Fault{lostAfterWork},
			landed: true, patches: 3 * 4, pages: 3},
		{name: "500 before the work", n: 100,
			faults: []mockserver.Fault{{Method: http.MethodPatch, Route: mockserver.RouteSubscriptions, Status: http.StatusInternalServerError}},
			is:     client.ErrNotUpdated, patches: 1, pages: 1},
		{name: "lost after the work, and the listing fails", n: 100, faults: []mockserver.Fault{lostAfterWork,
			{Method: http.MethodGet, Route: mockserver.RouteSubscriptions, Status: http.StatusInternalServerError}},
			landed: true, is: client.ErrOutcomeUnknown, patches: 4, pages: 1},
		{name: "a 207 without 5 statuses", n: 100,
			faults: []mockserver.Fault{{Method: http.MethodPatch, Route: mockserver.RouteSubscriptions, DropStatuses: 5, AfterWork: true}},
			landed: true, patches: 1, read: 5, pages: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newMockEnv(t, mockserver.Config{})
			subs := e.seed(itAccount, tt.n)
			updates := make([]client.SubscriptionUpdate, 0, tt.n+1)
			for _, s := range subs {
				updates = append(updates, toggled(s))
			}
			if tt.ghost {
				g := toggled(subs[0])
				g.ID = ghostID
				updates = append(updates, g)
			}
			for _, f := range tt.faults {
				e.mock.InjectFault(f)
			}
			got := e.client().UpdateSubscriptionsBulk(ctx(t), itAccount, updates)
			read := 0
			for i, r := range got {
				if r.ReadBack {
					read++
				}
				if r.ID == ghostID {
					if !errors.Is(r.Err, httpapi.ErrNotFound) {
						t.Errorf("%s: error %v, want the service's 404", r.ID, r.Err)
					}
					continue
				}
				if tt.is == nil && r.Err != nil || tt.is != nil && !errors.Is(r.Err, tt.is) {
					t.Errorf("%s: error %v, want %v", r.ID, r.Err, tt.is)
				}
				if held, _ := e.mock.Subscription(itAccount, r.ID); (held.Enabled != subs[i].Enabled) != tt.landed {
					t.Errorf("%s: the mock holds enabled = %v (was %v), want the update landed: %v", r.ID, held.Enabled, subs[i].Enabled, tt.landed)
				}
			}
			if want := cmp.Or(tt.read, len(updates)); read != want {
				t.Errorf("%d results read back, want %d", read, want)
			}
			e.wantCount(http.MethodPatch, mockserver.RouteSubscriptions, tt.patches)
			e.wantCount(http.MethodGet, mockserver.RouteSubscriptions, tt.pages)
			e.wantCount(http.MethodGet, mockserver.RouteSubscription, tt.gets)
			e.wantCount(http.MethodPut, mockserver.RouteSubscription, 0)
		})
	}
}
