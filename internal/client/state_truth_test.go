package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// TestListPagingEnds: paging ends at an empty or repeated page when the service gives no
// usable metadata, and reads on past a short page (a server may clamp the page size).
func TestListPagingEnds(t *testing.T) {
	t.Parallel()
	item := func(n int) string {
		return fmt.Sprintf(`{"subscriptionId":"00000000-0000-4000-8000-%012d","eventName":"E","destinationType":"EVENT_STREAMS","logLevel":"INFO"}`, n)
	}
	tests := []struct {
		name      string
		page      func(n int) string // body of page n
		wantCalls int32
		wantItems int
	}{
		{"same page forever", func(int) string {
			return `{"subscriptions":[` + item(1) + `,` + item(2) + `]}`
		}, 2, 2},
		{"metadata that never says last", func(int) string {
			return `{"subscriptions":[` + item(1) + `],"paginationMetadata":{"last":false}}`
		}, 2, 1},
		{"clamped page size, no metadata", func(n int) string {
			if n < 3 {
				return `{"subscriptions":[` + item(n) + `]}`
			}
			return `{"subscriptions":[]}`
		}, 4, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var calls atomic.Int32
			f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
				n := int(calls.Add(1)) - 1
				writeJSON(w, 200, tc.page(n))
			})
			got, err := f.newClient(nil).ListSubscriptions(context.Background(), "", ListOptions{})
			if err != nil {
				t.Fatalf("ListSubscriptions: %v", err)
			}
			if calls.Load() != tc.wantCalls || len(got) != tc.wantItems {
				t.Errorf("%d requests and %d items, want %d and %d", calls.Load(), len(got), tc.wantCalls, tc.wantItems)
			}
		})
	}
}

// TestResponseTooLarge: a body beyond the read limit fails with a message that says so, not
// with a JSON syntax error.
func TestResponseTooLarge(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(200)
		chunk := []byte(strings.Repeat(" ", 1<<20))
		for range httpapi.MaxResponseBody>>20 + 1 {
			_, _ = w.Write(chunk)
		}
	})
	_, err := f.newClient(nil).ListEvents(context.Background())
	if err == nil || !strings.Contains(err.Error(), "larger than the provider's read limit") {
		t.Fatalf("error %v, want one that names the read limit", err)
	}
	if !errors.Is(err, httpapi.ErrMalformedResponse) {
		t.Errorf("error %v does not match ErrMalformedResponse", err)
	}
}

// TestNotFoundOnlyFromTheService: only the service's own 404 matches httpapi.ErrNotFound; the JWT
// endpoint's 404 and a gateway's never do, and each error names the address that answered.
func TestNotFoundOnlyFromTheService(t *testing.T) {
	t.Parallel()
	serviceBody := `{"error":"Entity not found","messages":["Subscription s1 not found"],"path":"/x"}`
	tests := []struct {
		name         string
		jwt404       bool
		body         string
		wantNotFound bool
	}{
		{"service's own 404", false, serviceBody, true},
		{"gateway JSON", false, `{"message":"Not Found"}`, false},
		{"no body", false, "", false},
		{"HTML page", false, "<html>404</html>", false},
		{"JWT endpoint with the service's body", true, serviceBody, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			answer := func(w http.ResponseWriter) {
				if tc.body == "" {
					w.WriteHeader(404)
					return
				}
				writeJSON(w, 404, tc.body)
			}
			f := newFake(t, func(w http.ResponseWriter, r *http.Request) { answer(w) })
			if tc.jwt404 {
				f.set(func(f *fakeAPI) { f.jwtHandler = func(w http.ResponseWriter, r *http.Request) { answer(w) } })
			}
			_, err := f.newClient(nil).GetSubscription(context.Background(), "", "s1")
			var apiErr *httpapi.APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != 404 {
				t.Fatalf("error %v, want a 404 *APIError", err)
			}
			if errors.Is(err, httpapi.ErrNotFound) != tc.wantNotFound {
				t.Errorf("errors.Is(ErrNotFound) = %t, want %t", !tc.wantNotFound, tc.wantNotFound)
			}
			if apiErr.JWTEndpoint != tc.jwt404 || !strings.HasPrefix(apiErr.URL, f.srv.URL+"/") || strings.Contains(apiErr.URL, "?") {
				t.Errorf("JWTEndpoint %t, URL %q", apiErr.JWTEndpoint, apiErr.URL)
			}
		})
	}
}

