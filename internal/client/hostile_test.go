package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// The tests of this file put the client in front of a hostile service: one that pages for
// ever, writes escape sequences into its messages, and returns ids and accounts that would
// send later requests elsewhere (issue 20, items 3, 4 and 7).

// noUnsafeText fails when s holds a character that a terminal would act on.
func noUnsafeText(t *testing.T, what, s string) {
	t.Helper()
	if httpapi.HasUnsafeRune(s) {
		t.Errorf("%s holds a control, format or separator character, or is not UTF-8: %q", what, s)
	}
}

func TestServiceText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"printable ASCII", "Subscription not found: E1 (id 42)", "Subscription not found: E1 (id 42)"},
		{"printable Unicode stays readable", "Konto äöü 日本 😀 «ok» — ½", "Konto äöü 日本 😀 «ok» — ½"},
		{"carriage return and new line", "error\r\nApply complete!", `error\r\nApply complete!`},
		{"tab", "a\tb", `a\tb`},
		{"ESC sequences (erase line, colours)", "\x1b[2K\x1b[1;32mApply complete!\x1b[0m", `\x1b[2K\x1b[1;32mApply complete!\x1b[0m`},
		{"NUL, BEL, backspace", "a\x00b\x07c\x08", `a\x00b\x07c\x08`},
		{"DEL", "a\x7fb", `a\x7fb`},
		{"C1 controls (CSI, NEL)", "a\u009b2Jb\u0085c", `a\u009b2Jb\u0085c`},
		{"bidi override and isolates", "user\u202efdp.exe \u2066x\u2069", `user\u202efdp.exe \u2066x\u2069`},
		{"bidi embeddings and marks", "\u202a\u202b\u202c\u202d\u200e\u200f\u061c", `\u202a\u202b\u202c\u202d\u200e\u200f\u061c`},
		{"zero-width and BOM", "a\u200bb\ufeffc", `a\u200bb\ufeffc`},
		{"line and paragraph separators", "a\u2028b\u2029c", `a\u2028b\u2029c`},
		{"format character outside the BMP", "a\U000e0001b", `a\U000e0001b`},
		{"bytes that are not UTF-8", "a\xffb\xc3", `a\xffb\xc3`},
		{"8-bit CSI byte", "\x9b2J", `\x9b2J`},
		{"a backslash is text", `C:\temp`, `C:\temp`},
		{"empty", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := httpapi.ServiceText(tc.in)
			if got != tc.want {
				t.Errorf("ServiceText(%q) = %q, want %q", tc.in, got, tc.want)
			}
			noUnsafeText(t, "result", got)
		})
	}
}

