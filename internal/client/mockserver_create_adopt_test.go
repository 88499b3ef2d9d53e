package client_test

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// A create whose answer is lost before the service acted: the client reads the account, finds
// nothing, and creates once more. The mock holds exactly what was asked for.
func TestMockCreateLostBeforeWork(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		fault mockserver.Fault
	}{
		{"500", mockserver.Fault{Status: http.StatusInternalServerError}},
		{"502", mockserver.Fault{Status: http.StatusBadGateway}},
		{"503 without Retry-After", mockserver.Fault{Status: http.StatusServiceUnavailable}},
		{"504", mockserver.Fault{Status: http.StatusGatewayTimeout}},
		{"dropped connection", mockserver.Fault{Drop: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, c := newMockClient(t)
			e.seed(itAccount, 2)
			if _, err := c.Token(ctx(t), itAccount); err != nil {
				t.Fatalf("Token: %v", err)
			}
			f := tt.fault
			f.Method, f.Route, f.Count = http.MethodPost, mockserver.RouteSubscriptions, 1
			e.mock.InjectFault(f)
			in := []client.SubscriptionInput{validInput("C1"), validInput("C2"), validInput("C1")}
			got, err := c.CreateSubscriptions(ctx(t), itAccount, in)
			if err != nil {
				t.Fatalf("CreateSubscriptions: %v", err)
			}
			wantCreatedFor(t, in, got)
			e.wantCount(http.MethodPost, mockserver.RouteSubscriptions, 2)
			if n := len(e.mock.Subscriptions(itAccount)); n != 5 {
				t.Errorf("mock holds %d subscriptions, want 5; request log:\n%s", n, e.requestLog())
			}
		})
	}
}

// A throttle answer (429, or 503 with Retry-After) says that the service did not act: it is
// retried as before, and no read of the account is needed.
func TestMockCreateThrottledNotSettled(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t, func(c *client.Config) { c.MaxRetries = 0 })
	e.mock.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
		Status: http.StatusServiceUnavailable, RetryAfter: time.Second, Count: 1})
	_, err := c.CreateSubscriptions(ctx(t), itAccount, []client.SubscriptionInput{validInput("C1")})
	wantAPIError(t, err, http.StatusServiceUnavailable, "Injected fault")
	e.wantCount(http.MethodGet, mockserver.RouteSubscriptions, 0)
	if n := len(e.mock.Subscriptions(itAccount)); n != 0 {
		t.Errorf("mock holds %d subscriptions, want 0", n)
	}
}

// When more subscriptions of one content than were sent could be what the lost create made,
// the client creates nothing more and names the candidates.
func TestMockCreateLostAmbiguous(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t)
	in := validInput("C1")
	// Two recent subscriptions of the same content by the same user, unknown to this client.
	now := time.Now().UnixMilli()
	var want []string
	for range 2 {
		s := e.mock.PutSubscription(itAccount, mockserver.Subscription{
			EventName: in.EventName, DestinationType: in.DestinationType, LogLevel: in.LogLevel,
			EventStreamsEnvironment: in.EventStreamsEnvironment, EventStreamsEnvironmentName: in.EventStreamsEnvironmentName,
			EventStreamsTopic: in.EventStreamsTopic, Enabled: true, CreatedDate: now, LastUpdatedDate: now,
			CreatedBy: itUser, LastUpdatedUserID: itUser,
		})
		want = append(want, s.SubscriptionID)
	}
	slices.Sort(want)
	e.mock.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions, Status: http.StatusBadGateway, Count: 1})
	_, err := c.CreateSubscriptions(ctx(t), itAccount, []client.SubscriptionInput{in})
	var unknown *client.UnknownOutcomeError
	if !errors.As(err, &unknown) {
		t.Fatalf("error %v, want an *UnknownOutcomeError", err)
	}
	if !slices.Equal(unknown.Candidates, want) || unknown.Missing != 1 || unknown.AccountID != itAccount {
		t.Errorf("candidates %v, missing %d, account %q; want %v, 1, %q", unknown.Candidates, unknown.Missing, unknown.AccountID, want, itAccount)
	}
	for _, id := range want {
		if !strings.Contains(err.Error(), id) {
			t.Errorf("error %q does not name candidate %s", err, id)
		}
	}
	e.wantCount(http.MethodPost, mockserver.RouteSubscriptions, 1)
	if n := len(e.mock.Subscriptions(itAccount)); n != 2 {
		t.Errorf("mock holds %d subscriptions, want 2", n)
	}
}

// Old subscriptions of the same content, and ones created by another user, are never adopted;
// one by another user makes the outcome ambiguous instead of creating a second copy.
func TestMockCreateLostIgnoresOldAndForeign(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		createdBy   string
		age         time.Duration
		wantErr     bool
		wantCreated bool
	}{
		{"an old one of the same content is not adopted", itUser, time.Hour, false, true},
		{"a recent one by another user is ambiguous", "bob@example.com", 0, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, c := newMockClient(t)
			in := validInput("C1")
			at := time.Now().Add(-tt.age).UnixMilli()
			other := e.mock.PutSubscription(itAccount, mockserver.Subscription{
				EventName: in.EventName, DestinationType: in.DestinationType, LogLevel: in.LogLevel,
				EventStreamsEnvironment: in.EventStreamsEnvironment, EventStreamsEnvironmentName: in.EventStreamsEnvironmentName,
				EventStreamsTopic: in.EventStreamsTopic, Enabled: true, CreatedDate: at, LastUpdatedDate: at,
				CreatedBy: tt.createdBy, LastUpdatedUserID: tt.createdBy,
			})
			e.mock.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions, Status: http.StatusGatewayTimeout, Count: 1})
			got, err := c.CreateSubscriptions(ctx(t), itAccount, []client.SubscriptionInput{in})
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want error: %t", err, tt.wantErr)
			}
			if err == nil && got[0].ID == other.SubscriptionID {
				t.Errorf("adopted %s, which the request did not create", other.SubscriptionID)
			}
			wantPosts := 1
			if tt.wantCreated {
				wantPosts = 2
			}
			e.wantCount(http.MethodPost, mockserver.RouteSubscriptions, wantPosts)
		})
	}
}

