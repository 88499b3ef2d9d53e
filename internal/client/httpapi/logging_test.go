package httpapi

import (
	"context"
	"fmt"
	"testing"
)

// TestKVFields covers the retryablehttp adapter's argument conversion.
func TestKVFields(t *testing.T) {
	t.Parallel()
	got := kvFields([]any{"a", 1, "err", fmt.Errorf("boom"), 3, "x", "dangling"})
	if got["a"] != 1 || got["err"] != "boom" || got["3"] != "x" || got["extra"] != "dangling" {
		t.Errorf("kvFields = %v", got)
	}
	// The adapter must not panic without a logger in the context.
	l := leveledLogger{ctx: context.Background()}
	l.Error("e", "k", "v")
	l.Warn("w")
	l.Info("i")
	l.Debug("d", "k")
}