// TestHostileErrorBody: what a failed answer says reaches httpapi.APIError, its message and its
// diagnostics escaped and bounded, from the service and from the JWT endpoint alike.
func TestHostileErrorBody(t *testing.T) {
	t.Parallel()
	forged := "\x1b[2K\r\x1b[1;32mApply complete! Resources: 0 added, 0 changed, 0 destroyed.\x1b[0m\n"
	many := make([]string, 100)
	for i := range many {
		many[i] = fmt.Sprintf(`"message %d %s"`, i, `\u001b[2J`)
	}
	huge := strings.Repeat("A", 30<<20)
	tests := []struct {
		name         string
		jwt          bool
		status       int
		body         string
		wantMessages int
		wantOmitted  int
	}{
		{"500 with forged terminal output", false, 500,
			`{"error":"Internal Server Error` + `\u001b[2K","messages":["` + jsonEscape(forged) + `"],"errorId":"\u001b]0;title\u0007","path":"/x\u202e"}`, 1, 0},
		{"one message of 30 MiB", false, 400, `{"error":"Bad Request","messages":["` + huge + `"]}`, 1, 0},
		{"a hundred messages", false, 400, `{"error":"Bad Request","messages":[` + strings.Join(many, ",") + `]}`, httpapi.MaxServiceMessages, 100 - httpapi.MaxServiceMessages},
		{"raw body with escapes", false, 502, "<html>" + forged + "\u202e</html>", 0, 0},
		{"raw body of 30 MiB", false, 502, huge, 0, 0},
		{"JWT endpoint answer", true, 401, forged, 0, 0},
		{"JWT endpoint JSON answer", true, 403, `{"error":"Forbidden","messages":["` + jsonEscape(forged) + `"]}`, 1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, tc.status, tc.body) })
			if tc.jwt {
				f.set(func(f *fakeAPI) {
					f.jwtHandler = func(w http.ResponseWriter, r *http.Request) { writeJSON(w, tc.status, tc.body) }
				})
			}
			c := f.newClient(func(cfg *Config) { cfg.MaxRetries = 0 })
			_, err := c.ListEvents(context.Background())
			var apiErr *httpapi.APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("error %v is not an *APIError", err)
			}
			if apiErr.JWTEndpoint != tc.jwt {
				t.Errorf("JWTEndpoint = %t", apiErr.JWTEndpoint)
			}
			for what, s := range map[string]string{"Error()": err.Error(), "ErrorText": apiErr.ErrorText, "Path": apiErr.Path,
				"ErrorID": apiErr.ErrorID, "RawBody": apiErr.RawBody} {
				noUnsafeText(t, what, s)
				if len(s) > 4*httpapi.MaxServiceTextBytes+httpapi.MaxServiceMessages*httpapi.MaxServiceTextBytes {
					t.Errorf("%s is %d bytes long", what, len(s))
				}
			}
			if len(apiErr.Messages) != tc.wantMessages || apiErr.MessagesOmitted != tc.wantOmitted {
				t.Errorf("%d messages kept and %d omitted, want %d and %d", len(apiErr.Messages), apiErr.MessagesOmitted, tc.wantMessages, tc.wantOmitted)
			}
			for i, m := range apiErr.Messages {
				noUnsafeText(t, fmt.Sprintf("message %d", i), m)
				if len(m) > httpapi.MaxServiceTextBytes {
					t.Errorf("message %d is %d bytes long", i, len(m))
				}
			}
			if len(apiErr.RawBody) > httpapi.RawBodyLimit {
				t.Errorf("RawBody is %d bytes long", len(apiErr.RawBody))
			}
			if tc.wantOmitted > 0 && !strings.Contains(err.Error(), fmt.Sprintf("(%d more messages not shown)", tc.wantOmitted)) {
				t.Errorf("Error() does not say how many messages were left out: %s", err)
			}
			if strings.Contains(tc.body, "Apply complete") && !strings.Contains(err.Error()+strings.Join(apiErr.Messages, ""), `\x1b[1;32mApply complete`) {
				t.Errorf("the forged text is not shown escaped: %s", err)
			}
		})
	}
}

// jsonEscape writes s as the inside of a JSON string.
func jsonEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 || r == '"' || r == '\\' {
			fmt.Fprintf(&b, `\u%04x`, r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestHostileBulkMessage: a bulk item's message is escaped and bounded too.
func TestHostileBulkMessage(t *testing.T) {
	t.Parallel()
	id := "00000000-0000-4000-8000-000000000001"
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 207, `{"operationStatuses":[{"subscriptionId":"`+id+`","httpEquivalentCode":400,"message":"`+
			jsonEscape("bad\r\x1b[2KApply complete!")+strings.Repeat("m", 5000)+`"}]}`)
	})
	statuses, err := f.newClient(nil).BulkDeleteSubscriptions(context.Background(), "", []string{id})
	if err != nil || len(statuses) != 1 {
		t.Fatalf("BulkDeleteSubscriptions: %v, %v", statuses, err)
	}
	m := statuses[0].Message
	noUnsafeText(t, "message", m)
	if !strings.HasPrefix(m, `bad\r\x1b[2KApply complete!`) || len(m) > httpapi.MaxServiceTextBytes {
		t.Errorf("message %q (%d bytes)", m[:min(len(m), 60)], len(m))
	}
}

