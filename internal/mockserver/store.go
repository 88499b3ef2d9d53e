package mockserver

import (
	"cmp"
	"slices"
	"strings"

	"github.com/google/uuid"
)

// account holds one account's subscriptions.
//
// Lists are served from sorted slices of pointers, one per sort field,
// built lazily on the first list after a write and dropped by every
// write to the account. A page request therefore costs one sort after a
// write and O(page) while the account does not change, which is how
// clients page through a list. Descending order walks the ascending
// slice backwards, so it needs no slice of its own.
type account struct {
	subs   map[string]*Subscription
	sorted map[string][]*Subscription // key: sortBy field ("" = default order)
}

// accountLocked returns the account, creating it when create is set
// (nil otherwise when absent). The caller holds s.mu.
func (s *Server) accountLocked(id string, create bool) *account {
	a := s.accounts[id]
	if a == nil && create {
		a = &account{subs: make(map[string]*Subscription)}
		s.accounts[id] = a
	}
	return a
}

// size is the number of subscriptions of a (nil is empty).
func (a *account) size() int {
	if a == nil {
		return 0
	}
	return len(a.subs)
}

func (a *account) get(id string) *Subscription {
	if a == nil {
		return nil
	}
	return a.subs[id]
}

// changed drops the sorted slices after a write.
func (a *account) changed() {
	a.sorted = nil
}

func (a *account) put(sub *Subscription) {
	a.subs[sub.SubscriptionID] = sub
	a.changed()
}

func (a *account) remove(id string) bool {
	if a == nil {
		return false
	}
	if _, ok := a.subs[id]; !ok {
		return false
	}
	delete(a.subs, id)
	a.changed()
	return true
}

func (a *account) clear() {
	clear(a.subs)
	a.changed()
}

// sortedBy returns the subscriptions in ascending order of field (a
// Subscription JSON name; "" = default order), then createdDate, then
// subscriptionId. The slice is cached until the next write; callers must
// not modify it. field must be valid (see sortComparator).
func (a *account) sortedBy(field string) []*Subscription {
	if a == nil {
		return nil
	}
	if s, ok := a.sorted[field]; ok {
		return s
	}
	key, _ := sortComparator(field)
	// Each subscription's key is read once: reading it costs more than comparing it.
	keyed := make([]sortItem, 0, len(a.subs))
	for _, sub := range a.subs {
		keyed = append(keyed, sortItem{key: key(sub), sub: sub})
	}
	slices.SortFunc(keyed, func(x, y sortItem) int {
		return cmp.Or(
			strings.Compare(x.key.text, y.key.text),
			cmp.Compare(x.key.number, y.key.number),
			cmp.Compare(x.sub.CreatedDate, y.sub.CreatedDate),
			strings.Compare(x.sub.SubscriptionID, y.sub.SubscriptionID),
		)
	})
	out := make([]*Subscription, len(keyed))
	for i, k := range keyed {
		out[i] = k.sub
	}
	if a.sorted == nil {
		a.sorted = make(map[string][]*Subscription)
	}
	a.sorted[field] = out
	return out
}

// sortItem is a subscription with its sort key.
type sortItem struct {
	key sortKey
	sub *Subscription
}

// sortComparator returns the sort key of a sortBy value: any JSON name
// of Subscription (its fields, the mock's table of members: fields.go), or
// "" for the default order (createdDate, then subscriptionId).
func sortComparator(name string) (func(*Subscription) sortKey, bool) {
	if name == "" {
		return func(*Subscription) sortKey { return sortKey{} }, true
	}
	for _, f := range subscriptionFields() {
		if f.name == name {
			return f.sortKey, true
		}
	}
	return nil, false
}

// sortFields lists the accepted sortBy values, for error messages: every
// member of Subscription, in field order.
func sortFields() []string {
	var names []string
	for _, f := range subscriptionFields() {
		names = append(names, f.name)
	}
	return names
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// canonicalID returns the canonical (lowercase, hyphenated) form of a
// uuid in its 36-character form, and false for anything else.
func canonicalID(id string) (string, bool) {
	if len(id) != 36 {
		return "", false
	}
	u, err := uuid.Parse(id)
	if err != nil {
		return "", false
	}
	return u.String(), true
}

// Subscriptions returns copies of the account's subscriptions sorted by
// createdDate, then subscriptionId (outside the API: no transform).
func (s *Server) Subscriptions(accountID string) []Subscription {
	s.mu.Lock()
	defer s.mu.Unlock()
	sorted := s.accountLocked(accountID, false).sortedBy("")
	out := make([]Subscription, len(sorted))
	for i, sub := range sorted {
		out[i] = *sub
	}
	return out
}

// Subscription returns a copy of one subscription of the account.
func (s *Server) Subscription(accountID, id string) (Subscription, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sub := s.accountLocked(accountID, false).get(storeKey(id))
	if sub == nil {
		return Subscription{}, false
	}
	return *sub, true
}

// PutSubscription inserts sub into the account, or replaces the one with
// the same subscriptionId, and returns what was stored. An empty
// subscriptionId gets a new uuid, an empty accountId the account's id, a
// zero createdDate or lastUpdatedDate the current time. Other fields,
// Enabled included, are stored as given.
func (s *Server) PutSubscription(accountID string, sub Subscription) Subscription {
	if sub.SubscriptionID == "" {
		sub.SubscriptionID = uuid.NewString()
	}
	sub.SubscriptionID = storeKey(sub.SubscriptionID)
	if sub.AccountID == "" {
		sub.AccountID = accountID
	}
	now := s.nowMillis()
	if sub.CreatedDate == 0 {
		sub.CreatedDate = now
	}
	if sub.LastUpdatedDate == 0 {
		sub.LastUpdatedDate = now
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	stored := sub
	s.accountLocked(accountID, true).put(&stored)
	return sub
}

// ModifySubscription runs fn on the stored subscription (under the
// server's lock: fn must not call the Server) and reports whether it
// exists. A changed subscriptionId re-keys the subscription.
func (s *Server) ModifySubscription(accountID, id string, fn func(*Subscription)) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.accountLocked(accountID, false)
	key := storeKey(id)
	sub := a.get(key)
	if sub == nil {
		return false
	}
	fn(sub)
	if sub.SubscriptionID != key {
		a.remove(key)
		sub.SubscriptionID = storeKey(sub.SubscriptionID)
	}
	a.put(sub)
	return true
}

// DeleteSubscriptionDirect removes one subscription and reports whether
// it existed.
func (s *Server) DeleteSubscriptionDirect(accountID, id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.accountLocked(accountID, false)
	return a.remove(storeKey(id))
}

// storeKey is the key a subscription id is stored under: its canonical
// form when it is a uuid, else the id itself.
func storeKey(id string) string {
	if c, ok := canonicalID(id); ok {
		return c
	}
	return id
}
