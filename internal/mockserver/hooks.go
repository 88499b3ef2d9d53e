package mockserver

import "time"

// Hooks let a test act at a chosen point of a request: after the server has carried out the
// operation and before its answer goes out, as another client would between two requests
// of the one it observes (between an action's listing and its bulk update, say).

// servedHook is a hook added with OnServed.
type servedHook struct {
	id     int
	method string
	route  string
	fn     func()
}

// OnServed runs fn once, for the next request of method on route (one of the Route*
// constants) that succeeds (2xx): after the server has carried it out and written its
// answer, before the answer is sent. The request's client waits for fn, and other requests
// are served meanwhile, so a request that fn makes, and waits for, lands between the
// observed request and the client's next one. The returned function removes the hook if it
// has not run (safe to call more than once).
func (s *Server) OnServed(method, route string, fn func()) (remove func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextHookID++
	id := s.nextHookID
	s.served = append(s.served, &servedHook{id: id, method: method, route: route, fn: fn})
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.removeHookLocked(id)
	}
}

// removeHookLocked removes the hook id, if it is still there. The caller holds s.mu.
func (s *Server) removeHookLocked(id int) {
	for i, h := range s.served {
		if h.id == id {
			s.served = append(s.served[:i], s.served[i+1:]...)
			return
		}
	}
}

// hasServedHooks reports whether a hook waits for a request.
func (s *Server) hasServedHooks() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.served) > 0
}

// runServedHook runs (and removes) the first hook for a request of method on route that
// succeeded with status, outside the server's lock.
func (s *Server) runServedHook(method, route string, status int) {
	if status < 200 || status >= 300 {
		return
	}
	s.mu.Lock()
	var hook *servedHook
	for _, h := range s.served {
		if h.method == method && h.route == route {
			hook = h
			s.removeHookLocked(h.id)
			break
		}
	}
	s.mu.Unlock()
	if hook != nil {
		hook.fn()
	}
}

// FaultedRequest is a request that a fault answered before any work, as the service's clock
// dated it: when it came in, and when its answer was written.
type FaultedRequest struct {
	Received, Answered time.Time
}

// faultedHook is a hook added with OnFaulted.
type faultedHook struct {
	id            int
	method, route string
	fn            func(FaultedRequest)
}

// OnFaulted runs fn once, for the next request of method on route (one of the Route*
// constants) that a fault answers before any work (not AfterWork, not Drop): once the fault's
// answer is written, before it is sent, with when the service's clock saw the request come in
// and answered it. A test learns where on the service's clock a lost request's flight lies
// (and can place another client's creates around it: StopClock). The returned function removes
// the hook if it has not run.
func (s *Server) OnFaulted(method, route string, fn func(FaultedRequest)) (remove func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextHookID++
	id := s.nextHookID
	s.faulted = append(s.faulted, &faultedHook{id: id, method: method, route: route, fn: fn})
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		for i, h := range s.faulted {
			if h.id == id {
				s.faulted = append(s.faulted[:i], s.faulted[i+1:]...)
				return
			}
		}
	}
}

// takeFaultedHook removes and returns the first OnFaulted hook for method on route, or nil.
func (s *Server) takeFaultedHook(method, route string) func(FaultedRequest) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, h := range s.faulted {
		if h.method == method && h.route == route {
			s.faulted = append(s.faulted[:i], s.faulted[i+1:]...)
			return h.fn
		}
	}
	return nil
}
