package client_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/testsupport"
)

// putLike stores a subscription of in's content, created by user at at (the service's time).
func (e *mockEnv) putLike(in client.SubscriptionInput, user string, at time.Time) mockserver.Subscription {
	e.t.Helper()
	return e.mock.PutSubscription(itAccount, mockserver.Subscription{
		EventName: in.EventName, DestinationType: in.DestinationType, LogLevel: in.LogLevel,
		EventStreamsEnvironment: in.EventStreamsEnvironment, EventStreamsEnvironmentName: in.EventStreamsEnvironmentName,
		EventStreamsTopic: in.EventStreamsTopic, Enabled: true, CreatedDate: at.UnixMilli(), LastUpdatedDate: at.UnixMilli(),
		CreatedBy: user, LastUpdatedUserID: user,
	})
}

// A subscription that existed before the create was sent is never its result, however
// alike, recent and unclaimed, and whatever this machine's clock says: the service's clock
// (its Date header) decides. A lost answer whose work was done is still found.
func TestMockCreateLostJudgedByServiceClock(t *testing.T) {
	t.Parallel()
	for _, offset := range []time.Duration{0, time.Hour, -time.Hour} {
		for _, afterWork := range []bool{false, true} {
			t.Run(fmt.Sprintf("service clock %v, work done %t", offset, afterWork), func(t *testing.T) {
				t.Parallel()
				e := newMockEnv(t, mockserver.Config{})
				e.mock.SetClockOffset(offset)
				c := e.client()
				in := validInput("C1")
				// Created by the same user three minutes ago, by the service's clock, through
				// another provider instance: this client has never seen it. (Within two
				// minutes it would leave the outcome unknown: TestMockCreateLostDateOffBy2s.)
				other := e.putLike(in, itUser, time.Now().Add(offset-3*time.Minute))
				e.mock.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
					Status: http.StatusBadGateway, Count: 1, AfterWork: afterWork})
				got, err := c.CreateSubscriptions(ctx(t), itAccount, []client.SubscriptionInput{in})
				if err != nil {
					t.Fatalf("CreateSubscriptions: %v", err)
				}
				if got[0].ID == other.SubscriptionID {
					t.Fatalf("adopted %s, which existed before the create was sent", other.SubscriptionID)
				}
				wantPosts := 2 // nothing found: created once more, after the grace period
				if afterWork {
					wantPosts = 1 // found at the first read
				}
				e.wantCount(http.MethodPost, mockserver.RouteSubscriptions, wantPosts)
				if n := len(e.mock.Subscriptions(itAccount)); n != 2 {
					t.Errorf("mock holds %d subscriptions, want 2", n)
				}
			})
		}
	}
}

// When candidates cannot be told apart, the error lists only those that may be this write's:
// never one that existed before the request was sent.
func TestMockCreateLostCandidatesOnlyRecent(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t)
	in := validInput("C1")
	old := e.putLike(in, itUser, time.Now().Add(-time.Minute))
	// Two dated after the request was sent (by the same user, elsewhere, while its answer
	// was on its way): either may be the request's.
	var want []string
	for range 2 {
		want = append(want, e.putLike(in, itUser, time.Now().Add(time.Minute)).SubscriptionID)
	}
	slices.Sort(want)
	e.mock.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions, Status: http.StatusBadGateway, Count: 1})
	_, err := c.CreateSubscriptions(ctx(t), itAccount, []client.SubscriptionInput{in})
	var unknown *client.UnknownOutcomeError
	if !errors.As(err, &unknown) {
		t.Fatalf("error %v, want an *UnknownOutcomeError", err)
	}
	if !slices.Equal(unknown.Candidates, want) || slices.Contains(unknown.Candidates, old.SubscriptionID) {
		t.Errorf("candidates %v, want %v (never %s)", unknown.Candidates, want, old.SubscriptionID)
	}
	e.wantCount(http.MethodPost, mockserver.RouteSubscriptions, 1)
}

// A create answer that lists fewer subscriptions than were sent: those it lists go to the
// inputs of their content, and only the rest is looked for, in one read; nothing is created
// twice.
func TestMockCreateAnswerListsFewer(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t)
	var in []client.SubscriptionInput
	for i := range 10 {
		s := validInput("C1")
		s.EventStreamsTopic = fmt.Sprintf("topic-%d", i)
		in = append(in, s)
	}
	e.mock.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions, AfterWork: true, Omit: 3, Count: 1})
	got, err := c.CreateSubscriptions(ctx(t), itAccount, in)
	if err != nil {
		t.Fatalf("CreateSubscriptions: %v", err)
	}
	wantCreatedFor(t, in, got)
	for i, s := range got {
		if s.EventStreamsTopic != in[i].EventStreamsTopic {
			t.Errorf("input %d (topic %s) got the subscription of topic %s", i, in[i].EventStreamsTopic, s.EventStreamsTopic)
		}
	}
	e.wantCount(http.MethodPost, mockserver.RouteSubscriptions, 1)
	e.wantCount(http.MethodGet, mockserver.RouteSubscriptions, 1)
	if n := len(e.mock.Subscriptions(itAccount)); n != 10 {
		t.Errorf("mock holds %d subscriptions, want 10", n)
	}
}

