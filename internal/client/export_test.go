package client

import "time"

// SetOnWriteWait makes c call f whenever one of its writes has to wait for the account write
// gate (account_writes.go). Call it before c writes anything.
func SetOnWriteWait(c *Client, f func(accountID string)) { c.writes.onWait = f }

// CreatedClock returns how precisely c's own creates have calibrated the service's createdDate
// clock (the width of the bounds of its offset), how many created subscriptions the calibration
// intersects,
// and false when none has (created_clock.go).
func CreatedClock(c *Client) (width time.Duration, samples int, known bool) {
	cal, known := c.createdClock.snapshot()
	return cal.width(), cal.samples, known
}

// WaitRecorder is waitRecorder (waits_test.go) for the cross-tests.
type WaitRecorder = waitRecorder
