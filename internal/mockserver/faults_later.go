package mockserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
)

// Faults whose work lands after the answer (Fault.Later), and answers that list fewer
// subscriptions than the work created (Fault.Omit).

// laterWork is a request kept by a Later fault, to be carried out later.
type laterWork struct {
	route     string
	remaining int // reads of route still to come before it lands
	run       func()
}

// keepForLater keeps r, whose answer a Later fault gives now, so that it is carried out
// just before the server handles the n-th read (GET) of the same route that follows it.
func (s *Server) keepForLater(r *http.Request, m routeMatch, found bool, n int) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes))
	if err != nil {
		return // the request never arrived whole: there is no work to do
	}
	kept := r.Clone(context.Background())
	kept.Body = io.NopCloser(bytes.NewReader(body))
	s.mu.Lock()
	defer s.mu.Unlock()
	s.later = append(s.later, &laterWork{route: m.route, remaining: n, run: func() {
		s.serveOperation(newHeldResponse(), kept, m, found)
	}})
}

// landLater counts a request with method on route against the kept work and carries out
// the work whose turn has come, before the request itself is handled.
func (s *Server) landLater(method, route string) {
	if method != http.MethodGet {
		return
	}
	s.mu.Lock()
	var due []*laterWork
	kept := s.later[:0]
	for _, w := range s.later {
		if w.route == route {
			w.remaining--
		}
		if w.remaining <= 0 {
			due = append(due, w)
		} else {
			kept = append(kept, w)
		}
	}
	s.later = kept
	s.mu.Unlock()
	for _, w := range due {
		w.run()
	}
}

// PendingLater is the number of requests kept by Later faults that have not landed yet.
func (s *Server) PendingLater() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.later)
}

// omit removes the first n subscriptions from a held SubscriptionWrapper answer; another
// answer is left as it is.
func (h *heldResponse) omit(n int) {
	var wrapper map[string]json.RawMessage
	if json.Unmarshal(h.body.Bytes(), &wrapper) != nil {
		return
	}
	var subs []json.RawMessage
	if json.Unmarshal(wrapper["subscriptions"], &subs) != nil {
		return
	}
	subs = subs[min(n, len(subs)):]
	wrapper["subscriptions"], _ = json.Marshal(subs)
	b, err := json.Marshal(wrapper)
	if err != nil {
		return
	}
	h.body.Reset()
	h.body.Write(b)
	h.header.Set("Content-Length", strconv.Itoa(len(b)))
}

// listAll replaces the list of a held SubscriptionWrapper answer with subs.
func (h *heldResponse) listAll(subs []Subscription) {
	b, err := json.Marshal(subscriptionWrapper{Subscriptions: subs})
	if err != nil {
		return
	}
	h.body.Reset()
	h.body.Write(b)
	h.header.Set("Content-Length", strconv.Itoa(len(b)))
}
