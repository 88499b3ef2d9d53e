package mockserver

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
