package client

import "sync"

// lostCreates counts, per account and content, the subscriptions that this Client's creates
// with lost answers are still looking for. Identical inputs are interchangeable: when several
// lost creates of one content are settled at once, a read that finds as many candidates as all
// of them together are missing is not ambiguous; each settlement takes what it misses and
// leaves the rest to the others (see adopt).
type lostCreates struct {
	mu sync.Mutex
	n  map[string]int
}

// lostKey is the key of accountID's content key.
func lostKey(accountID, key string) string { return accountID + "\x00" + key }

// add changes the count of accountID's content key by d.
func (l *lostCreates) add(accountID, key string, d int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n == nil {
		l.n = make(map[string]int)
	}
	k := lostKey(accountID, key)
	l.n[k] += d
	if l.n[k] <= 0 {
		delete(l.n, k)
	}
}

// count returns how many subscriptions of accountID's content key are still looked for.
func (l *lostCreates) count(accountID, key string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n[lostKey(accountID, key)]
}

// lostHold is one settlement's share of a lostCreates: the inputs it still looks for.
type lostHold struct {
	lost      *lostCreates
	accountID string
	keys      map[int]string // index of the input: its content key
}

// hold counts the inputs of in whose entry of result is nil as looked for, until filled or
// released.
func (l *lostCreates) hold(accountID string, in []SubscriptionInput, result []*Subscription) *lostHold {
	h := &lostHold{lost: l, accountID: accountID, keys: make(map[int]string)}
	for i, s := range result {
		if s == nil {
			h.keys[i] = in[i].key()
			l.add(accountID, h.keys[i], 1)
		}
	}
	return h
}

// filled stops counting input i: it was found.
func (h *lostHold) filled(i int) {
	if h == nil {
		return
	}
	if k, ok := h.keys[i]; ok {
		h.lost.add(h.accountID, k, -1)
		delete(h.keys, i)
	}
}

// release stops counting every input still held.
func (h *lostHold) release() {
	if h == nil {
		return
	}
	for i := range h.keys {
		h.filled(i)
	}
}
