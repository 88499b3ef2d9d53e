package mockserver

import "time"

// The service's clock: it dates subscriptions (createdDate, lastUpdatedDate) and the Date
// header of every answer. It runs with the real clock, shifted by SetClockOffset; JWTs are
// dated by the real clock (the JWT service is another service).

// SetClockOffset makes the service's clock run d ahead of the real clock (behind when d is
// negative) from now on: a client whose own clock is off, or time passing between two
// requests, without waiting for it.
func (s *Server) SetClockOffset(d time.Duration) {
	s.clockOffset.Store(int64(d))
}

// now is the service's time.
func (s *Server) now() time.Time {
	return time.Now().Add(time.Duration(s.clockOffset.Load()))
}

// nowMillis is the service's time in Unix milliseconds.
func (s *Server) nowMillis() int64 {
	return s.now().UnixMilli()
}
