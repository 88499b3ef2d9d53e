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

// The adoption window of a lost create: a subscription that the service dates inside the span
// in which the request could have created it is adopted silently; one dated later (a late
// landing, or another writer's) is adopted with a *LateAdoptionWarning that names it; a create
// sent again after the grace period comes with a *RecreatedWarning.
func TestMockCreateLostAdoptionWindow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// lookAlike, when not zero, stores a subscription of the same content by the same
		// user dated this long after now by the service's clock, before the create.
		lookAlike time.Duration
		afterWork bool
		wantPosts int
		check     func(t *testing.T, got *client.Subscription, err error, lookAlike string)
	}{
		{
			name: "own subscription inside the window", afterWork: true, wantPosts: 1,
			check: func(t *testing.T, got *client.Subscription, err error, _ string) {
				if err != nil || got == nil {
					t.Fatalf("got %v, %v; want the subscription and no warning", got, err)
				}
			},
		},
		{
			name: "look-alike dated after the answer", lookAlike: 30 * time.Second, wantPosts: 1,
			check: func(t *testing.T, got *client.Subscription, err error, lookAlike string) {
				var late *client.LateAdoptionWarning
				if !errors.As(err, &late) || got == nil || got.ID != lookAlike || late.SubscriptionID != lookAlike {
					t.Fatalf("got %v, %v; want %s with a *LateAdoptionWarning naming it", got, err, lookAlike)
				}
				if late.CreatedDate <= late.WindowEnd || !strings.Contains(err.Error(), lookAlike) {
					t.Errorf("warning %q: created %d, window end %d; want it named, created after the window", err, late.CreatedDate, late.WindowEnd)
				}
			},
		},
		{
			name: "nothing found: created again", wantPosts: 2,
			check: func(t *testing.T, got *client.Subscription, err error, _ string) {
				var again *client.RecreatedWarning
				if !errors.As(err, &again) || got == nil || again.SubscriptionID != got.ID {
					t.Fatalf("got %v, %v; want the new subscription with a *RecreatedWarning naming it", got, err)
				}
				if !strings.Contains(err.Error(), "may still land") {
					t.Errorf("warning %q does not say that the first create may still land", err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, c := newMockClient(t)
			in := validInput("C1")
			var lookAlike string
			if tt.lookAlike != 0 {
				lookAlike = e.putLike(in, itUser, time.Now().Add(tt.lookAlike)).SubscriptionID
			}
			e.mock.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
				Status: http.StatusBadGateway, Count: 1, AfterWork: tt.afterWork})
			got, err := c.CreateSubscriptionBatched(ctx(t), itAccount, in)
			tt.check(t, got, err, lookAlike)
			e.wantCount(http.MethodPost, mockserver.RouteSubscriptions, tt.wantPosts)
			if subs := e.mock.Subscriptions(itAccount); len(subs) != 1 || got == nil || subs[0].SubscriptionID != got.ID {
				t.Errorf("mock holds %v, want only the subscription returned", subs)
			}
		})
	}
}

// A Date header two seconds off the clock that dates subscriptions. Ahead, the request's own
// subscription looks older than the request: the date bound does not decide "not created" on
// its own, and after the grace period the create fails with the unknown outcome naming it
// instead of creating a second copy. Behind, it is adopted (with or without a warning).
func TestMockCreateLostDateOffBy2s(t *testing.T) {
	t.Parallel()
	for _, offset := range []time.Duration{2 * time.Second, -2 * time.Second} {
		t.Run(offset.String(), func(t *testing.T) {
			t.Parallel()
			e := newMockEnv(t, mockserver.Config{})
			e.mock.SetDateOffset(offset)
			c := e.client()
			in := validInput("C1")
			e.mock.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
				Status: http.StatusBadGateway, Count: 1, AfterWork: true})
			got, err := c.CreateSubscriptionBatched(ctx(t), itAccount, in)
			subs := e.mock.Subscriptions(itAccount)
			if len(subs) != 1 {
				t.Fatalf("mock holds %d subscriptions, want 1 (no second copy); error %v", len(subs), err)
			}
			e.wantCount(http.MethodPost, mockserver.RouteSubscriptions, 1)
			var unknown *client.UnknownOutcomeError
			var late *client.LateAdoptionWarning
			switch {
			case errors.As(err, &unknown):
				if !slices.Equal(unknown.Candidates, []string{subs[0].SubscriptionID}) || unknown.Missing != 1 {
					t.Errorf("candidates %v, missing %d; want [%s], 1", unknown.Candidates, unknown.Missing, subs[0].SubscriptionID)
				}
			case err == nil || errors.As(err, &late):
				if got == nil || got.ID != subs[0].SubscriptionID {
					t.Errorf("got %v, want %s", got, subs[0].SubscriptionID)
				}
			default:
				t.Fatalf("error %v, want an unknown outcome or an adoption", err)
			}
			if offset > 0 && unknown == nil {
				t.Errorf("Date ahead by %v: got %v, %v; want the unknown outcome naming %s", offset, got, err, subs[0].SubscriptionID)
			}
		})
	}
}

// A create answer that lists more than was sent (the whole account): only a new subscription
// that no caller holds is handed out, never an older look-alike or one the client already
// returned to another caller.
func TestMockCreateAnswerListsAccount(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t)
	in := validInput("C1")
	old := e.putLike(in, itUser, time.Now().Add(-time.Hour))
	first, err := c.CreateSubscriptions(ctx(t), itAccount, []client.SubscriptionInput{in})
	if err != nil {
		t.Fatalf("first create: %v", err)
	}
	e.mock.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
		AfterWork: true, ListAccount: true, Count: 1})
	got, err := c.CreateSubscriptions(ctx(t), itAccount, []client.SubscriptionInput{in})
	if err != nil {
		t.Fatalf("second create: %v", err)
	}
	if got[0].ID == old.SubscriptionID || got[0].ID == first[0].ID {
		t.Fatalf("the second create was given %s (old %s, first %s): not its own", got[0].ID, old.SubscriptionID, first[0].ID)
	}
	if _, ok := e.mock.Subscription(itAccount, got[0].ID); !ok {
		t.Errorf("the second create was given %s, which the service does not hold", got[0].ID)
	}
	e.wantCount(http.MethodPost, mockserver.RouteSubscriptions, 2)
	if n := len(e.mock.Subscriptions(itAccount)); n != 3 {
		t.Errorf("mock holds %d subscriptions, want 3", n)
	}
}

// CreateSubscriptionsWarn returns the warning of a subscription created again after the grace
// period, with the subscription; CreateSubscriptions only logs it.
func TestMockCreateSubscriptionsWarn(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t)
	e.mock.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
		Status: http.StatusBadGateway, Count: 1})
	got, warnings, err := c.CreateSubscriptionsWarn(ctx(t), itAccount, []client.SubscriptionInput{validInput("C1")})
	if err != nil || len(got) != 1 || got[0].ID == "" {
		t.Fatalf("CreateSubscriptionsWarn: %v, %v", got, err)
	}
	var again *client.RecreatedWarning
	if len(warnings) != 1 || !errors.As(warnings[0], &again) || again.SubscriptionID != got[0].ID {
		t.Errorf("warnings %v, want one *RecreatedWarning naming %s", warnings, got[0].ID)
	}
}
