package client

import (
	"maps"
	"strings"
	"testing"
	"time"
)

// TestListingCache_applyWrite: the rule of a write's outcome on the account's listing, one
// case per outcome. A conclusive outcome updates a stored listing (as answered, without a new
// listing), any other drops it; every outcome bumps the generation, so that a listing in
// flight during the write is never stored; and a listing that readers hold is never changed.
func TestListingCache_applyWrite(t *testing.T) {
	t.Parallel()
	const a, b, c = "aaaaaaaa-0000-4000-8000-000000000001", "aaaaaaaa-0000-4000-8000-000000000002", "aaaaaaaa-0000-4000-8000-000000000003"
	sub := func(id, level string) Subscription { return Subscription{ID: id, LogLevel: level} }
	cases := []struct {
		name       string
		stored     bool // a listing of a and b is stored before the write
		failed     bool // the last listing failed
		write      writeOutcome
		wantState  listingState
		wantSubs   map[string]Subscription
		wantUnread map[string]bool
	}{
		{name: "created", stored: true, write: writeOutcome{conclusive: true, put: []Subscription{sub(c, "INFO")}},
			wantState: listingHit, wantSubs: map[string]Subscription{a: sub(a, "ERROR"), b: sub(b, "ERROR"), c: sub(c, "INFO")}},
		{name: "updated, as answered", stored: true, write: writeOutcome{conclusive: true, put: []Subscription{sub(strings.ToUpper(a), "INFO")}},
			wantState: listingHit, wantSubs: map[string]Subscription{a: sub(strings.ToUpper(a), "INFO"), b: sub(b, "ERROR")}},
		{name: "deleted", stored: true, write: writeOutcome{conclusive: true, gone: []string{b}},
			wantState: listingHit, wantSubs: map[string]Subscription{a: sub(a, "ERROR")}},
		{name: "updated, not shown", stored: true, write: writeOutcome{conclusive: true, unread: []string{b}},
			wantState: listingHit, wantSubs: map[string]Subscription{a: sub(a, "ERROR")}, wantUnread: map[string]bool{b: true}},
		{name: "refused", stored: true, write: writeOutcome{conclusive: true},
			wantState: listingHit, wantSubs: map[string]Subscription{a: sub(a, "ERROR"), b: sub(b, "ERROR")}},
		{name: "inconclusive", stored: true, write: writeOutcome{put: []Subscription{sub(c, "INFO")}}, wantState: listingMiss},
		{name: "conclusive, nothing stored", write: writeOutcome{conclusive: true, put: []Subscription{sub(c, "INFO")}}, wantState: listingMiss},
		{name: "conclusive after a failed listing", failed: true, write: writeOutcome{conclusive: true}, wantState: listingMiss},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var lc listingCache
			now := time.Now()
			_, _, gen, _ := lc.lookup("acc", now, time.Minute)
			var held map[string]Subscription
			switch {
			case tc.stored:
				held = map[string]Subscription{a: sub(a, "ERROR"), b: sub(b, "ERROR")}
				lc.store("acc", gen, held, now)
			case tc.failed:
				lc.fail("acc", gen, now)
			}
			heldCopy := maps.Clone(held)
			_, _, inFlight, _ := lc.lookup("acc", now, time.Minute) // a listing that starts before the write

			lc.applyWrite("acc", tc.write)

			subs, unread, after, state := lc.lookup("acc", now, time.Minute)
			if state != tc.wantState {
				t.Fatalf("state %v after the write, want %v", state, tc.wantState)
			}
			if !maps.Equal(subs, tc.wantSubs) || !maps.Equal(unread, tc.wantUnread) && len(unread)+len(tc.wantUnread) > 0 {
				t.Errorf("listing %v, unread %v after the write, want %v, %v", subs, unread, tc.wantSubs, tc.wantUnread)
			}
			if !maps.Equal(held, heldCopy) {
				t.Errorf("the write changed the listing a reader holds: %v, was %v", held, heldCopy)
			}
			if after == inFlight {
				t.Errorf("generation %d after the write, the same as before it", after)
			}
			if lc.store("acc", inFlight, map[string]Subscription{}, now) {
				t.Error("a listing that started before the write was stored after it")
			}
		})
	}
}

// TestListingCache_racingWrites: two writes over with a listing pass in flight, in either
// order: the pass is not stored, and the stored listing holds both writes' outcomes or there
// is none.
func TestListingCache_racingWrites(t *testing.T) {
	t.Parallel()
	const a, b, c = "aaaaaaaa-0000-4000-8000-000000000001", "aaaaaaaa-0000-4000-8000-000000000002", "aaaaaaaa-0000-4000-8000-000000000003"
	create := writeOutcome{conclusive: true, put: []Subscription{{ID: c}}}
	del := writeOutcome{conclusive: true, gone: []string{a}}
	lost := writeOutcome{}
	cases := []struct {
		name   string
		writes []writeOutcome
		want   map[string]Subscription // nil: no listing
	}{
		{"create then delete", []writeOutcome{create, del}, map[string]Subscription{b: {ID: b}, c: {ID: c}}},
		{"delete then create", []writeOutcome{del, create}, map[string]Subscription{b: {ID: b}, c: {ID: c}}},
		{"lost then conclusive", []writeOutcome{lost, create}, nil},
		{"conclusive then lost", []writeOutcome{create, lost}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var lc listingCache
			now := time.Now()
			_, _, gen, _ := lc.lookup("acc", now, time.Minute)
			lc.store("acc", gen, map[string]Subscription{a: {ID: a}, b: {ID: b}}, now)
			// The stored listing expires; a new pass starts and the writes end while it runs.
			later := now.Add(2 * time.Minute)
			_, _, pass, state := lc.lookup("acc", later, time.Minute)
			if state != listingMiss {
				t.Fatalf("state %v after the TTL, want a miss", state)
			}
			passed := map[string]Subscription{a: {ID: a}, b: {ID: b}}
			if tc.want != nil {
				// The pass is stored before the writes end: they update it.
				if !lc.store("acc", pass, passed, later) {
					t.Fatal("the pass was not stored")
				}
			}
			for _, w := range tc.writes {
				lc.applyWrite("acc", w)
			}
			if tc.want == nil && lc.store("acc", pass, passed, later) {
				t.Error("a pass in flight during the writes was stored")
			}
			subs, _, _, _ := lc.lookup("acc", later, time.Minute)
			if !maps.Equal(subs, tc.want) {
				t.Errorf("listing %v after the writes, want %v", subs, tc.want)
			}
		})
	}
}