// A create whose answer is lost while the service is still working on it: the account is
// read at once and after 1, 2, 4 and 8 seconds (15 s of grace), and what lands within them is
// found without a second create. Work that lands later than the grace period has a copy
// created next to it: the limit that the troubleshooting guide states.
func TestMockCreateLandsLater(t *testing.T) {
	t.Parallel()
	allWaits := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second}
	tests := []struct {
		name      string
		fault     mockserver.Fault
		later     int // the work lands before this read of the account (6: the test's own, after the second create)
		wantPosts int
		wantHeld  int
	}{
		{"504, lands before the first read", mockserver.Fault{Status: http.StatusGatewayTimeout}, 1, 1, 1},
		{"504, lands before the third read", mockserver.Fault{Status: http.StatusGatewayTimeout}, 3, 1, 1},
		{"timeout, lands before the last read", mockserver.Fault{Drop: true}, 5, 1, 1},
		{"504, lands after the grace period", mockserver.Fault{Status: http.StatusGatewayTimeout}, 6, 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, c := newMockClient(t)
			f := tt.fault
			f.Method, f.Route, f.Count, f.Later = http.MethodPost, mockserver.RouteSubscriptions, 1, tt.later
			e.mock.InjectFault(f)
			in := validInput("C1")
			got, err := c.CreateSubscriptions(ctx(t), itAccount, []client.SubscriptionInput{in})
			if err != nil {
				t.Fatalf("CreateSubscriptions: %v", err)
			}
			wantCreatedFor(t, []client.SubscriptionInput{in}, got)
			e.wantCount(http.MethodPost, mockserver.RouteSubscriptions, tt.wantPosts)
			e.wantCount(http.MethodGet, mockserver.RouteSubscriptions, min(tt.later, 5))
			if w, want := e.waits.All(), allWaits[:min(tt.later, 5)-1]; !slices.Equal(w, want) {
				t.Errorf("waited %v, want %v", w, want)
			}
			// One more look at the account lands what is still pending.
			if _, err := c.ListSubscriptions(ctx(t), itAccount, client.ListOptions{}); err != nil {
				t.Fatalf("ListSubscriptions: %v", err)
			}
			if n := len(e.mock.Subscriptions(itAccount)); n != tt.wantHeld {
				t.Errorf("mock holds %d subscriptions, want %d", n, tt.wantHeld)
			}
		})
	}
}

// A create of this client whose answer is still on its way when another create of the same
// content loses its answer: the lost one's read of the account waits for that answer, so
// that it never takes the other's subscription for its own (two resources, one ID).
func TestMockCreateLostNeverTakesAConcurrentCreate(t *testing.T) {
	t.Parallel()
	mock := testsupport.New(mockserver.Config{})
	arrived := make(chan struct{})
	var posts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && posts.Add(1) == 1 {
			// The first create is carried out now, and its answer held back for half a
			// second, during which the second create loses its answer and settles. The
			// hold only makes the interleaving likely: the outcome does not depend on it.
			rec := httptest.NewRecorder()
			mock.ServeHTTP(rec, r)
			close(arrived)
			time.Sleep(500 * time.Millisecond)
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			_, _ = w.Write(rec.Body.Bytes())
			return
		}
		mock.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	e := &mockEnv{t: t, mock: mock, srv: srv}
	c := e.client()
	in := validInput("C1")
	if _, err := c.Token(ctx(t), itAccount); err != nil {
		t.Fatalf("Token: %v", err)
	}
	first := make(chan []client.Subscription, 1)
	go func() {
		got, err := c.CreateSubscriptions(ctx(t), itAccount, []client.SubscriptionInput{in})
		if err != nil {
			t.Errorf("first create: %v", err)
		}
		first <- got
	}()
	<-arrived
	mock.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions, Status: http.StatusBadGateway, Count: 1})
	second, err := c.CreateSubscriptions(ctx(t), itAccount, []client.SubscriptionInput{in})
	if err != nil {
		t.Fatalf("second create: %v", err)
	}
	got := <-first
	if len(got) != 1 || got[0].ID == "" || got[0].ID == second[0].ID {
		t.Fatalf("the creates returned %+v and %s: one subscription for two", got, second[0].ID)
	}
	if n := len(mock.Subscriptions(itAccount)); n != 2 {
		t.Errorf("mock holds %d subscriptions, want 2", n)
	}
}

