package client

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestLimiterRespectsDeadline: a wait that cannot finish before the deadline fails at once
// with an error matching context.DeadlineExceeded, and is not retried.
func TestLimiterRespectsDeadline(t *testing.T) {
	t.Parallel()
	f := newFake(t, eventsHandler)
	c := f.newClient(func(cfg *Config) {
		cfg.Username, cfg.Password, cfg.AuthURL, cfg.JWT = "", "", "", f.issue(testAccount)
		cfg.RequestsPerSecond = 1e-6
	})
	if _, err := c.ListEvents(context.Background()); err != nil { // takes the only token
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := c.ListEvents(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "rate limit") {
		t.Fatalf("error %v", err)
	}
	if got := len(f.api()); got != 1 {
		t.Errorf("%d requests reached the service, want 1", got)
	}
}
