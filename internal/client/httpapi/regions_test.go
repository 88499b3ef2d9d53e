package httpapi

import (
	"reflect"
	"testing"
)

func TestRegions(t *testing.T) {
	t.Parallel()
	if got := RegionNames(); !reflect.DeepEqual(got, []string{"us", "gb"}) {
		t.Errorf("RegionNames = %v", got)
	}
	if DefaultRegion != "us" {
		t.Errorf("DefaultRegion = %q", DefaultRegion)
	}
	for _, r := range Regions() {
		// The spec gives the addresses only as placeholders.
		if r.BaseURL != "" || r.AuthURL != "" {
			t.Errorf("region %s has addresses %q %q", r.Name, r.BaseURL, r.AuthURL)
		}
	}
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"us", "us", true}, {"GB", "gb", true}, {" us ", "us", true}, {"eu", "", false}, {"", "", false},
	}
	for _, tc := range tests {
		r, ok := LookupRegion(tc.in)
		if ok != tc.ok || r.Name != tc.want {
			t.Errorf("LookupRegion(%q) = %+v, %t", tc.in, r, ok)
		}
	}
	// The table cannot be changed through a returned slice.
	rs := Regions()
	rs[0].BaseURL = "https://evil"
	if r, _ := LookupRegion("us"); r.BaseURL != "" {
		t.Error("the region table is mutable")
	}
}
