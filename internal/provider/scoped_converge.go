package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// stateSetter is the part of tfsdk.State that apply needs.
type stateSetter interface {
	Set(ctx context.Context, val any) diag.Diagnostics
}

// update is an entry whose subscription is updated in place.
type update struct {
	key, heldKey string
	planned      accountEntry
}

// applyScope takes the scope of account from held (what exists, by key) to planned with the
// client's writes (converge), and returns what exists afterwards, by key. The held
// subscriptions are claimed first: settling a lost create answer never takes one of them.
// named, when not nil, holds the ids (lower case) that the plan showed as deleted (the
// takeover attribute of a create): a held subscription that no entry matches and named does
// not hold appeared after the plan, so it is left alone, with a warning naming it, and stays
// in the result under its id, where the next plan shows it as a removal.
func applyScope(ctx context.Context, c *client.Client, account string, scope subscriptionScope,
	planned, held map[string]accountEntry, named map[string]bool, diags *diag.Diagnostics) map[string]accountEntry {
	heldIDs := make([]string, 0, len(held))
	for _, key := range sortedKeys(held) {
		heldIDs = append(heldIDs, held[key].ID.ValueString())
	}
	c.ClaimSubscriptions(heldIDs...)
	var spare func(accountEntry) bool
	if named != nil {
		spare = func(e accountEntry) bool {
			if named[strings.ToLower(e.ID.ValueString())] {
				return false
			}
			diags.AddWarning("Subscription "+e.ID.ValueString()+" was left alone: the plan did not name it",
				fmt.Sprintf("%s now holds %s, which no entry matches and which the plan's takeover.deletes does not "+
					"name, so it appeared after the plan. The apply deletes only what the plan showed: it is left "+
					"alone and held in state under its id, and the next plan shows it as a removal (or copy it into "+
					"the configuration to keep it).", scope.holder(), describeEntry(e)))
			return true
		}
	}
	return converge(ctx, account, clientWriter{c: c, scope: scope}, planned, held, spare, diags)
}

// entryWriter makes the writes of a convergence. Each method returns what exists
// afterwards, also when a write fails (and then adds an error to diags).
type entryWriter interface {
	// deleteEntries deletes the held subscriptions of keys and returns the keys of
	// those that may still exist.
	deleteEntries(ctx context.Context, account string, held map[string]accountEntry, keys []string, diags *diag.Diagnostics) []string
	// updateEntries updates the subscriptions of ups in place and returns the
	// entries that exist afterwards: the planned values, the held ones when an
	// update failed, and none for a subscription found gone.
	updateEntries(ctx context.Context, account string, held map[string]accountEntry, ups []update, diags *diag.Diagnostics) []update
	// createEntries creates the planned entries of keys and returns those that exist
	// afterwards, by key.
	createEntries(ctx context.Context, account string, planned map[string]accountEntry, keys []string, diags *diag.Diagnostics) map[string]accountEntry
}

// converge takes the account from held (what exists, by key) to planned, with
// the writes of w, and returns what exists afterwards, by key: entries kept
// (matchEntries) take the planned inputs, entries created and updated the
// service's values, entries not updated keep their old values, and held
// subscriptions not deleted stay under their key, or their id when the plan
// gave the key to another entry.
//
// spare, when not nil, is asked about each held subscription that no entry holds: one it
// spares is not deleted and stays under its key.
func converge(ctx context.Context, account string, w entryWriter, planned, held map[string]accountEntry,
	spare func(accountEntry) bool, diags *diag.Diagnostics) map[string]accountEntry {
	match := matchEntries(planned, held)
	result := make(map[string]accountEntry, len(planned))
	var spared []string
	if spare != nil {
		deletes := match.delete[:0:0]
		for _, hk := range match.delete {
			if spare(held[hk]) {
				spared = append(spared, hk)
				continue
			}
			deletes = append(deletes, hk)
		}
		match.delete = deletes
	}
	for key, hk := range match.keep {
		result[key] = held[hk].withInputsOf(planned[key])
	}
	updates := make([]update, 0, len(match.update))
	for _, key := range sortedKeys(match.update) {
		updates = append(updates, update{key: key, heldKey: match.update[key], planned: planned[key]})
	}
	tflog.Debug(ctx, "Converging the account's subscriptions", map[string]any{"account_id": account,
		"kept": len(match.keep), "updates": len(updates), "creates": len(match.create), "deletes": len(match.delete)})

	// Deletes first: nothing planned depends on them, and they make room.
	remaining := w.deleteEntries(ctx, account, held, match.delete, diags)
	for _, u := range w.updateEntries(ctx, account, held, updates, diags) {
		result[u.key] = u.planned
	}
	for key, e := range w.createEntries(ctx, account, planned, match.create, diags) {
		result[key] = e
	}
	for _, hk := range append(remaining, spared...) {
		result[freeKey(result, hk, held[hk].ID.ValueString())] = held[hk]
	}
	return result
}

