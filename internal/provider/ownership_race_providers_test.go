package provider

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// racingProviders are the two provider blocks of twoRunsConfig, served in-process for the race
// of two configurations: A ("eventnotify/eventnotify"), whose first wait of a lost create's
// grace period calls atLost once, closes the returned channel and then waits until until is
// closed (its later waits pass at once, their reads still made); and B
// ("eventnotify/eventnotify-b"), whose creates are sent only once A's answer was lost
// (createsAfter).
func racingProviders(atLost func(), until <-chan struct{}) ([]inProcessProvider, <-chan struct{}) {
	aLost := make(chan struct{})
	var lost sync.Once
	return []inProcessProvider{
		{source: "eventnotify/eventnotify", factory: parityServerFor(func() *EventNotifyProvider {
			return &EventNotifyProvider{version: "test", adjustClient: func(c *client.Config) {
				c.SettleWait = func(ctx context.Context, _ time.Duration) error {
					lost.Do(func() {
						atLost()
						close(aLost)
					})
					return waitFor(ctx, until)
				}
			}}
		})},
		{source: "eventnotify/eventnotify-b", factory: parityServerFor(func() *EventNotifyProvider {
			return &EventNotifyProvider{version: "test", adjustClient: func(c *client.Config) {
				c.HTTPClient = &http.Client{Transport: createsAfter{ready: aLost, base: http.DefaultTransport.(*http.Transport).Clone()}}
			}}
		})},
	}, aLost
}
