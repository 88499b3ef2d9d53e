package mockserver

import (
	"net/http"
	"time"
)

// The service's clock: it dates subscriptions (createdDate, lastUpdatedDate) and the Date
// header of every answer. It runs with the real clock, shifted by SetClockOffset, or stands
// still at an instant of the test's choosing (StopClock, until ResumeClock); the Date header
// may be shifted further by SetDateOffset; JWTs are dated by the real clock (the JWT service is
// another service).

// SetClockOffset makes the service's clock run d ahead of the real clock (behind when d is
// negative) from now on: a client whose own clock is off, or time passing between two
// requests, without waiting for it.
func (s *Server) SetClockOffset(d time.Duration) {
	s.clockOffset.Store(int64(d))
}

// SetDateOffset makes the Date header of every answer read d ahead of the clock that dates
// subscriptions (behind when d is negative), as when the machine that answers and the one that
// stores run apart.
func (s *Server) SetDateOffset(d time.Duration) {
	s.dateOffset.Store(int64(d))
}

// StopClock makes the service's clock read at, and stand still, until ResumeClock: whatever is
// created or written meanwhile is dated at (and every answer's Date header reads at, shifted by
// SetDateOffset). A test places another client's creates at an instant it chose to the
// millisecond, such as 71 ms before a request it observed (OnFaulted), without waiting.
func (s *Server) StopClock(at time.Time) {
	s.stoppedAt.Store(&at)
}

// ResumeClock lets the service's clock run again with the real clock (shifted by
// SetClockOffset), as it would have without StopClock.
func (s *Server) ResumeClock() {
	s.stoppedAt.Store(nil)
}

// dateHeader is the Date header of an answer sent now.
func (s *Server) dateHeader() string {
	return s.now().Add(time.Duration(s.dateOffset.Load())).UTC().Format(http.TimeFormat)
}

// now is the service's time.
func (s *Server) now() time.Time {
	if at := s.stoppedAt.Load(); at != nil {
		return *at
	}
	return time.Now().Add(time.Duration(s.clockOffset.Load()))
}

// nowMillis is the service's time in Unix milliseconds.
func (s *Server) nowMillis() int64 {
	return s.now().UnixMilli()
}
