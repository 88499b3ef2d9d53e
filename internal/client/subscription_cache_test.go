package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/testsupport"
)

// These tests run ReadSubscription against the real mock service and count requests through
// the mock's counters; none of them depends on timing.

const cacheAccount = "acc-cache"

// cacheEnv is one test's mock service.
type cacheEnv struct {
	t    *testing.T
	mock *mockserver.Server
	url  string
}

func newCacheEnv(t *testing.T, cfg mockserver.Config) *cacheEnv {
	t.Helper()
	m := testsupport.Start(t, cfg)
	return &cacheEnv{t: t, mock: m.Server, url: m.URL}
}

// client builds a client for the harness's password user, with fast retries.
func (e *cacheEnv) client(mods ...func(*Config)) *Client {
	e.t.Helper()
	cfg := Config{
		Config: httpapi.Config{
			BaseURL:      e.url,
			AuthURL:      e.url,
			AccountID:    cacheAccount,
			Username:     testsupport.User,
			Password:     testsupport.Password,
			MaxRetries:   2,
			RetryWaitMin: time.Millisecond,
			RetryWaitMax: 5 * time.Millisecond,
		},
	}
	for _, m := range mods {
		m(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		e.t.Fatalf("New: %v", err)
	}
	return c
}

// seed stores n subscriptions in the account, in creation order.
func (e *cacheEnv) seed(account string, n int) []mockserver.Subscription {
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	out := make([]mockserver.Subscription, 0, n)
	for i := range n {
		out = append(out, e.mock.PutSubscription(account, mockserver.Subscription{
			EventName:         fmt.Sprintf("EVENT.%04d", i),
			DestinationType:   "EVENT_STREAMS",
			LogLevel:          "ERROR",
			EventStreamsTopic: fmt.Sprintf("topic-%04d", i),
			Enabled:           i%2 == 0,
			CreatedDate:       base + int64(i),
			LastUpdatedDate:   base + int64(i),
			CreatedBy:         "demo",
			LastUpdatedUserID: "demo",
		}))
	}
	return out
}

// lists and gets count the list requests (listSubscribedEventsForAccount) and single reads (getSubscribedEventForAccount).
func (e *cacheEnv) lists() int { return e.mock.Count(http.MethodGet, mockserver.RouteSubscriptions) }
func (e *cacheEnv) gets() int  { return e.mock.Count(http.MethodGet, mockserver.RouteSubscription) }

// want fails the test unless the mock counted these list pages and single reads.
func (e *cacheEnv) want(lists, gets int) {
	e.t.Helper()
	if l, g := e.lists(), e.gets(); l != lists || g != gets {
		e.t.Errorf("%d list requests and %d single reads, want %d and %d", l, g, lists, gets)
	}
}

// cacheWant is what the client reports for a mock subscription.
func cacheWant(s mockserver.Subscription) Subscription {
	return Subscription{
		ID: s.SubscriptionID, AccountID: s.AccountID, EventName: s.EventName, DestinationType: s.DestinationType,
		LogLevel: s.LogLevel, DestinationEmail: s.DestinationEmail, EventStreamsEnvironment: s.EventStreamsEnvironment,
		EventStreamsEnvironmentName: s.EventStreamsEnvironmentName, EventStreamsTopic: s.EventStreamsTopic,
		Enabled: s.Enabled, CreatedDate: s.CreatedDate, LastUpdatedDate: s.LastUpdatedDate,
		CreatedBy: s.CreatedBy, LastUpdatedUserID: s.LastUpdatedUserID,
	}
}

// mustRead reads id and fails the test on an error.
func mustRead(t *testing.T, c *Client, account, id string) Subscription {
	t.Helper()
	s, err := c.ReadSubscription(t.Context(), account, id)
	if err != nil {
		t.Fatalf("ReadSubscription(%s): %v", id, err)
	}
	return *s
}

func TestReadSubscription_servesReadsFromOneListing(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name         string
		mockMax      int // the mock's maximum page size (0: 100)
		listPageSize int // Config.ListPageSize (0: default 100)
		wantPages    int // for 250 subscriptions
	}{
		{"default page size", 0, 0, 3},
		{"smaller page size", 0, 50, 5},
		{"service clamps the page size", 20, 0, 13},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newCacheEnv(t, mockserver.Config{MaxPageSize: tc.mockMax})
			subs := e.seed(cacheAccount, 250)
			c := e.client(func(cfg *Config) { cfg.ListPageSize = tc.listPageSize })
			for i, s := range subs {
				id := s.SubscriptionID
				if i%2 == 1 {
					id = strings.ToUpper(id) // IDs compare without regard to case
				}
				if got := mustRead(t, c, "", id); got != cacheWant(s) {
					t.Fatalf("read %d:\n got  %+v\n want %+v", i, got, cacheWant(s))
				}
			}
			e.want(tc.wantPages, 0)
			if n := e.mock.JWTFetches(); n != 1 {
				t.Errorf("%d JWT fetches, want 1", n)
			}
		})
	}
}