// A subscription that this client already handed out (created or read) is never adopted for
// another create, even with the same content and a recent date.
func TestMockCreateLostNeverAdoptsClaimed(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t)
	in := validInput("C1")
	first, err := c.CreateSubscriptions(ctx(t), itAccount, []client.SubscriptionInput{in})
	if err != nil {
		t.Fatalf("first create: %v", err)
	}
	e.mock.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions, Status: http.StatusBadGateway, Count: 1})
	second, err := c.CreateSubscriptions(ctx(t), itAccount, []client.SubscriptionInput{in})
	if err != nil {
		t.Fatalf("second create: %v", err)
	}
	if second[0].ID == first[0].ID || second[0].ID == "" {
		t.Fatalf("second create returned %q, first %q", second[0].ID, first[0].ID)
	}
	if n := len(e.mock.Subscriptions(itAccount)); n != 2 {
		t.Errorf("mock holds %d subscriptions, want 2", n)
	}
}

// When the account cannot be read after a lost answer, the create fails as unknown, with the
// read's error, and creates nothing more.
func TestMockCreateLostReadFails(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t, func(c *client.Config) { c.MaxRetries = 0 })
	e.mock.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions, Status: http.StatusBadGateway, Count: 1})
	e.mock.InjectFault(mockserver.Fault{Method: http.MethodGet, Route: mockserver.RouteSubscriptions, Status: http.StatusInternalServerError, Count: 1})
	_, err := c.CreateSubscriptions(ctx(t), itAccount, []client.SubscriptionInput{validInput("C1")})
	var unknown *client.UnknownOutcomeError
	if !errors.As(err, &unknown) || unknown.ReadErr == nil || unknown.Missing != 1 {
		t.Fatalf("error %#v, want an *UnknownOutcomeError with the read's error", err)
	}
	wantAPIError(t, unknown.ReadErr, http.StatusInternalServerError, "An unexpected error occurred")
	e.wantCount(http.MethodPost, mockserver.RouteSubscriptions, 1)
}

// wantCreatedFor checks that got holds one subscription per input, in order, each with an ID
// and the input's content, and no ID twice.
func wantCreatedFor(t *testing.T, in []client.SubscriptionInput, got []client.Subscription) {
	t.Helper()
	if len(got) != len(in) {
		t.Fatalf("got %d subscriptions for %d inputs", len(got), len(in))
	}
	seen := map[string]bool{}
	for i, s := range got {
		if s.ID == "" || seen[s.ID] || !strings.EqualFold(s.EventName, in[i].EventName) {
			t.Errorf("result %d = %+v for input %+v", i, s, in[i])
		}
		seen[s.ID] = true
	}
}

// A subscription the client read before a create was sent is never that create's, though the
// service dates it half a second before the request (inside the adoption window's margin): a
// twin that another client made, read by this one's listing (SeeAccount), is neither adopted
// after a lost answer nor handed out from an answer that lists the whole account.
func TestMockCreateNeverTakesWhatWasReadBefore(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		fault mockserver.Fault
	}{
		{"answered 502 before any work", mockserver.Fault{Status: http.StatusBadGateway, Count: 1}},
		{"answer lists the whole account", mockserver.Fault{AfterWork: true, ListAccount: true, Count: 1}},
	} {
		fault := tc.fault
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, c := newMockClient(t)
			in := validInput("C1")
			twin, err := e.client().CreateSubscriptions(ctx(t), itAccount, []client.SubscriptionInput{in})
			if err != nil {
				t.Fatalf("the twin's create: %v", err)
			}
			if err := c.SeeAccount(ctx(t), itAccount); err != nil {
				t.Fatalf("SeeAccount: %v", err)
			}
			e.mock.ModifySubscription(itAccount, twin[0].ID, func(s *mockserver.Subscription) {
				s.CreatedDate = time.Now().Add(-500 * time.Millisecond).UnixMilli()
			})
			lists := e.mock.Count(http.MethodGet, mockserver.RouteSubscriptions)
			if err := c.SeeAccount(ctx(t), itAccount); err != nil || e.mock.Count(http.MethodGet, mockserver.RouteSubscriptions) != lists {
				t.Fatalf("a second SeeAccount listed the account again (%v)", err)
			}
			fault.Method, fault.Route = http.MethodPost, mockserver.RouteSubscriptions
			e.mock.InjectFault(fault)
			got, err := c.CreateSubscriptions(ctx(t), itAccount, []client.SubscriptionInput{in})
			if err != nil {
				t.Fatalf("create: %v", err)
			}
			if got[0].ID == twin[0].ID || got[0].ID == "" {
				t.Fatalf("the create returned %q, the twin's id %q", got[0].ID, twin[0].ID)
			}
			if n := len(e.mock.Subscriptions(itAccount)); n != 2 {
				t.Errorf("mock holds %d subscriptions, want 2", n)
			}
		})
	}
}
