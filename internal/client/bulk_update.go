package client

// The bulk update path (UpdateSubscriptionsBulk): changed subscriptions are written with
// bulkOperationsOnSubscriptionsForAccount ("update"), one request per Config.MaxBatchSize
// items, each item a Subscription with its subscriptionId. The description does not give the
// item's shape (see SERVICE.md): a service that refuses a bulk update as a whole (400 for
// the request) is written with one updateSubscription (PUT) per item from then on, for the
// rest of the Client's life (one provider instance), and the switch is logged once at INFO.

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// ErrOutcomeUnknown matches the error of a bulk update item whose outcome the service did not
// tell: the request failed without an answer for it (a 5xx after the retries, a lost
// connection), or its 207 held no status for it and reading it failed. An update is
// idempotent: sending it again is safe.
var ErrOutcomeUnknown = errors.New("the outcome is unknown")

// SubscriptionUpdate is one item of UpdateSubscriptionsBulk: the subscription's ID and the
// settings it is to have.
type SubscriptionUpdate struct {
	// ID is the subscriptionId.
	ID string
	// Input holds the settings. Every string field is sent, empty ones included, so that the
	// bulk update and a PUT leave the service holding the same values; a nil Enabled is
	// omitted (a PUT then gives the service's default, true, and a bulk update keeps the
	// current value): set it.
	Input SubscriptionInput
}

// BulkUpdateResult is the outcome of one SubscriptionUpdate.
type BulkUpdateResult struct {
	// ID is the update's subscription ID.
	ID string
	// Err is nil when the service holds the update. An item the service refused is an
	// *ItemError (bulk update) or an *APIError (single PUT), each with the status and the
	// service's message (errors.Is(Err, ErrNotFound) on the service's 404); an unknown
	// outcome matches ErrOutcomeUnknown.
	Err error
}

// wireBulkUpdateItem is one item of a bulk update: a Subscription with its subscriptionId and
// the settings of a SubscriptionInput, empty strings included.
type wireBulkUpdateItem struct {
	SubscriptionID string `json:"subscriptionId"`
	bulkSettings
}

// bulkSettings are the fields of SubscriptionInput as a bulk update item carries them: empty
// strings included, so that an update clears what it leaves empty. The fields are
// SubscriptionInput's, in its order, so that a conversion between the two compiles.
type bulkSettings struct {
	EventName                   string `json:"eventName"`
	DestinationType             string `json:"destinationType"`
	LogLevel                    string `json:"logLevel"`
	EventStreamsEnvironment     string `json:"eventStreamsEnvironment"`
	EventStreamsEnvironmentName string `json:"eventStreamsEnvironmentName"`
	EventStreamsTopic           string `json:"eventStreamsTopic"`
	Enabled                     *bool  `json:"enabled,omitempty"`
}

// wireBulkUpdateItems is SubscriptionPatchRequest for operation "update" with these items.
type wireBulkUpdateItems struct {
	Operation     string               `json:"operation"`
	Subscriptions []wireBulkUpdateItem `json:"subscriptions"`
}

// msgBulkUpdateFallback is the INFO entry logged once when a Client falls back to single PUTs.
const msgBulkUpdateFallback = "The service refused a bulk update as a whole; this provider instance updates subscriptions with one PUT each from now on"

// UpdateSubscriptionsBulk writes updates and returns one result per update, in order. It
// sends one bulk update (bulkOperationsOnSubscriptionsForAccount, "update") per
// Config.MaxBatchSize updates; an item answered 400 or 404 fails with the service's message
// and the others are kept. When the service refuses a bulk update as a whole (400), this
// request's items and every later update of this Client go through updateSubscription (PUT),
// one request per item. Updates are idempotent, so a request whose answer was lost is
// repeated by the retries; one that still fails leaves its items with an error matching
// ErrOutcomeUnknown. An item that a 207 holds no status for is read, and its settings
// compared with the update's. Nothing is sent for no updates.
func (c *Client) UpdateSubscriptionsBulk(ctx context.Context, accountID string, updates []SubscriptionUpdate) []BulkUpdateResult {
	results := make([]BulkUpdateResult, len(updates))
	for i, u := range updates {
		results[i].ID = u.ID
	}
	if len(updates) == 0 {
		return results
	}
	accountID, err := c.account(accountID)
	if err != nil {
		for i := range results {
			results[i].Err = fmt.Errorf("%s: %w", opBulkUpdate, err)
		}
		return results
	}
	size := max(1, c.cfg.MaxBatchSize)
	for start := 0; start < len(updates); start += size {
		end := min(start+size, len(updates))
		c.updateChunk(ctx, accountID, updates[start:end], results[start:end])
	}
	return results
}

