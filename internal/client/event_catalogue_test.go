package client_test

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// EventCatalogue reads listEvents once per client, whoever asks and however often; a failure
// is remembered too, and a read ended by its caller's context is not.
func TestEventCatalogue(t *testing.T) {
	t.Parallel()
	names := func(entries []client.CatalogueEntry) []string {
		out := make([]string, len(entries))
		for i, e := range entries {
			out[i] = e.Name
		}
		return out
	}
	events := []mockserver.CatalogueEntry{{Name: "ATOM.STATUS"}, {Name: "PROCESS.EXECUTION"}}

	t.Run("read once, concurrent callers included", func(t *testing.T) {
		t.Parallel()
		e := newMockEnv(t, mockserver.Config{})
		e.mock.SetEvents(events)
		c := e.client()
		var wg sync.WaitGroup
		errs := make(chan error, 16)
		for range 8 {
			wg.Go(func() {
				got, err := c.EventCatalogue(ctx(t))
				if err == nil && len(got) != 2 {
					t.Errorf("got %v", names(got))
				}
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		got, err := c.EventCatalogue(ctx(t))
		if err != nil || len(got) != 2 || got[0].Name != "ATOM.STATUS" || got[1].Name != "PROCESS.EXECUTION" {
			t.Fatalf("got %v, %v", names(got), err)
		}
		e.wantCount(http.MethodGet, mockserver.RouteEvents, 1)
		// Another client (another provider instance) reads again.
		if _, err := e.client().EventCatalogue(ctx(t)); err != nil {
			t.Fatal(err)
		}
		e.wantCount(http.MethodGet, mockserver.RouteEvents, 2)
	})

	t.Run("a failure is remembered", func(t *testing.T) {
		t.Parallel()
		e := newMockEnv(t, mockserver.Config{})
		e.mock.InjectFault(mockserver.Fault{Method: http.MethodGet, Route: mockserver.RouteEvents, Status: http.StatusForbidden})
		c := e.client()
		_, first := c.EventCatalogue(ctx(t))
		if first == nil {
			t.Fatal("no error from a 403")
		}
		e.mock.ClearFaults()
		if _, err := c.EventCatalogue(ctx(t)); err == nil || err.Error() != first.Error() {
			t.Fatalf("second call: %v, want the first's error %v", err, first)
		}
		e.wantCount(http.MethodGet, mockserver.RouteEvents, 1)
	})

	t.Run("a cancelled read is not remembered", func(t *testing.T) {
		t.Parallel()
		e := newMockEnv(t, mockserver.Config{})
		e.mock.SetEvents(events)
		c := e.client()
		cancelled, cancel := context.WithCancel(ctx(t))
		cancel()
		if _, err := c.EventCatalogue(cancelled); err == nil {
			t.Fatal("no error with a cancelled context")
		}
		got, err := c.EventCatalogue(ctx(t))
		if err != nil || len(got) != 2 {
			t.Fatalf("after a cancelled read: %v, %v", names(got), err)
		}
	})
}