// clientWriter is the entryWriter of the provider's client, for the resource of scope (which
// its advice names).
type clientWriter struct {
	c     *client.Client
	scope subscriptionScope
}

// deleteEntries deletes the held subscriptions of keys in bulk deletes of at most
// max_batch_size each, and returns the keys of those that may still exist.
// An item answered 204 (or 200) is deleted, 404 was gone already; any other
// status is an error for that subscription alone.
func (w clientWriter) deleteEntries(ctx context.Context, account string, held map[string]accountEntry,
	keys []string, diags *diag.Diagnostics) (remaining []string) {
	c := w.c
	for chunk := range slices.Chunk(keys, c.MaxBatchSize()) {
		ids := make([]string, len(chunk))
		for i, hk := range chunk {
			ids[i] = held[hk].ID.ValueString()
		}
		statuses, err := c.BulkDeleteSubscriptions(ctx, account, ids)
		if err != nil {
			diags.AddError(deleteFailedSummary(account, ids),
				clientErrorDetail(err)+"\n\nThe request's subscriptions, which stay in state:\n  - "+strings.Join(ids, "\n  - "))
			remaining = append(remaining, chunk...)
			continue
		}
		byID := make(map[string]client.OperationStatus, len(statuses))
		for _, st := range statuses {
			byID[strings.ToLower(st.SubscriptionID)] = st
		}
		for i, hk := range chunk {
			st, ok := byID[strings.ToLower(ids[i])]
			switch {
			case !ok:
				diags.AddError(deleteFailedSummary(account, ids[i:i+1]), fmt.Sprintf("The bulk delete's answer has no status for "+
					"subscription %s, and reading it afterwards did not find it gone, so it may still exist; it stays in "+
					"state. Run terraform apply again to delete it (terraform plan shows the account's current "+
					"subscriptions).", ids[i]))
			case st.HTTPEquivalentCode == http.StatusNoContent, st.HTTPEquivalentCode == http.StatusOK,
				st.HTTPEquivalentCode == http.StatusNotFound:
				continue
			default:
				addClientError(diags, deleteFailedSummary(account, ids[i:i+1]), &client.ItemError{Operation: "bulk delete subscriptions",
					AccountID: account, SubscriptionID: ids[i], HTTPEquivalentCode: st.HTTPEquivalentCode, Message: st.Message})
			}
			remaining = append(remaining, hk)
		}
	}
	return remaining
}

// updateEntries updates the subscriptions of ups in place with the bulk update
// (client.UpdateSubscriptionsBulk: one request per max_batch_size entries, or one
// PUT each where the service refuses bulk updates), and returns the entries that
// exist afterwards: an updated one with the planned inputs (entries hold no
// server-managed values, so nothing is read back), one whose update failed with
// the held values, and none for one the service answered 404 for (gone: the
// next plan creates it again).
func (w clientWriter) updateEntries(ctx context.Context, account string, held map[string]accountEntry,
	ups []update, diags *diag.Diagnostics) []update {
	reqs := make([]client.SubscriptionUpdate, len(ups))
	for i, u := range ups {
		in := u.planned.input()
		if in.Enabled == nil {
			enabled := true
			in.Enabled = &enabled
		}
		reqs[i] = client.SubscriptionUpdate{ID: held[u.heldKey].ID.ValueString(), Input: in}
	}
	out := make([]update, 0, len(ups))
	// Updates whose answer did not tell their outcome were read back together by the client;
	// those it did not find applied are reported once per kind, with counts (update_outcomes.go).
	report := updateReport{verb: "update", account: account, total: len(ups)}
	for i, r := range w.c.UpdateSubscriptionsBulk(ctx, account, reqs) {
		u := ups[i]
		switch {
		case r.Err == nil:
			out = append(out, update{key: u.key, heldKey: u.heldKey, planned: withHeldID(u.planned, held[u.heldKey])})
		case errors.Is(r.Err, httpapi.ErrNotFound):
			addClientError(diags, updateFailedSummary(r.ID, u.key, true), r.Err)
		default:
			if !report.add(fmt.Sprintf("%s (%s)", r.ID, u.key), r) {
				addClientError(diags, updateFailedSummary(r.ID, u.key, false), r.Err)
			}
			out = append(out, update{key: u.key, heldKey: u.heldKey, planned: held[u.heldKey]})
		}
	}
	report.report(diags, "They stay in state with their previous settings, so the next plan shows the update again. Updates "+
		"are idempotent: applying again is safe.")
	return out
}

