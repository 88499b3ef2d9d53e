package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// updatedEntry is the state of an entry whose update the service took: the
// planned inputs on the held subscription, its server-managed values to be read
// back (readBack).
func updatedEntry(planned, held accountEntry) accountEntry {
	return copyComputed(planned, held, false)
}

// readBack sets the server-managed values of the updated entries out[i], i in
// done, from one listing of the account. An entry the listing does not hold, or
// every entry when the listing fails, keeps the held values where they are
// unknown.
func (w clientWriter) readBack(ctx context.Context, account string, held map[string]accountEntry, out []update, done []int) {
	if len(done) == 0 {
		return
	}
	list, err := w.c.ListSubscriptions(ctx, account, client.ListOptions{})
	if err != nil {
		tflog.Warn(ctx, "Reading the updated subscriptions back failed", map[string]any{"account_id": account, "error": err.Error()})
	}
	byID := make(map[string]*client.Subscription, len(list))
	for i := range list {
		byID[strings.ToLower(list[i].ID)] = &list[i]
	}
	for _, i := range done {
		e := out[i].planned
		sub, ok := byID[strings.ToLower(e.ID.ValueString())]
		if !ok {
			out[i].planned = copyComputed(e, held[out[i].heldKey], true)
			continue
		}
		fresh := accountEntryFromAPI(sub).withInputsOf(e)
		fresh.ID = e.ID
		out[i].planned = fresh
	}
}
