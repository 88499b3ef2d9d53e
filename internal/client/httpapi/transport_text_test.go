package httpapi

import (
	"errors"
	"net"
	"strings"
	"testing"
)

// TestQuoteError: the wrapper's text is redacted and escaped, and bounded; nil stays nil.
func TestQuoteError(t *testing.T) {
	t.Parallel()
	if quoteError(nil, newRedactor("x")) != nil {
		t.Error("quoteError(nil) is not nil")
	}
	inner := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("secret-1\x1b[2J" + strings.Repeat("y", 10000))}
	err := quoteError(inner, newRedactor("secret-1"))
	var opErr *net.OpError
	if !errors.As(err, &opErr) || opErr != inner {
		t.Error("errors.As does not find the wrapped error")
	}
	if !strings.HasPrefix(err.Error(), "dial tcp: "+RedactedMarker+`\x1b[2J`) || len(err.Error()) > maxTransportErrorBytes {
		t.Errorf("text %q... (%d bytes)", err.Error()[:40], len(err.Error()))
	}
}
