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

// ErrOutcomeUnknown matches the error of an update whose outcome the service did not tell (its
// answer was lost or unreadable after the retries, or held no status for it) and whose
// read-back failed too (*ReadBackError). An update is idempotent: sending it again is safe.
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
	// service's message (errors.Is(Err, ErrNotFound) on the service's 404). An item read back
	// (ReadBack) that the service does not hold is a *ReadBackError: matching ErrNotUpdated, or
	// ErrOutcomeUnknown when the read failed too.
	Err error
	// ReadBack tells that no answer told the item's outcome (one lost or unreadable after the
	// retries, or a 207 without its status), so the subscription was read back and Err says
	// what the service holds.
	ReadBack bool
	// read is the subscription as the read-back found it, when it holds the update.
	read *Subscription
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
// repeated by the retries. The items whose outcome no answer told (an answer that is lost or
// unreadable after the retries, a 207 without their status) are read back once every request
// is answered, together (update_settle.go): a GET each for a few, one listing of the account
// for more. Nothing is sent for no updates.
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
	var open []openUpdate
	for start := 0; start < len(updates); start += size {
		end := min(start+size, len(updates))
		open = c.updateChunk(ctx, accountID, updates, start, end, results, open)
	}
	c.settleUpdates(ctx, opBulkUpdate, accountID, updates, open, results)
	return results
}

// updateChunk writes updates[start:end] into results and returns open with the items whose
// outcome the answer did not tell.
func (c *Client) updateChunk(ctx context.Context, accountID string, updates []SubscriptionUpdate, start, end int,
	results []BulkUpdateResult, open []openUpdate) []openUpdate {
	if !c.bulkUpdateRefused.Load() {
		statuses, err := c.bulkUpdateItems(ctx, accountID, updates[start:end])
		var apiErr *httpapi.APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest {
			return judgeUpdates(accountID, updates, start, end, statuses, err, results, open)
		}
		if c.bulkUpdateRefused.CompareAndSwap(false, true) {
			tflog.Info(ctx, msgBulkUpdateFallback, map[string]any{
				"account_id": accountID, "status": apiErr.StatusCode, "service_messages": apiErr.Messages})
		}
	}
	for i := start; i < end; i++ {
		_, err := c.putSubscription(ctx, accountID, updates[i].ID, updates[i].Input)
		if err != nil && outcomeUnknown(err) {
			open = append(open, openUpdate{index: i, cause: err})
			continue
		}
		results[i].Err = err
	}
	return open
}

// bulkUpdateItems sends one bulk update of updates. The request may be repeated: an update
// sets the same values however often it lands.
func (c *Client) bulkUpdateItems(ctx context.Context, accountID string, updates []SubscriptionUpdate) ([]OperationStatus, error) {
	items := make([]wireBulkUpdateItem, len(updates))
	ids := make([]string, len(updates))
	for i, u := range updates {
		items[i] = wireBulkUpdateItem{SubscriptionID: u.ID, bulkSettings: bulkSettings(u.Input)}
		ids[i] = u.ID
	}
	if len(updates) > 1 {
		tflog.Debug(ctx, "Updating subscriptions in one request", map[string]any{"account_id": accountID, "subscriptions": len(updates)})
	}
	return c.bulk(ctx, opBulkUpdate, accountID, wireBulkUpdateItems{Operation: "update", Subscriptions: items}, ids, true)
}

// judgeUpdates turns the answer of the bulk update of updates[start:end] into results and
// returns open with the items it does not tell about. A status of 200 is success; any other is
// an *ItemError. An item without a status (a short 207, a body that is not JSON) is open; so is
// every item of a request whose outcome is unknown (outcomeUnknown, or a cancelled caller). A
// request that failed otherwise (a 4xx, a request never sent) updated nothing: every item fails
// with its error.
func judgeUpdates(accountID string, updates []SubscriptionUpdate, start, end int, statuses []OperationStatus, err error,
	results []BulkUpdateResult, open []openUpdate) []openUpdate {
	if err != nil && !errors.Is(err, httpapi.ErrMalformedResponse) {
		for i := start; i < end; i++ {
			// A cancelled caller may have cut the waits between attempts after one that acted:
			// the outcome is unknown too (and nothing is read with a context that is done).
			if outcomeUnknown(err) || httpapi.IsContextError(err) {
				open = append(open, openUpdate{index: i, cause: err})
				continue
			}
			results[i].Err = fmt.Errorf("%s: subscription %s: not updated: %w", opBulkUpdate, updates[i].ID, err)
		}
		return open
	}
	byID := make(map[string][]OperationStatus, len(statuses))
	for _, st := range statuses {
		k := listingKey(st.SubscriptionID)
		byID[k] = append(byID[k], st)
	}
	for i := start; i < end; i++ {
		u := updates[i]
		k := listingKey(u.ID)
		sts := byID[k]
		if len(sts) == 0 {
			open = append(open, openUpdate{index: i, cause: err})
			continue
		}
		st := sts[0]
		byID[k] = sts[1:]
		if st.HTTPEquivalentCode != http.StatusOK && st.HTTPEquivalentCode != http.StatusNoContent {
			results[i].Err = &ItemError{Operation: opBulkUpdate, AccountID: accountID, SubscriptionID: u.ID,
				HTTPEquivalentCode: st.HTTPEquivalentCode, Message: st.Message}
		}
	}
	return open
}

// holdsInput reports whether s has the settings of in, as the service may spell them back
// (contentFields); an unset Enabled is left as it is.
func holdsInput(s Subscription, in SubscriptionInput) bool {
	if in.Enabled == nil {
		in.Enabled = &s.Enabled
	}
	return s.key() == in.key()
}
