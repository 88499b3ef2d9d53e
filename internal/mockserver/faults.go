package mockserver

import (
	"bytes"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Fault makes the server answer matching requests with a status of the
// test's choosing, or drop the connection. Faults are checked after
// latency and counting, before authentication, in the order they were
// injected; the first one that fires answers the request.
type Fault struct {
	Method string  // "" matches any method
	Route  string  // one of the Route* constants; "" matches any route
	Status int     // status to answer with; 0 means 500
	Count  int     // answer the next Count matching requests; 0 = no count limit
	Ratio  float64 // 0 < Ratio <= 1: deterministic share of matching requests (accumulator, not random); 0 = all
	// RetryAfter, when > 0, sets Retry-After in whole seconds, rounded up: HTTP's
	// delay-seconds, as the service sends them. A test that must not wait that long injects
	// the client's wait between attempts instead of shortening it here.
	RetryAfter  time.Duration
	Body        string // raw body; "" = the spec's error body for Status (errorId on 500; none for 401)
	ContentType string // for Body; default application/json
	Drop        bool   // close the connection without any response (hijack)
	// AfterWork makes the fault lose the answer of a request that succeeded: the request is
	// handled as usual (its change is kept: subscriptions created, deleted or updated), and
	// only then is its 2xx answer replaced by the fault's (Status, Body) or by a dropped
	// connection. A request that did not succeed (a 4xx, say) gets its real answer, and
	// Count and Ratio advance only on succeeded requests. The counters record what the
	// client received.
	AfterWork bool
	// Faults that change an answer instead of replacing it (see faults_tamper.go); each fires
	// only on the operation it names, and leaves Status, Body and Drop unused.
	//
	// ClaimLast serves a page of listSubscribedEventsForAccount with last = true, the rest of
	// its metadata as it is.
	ClaimLast bool
	// ShiftPages deletes the account's first ShiftPages subscriptions in the listing's default
	// order once a page of listSubscribedEventsForAccount is served, as another client would
	// between two pages: the next page starts later, and its first subscriptions are never
	// listed. With ShiftReplace each one deleted is replaced by a copy under a new id at the
	// end of the order, so that no count in the metadata changes.
	ShiftPages   int
	ShiftReplace bool
	// DropStatuses leaves the last DropStatuses items of a bulkOperationsOnSubscriptionsForAccount
	// request without a status in its 207: with AfterWork the items were acted on and only
	// their statuses are lost; without, the service neither acts on them nor answers for them.
	DropStatuses int
	// ForgeMember, with ForgeValue, sets the member ForgeMember (such as "eventStreamsTopic"
	// or "createdBy") of every subscription in a success answer that carries subscriptions
	// (a listing page, a read, a create or an update answer) to the string ForgeValue. The
	// store is not changed. It stands for a service (or a proxy in front of it) that answers
	// with text nobody could have saved, such as terminal escapes. It acts after the work,
	// like AfterWork, on the routes and methods the fault names.
	ForgeMember string
	ForgeValue  string
	// Truncate keeps the status and headers of a request that succeeded but cuts its body
	// after the first Truncate bytes (a shorter body is served whole), as a proxy that cuts an
	// answer short would: the work is done and the client gets a 2xx it cannot decode. It
	// acts after the work, like AfterWork, on the routes and methods the fault names.
	Truncate int
	// Later, with a fault that answers before the work (AfterWork false), makes the work
	// land later: the request is answered by the fault at once, and carried out (as it
	// came, credentials included) just before the server handles the Later-th read (GET)
	// of the same route that comes after it, such as a client's Later-th look at the
	// account's subscriptions; with no such read it is never carried out. See
	// faults_later.go.
	Later int
	// Omit, with AfterWork, keeps the real answer of a request that succeeded, but removes
	// the first Omit subscriptions from the list of its SubscriptionWrapper: a create
	// answer that lists fewer subscriptions than were created. Status and Body are unused.
	Omit int
	// ListAccount, with AfterWork, keeps the real status of a request that succeeded, but its
	// SubscriptionWrapper lists every subscription of the account in the listing's default
	// order, as the collection's PUT answers: a create answer that lists
	// more than was sent. Status and Body are unused.
	ListAccount bool
}

// faultState is an injected fault and its progress.
type faultState struct {
	id        int
	fault     Fault
	remaining int     // answers left when fault.Count > 0
	acc       float64 // ratio accumulator
}

// msgInjectedFault is the message of a fault's default error body.
const msgInjectedFault = "Injected fault"

// InjectFault adds f and returns a function that removes it (safe to call
// more than once). A fault with a Count is removed by itself once spent.
func (s *Server) InjectFault(f Fault) (remove func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextFaultID++
	id := s.nextFaultID
	s.faults = append(s.faults, &faultState{id: id, fault: f, remaining: f.Count})
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.removeFaultLocked(id)
	}
}

