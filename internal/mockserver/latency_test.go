package mockserver_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

func TestLatency(t *testing.T) {
	e := newEnv(t, mockserver.Config{Latency: 200 * time.Millisecond})
	start := time.Now()
	token := e.jwt(testAccount)
	e.do(http.MethodGet, "/rest/v1/events", token, nil).wantStatus(t, http.StatusOK)
	if d := time.Since(start); d < 400*time.Millisecond {
		t.Errorf("two requests took %v, want at least 400ms of latency", d)
	}
	e.srv.SetLatency(0)
	start = time.Now()
	e.do(http.MethodGet, "/rest/v1/events", token, nil).wantStatus(t, http.StatusOK)
	if d := time.Since(start); d >= 200*time.Millisecond {
		t.Errorf("request without latency took %v", d)
	}
}

// TestLatencyCancellation checks that a request waiting out its latency
// ends as soon as the client gives up, instead of holding the handler.
func TestLatencyCancellation(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	e.srv.SetLatency(time.Minute)
	e.srv.ResetCounters()

	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.ts.URL+"/rest/v1/events", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	start := time.Now()
	resp, err := e.ts.Client().Do(req)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("got status %d, want the client's deadline", resp.StatusCode)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want deadline exceeded", err)
	}
	// The handler notices the closed connection and returns: the request
	// is logged with status 0 long before the minute of latency is over.
	deadline := time.Now().Add(5 * time.Second)
	for len(e.srv.Requests()) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("handler still waiting %v after the client gave up", time.Since(start))
		}
		time.Sleep(5 * time.Millisecond)
	}
	if rec := e.srv.Requests()[0]; rec.Status != 0 || rec.Route != mockserver.RouteEvents {
		t.Errorf("record = %+v, want status 0", rec)
	}
	if e.srv.Count("", mockserver.RouteEvents) != 1 {
		t.Errorf("cancelled request not counted")
	}
}
