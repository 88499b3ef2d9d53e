package mockserver

import (
	"strings"
	"time"
)

// RequestRecord is one entry of the request log. Status is 0 when no
// response was written (the client went away during the latency, or a
// Drop fault closed the connection). Route is "" for unknown paths.
type RequestRecord struct {
	Method, Route, Path string
	Status              int
	Time                time.Time
}

// countKey keys the request counters.
type countKey struct{ method, route string }

// record adds a finished request to the counters and the log.
func (s *Server) record(method, route, path string, status int, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts[countKey{method, route}]++
	s.requests = append(s.requests, RequestRecord{Method: method, Route: route, Path: path, Status: status, Time: at})
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

// Requests returns a copy of the request log, oldest first.
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
