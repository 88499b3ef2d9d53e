package provider

import (
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// quotedErrors returns the ```text blocks of the troubleshooting guide's section under heading.
func quotedErrors(t *testing.T, heading string) []string {
	t.Helper()
	section := pageSection(readPage(t, "../../docs/guides/troubleshooting.md"), heading)
	if section == "" {
		t.Fatalf("docs/guides/troubleshooting.md has no section %q", heading)
	}
	var blocks []string
	for _, m := range regexp.MustCompile("(?ms)^```text\n(.*?)^```").FindAllStringSubmatch(section, -1) {
		blocks = append(blocks, m[1])
	}
	if len(blocks) == 0 {
		t.Fatalf("the section %q quotes no error", heading)
	}
	return blocks
}

// diagnosticText is a CLI's output as one line of words: without the frame that
// Terraform and OpenTofu draw around diagnostics, and with every run of white space
// (the CLIs wrap long lines) as one space.
func diagnosticText(out string) string {
	out = strings.NewReplacer("│", " ", "╷", " ", "╵", " ").Replace(out)
	return strings.Join(strings.Fields(out), " ")
}

// expectQuote checks that the CLI's output says what the guide quotes: the quote's parts
// between lines of "...", in order, with white space compared loosely.
func expectQuote(t *testing.T, out, quote string) {
	t.Helper()
	text := diagnosticText(out)
	at := 0
	for _, part := range regexp.MustCompile(`(?m)^\.\.\.$`).Split(quote, -1) {
		want := diagnosticText(part)
		if want == "" {
			continue
		}
		i := strings.Index(text[at:], want)
		if i < 0 {
			t.Errorf("the output does not say, after what it said before, what the guide quotes:\n%s\n--- output (normalized)\n%s",
				want, text)
			return
		}
		at += i + len(want)
	}
}

// closedAddress is an http:// address on which nothing listens.
func closedAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := "http://" + l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return addr
}

// quoteDefaults replaces what a test run differs in from the guide's quotes: the test's
// addresses and account with the guide's placeholders, and the number of attempts, which the
// test keeps small (max_retries = 1), with the default's (max_retries = 5: 6 attempts).
func quoteDefaults(out string, addresses map[string]string) string {
	out = diagnosticText(out) // the CLI wraps lines wherever the values put the breaks
	for test, page := range addresses {
		out = strings.ReplaceAll(out, test, page)
	}
	out = strings.ReplaceAll(out, testAccount, "my-account-id")
	out = regexp.MustCompile(`dial tcp 127\.0\.0\.1:[0-9]+`).ReplaceAllString(out, "dial tcp 203.0.113.10:443")
	return regexp.MustCompile(`giving up after 2 attempt\(?s?\)?`).ReplaceAllString(out, "giving up after 6 attempts")
}

// TestAccGuideTroubleshootingNetwork produces the errors that the troubleshooting guide's
// sections on refused connections and timeouts quote, and checks that the CLI prints what the
// guide shows: a refused connection to the auth address, and a service address that accepts
// the connection but never answers, each after one retry.
func TestAccGuideTroubleshootingNetwork(t *testing.T) {
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	w.write("versions.tf", requiredProviders)
	w.write("main.tf", `data "eventnotify_events" "all" {}`+"\n")

	t.Run("connection refused", func(t *testing.T) {
		base, auth := closedAddress(t), closedAddress(t)
		out, code := w.run([]string{"EVENTNOTIFY_BASE_URL=" + base, "EVENTNOTIFY_AUTH_URL=" + auth, "EVENTNOTIFY_MAX_RETRIES=1"},
			"plan", "-input=false", "-no-color")
		if code != 1 {
			t.Fatalf("plan against a closed port exits %d, want 1:\n%s", code, out)
		}
		out = quoteDefaults(out, map[string]string{base: "https://eventnotify.example.com", auth: "https://auth.example.com"})
		for _, quote := range quotedErrors(t, "## Connection refused, or no such host: the address does not answer") {
			expectQuote(t, out, quote)
		}
		if n := len(m.Requests()); n != 0 {
			t.Errorf("the mock received %d requests", n)
		}
	})

	t.Run("timeout", func(t *testing.T) {
		silent := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
		defer silent.Close()
		defer silent.CloseClientConnections()
		out, code := w.run([]string{"EVENTNOTIFY_BASE_URL=" + silent.URL, "EVENTNOTIFY_REQUEST_TIMEOUT=1s", "EVENTNOTIFY_MAX_RETRIES=1"},
			"plan", "-input=false", "-no-color")
		if code != 1 {
			t.Fatalf("plan against an address that never answers exits %d, want 1:\n%s", code, out)
		}
		out = quoteDefaults(out, map[string]string{silent.URL: "https://eventnotify.example.com"})
		for _, quote := range quotedErrors(t, "## Timeouts: the address does not answer in time") {
			expectQuote(t, out, quote)
		}
	})
}
