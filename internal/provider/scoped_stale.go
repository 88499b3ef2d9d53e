package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// A plan is applied against the state it was made from, which may be stale by then: a saved
// plan applied an hour later, or a subscription deleted or changed by hand in between.
// Converging from that state alone would leave a deleted id in state and a changed entry
// unwritten, and report "Apply complete". So an update first reads what the service holds of
// each held entry (one listing pass, the client's listing cache included; an entry missing from
// it is read on its own, and only the service's 404 means gone), converges from that, and says
// what it found: an entry changed since the plan is written as planned, with a warning; an
// entry deleted since the plan is created again, and the apply fails naming both ids, since its
// id is not the plan's (an error is the one way the state may take another id than the plan's).

// heldAsListed returns the held entries as the service holds them now, by key: an entry the
// service no longer holds in the scope (gone: deleted, or moved out of a topic) is left out,
// and changed names those whose inputs differ from the state's. A listing that fails is an
// error: nothing is written then.
func heldAsListed(ctx context.Context, c *client.Client, account string, scope subscriptionScope,
	held map[string]accountEntry) (current map[string]accountEntry, gone, changed []string, diags diag.Diagnostics) {
	list, err := c.AccountSubscriptions(ctx, account)
	if err != nil {
		list = incompleteListing(&diags, account, err, accountOrigin{})
		if diags.HasError() {
			return nil, nil, nil, diags
		}
	}
	byID := make(map[string]*client.Subscription, len(list))
	for i := range list {
		byID[strings.ToLower(list[i].ID)] = &list[i]
	}
	current = make(map[string]accountEntry, len(held))
	var missing []string
	for _, key := range sortedKeys(held) {
		if sub, ok := byID[strings.ToLower(held[key].ID.ValueString())]; ok && scope.holds(sub) {
			current[key] = listedEntry(held[key], sub)
		} else if !ok {
			missing = append(missing, key)
		} else {
			gone = append(gone, key) // moved out of the scope: the resource never changes it there
		}
	}
	confirmed, d := confirmMissing(ctx, c, account, held, missing)
	if diags.Append(d...); diags.HasError() {
		return nil, nil, nil, diags
	}
	for _, key := range missing {
		if sub, ok := confirmed[key]; ok && scope.holds(sub) {
			current[key] = listedEntry(held[key], sub)
		} else {
			gone = append(gone, key)
		}
	}
	for _, key := range sortedKeys(current) {
		if !sameInputs(current[key], held[key]) {
			changed = append(changed, key)
		}
	}
	return current, gone, changed, diags
}

// listedEntry is the held entry as the service holds it: the service's inputs, and the
// state's spelling of the event name where the service's differs only in case.
func listedEntry(held accountEntry, sub *client.Subscription) accountEntry {
	return accountEntryFromAPI(sub).withSpelling(held.EventName)
}

// reportStale says what an update found changed since its plan (heldAsListed): a warning for
// each entry written as planned although the service had changed it, and an error for each
// planned entry whose subscription was deleted, naming the id the entry holds now.
func reportStale(scope subscriptionScope, account string, planned, held, current, result map[string]accountEntry,
	gone, changed []string, diags *diag.Diagnostics) {
	for _, key := range gone {
		p, ok := planned[key]
		if !ok || p.ID.IsUnknown() || p.ID.IsNull() {
			continue // the plan removes it: gone is what it wanted
		}
		old := held[key].ID.ValueString()
		now := "none (its create failed, above)"
		if r, ok := result[key]; ok {
			now = r.ID.ValueString()
		}
		diags.AddError(fmt.Sprintf("Subscription %s of entry %s was deleted since the plan", old, quoteBounded(key)),
			fmt.Sprintf("The plan kept entry %s on subscription %s, which %s no longer holds: it was deleted (the "+
				"service answered 404 for it) or moved elsewhere after the plan. The apply created the entry again, and it now holds %s, which "+
				"the state records. The apply reports an error because the id is not the plan's; nothing is left to "+
				"do: the next plan shows no change for this entry.", quoteBounded(key), old, scope.where(account), now))
	}
	for _, key := range changed {
		if _, ok := planned[key]; !ok {
			continue
		}
		if _, ok := result[key]; !ok {
			continue
		}
		diags.AddWarning(fmt.Sprintf("Subscription %s of entry %s was changed since the plan", held[key].ID.ValueString(),
			quoteBounded(key)), fmt.Sprintf("%s holds %s, which differs from what the plan was made from (%s). The apply "+
			"wrote the entry as planned: %s.", scope.holder(), describeEntry(current[key]), describeEntry(held[key]),
			describeEntry(withHeldID(planned[key], held[key]))))
	}
}
