package probe

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
)

// ProfileDiff compares a probe's profile (got) with the profile a mock was started with
// (given): it lists, one line each, the members that given sets (anything but absent, null,
// "unknown" and "reasons") and got holds differently, so that an empty result means that the
// probe reported the profile. sortBy is compared as a set.
func ProfileDiff(given, got []byte) ([]string, error) {
	var g, o map[string]any
	if err := json.Unmarshal(given, &g); err != nil {
		return nil, fmt.Errorf("the given profile: %w", err)
	}
	if err := json.Unmarshal(got, &o); err != nil {
		return nil, fmt.Errorf("the probe's profile: %w", err)
	}
	var diffs []string
	names := make([]string, 0, len(g))
	for k := range g {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, name := range names {
		want := g[name]
		if want == nil || want == Unknown || !slices.Contains(findingOrder, name) {
			continue
		}
		have := o[name]
		if name == SortBy {
			want, have = sortedStrings(want), sortedStrings(have)
		}
		if !reflect.DeepEqual(want, have) {
			w, _ := json.Marshal(g[name])
			h, _ := json.Marshal(o[name])
			diffs = append(diffs, fmt.Sprintf("%s: given %s, probed %s", name, w, h))
		}
	}
	return diffs, nil
}

// sortedStrings is a JSON array of strings sorted, or v as it is.
func sortedStrings(v any) any {
	arr, ok := v.([]any)
	if !ok {
		return v
	}
	s := make([]string, 0, len(arr))
	for _, e := range arr {
		str, ok := e.(string)
		if !ok {
			return v
		}
		s = append(s, str)
	}
	slices.Sort(s)
	return s
}
