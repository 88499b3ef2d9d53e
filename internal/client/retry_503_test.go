package client

import (
	"context"
	"net/http"
	"testing"
)

// TestRetries503WithRetryAfter: a 503 that carries Retry-After is the service
// declining a request for now (how the platform signals its rate limit), so a
// create (POST) and a bulk call (PATCH) are repeated after it, as after a 429.
// A bare 503 on them is still not retried (TestRetries). Regression test: an
// apply failed on the first rate-limiting 503 of a create.
func TestRetries503WithRetryAfter(t *testing.T) {
	t.Parallel()
	post := func(ctx context.Context, c *Client) error { _, err := c.CreateSubscriptions(ctx, "", nil); return err }
	patch := func(ctx context.Context, c *Client) error {
		_, err := c.BulkDeleteSubscriptions(ctx, "", []string{"a"})
		return err
	}
	tests := []struct {
		name    string
		call    func(ctx context.Context, c *Client) error
		success func(w http.ResponseWriter)
	}{
		{"POST", post, okCreate},
		{"PATCH", patch, okBulk},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, n := scripted([]int{503, 503}, map[string]string{"Retry-After": "0"}, tc.success)
			c := newFake(t, h).newClient(nil)
			if err := tc.call(context.Background(), c); err != nil {
				t.Fatalf("error %v", err)
			}
			if got := n.Load(); got != 3 {
				t.Errorf("%d attempts, want 3", got)
			}
		})
	}
}