func TestReadSubscription_defaults(t *testing.T) {
	t.Parallel()
	e := newCacheEnv(t, mockserver.Config{})
	c := e.client()
	if c.cfg.ListPageSize != 100 || c.cfg.ListCacheTTL != time.Minute {
		t.Errorf("ListPageSize %d, ListCacheTTL %s; want 100 and 1m", c.cfg.ListPageSize, c.cfg.ListCacheTTL)
	}
}

func TestReadSubscription_concurrentFirstReadsShareOneListing(t *testing.T) {
	t.Parallel()
	// Latency makes every reader arrive while the first listing is in flight; the counts
	// below hold whatever the timing.
	e := newCacheEnv(t, mockserver.Config{Latency: 5 * time.Millisecond})
	subs := e.seed(cacheAccount, 250)
	c := e.client()
	var wg sync.WaitGroup
	errs := make(chan error, len(subs))
	for _, s := range subs {
		wg.Go(func() {
			got, err := c.ReadSubscription(t.Context(), cacheAccount, s.SubscriptionID)
			switch {
			case err != nil:
				errs <- err
			case *got != cacheWant(s):
				errs <- fmt.Errorf("read %s: got %+v", s.SubscriptionID, *got)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	e.want(3, 0)
	if n := e.mock.JWTFetches(); n != 1 {
		t.Errorf("%d JWT fetches, want 1", n)
	}
}

func TestReadSubscription_missingIDsAreReadOneByOne(t *testing.T) {
	t.Parallel()
	e := newCacheEnv(t, mockserver.Config{})
	subs := e.seed(cacheAccount, 10)
	gone := subs[3]
	e.mock.DeleteSubscriptionDirect(cacheAccount, gone.SubscriptionID) // deleted outside Terraform
	c := e.client()
	mustRead(t, c, cacheAccount, subs[0].SubscriptionID)
	e.want(1, 0)

	// Not in the listing: the single read's 404 is the answer.
	_, err := c.ReadSubscription(t.Context(), cacheAccount, gone.SubscriptionID)
	if !errors.Is(err, httpapi.ErrNotFound) {
		t.Fatalf("read of a deleted subscription: %v, want ErrNotFound", err)
	}
	e.want(1, 1)

	// Created outside the Client after the listing: found by the single read.
	added := e.mock.PutSubscription(cacheAccount, mockserver.Subscription{EventName: "LATE", DestinationType: "EVENT_STREAMS", LogLevel: "INFO"})
	if got := mustRead(t, c, cacheAccount, added.SubscriptionID); got.EventName != "LATE" {
		t.Errorf("late subscription read as %+v", got)
	}
	e.want(1, 2)

	// The answer is a copy: changing it changes nothing for later reads.
	s, _ := c.ReadSubscription(t.Context(), cacheAccount, subs[1].SubscriptionID)
	s.LogLevel = "CHANGED"
	if got := mustRead(t, c, cacheAccount, subs[1].SubscriptionID); got != cacheWant(subs[1]) {
		t.Errorf("the listing was changed through a returned subscription: %+v", got)
	}
	e.want(1, 2)
}

func TestReadSubscription_emptyAccount(t *testing.T) {
	t.Parallel()
	e := newCacheEnv(t, mockserver.Config{})
	c := e.client()
	_, err := c.ReadSubscription(t.Context(), cacheAccount, "3fa85f64-5717-4562-b3fc-2c963f66afa6")
	if !errors.Is(err, httpapi.ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
	e.want(1, 1)
}

func TestReadSubscription_accountsAreSeparate(t *testing.T) {
	t.Parallel()
	const other = "acc-cache-other"
	e := newCacheEnv(t, mockserver.Config{})
	a, b := e.seed(cacheAccount, 5), e.seed(other, 5)
	c := e.client()
	mustRead(t, c, cacheAccount, a[0].SubscriptionID)
	mustRead(t, c, other, b[0].SubscriptionID)
	e.want(2, 0)
	// A write to one account leaves the other's listing alone.
	if err := c.DeleteSubscription(t.Context(), cacheAccount, a[1].SubscriptionID); err != nil {
		t.Fatal(err)
	}
	mustRead(t, c, other, b[1].SubscriptionID)
	e.want(2, 0)
	// The delete's answer took it out of its own account's listing: an id the listing lacks is
	// read on its own, and the service's 404 says it is gone.
	if _, err := c.ReadSubscription(t.Context(), cacheAccount, a[1].SubscriptionID); !errors.Is(err, httpapi.ErrNotFound) {
		t.Errorf("read after delete: %v, want ErrNotFound", err)
	}
	e.want(2, 1)
}

// TestReadSubscription_writeOutcomes runs every write of the Client between two reads. A write
// whose answer tells what it did updates the listing, which serves the second read without a
// new listing (an id the listing lacks, such as one deleted, is read on its own; one updated
// by a bulk update, whose statuses do not show it, too); any other write drops the listing,
// and the second read lists the account again. Either way the second read sees the write.
func TestReadSubscription_writeOutcomes(t *testing.T) {
	t.Parallel()
	in := SubscriptionInput{EventName: "NEW.EVENT", DestinationType: "EVENT_STREAMS", LogLevel: "INFO"}
	bulkUpdate := func(ctx context.Context, c *Client, id string) (string, error) {
		s, err := c.GetSubscription(ctx, cacheAccount, id)
		if err != nil {
			return "", err
		}
		s.LogLevel = "WARNING"
		_, err = c.BulkUpdateSubscriptions(ctx, cacheAccount, []Subscription{*s})
		return id, err
	}
	update := func(ctx context.Context, c *Client, id string) (string, error) {
		_, err := c.UpdateSubscription(ctx, cacheAccount, id, in)
		return id, err
	}
	bulkDelete := func(ctx context.Context, c *Client, id string) (string, error) {
		_, err := c.BulkDeleteSubscriptions(ctx, cacheAccount, []string{id})
		return id, err
	}
	cases := []struct {
		name  string
		fault *mockserver.Fault // injected for the write
		// write returns the id the second read reads.
		write     func(ctx context.Context, c *Client, id string) (string, error)
		check     func(t *testing.T, c *Client, id string)
		relist    bool // the second read lists the account again
		wantGets  int  // single reads of the second read
		wantCount int  // subscriptions AccountSubscriptions serves after the write
		relistAll bool // AccountSubscriptions lists the account again after the second read
	}{
		{name: "update", write: update, check: wantLogLevel("INFO"), wantCount: 5},
		{name: "update of an unknown id", write: func(ctx context.Context, c *Client, id string) (string, error) {
			_, err := c.UpdateSubscription(ctx, cacheAccount, "3fa85f64-5717-4562-b3fc-2c963f66afa6", in)
			if !errors.Is(err, httpapi.ErrNotFound) {
				return "", fmt.Errorf("update of an unknown id: %v, want ErrNotFound", err)
			}
			return id, nil
		}, check: wantLogLevel("ERROR"), wantCount: 5},
		{name: "delete", write: func(ctx context.Context, c *Client, id string) (string, error) {
			return id, c.DeleteSubscription(ctx, cacheAccount, id)
		}, check: wantGone, wantGets: 1, wantCount: 4},
		{name: "delete of an unknown id", write: func(ctx context.Context, c *Client, id string) (string, error) {
			err := c.DeleteSubscription(ctx, cacheAccount, "3fa85f64-5717-4562-b3fc-2c963f66afa6")
			if !errors.Is(err, httpapi.ErrNotFound) {
				return "", fmt.Errorf("delete of an unknown id: %v, want ErrNotFound", err)
			}
			return id, nil
		}, check: wantLogLevel("ERROR"), wantCount: 5},
		{name: "bulk delete", write: bulkDelete, check: wantGone, wantGets: 1, wantCount: 4},
		{name: "bulk update", write: bulkUpdate, check: wantLogLevel("WARNING"), wantGets: 1, wantCount: 5},
		// Two to read one by one, where a pass over the account is one page: it is listed again.
		{name: "bulk update of more than a pass has pages", write: func(ctx context.Context, c *Client, id string) (string, error) {
			all, err := c.AccountSubscriptions(ctx, cacheAccount)
			if err != nil {
				return "", err
			}
			for i := range all {
				all[i].LogLevel = "WARNING"
			}
			_, err = c.BulkUpdateSubscriptions(ctx, cacheAccount, all[:2])
			return all[0].ID, err
		}, check: wantLogLevel("WARNING"), wantGets: 1, wantCount: 5, relistAll: true},
		{name: "create", write: func(ctx context.Context, c *Client, _ string) (string, error) {
			created, err := c.CreateSubscriptions(ctx, cacheAccount, []SubscriptionInput{in})
			if err != nil || len(created) != 1 {
				return "", fmt.Errorf("create: %v, %d subscriptions", err, len(created))
			}
			return created[0].ID, nil
		}, check: wantLogLevel("INFO"), wantCount: 6},
		// Inconclusive: the write drops the listing.
		{name: "delete all", write: func(ctx context.Context, c *Client, id string) (string, error) {
			return id, c.DeleteAllSubscriptions(ctx, cacheAccount)
		}, check: wantGone, relist: true, wantGets: 1},
		{name: "replace", write: func(ctx context.Context, c *Client, id string) (string, error) {
			_, err := c.ReplaceSubscriptions(ctx, cacheAccount, []SubscriptionInput{in})
			return id, err
		}, check: wantGone, relist: true, wantGets: 1, wantCount: 1},
		{name: "topic", write: func(ctx context.Context, c *Client, id string) (string, error) {
			_, err := c.CreateEventStreamTopic(ctx, cacheAccount, TopicInput{EnvironmentID: "env", SubscriptionName: "s", TopicName: "t"})
			return id, err
		}, check: wantLogLevel("ERROR"), relist: true, wantCount: 5},
		{name: "update whose answer fails a check",
			fault: &mockserver.Fault{Method: http.MethodPut, Route: mockserver.RouteSubscription, ForgeMember: "accountId", ForgeValue: "another-account"},
			write: update, check: wantLogLevel("INFO"), relist: true, wantCount: 5},
		{name: "bulk delete without a status",
			fault: &mockserver.Fault{Method: http.MethodPatch, Route: mockserver.RouteSubscriptions, DropStatuses: 1, AfterWork: true},
			write: bulkDelete, check: wantGone, relist: true, wantGets: 1, wantCount: 4},
		{name: "bulk update without a status",
			fault: &mockserver.Fault{Method: http.MethodPatch, Route: mockserver.RouteSubscriptions, DropStatuses: 1, AfterWork: true},
			write: bulkUpdate, check: wantLogLevel("WARNING"), relist: true, wantCount: 5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newCacheEnv(t, mockserver.Config{})
			subs := e.seed(cacheAccount, 5)
			c := e.client()
			mustRead(t, c, cacheAccount, subs[2].SubscriptionID)
			e.want(1, 0)
			remove := func() {}
			if tc.fault != nil {
				remove = e.mock.InjectFault(*tc.fault)
			}
			id, err := tc.write(t.Context(), c, subs[2].SubscriptionID)
			remove()
			if err != nil {
				t.Fatal(err)
			}
			lists, gets := e.lists(), e.gets()
			tc.check(t, c, id)
			wantLists := 0
			if tc.relist {
				wantLists = 1
			}
			if n := e.lists() - lists; n != wantLists {
				t.Errorf("%d list requests after the write, want %d", n, wantLists)
			}
			if n := e.gets() - gets; n != tc.wantGets {
				t.Errorf("%d single reads after the write, want %d", n, tc.wantGets)
			}
			// The whole listing agrees with the service, and serves without a request.
			lists = e.lists()
			all, err := c.AccountSubscriptions(t.Context(), cacheAccount)
			if err != nil {
				t.Fatal(err)
			}
			if len(all) != tc.wantCount || len(e.mock.Subscriptions(cacheAccount)) != tc.wantCount {
				t.Errorf("AccountSubscriptions served %d subscriptions, the service holds %d, want %d",
					len(all), len(e.mock.Subscriptions(cacheAccount)), tc.wantCount)
			}
			wantLists = 0
			if tc.relistAll {
				wantLists = 1
			}
			if n := e.lists() - lists; n != wantLists {
				t.Errorf("AccountSubscriptions after the read made %d list requests, want %d", n, wantLists)
			}
		})
	}
}

func wantLogLevel(level string) func(t *testing.T, c *Client, id string) {
	return func(t *testing.T, c *Client, id string) {
		t.Helper()
		if got := mustRead(t, c, cacheAccount, id); got.LogLevel != level {
			t.Errorf("log level %q after the write, want %q", got.LogLevel, level)
		}
	}
}

func wantGone(t *testing.T, c *Client, id string) {
	t.Helper()
	if _, err := c.ReadSubscription(t.Context(), cacheAccount, id); !errors.Is(err, httpapi.ErrNotFound) {
		t.Errorf("read after the write: %v, want ErrNotFound", err)
	}
}

func TestReadSubscription_listingErrorFallsBackToSingleReads(t *testing.T) {
	t.Parallel()
	e := newCacheEnv(t, mockserver.Config{})
	subs := e.seed(cacheAccount, 10)
	remove := e.mock.InjectFault(mockserver.Fault{Method: http.MethodGet, Route: mockserver.RouteSubscriptions, Status: http.StatusForbidden})
	c := e.client()
	now := time.Now()
	c.now = func() time.Time { return now }
	for _, s := range subs {
		if got := mustRead(t, c, cacheAccount, s.SubscriptionID); got != cacheWant(s) {
			t.Fatalf("got %+v, want %+v", got, cacheWant(s))
		}
	}
	// One failed listing, remembered: the reads went one by one.
	e.want(1, 10)

	// A write forgets a failure: the next read lists again.
	remove()
	if err := c.DeleteSubscription(t.Context(), cacheAccount, subs[9].SubscriptionID); err != nil {
		t.Fatal(err)
	}
	mustRead(t, c, cacheAccount, subs[0].SubscriptionID)
	mustRead(t, c, cacheAccount, subs[1].SubscriptionID)
	e.want(2, 10)

	// Once the TTL has passed, the next read lists again; its failure is remembered.
	remove = e.mock.InjectFault(mockserver.Fault{Method: http.MethodGet, Route: mockserver.RouteSubscriptions, Status: http.StatusForbidden, Count: 1})
	defer remove()
	now = now.Add(time.Minute)
	mustRead(t, c, cacheAccount, subs[0].SubscriptionID) // listing fails: single read
	e.want(3, 11)
	if err := c.DeleteSubscription(t.Context(), cacheAccount, subs[8].SubscriptionID); err != nil {
		t.Fatal(err)
	}
	mustRead(t, c, cacheAccount, subs[0].SubscriptionID) // listing works again
	mustRead(t, c, cacheAccount, subs[1].SubscriptionID)
	e.want(4, 11)
}

func TestReadSubscription_ttl(t *testing.T) {
	t.Parallel()
	e := newCacheEnv(t, mockserver.Config{})
	subs := e.seed(cacheAccount, 3)
	c := e.client()
	now := time.Now()
	c.now = func() time.Time { return now }
	mustRead(t, c, cacheAccount, subs[0].SubscriptionID)
	now = now.Add(time.Minute - time.Millisecond)
	mustRead(t, c, cacheAccount, subs[1].SubscriptionID)
	e.want(1, 0)
	// Older than the TTL: changes made outside the Client since the listing show again.
	e.mock.ModifySubscription(cacheAccount, subs[1].SubscriptionID, func(s *mockserver.Subscription) { s.LogLevel = "INFO" })
	now = now.Add(time.Millisecond)
	if got := mustRead(t, c, cacheAccount, subs[1].SubscriptionID); got.LogLevel != "INFO" {
		t.Errorf("log level %q after the TTL, want INFO", got.LogLevel)
	}
	e.want(2, 0)
}

func TestReadSubscription_disabled(t *testing.T) {
	t.Parallel()
	e := newCacheEnv(t, mockserver.Config{})
	subs := e.seed(cacheAccount, 3)
	c := e.client(func(cfg *Config) { cfg.ListCacheTTL = -1 })
	for _, s := range subs {
		if got := mustRead(t, c, cacheAccount, s.SubscriptionID); got != cacheWant(s) {
			t.Errorf("got %+v", got)
		}
	}
	e.want(0, 3)
}

func TestReadSubscription_argumentErrors(t *testing.T) {
	t.Parallel()
	e := newCacheEnv(t, mockserver.Config{})
	c := e.client(func(cfg *Config) { cfg.AccountID = "" })
	if _, err := c.ReadSubscription(t.Context(), "", "x"); !errors.Is(err, httpapi.ErrNoAccount) {
		t.Errorf("no account: %v", err)
	}
	if _, err := c.ReadSubscription(t.Context(), cacheAccount, ""); !errors.Is(err, httpapi.ErrInvalidID) {
		t.Errorf("no id: %v", err)
	}
	e.want(0, 0)
}

func TestReadSubscription_cancelledReadIsNotAFailedListing(t *testing.T) {
	t.Parallel()
	e := newCacheEnv(t, mockserver.Config{})
	subs := e.seed(cacheAccount, 3)
	c := e.client()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := c.ReadSubscription(ctx, cacheAccount, subs[0].SubscriptionID); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	mustRead(t, c, cacheAccount, subs[0].SubscriptionID)
	mustRead(t, c, cacheAccount, subs[1].SubscriptionID)
	e.want(1, 0)
}

// holdFirstList is a transport that, for the first list request, obtains the service's answer
// and then holds it until released: the listing in flight has read the account as it was.
type holdFirstList struct {
	base     http.RoundTripper
	held     atomic.Bool
	started  chan struct{}
	released chan struct{}
}

func (h *holdFirstList) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := h.base.RoundTrip(r)
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/subscriptions") && h.held.CompareAndSwap(false, true) {
		close(h.started)
		<-h.released
	}
	return resp, err
}

// TestReadSubscription_writeDuringListing: a listing that was in flight while a write went
// through is not kept, and a read that starts after the write does not join it.
func TestReadSubscription_writeDuringListing(t *testing.T) {
	t.Parallel()
	for _, readDuringFlight := range []bool{true, false} {
		t.Run(fmt.Sprintf("read during the stale flight %t", readDuringFlight), func(t *testing.T) {
			e := newCacheEnv(t, mockserver.Config{})
			subs := e.seed(cacheAccount, 3)
			id := subs[1].SubscriptionID
			hold := &holdFirstList{base: http.DefaultTransport.(*http.Transport).Clone(), started: make(chan struct{}), released: make(chan struct{})}
			c := e.client(func(cfg *Config) { cfg.HTTPClient = &http.Client{Transport: hold} })

			done := make(chan error, 1)
			go func() {
				_, err := c.ReadSubscription(context.Background(), cacheAccount, id) // may see the old state
				done <- err
			}()
			<-hold.started
			if _, err := c.UpdateSubscription(t.Context(), cacheAccount, id, SubscriptionInput{EventName: "E", DestinationType: "EVENT_STREAMS", LogLevel: "INFO"}); err != nil {
				t.Fatal(err)
			}
			if readDuringFlight {
				if got := mustRead(t, c, cacheAccount, id); got.LogLevel != "INFO" {
					t.Errorf("read after the write, during the old listing: log level %q, want INFO", got.LogLevel)
				}
			}
			close(hold.released)
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if got := mustRead(t, c, cacheAccount, id); got.LogLevel != "INFO" {
				t.Errorf("read after the write and the old listing: log level %q, want INFO", got.LogLevel)
			}
			mustRead(t, c, cacheAccount, subs[0].SubscriptionID)
			e.want(2, 0)
		})
	}
}

// BenchmarkReadSubscriptionCached reads from a warm listing of 1,000 subscriptions from
// parallel goroutines: the cost of a refresh's read once the account is listed.
func BenchmarkReadSubscriptionCached(b *testing.B) {
	c, err := New(Config{Config: httpapi.Config{BaseURL: "http://127.0.0.1:1", AuthURL: "http://127.0.0.1:1", AccountID: "acc", Username: "u", Password: "p"}})
	if err != nil {
		b.Fatal(err)
	}
	subs := make(map[string]Subscription, 1000)
	ids := make([]string, 0, 1000)
	for i := range 1000 {
		id := fmt.Sprintf("6f1c2a9e-0b7d-4c36-9a51-2b8f3e4d%04d", i)
		subs[id] = Subscription{ID: id, AccountID: "acc", EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS", LogLevel: "ERROR", Enabled: true}
		ids = append(ids, id)
	}
	_, _, gen, _ := c.listings.lookup("acc", c.now(), c.cfg.ListCacheTTL)
	c.listings.store("acc", gen, subs, c.now().Add(time.Hour)) // never expires during the run
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	var next atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			id := ids[next.Add(1)%int64(len(ids))]
			if s, err := c.ReadSubscription(ctx, "", id); err != nil || s.ID != id {
				b.Fatalf("ReadSubscription = %v, %v", s, err)
			}
		}
	})
}