// createEntries creates the planned entries of keys in createSubscriptions
// requests of at most max_batch_size each, and returns the entries that exist
// afterwards. A lost answer is settled by the client (it adopts what the
// request created and creates the rest once); on failure, the subscriptions
// known to exist are returned all the same.
func (w clientWriter) createEntries(ctx context.Context, account string, planned map[string]accountEntry,
	keys []string, diags *diag.Diagnostics) map[string]accountEntry {
	c := w.c
	out := make(map[string]accountEntry, len(keys))
	for chunk := range slices.Chunk(keys, c.MaxBatchSize()) {
		in := make([]client.SubscriptionInput, len(chunk))
		for i, key := range chunk {
			in[i] = planned[key].input()
		}
		created, warnings, err := c.CreateSubscriptionsWarn(ctx, account, in)
		made := 0
		keyOf := make(map[string]string, len(chunk)) // subscription id -> the entry that holds it
		for i, key := range chunk {
			if i < len(created) && created[i].ID != "" {
				out[key] = accountEntryFromAPI(&created[i]).withSpelling(planned[key].EventName)
				keyOf[strings.ToLower(created[i].ID)] = key
				made++
			}
		}
		for _, warning := range warnings {
			if summary, detail, ok := createWarning(warning, keyOf[strings.ToLower(warnedID(warning))]); ok {
				diags.AddWarning(summary, detail)
			}
		}
		if err != nil {
			summary := createFailedSummary(account, len(chunk)-made, made, err)
			var unknown *client.UnknownOutcomeError
			if errors.As(err, &unknown) {
				// The subscription resource's advice (import what may exist) does not
				// apply: the next refresh reads the whole account into the map.
				diags.AddError(summary, unknownOutcomeScopeDetail(w.scope, unknown))
				continue
			}
			addClientError(diags, summary, err)
		}
	}
	return out
}

// unknownOutcomeScopeDetail explains a create whose answer was lost and could
// not be settled, for the resource of scope: nothing can be lost track of, since the
// next refresh reads every subscription of the scope into the map.
func unknownOutcomeScopeDetail(scope subscriptionScope, e *client.UnknownOutcomeError) string {
	var b strings.Builder
	b.WriteString(lostAnswerSummary(e))
	if len(e.Candidates) > 0 {
		fmt.Fprintf(&b, "\n\nThese subscriptions may be what the request created: %s.", strings.Join(e.Candidates, ", "))
	}
	b.WriteString("\n\nNothing is lost track of: the next plan reads every subscription of the " + scope.noun() + ". One that the " +
		"request created and that no entry holds appears in the map under its id and is planned for removal, and " +
		"an entry it did not create is planned for creation again. Run terraform plan to review, then apply.")
	if len(e.Candidates) > 0 {
		b.WriteString("\n\n" + heldElsewhereAdvice(e.AccountID) + " The next apply acts on the candidates whoever holds " +
			"them. After the resource's first apply (a create), Terraform marks the resource tainted, and the next apply " +
			"replaces it: it deletes every subscription the refresh reads into it, the candidates among them, and creates " +
			"the entries again. After a later apply, the next plan gives an entry a candidate of its content (the entry " +
			"shows the candidate's id) and plans any other for removal. A candidate that another state holds is then " +
			"deleted under it (that state is left holding a deleted id), or managed by both. Review the plan's ids before " +
			"applying; if another state holds one, the two configurations manage the same " + scope.noun() + ": keep one " +
			"holder (terraform state rm, or a removed block, in the other) before applying again.")
	}
	return b.String()
}

// deleteFailedSummary is the summary of a failed delete of ids (diagnostic_summaries.go).
func deleteFailedSummary(account string, ids []string) string {
	if len(ids) == 1 {
		return "Unable to delete " + subscriptionNamed(ids[0], "")
	}
	return fmt.Sprintf("Unable to delete %s of account %s", subscriptionsNamed(ids), account)
}

// updateFailedSummary is the summary of a failed update of subscription id, the subscription of
// entry key; gone when the service answered that it no longer exists.
func updateFailedSummary(id, key string, gone bool) string {
	s := "Unable to update " + subscriptionNamed(id, key)
	if gone {
		s += ": it no longer exists (removed from state; the next plan creates it again)"
	}
	return s
}

// createFailedSummary is the summary of a create request in account that failed with err:
// failed of its subscriptions were not created, made were (and are in state); the
// subscriptions err names follow (createErrorSummary).
func createFailedSummary(account string, failed, made int, err error) string {
	summary := fmt.Sprintf("Unable to create %d subscriptions in account %s", failed, account)
	if made > 0 {
		summary += fmt.Sprintf(" (%d others were created and are in state)", made)
	}
	return createErrorSummary(summary, err)
}
