package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// confirmMissing reads, one request each (client.GetSubscriptions), the subscriptions of the held
// entries under keys, which a listing of the account did not show: a listing is paged by
// number, and a subscription deleted between two pages hides another one from it. It returns
// the subscriptions found, by key; an entry the service answers 404 for is not returned (it
// is gone). Any other failure is an error: the entry may exist, and dropping it would plan a
// second copy.
func confirmMissing(ctx context.Context, c *client.Client, account string, held map[string]accountEntry,
	keys []string) (map[string]*client.Subscription, diag.Diagnostics) {
	var diags diag.Diagnostics
	found := make(map[string]*client.Subscription, len(keys))
	if len(keys) == 0 {
		return found, diags
	}
	tflog.Debug(ctx, "Reading the held subscriptions that the listing did not show", map[string]any{
		"account_id": account, "subscriptions": len(keys)})
	ids := make([]string, len(keys))
	for i, key := range keys {
		ids[i] = held[key].ID.ValueString()
	}
	subs, errs := c.GetSubscriptions(ctx, account, ids)
	for i, key := range keys {
		switch {
		case errs[i] == nil:
			found[key] = subs[i]
		case errors.Is(errs[i], httpapi.ErrNotFound):
		default:
			addClientError(&diags, "Unable to read subscription "+held[key].ID.ValueString()+" of account "+account, errs[i])
		}
	}
	return found, diags
}

// incompleteListing handles a failed listing of the account in a refresh. A listing whose
// pages kept disagreeing with their metadata is used with a warning: every held entry missing
// from it is confirmed on its own, so only subscriptions that no entry holds may be missing
// from the plan, and the next plan shows them. Any other failure is an error, whose advice
// names where the account came from (origin).
func incompleteListing(diags *diag.Diagnostics, account string, err error, origin accountOrigin) []client.Subscription {
	var incomplete *client.IncompleteListingError
	if !errors.As(err, &incomplete) {
		diags.AddError("Unable to list the subscriptions of account "+account, clientErrorDetailFrom(err, origin))
		return nil
	}
	diags.AddWarning("The subscriptions of account "+account+" may be listed incompletely",
		incomplete.Error()+"\n\nEvery subscription in state that the listing did not show was read on its own, so "+
			"none is planned for creation while it exists. A subscription that no entry holds may be missing from "+
			"this plan's removals; the next plan shows it. If the account is being changed by someone else, plan "+
			"again once it is not.")
	return incomplete.Subscriptions
}
