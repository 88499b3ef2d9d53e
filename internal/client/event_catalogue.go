package client

import (
	"context"
	"sync"

	"golang.org/x/sync/singleflight"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// eventCatalogue holds the events catalogue once it has been read.
type eventCatalogue struct {
	mu     sync.Mutex
	read   bool // events and err hold the answer
	events []CatalogueEntry
	err    error
	group  singleflight.Group
}

// EventCatalogue returns the events catalogue (listEvents), read from the service at most once
// per Client: every later call, and every call made while the first is in flight, gets the
// same answer. A failure is remembered too, so that a catalogue that cannot be read costs one
// read (with its retries), not one per caller; only a read ended by the context of the caller
// that started it is not, and the next call reads again. Callers must not modify the slice.
func (c *Client) EventCatalogue(ctx context.Context) ([]CatalogueEntry, error) {
	cat := &c.events
	cat.mu.Lock()
	if cat.read {
		defer cat.mu.Unlock()
		return cat.events, cat.err
	}
	cat.mu.Unlock()
	return httpapi.SharedFlight(ctx, &cat.group, "events", func() ([]CatalogueEntry, error) {
		cat.mu.Lock()
		read, events, err := cat.read, cat.events, cat.err
		cat.mu.Unlock()
		if read { // a flight that ended since this caller looked
			return events, err
		}
		events, err = c.ListEvents(ctx)
		if err != nil && ctx.Err() != nil {
			return nil, err
		}
		cat.mu.Lock()
		defer cat.mu.Unlock()
		cat.read, cat.events, cat.err = true, events, err
		return events, err
	})
}