// updateChunk writes one request's worth of updates into results.
func (c *Client) updateChunk(ctx context.Context, accountID string, updates []SubscriptionUpdate, results []BulkUpdateResult) {
	if !c.bulkUpdateRefused.Load() {
		statuses, err := c.bulkUpdateItems(ctx, accountID, updates)
		var apiErr *httpapi.APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest {
			c.settleUpdates(ctx, accountID, updates, statuses, err, results)
			return
		}
		if c.bulkUpdateRefused.CompareAndSwap(false, true) {
			tflog.Info(ctx, msgBulkUpdateFallback, map[string]any{
				"account_id": accountID, "status": apiErr.StatusCode, "service_messages": apiErr.Messages})
		}
	}
	for i, u := range updates {
		_, err := c.UpdateSubscription(ctx, accountID, u.ID, u.Input)
		results[i].Err = err
	}
}

// bulkUpdateItems sends one bulk update of updates. The request may be repeated: an update
// sets the same values however often it lands.
func (c *Client) bulkUpdateItems(ctx context.Context, accountID string, updates []SubscriptionUpdate) ([]OperationStatus, error) {
	items := make([]wireBulkUpdateItem, len(updates))
	for i, u := range updates {
		items[i] = wireBulkUpdateItem{SubscriptionID: u.ID, bulkSettings: bulkSettings(u.Input)}
	}
	if len(updates) > 1 {
		tflog.Debug(ctx, "Updating subscriptions in one request", map[string]any{"account_id": accountID, "subscriptions": len(updates)})
	}
	return c.bulk(ctx, opBulkUpdate, accountID, wireBulkUpdateItems{Operation: "update", Subscriptions: items}, true)
}

// settleUpdates turns a bulk update's answer into results. A status of 200 is success; any
// other is an *ItemError. An item without a status (a short 207, a body that is not JSON) is
// read: its settings equal to the update's mean success, the service's 404 an *ItemError 404,
// other settings a failure, and a failed read an unknown outcome. A request that failed
// otherwise leaves every item unknown.
func (c *Client) settleUpdates(ctx context.Context, accountID string, updates []SubscriptionUpdate, statuses []OperationStatus, err error, results []BulkUpdateResult) {
	if err != nil && !errors.Is(err, httpapi.ErrMalformedResponse) {
		for i, u := range updates {
			results[i].Err = fmt.Errorf("%s: subscription %s: %w (%w); updates are idempotent, so applying again is safe", opBulkUpdate, u.ID, ErrOutcomeUnknown, err)
		}
		return
	}
	byID := make(map[string][]OperationStatus, len(statuses))
	for _, st := range statuses {
		k := listingKey(st.SubscriptionID)
		byID[k] = append(byID[k], st)
	}
	var open []int
	for i, u := range updates {
		k := listingKey(u.ID)
		sts := byID[k]
		if len(sts) == 0 {
			open = append(open, i)
			continue
		}
		st := sts[0]
		byID[k] = sts[1:]
		if st.HTTPEquivalentCode != http.StatusOK && st.HTTPEquivalentCode != http.StatusNoContent {
			results[i].Err = &ItemError{Operation: opBulkUpdate, AccountID: accountID, SubscriptionID: u.ID,
				HTTPEquivalentCode: st.HTTPEquivalentCode, Message: st.Message}
		}
	}
	if len(open) == 0 {
		return
	}
	tflog.Warn(ctx, "The bulk update's answer holds no status for some subscriptions; reading them", map[string]any{
		"account_id": accountID, "unanswered": len(open), "sent": len(updates), "malformed": err != nil})
	ids := make([]string, len(open))
	for j, i := range open {
		ids[j] = updates[i].ID
	}
	got, errs := c.GetSubscriptions(ctx, accountID, ids)
	for j, i := range open {
		results[i].Err = settledUpdate(accountID, updates[i], got[j], errs[j])
	}
}

// settledUpdate judges one update whose bulk answer held no status for it, from the read of its
// subscription (got, or the read's error).
func settledUpdate(accountID string, u SubscriptionUpdate, got *Subscription, err error) error {
	switch {
	case errors.Is(err, httpapi.ErrNotFound):
		return &ItemError{Operation: opBulkUpdate, AccountID: accountID, SubscriptionID: u.ID,
			HTTPEquivalentCode: http.StatusNotFound, Message: "Subscription not found (read after the bulk update's answer held no status for it)"}
	case err != nil:
		return fmt.Errorf("%s: subscription %s: the answer held no status for it and reading it failed: %w (%w)", opBulkUpdate, u.ID, ErrOutcomeUnknown, err)
	case !holdsInput(*got, u.Input):
		return fmt.Errorf("%s: subscription %s: not updated: the answer held no status for it, and the service holds other settings", opBulkUpdate, u.ID)
	}
	return nil
}

// holdsInput reports whether s has the settings of in, as the service may spell them back
// (contentFields); an unset Enabled is left as it is.
func holdsInput(s Subscription, in SubscriptionInput) bool {
	if in.Enabled == nil {
		in.Enabled = &s.Enabled
	}
	return s.key() == in.key()
}
