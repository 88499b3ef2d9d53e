package httpapi

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestServiceTextBounded: a long text is cut to MaxServiceTextBytes, escapes included, with a
// note that says how many bytes were left out; a cut never splits a character or an escape.
func TestServiceTextBounded(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
	}{
		{"30 MiB message", strings.Repeat("x", 30<<20)},
		{"escapes only", strings.Repeat("\x1b", 5000)},
		{"multi-byte characters", strings.Repeat("日", 2000)},
		{"mixed", strings.Repeat("ab\u202e日\r", 1000)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ServiceText(tc.in)
			if len(got) > MaxServiceTextBytes {
				t.Errorf("%d bytes, want at most %d", len(got), MaxServiceTextBytes)
			}
			noUnsafeText(t, "result", got)
			shown, note, ok := strings.Cut(got, "… [")
			if !ok {
				t.Fatalf("no note of what was cut in %q", got[max(0, len(got)-80):])
			}
			var cut int
			if _, err := fmt.Sscanf(note, "%d more bytes not shown]", &cut); err != nil {
				t.Fatalf("note %q: %v", note, err)
			}
			// What is shown, unescaped, is the first len(in)-cut bytes of the input.
			if want := ServiceText(tc.in[:len(tc.in)-cut]); want != shown {
				t.Errorf("shown part %q is not the escaped first %d bytes", shown, len(tc.in)-cut)
			}
		})
	}
	if got := ServiceText(strings.Repeat("y", MaxServiceTextBytes)); got != strings.Repeat("y", MaxServiceTextBytes) {
		t.Errorf("a text of exactly the bound was cut: %d bytes", len(got))
	}
}

// TestLoggedBodiesEscaped: TRACE logs of bodies are escaped and bounded like diagnostics.
func TestLoggedBodiesEscaped(t *testing.T) {
	t.Parallel()
	got := ServiceTextBytes([]byte("{\"m\":\"\x1b[2K\r\"}"+strings.Repeat(" ", maxLoggedBody)), maxLoggedBody)
	noUnsafeText(t, "logged body", got)
	if len(got) > maxLoggedBody || !utf8.ValidString(got) || !strings.Contains(got, "more bytes not shown") {
		t.Errorf("logged body of %d bytes", len(got))
	}
}
