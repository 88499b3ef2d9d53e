package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// refreshScope lists the account and returns what the held entries are on
// the service, by subscription id; subscriptions outside scope are left out. An entry missing from the listing is read
// on its own (confirmMissing): only the service's 404 drops it, so that the
// plan creates it again. A subscription that no entry holds is added under
// its id, so that the plan shows its removal. An entry keeps its event name's
// spelling while the service's differs only in case. origin says where the
// account came from (right after an import), for the advice of a failure.
func refreshScope(ctx context.Context, c *client.Client, account string, scope subscriptionScope,
	held map[string]accountEntry, origin accountOrigin) (map[string]accountEntry, diag.Diagnostics) {
	var diags diag.Diagnostics
	list, err := c.AccountSubscriptions(ctx, account)
	if err != nil {
		list = incompleteListing(&diags, account, err, origin)
		if diags.HasError() {
			return nil, diags
		}
	}
	elsewhere := make(map[string]bool) // listed, outside the scope: moved out of it, not gone
	for i := range list {
		if !scope.holds(&list[i]) {
			elsewhere[strings.ToLower(list[i].ID)] = true
		}
	}
	list = scope.filter(list)
	byID := make(map[string]*client.Subscription, len(list))
	for i := range list {
		byID[strings.ToLower(list[i].ID)] = &list[i]
	}
	fresh := make(map[string]accountEntry, len(list))
	seen := make(map[string]bool, len(list))
	var missing []string
	for _, key := range sortedKeys(held) {
		id := strings.ToLower(held[key].ID.ValueString())
		sub, ok := byID[id]
		if !ok {
			if elsewhere[id] {
				tflog.Warn(ctx, "Subscription moved out of the resource's scope; removing it from the set", map[string]any{
					"account_id": account, "key": key, "subscription_id": held[key].ID.ValueString()})
			} else {
				missing = append(missing, key)
			}
			continue
		}
		if seen[id] {
			tflog.Warn(ctx, "Subscription held by two keys; keeping the first", map[string]any{
				"account_id": account, "key": key, "subscription_id": held[key].ID.ValueString()})
			continue
		}
		seen[id] = true
		fresh[key] = accountEntryFromAPI(sub)
	}
	confirmed, d := confirmMissing(ctx, c, account, held, missing)
	diags.Append(d...)
	if diags.HasError() {
		return nil, diags
	}
	for _, key := range missing {
		id := strings.ToLower(held[key].ID.ValueString())
		sub, ok := confirmed[key]
		if !ok || seen[id] || !scope.holds(sub) {
			tflog.Warn(ctx, "Subscription not found; removing it from the account's set", map[string]any{
				"account_id": account, "key": key, "subscription_id": held[key].ID.ValueString()})
			continue
		}
		seen[id] = true
		fresh[key] = accountEntryFromAPI(sub)
	}
	for i := range list {
		if id := strings.ToLower(list[i].ID); !seen[id] {
			seen[id] = true
			fresh[freeKey(fresh, list[i].ID)] = accountEntryFromAPI(&list[i])
		}
	}
	// What the event name's semantic equality does for the framework: under a
	// key the state has, a spelling that differs only in case is the state's.
	for key, e := range fresh {
		if h, ok := held[key]; ok {
			fresh[key] = e.withSpelling(h.EventName)
		}
	}
	return fresh, diags
}
