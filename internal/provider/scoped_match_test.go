package provider

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// matchEntry is an entry of event with id ("" for unknown, as planned for a create).
func matchEntry(event, id string) accountEntry {
	e := accountEntry{EventName: newEventName(event), DestinationType: types.StringValue("EVENT_STREAMS"),
		LogLevel: types.StringValue("ERROR"), Enabled: types.BoolValue(true), ID: types.StringUnknown()}
	if id != "" {
		e.ID = types.StringValue(id)
	}
	return e
}

// TestMatchEntries checks the one matcher of eventnotify_account_subscriptions, rule by rule.
func TestMatchEntries(t *testing.T) {
	held := map[string]accountEntry{"a": matchEntry("ev.a", "id-a"), "b": matchEntry("ev.b", "id-b")}
	unknownInputs := matchEntry("ev.x", "")
	unknownInputs.LogLevel = types.StringUnknown()
	tests := []struct {
		name    string
		planned map[string]accountEntry
		held    map[string]accountEntry
		want    entryMatch
	}{
		{name: "nothing changed, ids known", held: held,
			planned: map[string]accountEntry{"a": matchEntry("ev.a", "id-a"), "b": matchEntry("ev.b", "id-b")},
			want:    entryMatch{keep: map[string]string{"a": "a", "b": "b"}}},
		{name: "same key, same inputs, event name in another case", held: held,
			planned: map[string]accountEntry{"a": matchEntry("EV.A", ""), "b": matchEntry("ev.b", "")},
			want:    entryMatch{keep: map[string]string{"a": "a", "b": "b"}}},
		{name: "renamed key", held: held,
			planned: map[string]accountEntry{"a": matchEntry("ev.a", ""), "c": matchEntry("ev.b", "")},
			want:    entryMatch{keep: map[string]string{"a": "a", "c": "b"}}},
		{name: "swapped contents", held: held,
			planned: map[string]accountEntry{"a": matchEntry("ev.b", ""), "b": matchEntry("ev.a", "")},
			want:    entryMatch{keep: map[string]string{"a": "b", "b": "a"}}},
		{name: "changed inputs under the same key", held: held,
			planned: map[string]accountEntry{"a": matchEntry("ev.a2", ""), "b": matchEntry("ev.b", "")},
			want:    entryMatch{keep: map[string]string{"b": "b"}, update: map[string]string{"a": "a"}}},
		{name: "a known id wins over the key", held: held,
			planned: map[string]accountEntry{"a": matchEntry("ev.b", "id-b"), "b": matchEntry("ev.a2", "id-a")},
			want:    entryMatch{keep: map[string]string{"a": "b"}, update: map[string]string{"b": "a"}}},
		{name: "created and deleted", held: held,
			planned: map[string]accountEntry{"c": matchEntry("ev.c", "")},
			want:    entryMatch{create: []string{"c"}, delete: []string{"a", "b"}}},
		{name: "of two look-alikes, the one whose key the plan no longer has goes to a new key",
			held:    map[string]accountEntry{"a": matchEntry("ev.a", "id-1"), "y": matchEntry("ev.a", "id-2")},
			planned: map[string]accountEntry{"a": matchEntry("ev.new", ""), "c": matchEntry("ev.a", "")},
			want:    entryMatch{keep: map[string]string{"c": "y"}, update: map[string]string{"a": "a"}}},
		{name: "unknown inputs match by key only", held: held,
			planned: map[string]accountEntry{"a": unknownInputs, "c": unknownInputs},
			want:    entryMatch{update: map[string]string{"a": "a"}, create: []string{"c"}, delete: []string{"b"}}},
		{name: "an empty plan deletes everything", held: held, planned: map[string]accountEntry{},
			want: entryMatch{delete: []string{"a", "b"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := matchEntries(tt.planned, tt.held)
			if !maps.Equal(got.keep, orEmpty(tt.want.keep)) || !maps.Equal(got.update, orEmpty(tt.want.update)) ||
				!slices.Equal(got.create, tt.want.create) || !slices.Equal(got.delete, tt.want.delete) {
				t.Fatalf("matchEntries:\n got keep %v update %v create %v delete %v\nwant keep %v update %v create %v delete %v",
					got.keep, got.update, got.create, got.delete, tt.want.keep, tt.want.update, tt.want.create, tt.want.delete)
			}
		})
	}
}

// orEmpty is m, or an empty map for nil.
func orEmpty(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

// recordingWriter is an entryWriter that records the writes and fails the deletes of failDelete.
type recordingWriter struct {
	deleted, updated, created []string
	failDelete                map[string]bool
}

func (w *recordingWriter) deleteEntries(_ context.Context, _ string, _ map[string]accountEntry, keys []string, diags *diag.Diagnostics) []string {
	var remaining []string
	for _, k := range keys {
		if w.failDelete[k] {
			diags.AddError("delete failed", k)
			remaining = append(remaining, k)
			continue
		}
		w.deleted = append(w.deleted, k)
	}
	return remaining
}

func (w *recordingWriter) updateEntries(_ context.Context, _ string, held map[string]accountEntry, ups []update, _ *diag.Diagnostics) []update {
	out := make([]update, len(ups))
	for i, u := range ups {
		w.updated = append(w.updated, u.key)
		e := u.planned
		e.ID = held[u.heldKey].ID
		out[i] = update{key: u.key, heldKey: u.heldKey, planned: e}
	}
	return out
}

func (w *recordingWriter) createEntries(_ context.Context, _ string, planned map[string]accountEntry, keys []string, _ *diag.Diagnostics) map[string]accountEntry {
	out := make(map[string]accountEntry, len(keys))
	for _, k := range keys {
		w.created = append(w.created, k)
		e := planned[k]
		e.ID = types.StringValue("new-" + k)
		out[k] = e
	}
	return out
}

// TestConverge_writes checks that the convergence writes what the matcher decides, through
// its writer, and keeps a subscription whose delete failed under a key of its own.
func TestConverge_writes(t *testing.T) {
	held := map[string]accountEntry{"a": matchEntry("ev.a", "id-a"), "b": matchEntry("ev.b", "id-b"), "c": matchEntry("ev.c", "id-c")}
	planned := map[string]accountEntry{"a": matchEntry("ev.a", ""), "b": matchEntry("ev.b2", ""), "n": matchEntry("ev.n", ""),
		"c": matchEntry("ev.c2", "id-b")}
	w := &recordingWriter{failDelete: map[string]bool{}}
	var diags diag.Diagnostics
	// b's subscription goes to c by its id (changed: an update); b is then a create, and
	// held c, which no entry holds, is deleted.
	got := converge(context.Background(), "acct", w, planned, held, nil, &diags)
	if diags.HasError() {
		t.Fatalf("converge: %v", diags)
	}
	if !slices.Equal(w.updated, []string{"c"}) || !slices.Equal(w.created, []string{"b", "n"}) || !slices.Equal(w.deleted, []string{"c"}) {
		t.Fatalf("writes: updated %v created %v deleted %v, want [c] [b n] [c]", w.updated, w.created, w.deleted)
	}
	if got["c"].ID.ValueString() != "id-b" || got["a"].ID.ValueString() != "id-a" || got["n"].ID.ValueString() != "new-n" || len(got) != 4 {
		t.Fatalf("result: %v", got)
	}

	// A delete that fails keeps the subscription, under its id when the plan gave its key to
	// another entry.
	w = &recordingWriter{failDelete: map[string]bool{"a": true}}
	diags = nil
	held = map[string]accountEntry{"a": matchEntry("ev.a", "id-a"), "b": matchEntry("ev.b", "id-b")}
	planned = map[string]accountEntry{"a": matchEntry("ev.b", "id-b"), "b": matchEntry("ev.new", "")}
	got = converge(context.Background(), "acct", w, planned, held, nil, &diags)
	if !diags.HasError() {
		t.Fatal("a failed delete reported no error")
	}
	if got["a"].ID.ValueString() != "id-b" || got["b"].ID.ValueString() != "new-b" || got["id-a"].ID.ValueString() != "id-a" || len(got) != 3 {
		t.Fatalf("result: %v, want a: id-b, b: new-b, id-a: id-a (its delete failed)", got)
	}
}
