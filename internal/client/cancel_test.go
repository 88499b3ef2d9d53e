package client

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
)

// TestCancelledCreateInFlight: a create that is cancelled (Ctrl-C) after it
// was sent still returns the service's answer, so the caller can record what
// the service created; a create cancelled before it was sent never reaches the
// service. Regression test: an interrupted apply lost a subscription that the
// service created from a request in flight, and the next apply created it again.
func TestCancelledCreateInFlight(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var posts atomic.Int32
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		posts.Add(1)
		cancel() // the caller gives up while the service works on the request
		<-ctx.Done()
		writeJSON(w, http.StatusCreated, `{"subscriptions":[{"subscriptionId":"6b0e4c8a-1d2f-4a3b-9c5d-7e8f9a0b1c2d","eventName":"ATOM.STATUS"}]}`)
	})
	c := f.newClient(nil)
	if _, err := c.Token(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	created, err := c.CreateSubscriptions(ctx, "", []SubscriptionInput{{EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS", LogLevel: "ERROR"}})
	if err != nil {
		t.Fatalf("the answer of a create in flight was dropped: %v", err)
	}
	if len(created) != 1 || created[0].ID != "6b0e4c8a-1d2f-4a3b-9c5d-7e8f9a0b1c2d" {
		t.Fatalf("created %+v, want 6b0e4c8a-1d2f-4a3b-9c5d-7e8f9a0b1c2d", created)
	}

	// Cancelled before it is sent: no request, a cancellation error.
	_, err = c.CreateSubscriptions(ctx, "", []SubscriptionInput{{EventName: "ATOM.STATUS"}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("a create cancelled before it was sent: %v, want context.Canceled", err)
	}
	if n := posts.Load(); n != 1 {
		t.Errorf("%d creates reached the service, want 1", n)
	}
}

// TestCancelledCreateNotRetried: a retryable answer (429) to a create whose
// caller has cancelled ends the call with the cancellation, without another
// attempt.
func TestCancelledCreateNotRetried(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var posts atomic.Int32
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		posts.Add(1)
		cancel()
		writeJSON(w, http.StatusTooManyRequests, `{"error":"Too Many Requests","messages":["slow down"],"path":"/"}`)
	})
	c := f.newClient(nil)
	if _, err := c.Token(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateSubscriptions(ctx, "", nil); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if n := posts.Load(); n != 1 {
		t.Errorf("%d attempts, want 1", n)
	}
}
