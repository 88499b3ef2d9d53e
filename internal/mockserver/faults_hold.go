package mockserver

import (
	"net/http"
	"sync"
)

// Holds: the answer of a request that has been carried out is kept back until the test
// releases it, as a slow network or service would, so that a test can act (signal the
// plugin, say) while the client waits for an answer to a write the service has made.

// Hold keeps back the answers of the requests it matches (see Server.HoldAnswers).
type Hold struct {
	method, route string
	arrived       chan struct{} // closed when the first matching request has been carried out
	arrivedOnce   sync.Once
	release       chan struct{} // closed by Release
	releaseOnce   sync.Once
}

// HoldAnswers makes the server carry out every request with method on route ("" matches
// any method or route) as usual, then keep its answer back until Release is called or the
// client goes away. Holds are checked after latency, before faults; the first one that
// matches a request holds it. Release removes the hold.
func (s *Server) HoldAnswers(method, route string) *Hold {
	h := &Hold{method: method, route: route, arrived: make(chan struct{}), release: make(chan struct{})}
	s.mu.Lock()
	s.holds = append(s.holds, h)
	s.mu.Unlock()
	return h
}

// Arrived is closed once the first request the hold matches has been carried out, its
// answer kept back.
func (h *Hold) Arrived() <-chan struct{} { return h.arrived }

// Release sends the answers kept back, and those of later matching requests at once. It
// is safe to call more than once.
func (h *Hold) Release() { h.releaseOnce.Do(func() { close(h.release) }) }

// holdFor returns the first hold that matches method and route and has not been released.
func (s *Server) holdFor(method, route string) *Hold {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range s.holds {
		if isClosed(h.release) {
			continue
		}
		if (h.method == "" || h.method == method) && (h.route == "" || h.route == route) {
			return h
		}
	}
	return nil
}

// serveHeld carries out r and keeps its answer back until h is released or the client goes
// away.
func (s *Server) serveHeld(w http.ResponseWriter, r *http.Request, m routeMatch, found bool, h *Hold) {
	held := newHeldResponse()
	s.serveOperation(held, r, m, found)
	h.arrivedOnce.Do(func() { close(h.arrived) })
	select {
	case <-h.release:
	case <-r.Context().Done():
		return // the client went away: the work stays done, nothing is written
	}
	held.sendTo(w)
}

// isClosed reports whether c is closed.
func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
