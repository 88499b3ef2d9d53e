package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

const (
	opBulkDelete = "bulk delete subscriptions"
	opBulkUpdate = "bulk update subscriptions"
)

// OperationStatus is the result of one item of a bulk operation.
type OperationStatus struct {
	// SubscriptionID identifies the item.
	SubscriptionID string
	// HTTPEquivalentCode is the status the item would have had on its own (200, 204, 400, 404).
	HTTPEquivalentCode int
	// Message is the service's message for the item, its secrets redacted, through ServiceText.
	Message string
}

// BulkDeleteSubscriptions deletes the given subscriptions in one request (bulkOperationsOnSubscriptionsForAccount,
// "delete") and returns one status per item. Item failures are statuses, not errors. An item
// that the service's 207 holds no status for (a list shorter than the request's, a body that is
// not JSON) is read afterwards: the service's 404 gives it the status 404 "Subscription not
// found"; one that still exists, or whose read fails, has no status, and may still exist.
func (c *Client) BulkDeleteSubscriptions(ctx context.Context, accountID string, ids []string) ([]OperationStatus, error) {
	if ids == nil {
		ids = []string{}
	}
	return c.bulkDelete(ctx, accountID, ids)
}

// bulkDelete sends a bulk delete. Deleting by ID is idempotent, so a request whose answer
// was lost is repeated; an item already gone answers 404. An item that the answer holds no
// status for (see settleDeletes) is read: the service's 404 gives it the status 404.
func (c *Client) bulkDelete(ctx context.Context, accountID string, ids []string) ([]OperationStatus, error) {
	statuses, err := c.bulk(ctx, opBulkDelete, accountID, wireBulkDeleteRequest{Operation: "delete", SubscriptionIDs: ids}, ids, true)
	return c.settleDeletes(ctx, accountID, ids, statuses, err)
}

// BulkUpdateSubscriptions updates the given subscriptions in one request (bulkOperationsOnSubscriptionsForAccount,
// "update") and returns one status per item. Each subscription is sent whole, identified by
// its ID; a changed server-managed field such as CreatedDate is rejected for that item.
// Zero dates and empty strings are omitted.
func (c *Client) BulkUpdateSubscriptions(ctx context.Context, accountID string, subs []Subscription) ([]OperationStatus, error) {
	if subs == nil {
		subs = []Subscription{}
	}
	ids := make([]string, len(subs))
	for i, s := range subs {
		ids[i] = s.ID
	}
	return c.bulk(ctx, opBulkUpdate, accountID, wireBulkUpdateRequest{Operation: "update", Subscriptions: subs}, ids, false)
}

// bulk sends a SubscriptionPatchRequest for the subscriptions ids (op: opBulkDelete or
// opBulkUpdate) and reads the per-item statuses; repeat says whether the request may be
// repeated after the service may have acted on it.
func (c *Client) bulk(ctx context.Context, op, accountID string, in any, ids []string, repeat bool) ([]OperationStatus, error) {
	accountID, err := c.account(accountID)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	var statuses []OperationStatus
	var answerErr error
	_, err = c.write(ctx, httpapi.Call{
		Operation: op,
		Method:    http.MethodPatch,
		AccountID: accountID,
		Path:      httpapi.AccountPath(accountID, "subscriptions"),
		In:        in,
		Repeat:    repeat,
	}, func(resp *httpapi.Response, err error) writeOutcome {
		if err != nil {
			return writeOutcome{}
		}
		if statuses, answerErr = decodeOperationStatuses(resp.Body, resp.Redact); answerErr != nil {
			answerErr = httpapi.MalformedResponse(op, answerErr)
			return writeOutcome{}
		}
		return bulkOutcome(op, ids, statuses)
	})
	if err != nil {
		return nil, err
	}
	return statuses, answerErr
}

// bulkOutcome is what a bulk operation op on ids did, by its statuses: conclusive when every
// item has exactly one status that tells its outcome (200 or 204: deleted, or updated to what
// the statuses do not show; 404: gone; 400: refused, unchanged).
func bulkOutcome(op string, ids []string, statuses []OperationStatus) writeOutcome {
	byID := make(map[string][]int, len(statuses))
	for _, st := range statuses {
		k := listingKey(st.SubscriptionID)
		byID[k] = append(byID[k], st.HTTPEquivalentCode)
	}
	out := writeOutcome{conclusive: true}
	for _, id := range ids {
		codes := byID[listingKey(id)]
		if len(codes) != 1 {
			return writeOutcome{}
		}
		switch code := codes[0]; {
		case code == http.StatusNotFound:
			out.gone = append(out.gone, id)
		case code == http.StatusBadRequest:
		case (code == http.StatusOK || code == http.StatusNoContent) && op == opBulkDelete:
			out.gone = append(out.gone, id)
		case code == http.StatusOK || code == http.StatusNoContent:
			out.unread = append(out.unread, id)
		default:
			return writeOutcome{}
		}
	}
	return out
}

// decodeOperationStatuses reads a SubscriptionPatchResponseWrapper, or a bare array of
// OperationStatus, each message through redact (nil: none) and ServiceText. An empty body
// yields no statuses.
func decodeOperationStatuses(body []byte, redact func(string) string) ([]OperationStatus, error) {
	data := bytes.TrimSpace(body)
	var items []wireOperationStatus
	switch {
	case len(data) == 0 || string(data) == "null":
	case data[0] == '[':
		if err := json.Unmarshal(data, &items); err != nil {
			return nil, err
		}
	default:
		var w wirePatchResponse
		if err := json.Unmarshal(data, &w); err != nil {
			return nil, err
		}
		items = w.OperationStatuses
	}
	if redact == nil {
		redact = func(s string) string { return s }
	}
	out := make([]OperationStatus, 0, len(items))
	for _, it := range items {
		out = append(out, OperationStatus{
			SubscriptionID:     it.SubscriptionID,
			HTTPEquivalentCode: int(it.HTTPEquivalentCode),
			Message:            httpapi.ServiceText(redact(it.Message)),
		})
	}
	return out, nil
}