// endlessPages answers every page with pageSize new subscriptions and "last": false; dup makes
// every page carry the same ids (new content, so no page repeats).
func endlessPages(calls *atomic.Int64, pageSize int, dup bool, extra string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		items := make([]string, pageSize)
		for i := range items {
			id := int(n)*pageSize + i
			if dup {
				id = i
			}
			items[i] = fmt.Sprintf(`{"subscriptionId":"00000000-0000-4000-8000-%012d","eventName":"E%d","destinationType":"EVENT_STREAMS","logLevel":"INFO"%s}`, id, n, extra)
		}
		writeJSON(w, 200, `{"subscriptions":[`+strings.Join(items, ",")+`],"paginationMetadata":{"last":false,"totalPages":2147483647}}`)
	}
}

// TestListingBounded: a service that never marks a last page is listed up to a bound, and the
// listing fails with an error that says what the service did; nothing of it is returned.
func TestListingBounded(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		pageSize  int
		dup       bool
		extra     string
		limits    func(*listingLimits)
		wantCalls int64
		wantText  string
	}{
		// With the real bounds: 50,000 subscriptions in pages of 100.
		{"new items on every page, default bounds", 100, false, "", nil,
			MaxListedSubscriptions/100 + 1, fmt.Sprintf("more than %d subscriptions", MaxListedSubscriptions)},
		{"the same ids on every page", 5, true, "", func(l *listingLimits) { l.pages = 300 },
			300, "300 pages"},
		{"large items", 10, false, `,"eventStreamsTopic":"` + strings.Repeat("t", 4000) + `"`, func(l *listingLimits) { l.bytes = 1 << 20 },
			26, "more than 1 MiB"}, // 26 pages of 10 items of about 4,140 bytes each

	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var calls atomic.Int64
			f := newFake(t, endlessPages(&calls, tc.pageSize, tc.dup, tc.extra))
			c := f.newClient(nil)
			if tc.limits != nil {
				tc.limits(&c.listLimits)
			}
			got, err := c.ListSubscriptions(context.Background(), "", ListOptions{PageSize: tc.pageSize})
			if !errors.Is(err, ErrListingLimit) || got != nil {
				t.Fatalf("ListSubscriptions: %d subscriptions, error %v; want none and ErrListingLimit", len(got), err)
			}
			if !strings.Contains(err.Error(), tc.wantText) || !strings.Contains(err.Error(), "without marking a last page") {
				t.Errorf("error %q does not say %q", err, tc.wantText)
			}
			if calls.Load() != tc.wantCalls {
				t.Errorf("%d pages requested, want %d", calls.Load(), tc.wantCalls)
			}
		})
	}
}

// TestListingDeadline: a listing ends at its own deadline, with an error that names it and
// does not pass for the caller's timeout.
func TestListingDeadline(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	f := newFake(t, endlessPages(&calls, 1, false, ""))
	c := f.newClient(nil)
	c.listLimits.duration = 50 * time.Millisecond
	c.listLimits.items = 1 << 30
	c.listLimits.pages = 1 << 30
	_, err := c.ListSubscriptions(context.Background(), "", ListOptions{})
	if !errors.Is(err, ErrListingLimit) || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v; want ErrListingLimit, not context.DeadlineExceeded", err)
	}
	if !strings.Contains(err.Error(), "did not end within 50ms") {
		t.Errorf("error %q does not name the listing's deadline", err)
	}
}

// TestListingWithinBounds: an account of exactly the bound is listed whole.
func TestListingWithinBounds(t *testing.T) {
	t.Parallel()
	h := pagedHandler(t, 250, func(pn, ps, tp int) string { return fmt.Sprintf(`{"totalPages":%d}`, tp) })
	f := newFake(t, h)
	c := f.newClient(nil)
	c.listLimits.items, c.listLimits.pages = 250, 3
	got, err := c.ListSubscriptions(context.Background(), "", ListOptions{})
	if err != nil || len(got) != 250 {
		t.Fatalf("ListSubscriptions: %d, %v", len(got), err)
	}
}

