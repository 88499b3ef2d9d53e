package client

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// Config is everything New needs to build a Client: the HTTP layer's configuration (the
// service's addresses, the credentials, retries and rate limit; its String and GoString redact
// every secret) and how the subscription engine batches, lists and settles. The zero values of
// the optional fields select the documented defaults.
type Config struct {
	httpapi.Config

	// ListPageSize is the page size with which ReadSubscription lists an account
	// (default 100, the largest page the service is known to accept; a service that
	// clamps it to less still pages correctly).
	ListPageSize int
	// MaxBatchSize is the most subscriptions that one request of CreateSubscriptionBatched or
	// DeleteSubscriptionBatched carries (default DefaultMaxBatchSize); 1 sends every write on
	// its own.
	MaxBatchSize int
	// BatchWindow is how long a batched write waits for others to share its request (default
	// DefaultBatchWindow).
	BatchWindow time.Duration
	// BatchReady, when set, replaces the batch window: a batch is sent as soon as it is full or
	// BatchReady returns true for its account and number of writes. It makes batching
	// deterministic in tests.
	BatchReady func(accountID string, pending int) bool
	// ListCacheTTL is how long ReadSubscription serves reads from one listing of an
	// account (default 1 minute); a negative value disables the listing cache, so that
	// ReadSubscription is GetSubscription. See subscription_cache.go.
	ListCacheTTL time.Duration
	// SettleWait, when set, replaces the waits between the reads that look for what a create
	// whose answer was lost has made (see create_settle.go): it is called with each wait's
	// length and returns early with the context's error. It lets tests run the grace period
	// without waiting for it.
	SettleWait func(ctx context.Context, d time.Duration) error
}

// normalize validates the configuration and fills in defaults, the HTTP layer's
// (httpapi.Config.Normalize) and the engine's.
func (c Config) normalize() (Config, error) {
	var errs []error
	api, err := c.Config.Normalize()
	c.Config = api
	if err != nil {
		errs = append(errs, err)
	}
	if c.MaxBatchSize <= 0 {
		c.MaxBatchSize = DefaultMaxBatchSize
	}
	if c.BatchWindow < 0 {
		errs = append(errs, fmt.Errorf("the batch window must not be negative, got %s", c.BatchWindow))
	}
	if c.BatchWindow == 0 {
		c.BatchWindow = DefaultBatchWindow
	}
	if c.ListPageSize <= 0 {
		c.ListPageSize = defaultListPageSize
	}
	if c.ListCacheTTL == 0 {
		c.ListCacheTTL = defaultListCacheTTL
	}
	if len(errs) > 0 {
		return c, fmt.Errorf("invalid client configuration: %w", errors.Join(errs...))
	}
	return c, nil
}