// TestRedirectNotFollowed: a 3xx answer is an error naming its Location, for every method and
// for the JWT endpoint; the target never receives a request, so the token never travels.
func TestRedirectNotFollowed(t *testing.T) {
	t.Parallel()
	var targetHits atomic.Int32
	target := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		targetHits.Add(1)
		w.WriteHeader(204)
	})
	calls := []struct {
		name string
		call func(c *Client) error
	}{
		{"GET", func(c *Client) error { _, err := c.GetSubscription(context.Background(), "", "s1"); return err }},
		{"PUT", func(c *Client) error {
			_, err := c.UpdateSubscription(context.Background(), "", "s1", SubscriptionInput{EventName: "E", DestinationType: "EVENT_STREAMS", LogLevel: "INFO"})
			return err
		}},
		{"DELETE", func(c *Client) error { return c.DeleteSubscription(context.Background(), "", "s1") }},
		{"POST", func(c *Client) error {
			_, err := c.CreateSubscriptions(context.Background(), "", []SubscriptionInput{{EventName: "E", DestinationType: "EVENT_STREAMS", LogLevel: "INFO"}})
			return err
		}},
	}
	for _, status := range []int{301, 302, 307, 308} {
		for _, tc := range calls {
			t.Run(http.StatusText(status)+" "+tc.name, func(t *testing.T) {
				f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
					http.Redirect(w, r, target.srv.URL+r.URL.Path, status)
				})
				err := tc.call(f.newClient(nil))
				var apiErr *httpapi.APIError
				if !errors.As(err, &apiErr) || apiErr.StatusCode != status || !errors.Is(err, httpapi.ErrRedirect) {
					t.Fatalf("error %v, want HTTP %d matching ErrRedirect", err, status)
				}
				if !strings.HasPrefix(apiErr.Location, target.srv.URL+"/rest/v1/") || !strings.Contains(err.Error(), apiErr.Location) {
					t.Errorf("Location %q, error %q", apiErr.Location, err)
				}
				if errors.Is(err, httpapi.ErrNotFound) {
					t.Error("a redirect matches ErrNotFound")
				}
				if n := len(f.api()); n != 1 {
					t.Errorf("%d requests to the redirecting address, want 1 (no retry, no settling read)", n)
				}
			})
		}
	}
	t.Run("JWT endpoint", func(t *testing.T) {
		f := newFake(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
		f.set(func(f *fakeAPI) {
			f.jwtHandler = func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, target.srv.URL+r.URL.Path, http.StatusMovedPermanently)
			}
		})
		_, err := f.newClient(nil).Token(context.Background(), "")
		var apiErr *httpapi.APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != 301 || !apiErr.JWTEndpoint || apiErr.Location == "" {
			t.Fatalf("error %v, want a 301 from the JWT endpoint with its Location", err)
		}
	})
	if n := targetHits.Load(); n != 0 || len(target.jwts()) != 0 {
		t.Errorf("the redirect target received %d service and %d JWT requests, want none", n, len(target.jwts()))
	}
}

// TestOTPRejectedAdvice: a JWT request with a one-time password that fails says that it
// carried one, so that the provider can say the OTP may have expired or been used.
func TestOTPRejectedAdvice(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
	f.set(func(f *fakeAPI) { f.requireOTP = "111111" })
	_, err := f.newClient(func(c *Config) { c.OTP = "222222" }).Token(context.Background(), "")
	var apiErr *httpapi.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 401 || !apiErr.OTPSent || !apiErr.JWTEndpoint {
		t.Fatalf("error %v, want a 401 of the JWT endpoint with OTPSent", err)
	}
}
