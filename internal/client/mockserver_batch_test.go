package client_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// readyAt makes a batch ready once it holds n writes, so that tests batch deterministically.
func readyAt(n int) func(*client.Config) {
	return func(c *client.Config) {
		c.BatchReady = func(_ string, pending int) bool { return pending >= n }
	}
}

// parallel runs f for i in [0, n) concurrently and waits for all of them.
func parallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(i)
		}()
	}
	wg.Wait()
}

// Concurrent creates of one account share one createSubscriptions request, and each caller
// gets the subscription made from its own input.
func TestMockBatchedCreates(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t, readyAt(8))
	got := make([]*client.Subscription, 8)
	errs := make([]error, 8)
	parallel(8, func(i int) {
		in := validInput(fmt.Sprintf("EVENT.%d", i%4)) // pairs of identical inputs
		in.EventStreamsTopic = fmt.Sprintf("topic-%d", i%4)
		got[i], errs[i] = c.CreateSubscriptionBatched(ctx(t), itAccount, in)
	})
	seen := map[string]bool{}
	for i, s := range got {
		if errs[i] != nil {
			t.Fatalf("create %d: %v", i, errs[i])
		}
		if s.EventName != fmt.Sprintf("EVENT.%d", i%4) || s.EventStreamsTopic != fmt.Sprintf("topic-%d", i%4) || seen[s.ID] {
			t.Errorf("create %d got %+v", i, s)
		}
		seen[s.ID] = true
	}
	e.wantCount(http.MethodPost, mockserver.RouteSubscriptions, 1)
	if n := len(e.mock.Subscriptions(itAccount)); n != 8 {
		t.Errorf("mock holds %d subscriptions, want 8", n)
	}
}

// A batch refused as a whole because of one invalid item is split: the valid ones are
// created and only the invalid one fails, with the service's message.
func TestMockBatchedCreateRefusedItem(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t, readyAt(8))
	errs := make([]error, 8)
	parallel(8, func(i int) {
		in := validInput(fmt.Sprintf("EVENT.%d", i))
		if i == 5 {
			in.DestinationType = ""
		}
		_, errs[i] = c.CreateSubscriptionBatched(ctx(t), itAccount, in)
	})
	for i, err := range errs {
		if i == 5 {
			wantAPIError(t, err, http.StatusBadRequest, "Must provide a valid destinationType")
			continue
		}
		if err != nil {
			t.Errorf("create %d: %v", i, err)
		}
	}
	if n := len(e.mock.Subscriptions(itAccount)); n != 7 {
		t.Errorf("mock holds %d subscriptions, want 7", n)
	}
	// 8 refused, 4+4, 2+2 (one half of the refused 4), 1+1: 1 + 2 + 2 + 2 requests.
	e.wantCount(http.MethodPost, mockserver.RouteSubscriptions, 7)
}

// Concurrent deletes share one bulk delete; a subscription already gone counts as deleted.
func TestMockBatchedDeletes(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t, readyAt(6))
	seeded := e.seed(itAccount, 6)
	e.mock.DeleteSubscriptionDirect(itAccount, seeded[2].SubscriptionID)
	errs := make([]error, 6)
	parallel(6, func(i int) { errs[i] = c.DeleteSubscriptionBatched(ctx(t), itAccount, seeded[i].SubscriptionID) })
	for i, err := range errs {
		if err != nil {
			t.Errorf("delete %d: %v", i, err)
		}
	}
	e.wantCount(http.MethodPatch, mockserver.RouteSubscriptions, 1)
	e.wantCount(http.MethodDelete, mockserver.RouteSubscription, 0)
	if n := len(e.mock.Subscriptions(itAccount)); n != 0 {
		t.Errorf("mock holds %d subscriptions, want 0", n)
	}
}

// With MaxBatchSize 1 every write is its own request, the single-item operation of today.
func TestMockUnbatchedWrites(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t, func(c *client.Config) { c.MaxBatchSize = 1 })
	ids := make([]string, 4)
	parallel(4, func(i int) {
		s, err := c.CreateSubscriptionBatched(ctx(t), itAccount, validInput(fmt.Sprintf("EVENT.%d", i)))
		if err != nil {
			t.Errorf("create %d: %v", i, err)
			return
		}
		ids[i] = s.ID
	})
	parallel(4, func(i int) {
		if err := c.DeleteSubscriptionBatched(ctx(t), itAccount, ids[i]); err != nil {
			t.Errorf("delete %d: %v", i, err)
		}
	})
	e.wantCount(http.MethodPost, mockserver.RouteSubscriptions, 4)
	e.wantCount(http.MethodDelete, mockserver.RouteSubscription, 4)
	e.wantCount(http.MethodPatch, mockserver.RouteSubscriptions, 0)
}

