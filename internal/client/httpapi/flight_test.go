package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sync/singleflight"
)

// hangingJWT is a JWT endpoint that never answers: each request ends when the client gives up
// on it. It counts the attempts its clients send (at their transport, so that an attempt whose
// per-attempt timeout ends before the request reaches the handler, as on a loaded machine, is
// counted all the same).
type hangingJWT struct {
	srv      *httptest.Server
	requests atomic.Int32
	first    chan struct{} // closed when the first request arrives
	once     sync.Once
}

// countingTransport counts the requests sent through it.
type countingTransport struct {
	base http.RoundTripper
	n    *atomic.Int32
}

// RoundTrip counts the request and sends it.
func (t countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	t.n.Add(1)
	return t.base.RoundTrip(r)
}

func newHangingJWT(t *testing.T) *hangingJWT {
	h := &hangingJWT{first: make(chan struct{})}
	h.srv = httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		h.once.Do(func() { close(h.first) })
		<-r.Context().Done()
	}))
	t.Cleanup(h.srv.Close)
	return h
}

// client is a Client of the endpoint with the provider's default number of retries (5), a
// short per-attempt timeout and short back-offs.
func (h *hangingJWT) client(t *testing.T) *Client {
	c, err := New(Config{
		BaseURL:        h.srv.URL,
		AuthURL:        h.srv.URL,
		AccountID:      testAccount,
		Username:       testUser,
		Password:       testPassword,
		MaxRetries:     5,
		RequestTimeout: 20 * time.Millisecond,
		RetryWaitMin:   time.Millisecond,
		RetryWaitMax:   2 * time.Millisecond,
		HTTPClient:     &http.Client{Transport: countingTransport{base: h.srv.Client().Transport, n: &h.requests}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// flightGate is a flightWatch that holds each flight, before its work, until as many joins
// as the test expects for it have happened: the n-th flight waits for want(n) joins in all.
// It counts the flights.
type flightGate struct {
	want    func(flight int) int
	mu      sync.Mutex
	cond    *sync.Cond
	joins   int
	flights int
}

func newFlightGate(want func(flight int) int) *flightGate {
	g := &flightGate{want: want}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// watch returns ctx carrying the gate.
func (g *flightGate) watch(ctx context.Context) context.Context {
	return context.WithValue(ctx, flightWatchKey{}, &flightWatch{started: g.started, joined: g.joined})
}

func (g *flightGate) started() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.flights++
	g.cond.Broadcast()
	want := g.want(g.flights)
	for g.joins < want {
		g.cond.Wait()
	}
}

func (g *flightGate) joined() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.joins++
	g.cond.Broadcast()
}

// waitFlights returns once n flights have started (and are held or done).
func (g *flightGate) waitFlights(n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for g.flights < n {
		g.cond.Wait()
	}
}

func (g *flightGate) count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.flights
}

// TestToken_hangingEndpointOneFlight: with a JWT endpoint that never answers, concurrent
// callers share one fetch: its 6 attempts (1 + 5 retries) each end with the per-attempt
// timeout, and that timeout is every caller's result; no caller starts a fetch of its own.
func TestToken_hangingEndpointOneFlight(t *testing.T) {
	t.Parallel()
	const callers = 4
	h := newHangingJWT(t)
	c := h.client(t)
	gate := newFlightGate(func(flight int) int { return callers * flight })
	errs := make([]error, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = c.Token(gate.watch(context.Background()), "")
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("caller %d: error %v, want the per-attempt timeout", i, err)
		}
	}
	if n := gate.count(); n != 1 {
		t.Errorf("%d fetches, want 1 shared by all %d callers", n, callers)
	}
	if n := h.requests.Load(); n != 6 {
		t.Errorf("the JWT endpoint got %d requests, want 6 (1 + 5 retries)", n)
	}
}

// TestToken_starterCancelledNewFlight: when the caller that started the shared fetch is
// cancelled, the fetch ends for it alone with its cancellation, and the other callers start
// one new fetch, whose timeout is then theirs: 1 request of the cancelled fetch, 6 of the new.
func TestToken_starterCancelledNewFlight(t *testing.T) {
	t.Parallel()
	const waiters = 3
	h := newHangingJWT(t)
	c := h.client(t)
	// The first flight waits for the starter and the waiters; the second for the waiters again.
	gate := newFlightGate(func(flight int) int { return 1 + waiters*flight })
	starterCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var starterErr error
	starterDone := make(chan struct{})
	go func() {
		defer close(starterDone)
		_, starterErr = c.Token(gate.watch(starterCtx), "")
	}()
	// The starter's flight is held until the waiters join it: they join, never start, it.
	gate.waitFlights(1)
	errs := make([]error, waiters)
	var wg sync.WaitGroup
	for i := range waiters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = c.Token(gate.watch(context.Background()), "")
		}()
	}
	<-h.first
	cancel()
	<-starterDone
	wg.Wait()
	if !errors.Is(starterErr, context.Canceled) {
		t.Errorf("starter: error %v, want its cancellation", starterErr)
	}
	for i, err := range errs {
		if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			t.Errorf("waiter %d: error %v, want the new fetch's timeout", i, err)
		}
	}
	if n := gate.count(); n != 2 {
		t.Errorf("%d fetches, want 2: the cancelled one and one new for the waiters", n)
	}
	if n := h.requests.Load(); n != 1+6 {
		t.Errorf("the JWT endpoint got %d requests, want 7 (1 cancelled, then 1 + 5 retries)", n)
	}
}

