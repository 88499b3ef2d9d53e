package client

// SetOnWriteWait makes c call f whenever one of its writes has to wait for the account write
// gate (account_writes.go). Call it before c writes anything.
func SetOnWriteWait(c *Client, f func(accountID string)) { c.writes.onWait = f }
