package client

import "sync"

// createGate orders, per account, the creates of this Client with the reads that settle lost
// create answers. A create holds its account's gate shared from before it is sent until it
// has claimed what its answer lists; a settling read holds it alone from before the account
// is listed until it has claimed what it adopts. So a settling read never sees a
// subscription that a create of this Client in flight has made and not yet claimed: it cannot
// take another resource's subscription for the lost one's, however alike.
type createGate struct {
	mu       sync.Mutex
	accounts map[string]*sync.RWMutex
}

// of returns the gate of accountID.
func (g *createGate) of(accountID string) *sync.RWMutex {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.accounts == nil {
		g.accounts = make(map[string]*sync.RWMutex)
	}
	l := g.accounts[accountID]
	if l == nil {
		l = &sync.RWMutex{}
		g.accounts[accountID] = l
	}
	return l
}
