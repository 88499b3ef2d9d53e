package provider

import (
	"slices"
	"strings"
)

// entryMatch is what becomes of each entry of eventnotify_account_subscriptions: which held
// subscription a planned entry holds, and what the apply does with it.
type entryMatch struct {
	keep   map[string]string // planned key -> held key of a subscription with the same inputs
	update map[string]string // planned key -> held key of a subscription updated in place
	create []string          // planned keys of new subscriptions, in order
	delete []string          // held keys that no entry holds, in order
}

// matchEntries is the one matcher of the resource, which ModifyPlan, apply and the takeover
// warning use: a pure function of the planned entries and the held ones (by key), linear in
// their number. A planned entry holds, in this order of preference:
//  1. the held subscription of its known id, kept when the inputs are the same, else updated
//     (the ids that ModifyPlan planned; a plan that changes nothing has every id known);
//  2. the held subscription under the same key, with the same inputs: kept;
//  3. a held subscription with the same inputs under another key (a renamed key, or entries
//     that swapped contents), those whose key the plan no longer has first, so that a key
//     keeps its own subscription where it can: kept;
//  4. the held subscription under the same key, with changed inputs: updated in place;
//  5. none: created.
//
// Each held subscription goes to one entry at most; those that no entry holds are deleted. An
// entry with an unknown input matches only by its id or its key.
func matchEntries(planned, held map[string]accountEntry) entryMatch {
	m := entryMatch{keep: make(map[string]string), update: make(map[string]string)}
	used := make(map[string]bool, len(held))
	done := func(key string) bool {
		_, kept := m.keep[key]
		_, updated := m.update[key]
		return kept || updated
	}
	keys := sortedKeys(planned)

	heldByID := make(map[string]string, len(held)) // lower-case id -> held key
	for _, hk := range sortedKeys(held) {
		if id := held[hk].ID; !id.IsNull() && !id.IsUnknown() {
			heldByID[strings.ToLower(id.ValueString())] = hk
		}
	}
	for _, key := range keys {
		p := planned[key]
		if p.ID.IsUnknown() || p.ID.IsNull() {
			continue
		}
		hk, ok := heldByID[strings.ToLower(p.ID.ValueString())]
		if !ok || used[hk] {
			continue
		}
		used[hk] = true
		if sameInputs(p, held[hk]) {
			m.keep[key] = hk
		} else {
			m.update[key] = hk
		}
	}
	for _, key := range keys {
		if h, ok := held[key]; ok && !done(key) && !used[key] && sameInputs(planned[key], h) {
			m.keep[key], used[key] = key, true
		}
	}

	byInputs := make(map[entryInputs][]string)
	for _, hk := range sortedKeys(held) {
		if in, ok := held[hk].inputs(); ok && !used[hk] {
			byInputs[in] = append(byInputs[in], hk)
		}
	}
	for in, candidates := range byInputs {
		slices.SortStableFunc(candidates, func(a, b string) int {
			_, planA := planned[a]
			_, planB := planned[b]
			switch {
			case planA == planB:
				return 0
			case planB:
				return -1
			}
			return 1
		})
		byInputs[in] = candidates
	}
	for _, key := range keys {
		if done(key) {
			continue
		}
		in, ok := planned[key].inputs()
		if !ok {
			continue
		}
		for len(byInputs[in]) > 0 {
			candidate := byInputs[in][0]
			byInputs[in] = byInputs[in][1:]
			if !used[candidate] {
				m.keep[key], used[candidate] = candidate, true
				break
			}
		}
	}

	for _, key := range keys {
		if done(key) {
			continue
		}
		if _, ok := held[key]; ok && !used[key] {
			m.update[key], used[key] = key, true
			continue
		}
		m.create = append(m.create, key)
	}
	for _, hk := range sortedKeys(held) {
		if !used[hk] {
			m.delete = append(m.delete, hk)
		}
	}
	return m
}
