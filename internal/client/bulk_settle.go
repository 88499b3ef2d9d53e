package client

import (
	"context"
	"errors"
	"net/http"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// msgSettledNotFound is the message of a bulk delete item settled by a read that found it gone.
const msgSettledNotFound = "Subscription not found (read after the bulk delete's answer held no status for it)"

// settleDeletes completes the answer of a bulk delete of ids. A 207 that holds no status for
// some items (fewer statuses than items), or whose body cannot be read (a proxy's HTML page),
// says nothing about them: each is read with getSubscribedEventForAccount, one request per
// item, and the service's 404 (alone) gives it the status 404. An item that still exists, or
// whose read fails, stays without a status: the caller must keep it. A malformed body whose
// items are all settled is no error; any other error of the bulk request is returned as it is.
func (c *Client) settleDeletes(ctx context.Context, accountID string, ids []string, statuses []OperationStatus, err error) ([]OperationStatus, error) {
	if err != nil && !errors.Is(err, httpapi.ErrMalformedResponse) {
		return statuses, err
	}
	answered := make(map[string]bool, len(statuses))
	for _, st := range statuses {
		answered[listingKey(st.SubscriptionID)] = true
	}
	var open []string
	for _, id := range ids {
		if !answered[listingKey(id)] {
			open = append(open, id)
		}
	}
	if len(open) == 0 {
		return statuses, nil
	}
	tflog.Warn(ctx, "The bulk delete's answer holds no status for some subscriptions; reading them", map[string]any{
		"account_id": accountID, "unanswered": len(open), "sent": len(ids), "malformed": err != nil})
	_, errs := c.GetSubscriptions(ctx, accountID, open)
	left := 0
	for i, id := range open {
		if errors.Is(errs[i], httpapi.ErrNotFound) {
			statuses = append(statuses, OperationStatus{SubscriptionID: id, HTTPEquivalentCode: http.StatusNotFound, Message: msgSettledNotFound})
		} else {
			left++
		}
	}
	if left == len(ids) && err != nil {
		// Nothing was settled: the answer's own error says most.
		return nil, err
	}
	return statuses, nil
}
