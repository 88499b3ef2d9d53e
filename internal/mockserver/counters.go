package mockserver

import (
	"net/http"
	"strings"
	"time"
)

// The request log's bounds: it keeps the latest DefaultRequestLogSize requests (Config.RequestLogSize),
// and of each at most MaxLoggedPath bytes of the path, so that requests from anyone who can reach
// the mock (unauthenticated ones included) cannot grow it without end.
const (
	DefaultRequestLogSize = 10000
	MaxLoggedPath         = 256
)

// otherMethod stands, in the counters and the log, for a method the service does not know: the
// method is the client's text, of any length.
const otherMethod = "OTHER"

// knownMethods are the methods counted by name.
var knownMethods = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true, http.MethodPatch: true,
	http.MethodDelete: true, http.MethodOptions: true, http.MethodConnect: true, http.MethodTrace: true,
}

// RequestRecord is one entry of the request log. Status is 0 when no
// response was written (the client went away during the latency, or a
// Drop fault closed the connection). Route is "" for unknown paths.
// Method is OTHER for a method the service does not know; Path is cut to
// MaxLoggedPath bytes.
type RequestRecord struct {
	Method, Route, Path string
	Status              int
	Time                time.Time
}

// countKey keys the request counters.
type countKey struct{ method, route string }

// record adds a finished request to the counters and the log, dropping the oldest entry of a
// full log. Method and path are copied, the path once cut: Go's server hands them out as parts
// of the request line, which the log would otherwise keep whole.
func (s *Server) record(method, route, path string, status int, at time.Time) {
	if !knownMethods[strings.ToUpper(method)] {
		method = otherMethod
	}
	method = strings.Clone(method)
	path = strings.Clone(path[:min(len(path), MaxLoggedPath)])
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts[countKey{method, route}]++
	if len(s.requests) >= s.logSize {
		// Appending to the shortened slice reuses its array until that is full, then copies
		// the live entries only: the log never holds more than about twice logSize entries.
		s.requests = s.requests[len(s.requests)-s.logSize+1:]
	}
	s.requests = append(s.requests, RequestRecord{Method: method, Route: route, Path: path, Status: status, Time: at})
}

// EachCount calls fn with every method and route counted since the start or the last
// ResetCounters, and how many requests they had (the log may have dropped some of them).
func (s *Server) EachCount(fn func(method, route string, n int)) {
	s.mu.Lock()
	counts := make(map[countKey]int, len(s.counts))
	for k, n := range s.counts {
		counts[k] = n
	}
	s.mu.Unlock()
	for k, n := range counts {
		fn(k.method, k.route, n)
	}
}

// Count returns how many requests matched method and route ("" matches
// any; methods compare case-insensitively), whatever their outcome.
func (s *Server) Count(method, route string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for k, c := range s.counts {
		if method != "" && !strings.EqualFold(k.method, method) {
			continue
		}
		if route != "" && k.route != route {
			continue
		}
		n += c
	}
	return n
}

// JWTFetches returns how many JWTs the JWT endpoint issued successfully.
func (s *Server) JWTFetches() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.jwtFetches
}

// Requests returns a copy of the request log, oldest first: the latest requests, at most
// Config.RequestLogSize of them.
func (s *Server) Requests() []RequestRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]RequestRecord(nil), s.requests...)
}

// ResetCounters clears the counters, the JWT fetch count and the log.
func (s *Server) ResetCounters() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts = make(map[countKey]int)
	s.requests = nil
	s.jwtFetches = 0
}
