package mockserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// TestConcurrentUse drives every kind of operation and the test hooks
// from many goroutines; run with -race.
func TestConcurrentUse(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	const workers, rounds = 8, 10
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds)
	for w := range workers {
		wg.Go(func() {
			account := fmt.Sprintf("acc-%d", w%2)
			token := e.jwt(account)
			for i := range rounds {
				r := e.do(http.MethodPost, subsPath(account), token, list(validItem(), validItem()))
				if r.status != http.StatusCreated {
					errs <- fmt.Errorf("create: %d", r.status)
					continue
				}
				var created wireWrapper
				if err := json.Unmarshal(r.body, &created); err != nil || len(created.Subscriptions) != 2 {
					errs <- fmt.Errorf("create body %s: %v", r.body, err)
					continue
				}
				if r := e.do(http.MethodGet, subsPath(account)+"?pageSize=5&sortBy=eventName", token, nil); r.status != http.StatusOK {
					errs <- fmt.Errorf("list: %d", r.status)
				}
				id := created.Subscriptions[0].SubscriptionID
				e.do(http.MethodPatch, subsPath(account), token, map[string]any{"operation": "delete", "subscriptionIds": []string{id}})
				e.srv.ModifySubscription(account, created.Subscriptions[1].SubscriptionID, func(s *mockserver.Subscription) { s.LogLevel = "INFO" })
				e.srv.Subscriptions(account)
				e.srv.Count("", "")
				e.srv.SetSingleShape(mockserver.SingleShape(i % 2))
				e.do(http.MethodGet, "/rest/v1/events", token, nil)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	total := len(e.srv.Subscriptions("acc-0")) + len(e.srv.Subscriptions("acc-1"))
	if total != workers*rounds {
		t.Errorf("%d subscriptions left, want %d", total, workers*rounds)
	}
}