// BenchmarkRefresh1000 reads 1,000 subscriptions through a new Client with Terraform's
// default parallelism (10), against the in-process mock: with the listing cache (11 list
// requests and one JWT) and without it (1,000 single reads and one JWT).
func BenchmarkRefresh1000(b *testing.B) {
	m := testsupport.Start(b, mockserver.Config{})
	mock := m.Server
	ids := make([]string, 0, 1000)
	for i := range 1000 {
		s := mock.PutSubscription(cacheAccount, mockserver.Subscription{EventName: fmt.Sprintf("EVENT.%04d", i), DestinationType: "EVENT_STREAMS", LogLevel: "ERROR", Enabled: true})
		ids = append(ids, s.SubscriptionID)
	}
	for _, bc := range []struct {
		name string
		ttl  time.Duration
	}{{"listing", 0}, {"single", -1}} {
		b.Run(bc.name, func(b *testing.B) {
			mock.ResetCounters()
			b.ReportAllocs()
			iterations := 0
			for b.Loop() {
				iterations++
				c, err := New(Config{
					Config: httpapi.Config{
						BaseURL:   m.URL,
						AuthURL:   m.URL,
						AccountID: cacheAccount,
						Username:  testsupport.User,
						Password:  testsupport.Password,
					},
					ListCacheTTL: bc.ttl,
				})
				if err != nil {
					b.Fatal(err)
				}
				work := make(chan string)
				var wg sync.WaitGroup
				for range 10 {
					wg.Go(func() {
						for id := range work {
							if _, err := c.ReadSubscription(context.Background(), "", id); err != nil {
								b.Error(err)
							}
						}
					})
				}
				for _, id := range ids {
					work <- id
				}
				close(work)
				wg.Wait()
			}
			b.ReportMetric(float64(mock.Count("", ""))/float64(iterations), "requests/op")
			mock.ResetCounters() // the request log grows with every request
		})
	}
}
