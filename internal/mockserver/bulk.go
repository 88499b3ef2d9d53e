package mockserver

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Bulk operation names (SubscriptionPatchRequest.operation).
const (
	bulkDelete = "delete"
	bulkUpdate = "update"
)

// bulkSubscriptions serves bulkOperationsOnSubscriptionsForAccount. The request rules are checked in
// this order: body, operation missing, operation invalid, both lists,
// the operation's list missing, list empty, malformed list, unknown
// fields. A valid request answers 207 with one OperationStatus per item,
// in request order; items are applied one after the other.
func (s *Server) bulkSubscriptions(w http.ResponseWriter, r *http.Request, c call) {
	o, msg, ok := readObject(w, r)
	if !ok {
		writeSpecError(w, r, http.StatusBadRequest, msg)
		return
	}
	op, present, isStr := o.str("operation")
	if !present || isStr && strings.TrimSpace(op) == "" {
		writeSpecError(w, r, http.StatusBadRequest, msgOperationRequired)
		return
	}
	if !isStr || op != bulkDelete && op != bulkUpdate {
		writeSpecError(w, r, http.StatusBadRequest, msgInvalidOperation)
		return
	}
	if o.has("subscriptionIds") && o.has("subscriptions") {
		writeSpecError(w, r, http.StatusBadRequest, msgBothLists)
		return
	}
	listName, missingMsg := "subscriptionIds", msgIDsRequired
	if op == bulkUpdate {
		listName, missingMsg = "subscriptions", msgSubsRequired
	}
	items, present, isArray := o.array(listName)
	switch {
	case !present:
		writeSpecError(w, r, http.StatusBadRequest, missingMsg)
		return
	case isArray && len(items) == 0:
		writeSpecError(w, r, http.StatusBadRequest, msgEmptyList)
		return
	case !isArray && op == bulkUpdate:
		writeSpecError(w, r, http.StatusBadRequest, "subscriptions must be an array")
		return
	}
	var ids []string
	if op == bulkDelete && json.Unmarshal(o["subscriptionIds"], &ids) != nil {
		writeSpecError(w, r, http.StatusBadRequest, "subscriptionIds must be an array of uuid strings")
		return
	}
	if msgs := o.unknownFields("operation", "subscriptionIds", "subscriptions"); len(msgs) > 0 {
		writeSpecError(w, r, http.StatusBadRequest, msgs...)
		return
	}
	s.mu.Lock()
	refused := op == bulkUpdate && s.bulkUpdateRefused
	s.mu.Unlock()
	if refused {
		writeSpecError(w, r, http.StatusBadRequest, msgBulkUpdateShape)
		return
	}

	now := s.nowMillis()
	statuses := make([]operationStatus, 0, len(items))
	s.mu.Lock()
	a := s.accountLocked(c.accountID, false)
	if op == bulkDelete {
		for _, id := range ids {
			statuses = append(statuses, bulkDeleteItem(a, id))
		}
	} else {
		for _, raw := range items {
			if st, refused := s.refusedItemLocked(raw); refused {
				statuses = append(statuses, st)
				continue
			}
			statuses = append(statuses, bulkUpdateItem(a, raw, c.username, now))
		}
	}
	s.mu.Unlock()
	writeJSON(w, r, http.StatusMultiStatus, patchResponse{OperationStatuses: statuses})
}

// bulkDeleteItem deletes one subscription of a bulk delete. An id that is
// not a uuid is not found.
func bulkDeleteItem(a *account, id string) operationStatus {
	if key, ok := canonicalID(id); ok && a.remove(key) {
		return operationStatus{SubscriptionID: id, HTTPEquivalentCode: http.StatusNoContent, Message: msgDeleted}
	}
	return operationStatus{SubscriptionID: id, HTTPEquivalentCode: http.StatusNotFound, Message: msgItemNotFound}
}

// bulkUpdateItem applies one item of a bulk update. The item is a
// Subscription identified by subscriptionId; the fields it carries are
// changed and the others kept. A change to accountId, createdDate or
// createdBy is rejected ("Unable to update <field>"), lastUpdatedDate and
// lastUpdatedUserId are ignored (the service sets them). Several problems
// of one item are joined with "; ".
func bulkUpdateItem(a *account, raw json.RawMessage, username string, now int64) operationStatus {
	item, ok := asObject(raw)
	if !ok {
		return operationStatus{HTTPEquivalentCode: http.StatusBadRequest, Message: msgItemNotObject}
	}
	id, present, isStr := item.str("subscriptionId")
	if !present || !isStr || id == "" {
		return operationStatus{SubscriptionID: id, HTTPEquivalentCode: http.StatusBadRequest, Message: msgItemIDRequired}
	}
	key, valid := canonicalID(id)
	sub := a.get(key)
	if !valid || sub == nil {
		return operationStatus{SubscriptionID: id, HTTPEquivalentCode: http.StatusNotFound, Message: msgItemNotFound}
	}
	upd, msgs := mergeUpdate(*sub, item)
	if len(msgs) > 0 {
		return operationStatus{SubscriptionID: id, HTTPEquivalentCode: http.StatusBadRequest, Message: strings.Join(msgs, "; ")}
	}
	*sub = upd
	touch(sub, username, now)
	a.changed()
	return operationStatus{SubscriptionID: id, HTTPEquivalentCode: http.StatusOK, Message: msgUpdated}
}

// mergeUpdate returns cur with the fields of item applied, or the
// messages that reject the item.
func mergeUpdate(cur Subscription, item object) (Subscription, []string) {
	msgs := readFields(item, &cur, shapeBulkItem)
	if v, present, ok := item.str("accountId"); present && (!ok || v != cur.AccountID) {
		msgs = append(msgs, "Unable to update accountId")
	}
	if item.has("createdDate") && !sameNumber(item["createdDate"], cur.CreatedDate) {
		msgs = append(msgs, "Unable to update createdDate")
	}
	if v, present, ok := item.str("createdBy"); present && (!ok || v != cur.CreatedBy) {
		msgs = append(msgs, "Unable to update createdBy")
	}
	msgs = append(msgs, item.unknownFields(knownFields(shapeBulkItem)...)...)
	return cur, msgs
}

// sameNumber reports whether raw is a JSON number equal to want.
func sameNumber(raw json.RawMessage, want int64) bool {
	var n json.Number
	if json.Unmarshal(raw, &n) != nil {
		return false
	}
	if v, err := n.Int64(); err == nil {
		return v == want
	}
	f, err := n.Float64()
	return err == nil && f == float64(want)
}

// refusedItemLocked returns the 400 status of a bulk update item that RefuseBulkUpdateItems
// names. The caller holds s.mu.
func (s *Server) refusedItemLocked(raw json.RawMessage) (operationStatus, bool) {
	item, ok := asObject(raw)
	if !ok {
		return operationStatus{}, false
	}
	id, _, _ := item.str("subscriptionId")
	if key, valid := canonicalID(id); !valid || !s.refusedUpdateItems[key] {
		return operationStatus{}, false
	}
	return operationStatus{SubscriptionID: id, HTTPEquivalentCode: http.StatusBadRequest, Message: msgBulkUpdateItemRefused}, true
}
