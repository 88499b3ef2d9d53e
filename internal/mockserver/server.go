package mockserver

import (
	"cmp"
	"context"
	"crypto/rand"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of Config.
const (
	DefaultJWTTTL      = 5 * time.Minute
	DefaultPageSize    = 20
	DefaultMaxPageSize = 100
	DefaultUsername    = "demo"
	DefaultPassword    = "demo-password"
)

// maxBodyBytes bounds request bodies (10,000 subscriptions fit easily).
const maxBodyBytes = 32 << 20

// Config configures a Server. The zero value is usable.
type Config struct {
	Users           []User        // default: one User{Username: "demo", Password: "demo-password"}
	JWTTTL          time.Duration // default 5m
	Latency         time.Duration // added to every request; default 0
	DefaultPageSize int           // default 20
	MaxPageSize     int           // default 100; larger pageSize values are clamped to it
	SigningKey      []byte        // HS256 key; default: random per server
	RequestLogSize  int           // entries the request log keeps, the latest; default 10,000
	// MaxSubscriptions bounds what the service's operations store in one account, its
	// subscriptions and, apart, its topics' subscriptions: a request that would store more is
	// answered 409 and stores nothing (limits.go). Default DefaultMaxSubscriptions. The test
	// hooks (PutSubscription, SeedSubscriptions) are not bounded.
	MaxSubscriptions int
	// MaxDeliveries bounds the deliveries FireEvent keeps: the latest; older ones are dropped
	// and counted (limits.go). Default DefaultMaxDeliveries.
	MaxDeliveries int
}

// User is a user that may obtain JWTs from the server.
type User struct {
	Username string
	Password string   // accepted as Basic password for Username; "" disables password login
	APIToken string   // accepted as Basic password for "PLATFORM_TOKEN."+Username; "" = none
	OTP      string   // when set, JWT generation also requires header X-Platform-OTP == OTP (else 401)
	Accounts []string // accounts the user may access; empty = every account (else 403 on JWT generation)
}

// Server is the in-memory service. It implements http.Handler and is safe
// for concurrent use: one mutex guards all of its state.
type Server struct {
	mu sync.Mutex

	key             []byte
	users           map[string]User
	jwtTTL          time.Duration
	latency         time.Duration
	defaultPageSize int
	maxPageSize     int

	singleShape     SingleShape
	emptyListStatus int
	jwtShape        JWTShape
	catalogueShape  CatalogueShape
	events          []CatalogueEntry
	logLevels       []CatalogueEntry
	destTypes       []CatalogueEntry
	transform       func(*Subscription)

	bulkUpdateRefused  bool            // every bulk update is refused as a whole (SetBulkUpdateRefused)
	noDateHeader       bool            // answers carry no Date header (ApplyProfile: dateHeader false)
	sortBy             []string        // the only sortBy values accepted; nil: every Subscription member (ApplyProfile)
	refusedUpdateItems map[string]bool // bulk update items refused with 400, by canonical id (RefuseBulkUpdateItems)

	faults      []*faultState
	nextFaultID int
	served      []*servedHook // hooks.go
	nextHookID  int
	later       []*laterWork              // work of requests whose answer a Later fault gave early
	holds       []*Hold                   // answers kept back until the test releases them (faults_hold.go)
	clockOffset atomic.Int64              // nanoseconds the service's clock runs ahead of the real one
	dateOffset  atomic.Int64              // nanoseconds the Date header runs ahead of the service's clock
	stoppedAt   atomic.Pointer[time.Time] // the service's clock stands still at this instant (StopClock)
	faulted     []*faultedHook            // hooks.go

	counts     map[countKey]int
	requests   []RequestRecord // the latest logSize requests (counters.go)
	logSize    int
	jwtFetches int

	accounts map[string]*account
	topics   map[string]map[topicKey]*Topic

	deliveries        []Delivery     // the latest maxDeliveries recorded by FireEvent (deliveries.go)
	droppedDeliveries int            // recorded, then dropped for newer ones, since start or reset
	maxDeliveries     int            // Config.MaxDeliveries
	maxSubscriptions  int            // Config.MaxSubscriptions
	topicSubs         map[string]int // topics' subscriptions by account (topic.go)
}

// New returns a Server configured by cfg, with an empty store.
func New(cfg Config) *Server {
	s := &Server{
		users:           make(map[string]User),
		jwtTTL:          cfg.JWTTTL,
		latency:         cfg.Latency,
		defaultPageSize: cfg.DefaultPageSize,
		maxPageSize:     cfg.MaxPageSize,
		emptyListStatus: http.StatusNoContent,
		events:          defaultEvents(),
		logLevels:       defaultLogLevels(),
		destTypes:       defaultDestinationTypes(),
		counts:          make(map[countKey]int),
		logSize:         cfg.RequestLogSize,
		accounts:        make(map[string]*account),
		topics:          make(map[string]map[topicKey]*Topic),
		topicSubs:       make(map[string]int),
	}
	s.maxSubscriptions, s.maxDeliveries = cmp.Or(max(cfg.MaxSubscriptions, 0), DefaultMaxSubscriptions), cmp.Or(max(cfg.MaxDeliveries, 0), DefaultMaxDeliveries)
	if s.jwtTTL == 0 {
		s.jwtTTL = DefaultJWTTTL
	}
	if s.logSize <= 0 {
		s.logSize = DefaultRequestLogSize
	}
	if s.maxPageSize <= 0 {
		s.maxPageSize = DefaultMaxPageSize
	}
	if s.defaultPageSize <= 0 {
		s.defaultPageSize = DefaultPageSize
	}
	s.defaultPageSize = min(s.defaultPageSize, s.maxPageSize)
	if len(cfg.SigningKey) > 0 {
		s.key = append([]byte(nil), cfg.SigningKey...)
	} else {
		s.key = make([]byte, 32)
		_, _ = rand.Read(s.key) // never fails (crypto/rand documents it)
	}
	users := cfg.Users
	if len(users) == 0 {
		users = []User{{Username: DefaultUsername, Password: DefaultPassword}}
	}
	for _, u := range users {
		s.users[u.Username] = cloneUser(u)
	}
	return s
}

// SetJWTTTL sets the lifetime of JWTs issued from now on; 0 restores the
// default (5m) and a negative value issues tokens that are already expired.
func (s *Server) SetJWTTTL(d time.Duration) {
	if d == 0 {
		d = DefaultJWTTTL
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.jwtTTL = d
}

// SetLatency sets the delay added to every request from now on.
func (s *Server) SetLatency(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latency = d
}

// AddUser adds u, replacing any user with the same Username.
func (s *Server) AddUser(u User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users[u.Username] = cloneUser(u)
}

func cloneUser(u User) User {
	u.Accounts = append([]string(nil), u.Accounts...)
	return u
}

// ServeHTTP serves the service. Every request goes through, in order:
// route matching, latency, fault injection, method check, authentication,
// the operation and AfterWork faults; it is recorded in the counters and
// the request log when it ends.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start, received := time.Now(), s.now()
	m, found := matchRoute(r.URL.EscapedPath())
	if s.sendsDate() {
		w.Header().Set("Date", s.dateHeader())
	} else {
		w.Header()["Date"] = nil // net/http adds none to a header map that holds the key
	}
	rec := &statusRecorder{ResponseWriter: w}
	recorded := false
	defer func() {
		if !recorded {
			s.record(r.Method, m.route, r.URL.Path, rec.status, start)
		}
	}()

	s.mu.Lock()
	latency := s.latency
	s.mu.Unlock()
	if wait(r.Context(), latency) != nil {
		return // the client went away; nothing is written (status 0)
	}

	// A fault either answers instead of the operation, or (AfterWork) replaces the answer of
	// an operation that succeeded; the answer is held back until that is decided.
	answerFault := func(f Fault) {
		if f.Drop {
			// The client sees the closed connection at once and may retry, and a test may
			// read the counters, before this handler returns: record the request first.
			s.record(r.Method, m.route, r.URL.Path, 0, start)
			recorded = true
		}
		s.serveFault(rec, r, f)
	}
	if h := s.holdFor(r.Method, m.route); h != nil {
		s.serveHeld(rec, r, m, found, h)
		return
	}
	s.landLater(r.Method, m.route)
	if f, ok := s.takeFault(r.Method, m.route, false); ok {
		if !f.tampers() {
			if f.Later > 0 {
				s.keepForLater(r, m, found, f.Later)
			}
			if hook := s.takeFaultedHook(r.Method, m.route); hook != nil && !f.Drop {
				// The hook runs once the fault's answer is written, before it is sent.
				held := newHeldResponse()
				s.serveFault(held, r, f)
				hook(FaultedRequest{Received: received, Answered: s.now()})
				held.sendTo(rec)
				return
			}
			answerFault(f)
			return
		}
		r = f.trimRequest(r)
	}
	if !s.hasAfterWorkFaults() && !s.hasServedHooks() {
		s.serveOperation(rec, r, m, found)
		return
	}
	held := newHeldResponse()
	s.serveOperation(held, r, m, found)
	s.runServedHook(r.Method, m.route, held.status)
	if held.status >= 200 && held.status < 300 {
		if f, ok := s.takeFault(r.Method, m.route, true); ok {
			switch {
			case f.Omit > 0:
				held.omit(f.Omit)
			case f.ListAccount:
				held.listAll(s.Subscriptions(m.accountID))
			case f.tampers():
				s.tamperAnswer(held, m, f)
			default:
				answerFault(f)
				return
			}
		}
	}
	held.sendTo(rec)
}

// serveOperation answers a request that no fault answered: the method check,
// authentication and the operation.
func (s *Server) serveOperation(rec http.ResponseWriter, r *http.Request, m routeMatch, found bool) {
	if !found {
		writeError(rec, r, http.StatusNotFound, errRouteNotFound, "No endpoint "+r.Method+" "+r.URL.Path)
		return
	}
	if m.route == RouteJWT {
		if r.Method != http.MethodGet {
			writeMethodNotAllowed(rec, r, m.route)
			return
		}
		s.generateJWT(rec, r, m.accountID)
		return
	}
	h := s.handlerFor(m.route, r.Method)
	if h == nil {
		writeMethodNotAllowed(rec, r, m.route)
		return
	}
	username, status := s.authenticate(r, m)
	switch status {
	case http.StatusUnauthorized:
		rec.Header().Set("WWW-Authenticate", `Bearer realm="eventnotify"`)
		writeError(rec, r, status, "")
		return
	case http.StatusForbidden:
		writeSpecError(rec, r, status, msgAccessDenied)
		return
	}
	h(rec, r, call{accountID: m.accountID, subscriptionID: m.subscriptionID, username: username})
}

// wait blocks for d or until ctx is done, whichever comes first.
func wait(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// writeMethodNotAllowed answers 405 with an Allow header.
func writeMethodNotAllowed(w http.ResponseWriter, r *http.Request, route string) {
	w.Header().Set("Allow", strings.Join(allowedMethods(route), ", "))
	writeError(w, r, http.StatusMethodNotAllowed, errMethodNotAllowed,
		"Request method '"+r.Method+"' is not supported")
}

// statusRecorder remembers the status written through it.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

// WriteHeader records the first status and forwards it.
func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

// Write records an implicit 200 and forwards b.
func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

// Unwrap gives http.ResponseController access to the underlying writer.
func (r *statusRecorder) Unwrap() http.ResponseWriter {
	return r.ResponseWriter
}
