package client

// What a caller that manages an account's whole set of subscriptions needs from the Client
// beyond the operations: to say which subscriptions it already tracks, and how many
// subscriptions one write request may carry.

// ClaimSubscriptions records subscriptions that the caller already tracks (for example the
// whole set of an account held by one resource), so that settling a lost create answer never
// adopts one of them as what the create made (see create_adopt.go). Empty IDs are ignored.
func (c *Client) ClaimSubscriptions(ids ...string) {
	subs := make([]Subscription, 0, len(ids))
	for _, id := range ids {
		if id != "" {
			subs = append(subs, Subscription{ID: id})
		}
	}
	c.claims.claim(subs...)
}

// MaxBatchSize is the most subscriptions that one create or bulk delete request of the Client
// carries (Config.MaxBatchSize, after defaults): a caller that writes many subscriptions at
// once sends them in chunks of this size.
func (c *Client) MaxBatchSize() int {
	if c.cfg.MaxBatchSize <= 0 {
		return DefaultMaxBatchSize
	}
	return c.cfg.MaxBatchSize
}
