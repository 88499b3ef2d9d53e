package client

import (
	"strings"
	"testing"
)

// listingCheck flags each disagreement between pages and their metadata, and nothing that the
// service leaves unsaid.
func TestListingCheck(t *testing.T) {
	t.Parallel()
	n := func(v int64) *flexInt64 { f := flexInt64(v); return &f }
	yes, no := true, false
	page := func(items int) *Page { return &Page{Subscriptions: make([]Subscription, items)} }
	type step struct {
		items int
		meta  *wirePagination
	}
	tests := []struct {
		name  string
		pages []step
		want  string // substring of the problem; "" none
	}{
		{"no metadata", []step{{100, nil}, {50, nil}, {0, nil}}, ""},
		{"consistent", []step{
			{100, &wirePagination{TotalElements: n(150), TotalPages: n(2), NumberOfElements: n(100), Last: &no}},
			{50, &wirePagination{TotalElements: n(150), TotalPages: n(2), NumberOfElements: n(50), Last: &yes}},
		}, ""},
		{"totalPages only", []step{{100, &wirePagination{TotalPages: n(2)}}, {50, &wirePagination{TotalPages: n(2)}}}, ""},
		{"numberOfElements", []step{{99, &wirePagination{NumberOfElements: n(100)}}}, "page 0 holds 99 subscriptions, its numberOfElements says 100"},
		{"total changes", []step{
			{100, &wirePagination{TotalElements: n(150)}},
			{49, &wirePagination{TotalElements: n(149)}},
		}, "page 1 counts 149 subscriptions in all, an earlier page 150"},
		{"last against totalPages", []step{{100, &wirePagination{TotalPages: n(2), Last: &yes}}}, "page 0 says it is the last, and that there are 2 pages"},
		{"last against totalElements", []step{{100, &wirePagination{TotalElements: n(150), Last: &yes}}}, "with 100 of 150 subscriptions listed"},
		{"ends short", []step{{100, &wirePagination{TotalElements: n(150)}}, {0, nil}}, "ended with 100 of the 150"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var lc listingCheck
			got := ""
			for i, s := range tt.pages {
				if got = lc.page(i, page(s.items), s.meta); got != "" {
					break
				}
			}
			if got == "" {
				got = lc.end()
			}
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
				t.Errorf("problem %q, want %q", got, tt.want)
			}
		})
	}
}