// A client-side timeout (request_timeout) while the service is still working: the service
// finishes only after the client gave up and read the account once, and the client, reading
// again in its grace period, finds the subscription instead of creating it again.
func TestMockCreateTimeoutLandsAfterwards(t *testing.T) {
	t.Parallel()
	mock := testsupport.New(mockserver.Config{})
	var posts, reads atomic.Int32
	secondRead, landed := make(chan struct{}), make(chan struct{})
	var readTwice sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodPost && posts.Add(1) == 1:
			// The backend takes longer than the client waits: it does the work after the
			// client has given up (and read the account once), and its answer goes nowhere.
			body, _ := io.ReadAll(r.Body)
			<-r.Context().Done()
			<-secondRead
			late := r.Clone(context.Background())
			late.Body = io.NopCloser(bytes.NewReader(body))
			mock.ServeHTTP(httptest.NewRecorder(), late)
			close(landed)
			return
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/subscriptions") && reads.Add(1) == 2:
			readTwice.Do(func() { close(secondRead) })
			<-landed
		}
		mock.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { readTwice.Do(func() { close(secondRead) }) }) // a failed test does not hang
	e := &mockEnv{t: t, mock: mock, srv: srv}
	c := e.client(func(cfg *client.Config) { cfg.RequestTimeout = 100 * time.Millisecond })
	in := validInput("C1")
	got, err := c.CreateSubscriptions(ctx(t), itAccount, []client.SubscriptionInput{in})
	if err != nil {
		t.Fatalf("CreateSubscriptions: %v", err)
	}
	wantCreatedFor(t, []client.SubscriptionInput{in}, got)
	if n, r := posts.Load(), reads.Load(); n != 1 || r != 2 {
		t.Errorf("%d create requests and %d reads, want 1 and 2", n, r)
	}
	if subs := mock.Subscriptions(itAccount); len(subs) != 1 || subs[0].SubscriptionID != got[0].ID {
		t.Errorf("mock holds %+v, want only %s", subs, got[0].ID)
	}
}

// noDate is a ResponseWriter that sends no Date header.
type noDate struct{ http.ResponseWriter }

// WriteHeader drops the Date header (net/http adds none when its value is nil).
func (w noDate) WriteHeader(code int) {
	w.Header()["Date"] = nil
	w.ResponseWriter.WriteHeader(code)
}

// Write sends the header first, without a Date.
func (w noDate) Write(b []byte) (int, error) {
	w.Header()["Date"] = nil
	return w.ResponseWriter.Write(b)
}

// A service whose answers carry no Date header tells nothing of its clock: a subscription that
// looks like the lost create's cannot be confirmed to be younger than the request, so it is
// named as a candidate, never adopted, and nothing is created again.
func TestMockCreateLostWithoutServiceClock(t *testing.T) {
	t.Parallel()
	mock := testsupport.New(mockserver.Config{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mock.ServeHTTP(noDate{w}, r)
	}))
	t.Cleanup(srv.Close)
	e := &mockEnv{t: t, mock: mock, srv: srv}
	c := e.client()
	mock.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
		Status: http.StatusGatewayTimeout, Count: 1, AfterWork: true})
	_, err := c.CreateSubscriptions(ctx(t), itAccount, []client.SubscriptionInput{validInput("C1")})
	var unknown *client.UnknownOutcomeError
	if !errors.As(err, &unknown) {
		t.Fatalf("error %v, want an *UnknownOutcomeError", err)
	}
	subs := mock.Subscriptions(itAccount)
	if len(subs) != 1 || !slices.Equal(unknown.Candidates, []string{subs[0].SubscriptionID}) {
		t.Errorf("candidates %v, mock holds %+v; want the one subscription named", unknown.Candidates, subs)
	}
	e.wantCount(http.MethodPost, mockserver.RouteSubscriptions, 1)
}

// A caller cancelled during the grace period ends it: nothing more is created, and the
// create fails as unknown.
func TestMockCreateLostCancelledDuringGrace(t *testing.T) {
	t.Parallel()
	e := newMockEnv(t, mockserver.Config{})
	cctx, cancel := context.WithCancel(ctx(t))
	defer cancel()
	c := e.client(func(cfg *client.Config) {
		cfg.SettleWait = func(ctx context.Context, d time.Duration) error {
			cancel() // Ctrl-C during the first wait
			return ctx.Err()
		}
	})
	e.mock.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
		Status: http.StatusGatewayTimeout, Count: 1, Later: 10})
	_, err := c.CreateSubscriptions(cctx, itAccount, []client.SubscriptionInput{validInput("C1")})
	var unknown *client.UnknownOutcomeError
	if !errors.As(err, &unknown) || unknown.Missing != 1 {
		t.Fatalf("error %v, want an *UnknownOutcomeError with one missing", err)
	}
	e.wantCount(http.MethodPost, mockserver.RouteSubscriptions, 1)
	e.wantCount(http.MethodGet, mockserver.RouteSubscriptions, 1)
}