// TestAccountIDRefused: an account id that a proxy could resolve to another path is refused
// before any request, the JWT request included, whether configured or given to a call.
func TestAccountIDRefused(t *testing.T) {
	t.Parallel()
	bad := []string{".", "..", "a/b", `a\b`, "acc\x1b[2J", "acc\r", "acc\u202e", "acc\u2066", "acc\u200e", "acc\u0085", "\xff", strings.Repeat("a", 257)}
	for _, id := range bad {
		t.Run(fmt.Sprintf("%q", id), func(t *testing.T) {
			if err := httpapi.CheckAccountID(id); !errors.Is(err, httpapi.ErrInvalidID) {
				t.Errorf("CheckAccountID: %v", err)
			} else {
				noUnsafeText(t, "error", err.Error())
			}
			f := newFake(t, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 204, "") })
			cfg := f.testConfig()
			cfg.AccountID = id
			if _, err := New(cfg); !errors.Is(err, httpapi.ErrInvalidID) {
				t.Errorf("New with account_id %q: %v", id, err)
			}
			c := f.newClient(nil)
			calls := map[string]func() error{
				"list":   func() error { _, err := c.ListSubscriptions(context.Background(), id, ListOptions{}); return err },
				"get":    func() error { _, err := c.GetSubscription(context.Background(), id, "x"); return err },
				"delete": func() error { return c.DeleteSubscription(context.Background(), id, "x") },
				"batch":  func() error { return c.DeleteSubscriptionBatched(context.Background(), id, "x") },
				"token":  func() error { _, err := c.Token(context.Background(), id); return err },
				"read":   func() error { _, err := c.ReadSubscription(context.Background(), id, "x"); return err },
			}
			for name, call := range calls {
				if err := call(); !errors.Is(err, httpapi.ErrInvalidID) {
					t.Errorf("%s: %v", name, err)
				}
			}
			if n := len(f.api()) + len(f.jwts()); n != 0 {
				t.Errorf("%d requests sent", n)
			}
		})
	}
	for _, good := range []string{"acc-1", "a b", "Konto-äöü", "a.b", "...", "acc%2e%2e"} {
		if err := httpapi.CheckAccountID(good); err != nil {
			t.Errorf("CheckAccountID(%q): %v", good, err)
		}
	}
}

// TestSubscriptionIDRefused: a subscription id that is not one path segment is refused before
// any request.
func TestSubscriptionIDRefused(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 204, "") })
	c := f.newClient(nil)
	for _, id := range []string{"", ".", "..", "a/b", "x\x1b", "x\u202e"} {
		_, gerr := c.GetSubscription(context.Background(), "", id)
		_, uerr := c.UpdateSubscription(context.Background(), "", id, SubscriptionInput{})
		derr := c.DeleteSubscription(context.Background(), "", id)
		for _, err := range []error{gerr, uerr, derr} {
			if !errors.Is(err, httpapi.ErrInvalidID) {
				t.Errorf("id %q: %v", id, err)
			}
		}
	}
	if n := len(f.api()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// TestHostileSubscriptionAnswers: subscriptions whose id is not a UUID, that name another
// account (the caller's in another letter case included: httpapi.SameAccount) or carry oversized
// fields never reach the caller, and every subscription carries the account asked about.
func TestHostileSubscriptionAnswers(t *testing.T) {
	t.Parallel()
	const id = "6B0E4C8A-1D2F-4A3B-9C5D-7E8F9A0B1C2D"
	sub := func(id, extra string) string {
		return `{"subscriptionId":"` + id + `","eventName":"E","destinationType":"EVENT_STREAMS","logLevel":"INFO"` + extra + `}`
	}
	tests := []struct {
		name    string
		body    string
		wantErr string
	}{
		{"dot id", sub(".", ""), `subscription id ".", which is not a UUID`},
		{"dot-dot id", sub("..", ""), `subscription id "..", which is not a UUID`},
		{"id with escapes", sub(`\u001b[2J`, ""), `subscription id "\x1b[2J", which is not a UUID`},
		{"id that is a path", sub("../../accounts/other", ""), "not a UUID"},
		{"no id", sub("", ""), "without a subscriptionId"},
		{"another account", sub(id, `,"accountId":"other"`), `of account "other"`},
		{"another account with escapes", sub(id, `,"accountId":"x\u202e"`), `of account "x\u202e"`},
		{"an oversized field", sub(id, `,"createdBy":"`+strings.Repeat("c", maxSubscriptionFieldBytes+1)+`"`), "createdBy is 4097 bytes long"},
		{"the account in another letter case", sub(id, `,"accountId":"`+strings.ToUpper(testAccount)+`"`), `of account "` + strings.ToUpper(testAccount) + `"`},
		{"no account", sub(id, ""), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodPost {
					writeJSON(w, 201, `{"subscriptions":[`+tc.body+`]}`)
					return
				}
				if strings.HasSuffix(r.URL.Path, "/subscriptions") {
					writeJSON(w, 200, `{"subscriptions":[`+tc.body+`],"paginationMetadata":{"last":true}}`)
					return
				}
				writeJSON(w, 200, tc.body)
			})
			c := f.newClient(func(cfg *Config) { cfg.ListCacheTTL = -1 })
			list, lerr := c.ListSubscriptions(context.Background(), "", ListOptions{})
			one, gerr := c.GetSubscription(context.Background(), "", id)
			upd, uerr := c.UpdateSubscription(context.Background(), "", id, SubscriptionInput{EventName: "E"})
			if tc.wantErr == "" {
				if lerr != nil || gerr != nil || uerr != nil {
					t.Fatalf("errors %v, %v, %v", lerr, gerr, uerr)
				}
				for _, s := range []Subscription{list[0], *one, *upd} {
					if s.AccountID != testAccount {
						t.Errorf("account %q, want the configured %q", s.AccountID, testAccount)
					}
				}
				return
			}
			for name, err := range map[string]error{"list": lerr, "get": gerr, "update": uerr} {
				if !errors.Is(err, httpapi.ErrInvalidID) || !errors.Is(err, httpapi.ErrMalformedResponse) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("%s: error %v; want ErrInvalidID, ErrMalformedResponse and %q", name, err, tc.wantErr)
				} else {
					noUnsafeText(t, name+" error", err.Error())
				}
			}
			if list != nil || one != nil || upd != nil {
				t.Errorf("results %v, %v, %v; want none", list, one, upd)
			}
		})
	}
}