// TestSharedFlight_errorsShared: a flight's error, a context error that is not its starter's
// included, is every waiter's, and a flight that its starter's context ended is started
// again by a waiter, never by the starter.
func TestSharedFlight_errorsShared(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		err     error
		cancel  bool // the starter's context ends during the flight
		flights int
	}{
		{name: "service error", err: errors.New("401"), flights: 1},
		{name: "per-attempt timeout", err: context.DeadlineExceeded, flights: 1},
		{name: "limiter refused the starter's deadline", err: &rateLimitError{err: errors.New("would exceed")}, flights: 2},
		{name: "starter cancelled", err: context.Canceled, cancel: true, flights: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var g singleflight.Group
			// The first flight waits for both callers; a second for the waiter's new join.
			gate := newFlightGate(func(flight int) int { return flight + 1 })
			starterCtx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var runs atomic.Int32
			fn := func() (string, error) {
				if runs.Add(1) == 1 {
					if tc.cancel {
						cancel()
					}
					return "", tc.err
				}
				return "second", nil
			}
			var starterErr, waiterErr error
			var waiterVal string
			var wg sync.WaitGroup
			wg.Add(2)
			go func() { defer wg.Done(); _, starterErr = SharedFlight(gate.watch(starterCtx), &g, "k", fn) }()
			gate.waitFlights(1)
			go func() {
				defer wg.Done()
				waiterVal, waiterErr = SharedFlight(gate.watch(context.Background()), &g, "k", fn)
			}()
			wg.Wait()
			if n := int(runs.Load()); n != tc.flights {
				t.Errorf("%d flights, want %d", n, tc.flights)
			}
			if tc.flights == 1 {
				if !errors.Is(starterErr, tc.err) || !errors.Is(waiterErr, tc.err) {
					t.Errorf("errors %v and %v, want %v for both", starterErr, waiterErr, tc.err)
				}
				return
			}
			if !errors.Is(starterErr, tc.err) {
				t.Errorf("starter: error %v, want %v", starterErr, tc.err)
			}
			if waiterErr != nil || waiterVal != "second" {
				t.Errorf("waiter: %q, %v, want the new flight's result", waiterVal, waiterErr)
			}
		})
	}
}

// TestSharedFlight_endedContextStartsNoFlight: a caller whose context has already ended gets
// the context's own error, every time, and starts no flight. Before, it started one that ended
// with the same cause, and the caller got either error at random (the read of a 1ns timeout
// told its twin paths apart in TestAccountProtocol_readMatchesFramework).
func TestSharedFlight_endedContextStartsNoFlight(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
		want error
	}{
		{"deadline passed", func() (context.Context, context.CancelFunc) {
			return context.WithDeadline(context.Background(), time.Unix(0, 0))
		}, context.DeadlineExceeded},
		{"cancelled", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, cancel
		}, context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := tc.ctx()
			defer cancel()
			var g singleflight.Group
			release := make(chan struct{})
			fn := func() (string, error) {
				<-release // a flight started here would still be in flight below
				return "", fmt.Errorf("GET /x: %w", ctx.Err())
			}
			for range 50 {
				if _, err := SharedFlight(ctx, &g, "k", fn); err != tc.want {
					t.Fatalf("error %q, want the context's own %q", err, tc.want)
				}
			}
			// singleflight registers a flight before it runs: a new call of the key joins one
			// that any of the calls above started, and gets its answer instead of its own.
			probe := g.DoChan("k", func() (any, error) { return "probe", nil })
			close(release)
			if r := <-probe; r.Val != "probe" {
				t.Errorf("a flight was started for an ended context (its answer: %v, %v)", r.Val, r.Err)
			}
		})
	}
}