// ClearFaults removes every injected fault.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

func (s *Server) removeFaultLocked(id int) {
	for i, f := range s.faults {
		if f.id == id {
			s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			return
		}
	}
}

// takeFault returns the fault that fires for this request, if any, and
// advances the state of every fault it consults.
//
// With a Ratio, each matching request adds Ratio to the fault's
// accumulator and the fault fires when the accumulator reaches 1 (which
// then drops by 1): with Ratio 0.5 the 2nd, 4th, 6th... matching requests
// fire. A Count counts fired answers only.
func (s *Server) takeFault(method, route string, afterWork bool) (Fault, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.faults {
		if f.fault.afterWork() != afterWork || !f.fault.firesOn(method, route) {
			continue
		}
		if f.fault.Method != "" && !strings.EqualFold(f.fault.Method, method) {
			continue
		}
		if f.fault.Route != "" && f.fault.Route != route {
			continue
		}
		if r := f.fault.Ratio; r > 0 && r < 1 {
			f.acc += r
			if f.acc < 1-1e-9 {
				continue
			}
			f.acc--
		}
		if f.fault.Count > 0 {
			f.remaining--
			if f.remaining <= 0 {
				s.removeFaultLocked(f.id)
			}
		}
		return f.fault, true
	}
	return Fault{}, false
}

// hasAfterWorkFaults reports whether an AfterWork fault is injected.
func (s *Server) hasAfterWorkFaults() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.faults {
		if f.fault.afterWork() {
			return true
		}
	}
	return false
}

// heldResponse keeps an answer back, so that an AfterWork fault can replace it.
type heldResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

// newHeldResponse returns an empty held answer.
func newHeldResponse() *heldResponse { return &heldResponse{header: http.Header{}} }

// Header returns the held answer's header.
func (h *heldResponse) Header() http.Header { return h.header }

// WriteHeader records the first status.
func (h *heldResponse) WriteHeader(code int) {
	if h.status == 0 {
		h.status = code
	}
}

// Write records an implicit 200 and keeps b.
func (h *heldResponse) Write(b []byte) (int, error) {
	if h.status == 0 {
		h.status = http.StatusOK
	}
	return h.body.Write(b)
}

// sendTo writes the held answer to w.
func (h *heldResponse) sendTo(w http.ResponseWriter) {
	for k, v := range h.header {
		w.Header()[k] = v
	}
	if h.status == 0 {
		h.status = http.StatusOK
	}
	w.WriteHeader(h.status)
	_, _ = w.Write(h.body.Bytes())
}

// serveFault answers a request with f.
func (s *Server) serveFault(w http.ResponseWriter, r *http.Request, f Fault) {
	if f.Drop {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			// No hijacking (HTTP/2, recorders): abort the response the way
			// net/http documents it.
			panic(http.ErrAbortHandler)
		}
		_ = conn.Close()
		return
	}
	status := f.Status
	if status == 0 {
		status = http.StatusInternalServerError
	}
	if f.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(int64(math.Ceil(f.RetryAfter.Seconds())), 10))
	}
	if f.Body != "" {
		ct := f.ContentType
		if ct == "" {
			ct = "application/json"
		}
		w.Header().Set("Content-Type", ct)
		w.WriteHeader(status)
		_, _ = w.Write([]byte(f.Body))
		return
	}
	switch {
	case status < 400:
		w.WriteHeader(status)
	case status == http.StatusForbidden:
		writeSpecError(w, r, status, msgAccessDenied)
	case status == http.StatusInternalServerError:
		writeSpecError(w, r, status, msgInternal)
	default:
		writeSpecError(w, r, status, msgInjectedFault)
	}
}