// TestHostileCreateAnswer: a create answered with an id that is not a UUID is not handed to
// the caller: the account is read to settle it, and a listing that says the same fails the
// create loudly, with nothing adopted.
func TestHostileCreateAnswer(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		body := `{"subscriptions":[{"subscriptionId":".","eventName":"E","destinationType":"EVENT_STREAMS","logLevel":"INFO"}]}`
		if r.Method == http.MethodPost {
			writeJSON(w, 201, body)
			return
		}
		writeJSON(w, 200, body)
	})
	c := f.newClient(nil)
	got, err := c.CreateSubscriptions(context.Background(), "", []SubscriptionInput{{EventName: "E", DestinationType: "EVENT_STREAMS", LogLevel: "INFO"}})
	var unknown *UnknownOutcomeError
	if !errors.As(err, &unknown) || !errors.Is(unknown.ReadErr, httpapi.ErrInvalidID) {
		t.Fatalf("CreateSubscriptions: %v; want an *UnknownOutcomeError whose listing failed on the id", err)
	}
	if len(got) != 1 || got[0].ID != "" {
		t.Errorf("result %+v; want nothing adopted", got)
	}
	posts := 0
	for _, r := range f.api() {
		if r.Method == http.MethodPost {
			posts++
		}
	}
	if posts != 1 {
		t.Errorf("%d creates sent, want 1", posts)
	}
}

// TestHostileTokenBody: a JWT endpoint that answers with control characters or an oversized
// token gives no token, and the error neither repeats the body nor carries the characters.
func TestHostileTokenBody(t *testing.T) {
	t.Parallel()
	for _, body := range []string{"eyJ\x1b[2K\rApply complete!", "eyJ.\u202e.x", `{"token":"a\u009bb"}`, strings.Repeat("e", httpapi.MaxTokenBytes+1)} {
		f := newFake(t, nil)
		f.set(func(f *fakeAPI) {
			f.jwtHandler = func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, body) }
		})
		_, err := f.newClient(nil).Token(context.Background(), "")
		if !errors.Is(err, httpapi.ErrMalformedResponse) {
			t.Errorf("body %q: %v", body[:min(len(body), 20)], err)
			continue
		}
		noUnsafeText(t, "error", err.Error())
		if len(err.Error()) > 200 {
			t.Errorf("error of %d bytes", len(err.Error()))
		}
	}
}