// A caller cancelled while its batch is still collecting leaves it: the others are created,
// the cancelled one is not.
func TestMockBatchCallerCancelledBeforeSend(t *testing.T) {
	t.Parallel()
	e := newMockEnv(t, mockserver.Config{})
	joined := make(chan struct{}, 3)
	release := make(chan struct{})
	c := e.client(func(c *client.Config) {
		c.BatchReady = func(_ string, pending int) bool {
			joined <- struct{}{}
			if pending < 3 {
				return false
			}
			<-release
			return true
		}
	})
	cancelled, cancel := context.WithCancel(ctx(t))
	var cancelledErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, cancelledErr = c.CreateSubscriptionBatched(cancelled, itAccount, validInput("EVENT.CANCELLED"))
	}()
	<-joined
	cancel()
	<-done
	close(release)
	parallel(2, func(i int) {
		if _, err := c.CreateSubscriptionBatched(ctx(t), itAccount, validInput(fmt.Sprintf("EVENT.%d", i))); err != nil {
			t.Errorf("create %d: %v", i, err)
		}
	})
	if !errors.Is(cancelledErr, context.Canceled) {
		t.Errorf("cancelled create: %v", cancelledErr)
	}
	for _, s := range e.mock.Subscriptions(itAccount) {
		if strings.EqualFold(s.EventName, "EVENT.CANCELLED") {
			t.Error("the cancelled caller's subscription was created")
		}
	}
	if n := len(e.mock.Subscriptions(itAccount)); n != 2 {
		t.Errorf("mock holds %d subscriptions, want 2", n)
	}
}

// The grace period of a batch whose answer was lost ends once every caller of the batch is
// done (cancelled, or past its deadline: an operation's timeout), and not before: a caller
// whose deadline passes waits with the others, and nothing more is created once all are gone.
// Without it, the batch would settle for 15 seconds and create the rest again for callers
// that Terraform has given up on.
func TestMockBatchSettleEndsWhenEveryCallerIsDone(t *testing.T) {
	t.Parallel()
	e := newMockEnv(t, mockserver.Config{})
	waiting := make(chan context.Context, 1)
	waited := make(chan error, 1)
	c := e.client(readyAt(2), func(cfg *client.Config) {
		cfg.SettleWait = func(ctx context.Context, d time.Duration) error {
			waiting <- ctx
			select {
			case <-ctx.Done():
			case <-time.After(time.Minute): // a bound on a failing test, not a measurement
				waited <- errors.New("the wait was not ended within a minute of its start")
				return nil
			}
			waited <- ctx.Err()
			return ctx.Err()
		}
	})
	// The create is sent and its answer lost; its work never lands while the test runs.
	e.mock.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
		Status: http.StatusGatewayTimeout, Count: 1, Later: 1000})
	first, cancelFirst := context.WithCancel(ctx(t))
	second, cancelSecond := context.WithCancel(ctx(t))
	defer cancelFirst()
	defer cancelSecond()
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, cctx := range []context.Context{first, second} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = c.CreateSubscriptionBatched(cctx, itAccount, validInput(fmt.Sprintf("EVENT.%d", i)))
		}()
	}
	settling := <-waiting
	cancelFirst()
	// One caller is left: the wait goes on (a cancellation would only make this fail).
	select {
	case err := <-waited:
		t.Fatalf("the grace period ended (%v) while a caller was still waiting for it", err)
	default:
	}
	if settling.Err() != nil {
		t.Fatalf("the settling context ended (%v) while a caller was still waiting for it", settling.Err())
	}
	cancelSecond()
	wg.Wait()
	if err := <-waited; !errors.Is(err, context.Canceled) {
		t.Errorf("the grace period's wait ended with %v, want the callers' cancellation", err)
	}
	for i, err := range errs {
		var unknown *client.UnknownOutcomeError
		if !errors.As(err, &unknown) || unknown.Missing != 2 {
			t.Errorf("caller %d: %v, want an *UnknownOutcomeError with both subscriptions missing", i, err)
		}
	}
	// One create, one read of the account (then the wait): nothing was created again.
	e.wantCount(http.MethodPost, mockserver.RouteSubscriptions, 1)
	e.wantCount(http.MethodGet, mockserver.RouteSubscriptions, 1)
}
