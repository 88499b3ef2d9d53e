package client_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// SERVICE.md authentication rules 2 and 4: password, API token (PLATFORM_TOKEN.<username>), OTP header,
// and a pre-issued JWT. The JWT's subject becomes createdBy, which proves whose login it was.
func TestMockAuthModes(t *testing.T) {
	t.Parallel()
	users := []mockserver.User{
		{Username: "pw@example.com", Password: "pw-secret"},
		{Username: "sso@example.com", APIToken: "sso-token"},
		{Username: "both@example.com", Password: "both-secret", APIToken: "both-token"},
		{Username: "otp@example.com", Password: "otp-secret", OTP: itOTP},
		{Username: "otptoken@example.com", APIToken: "otp-token", OTP: itOTP},
		{Username: "scoped@example.com", Password: "scoped-secret", Accounts: []string{itAccount}},
	}
	tests := []struct {
		name        string
		cfg         func(e *mockEnv, c *client.Config)
		wantUser    string
		wantFetches int
	}{
		{"password", func(_ *mockEnv, c *client.Config) { c.Username, c.Password = "pw@example.com", "pw-secret" }, "pw@example.com", 1},
		{"API token", func(_ *mockEnv, c *client.Config) {
			c.Username, c.Password, c.APIToken = "sso@example.com", "", "sso-token"
		}, "sso@example.com", 1},
		{"API token of a user who also has a password", func(_ *mockEnv, c *client.Config) {
			c.Username, c.Password, c.APIToken = "both@example.com", "", "both-token"
		}, "both@example.com", 1},
		{"API token with the prefixed user name", func(_ *mockEnv, c *client.Config) {
			c.Username, c.Password, c.APIToken = "PLATFORM_TOKEN.sso@example.com", "", "sso-token"
		}, "sso@example.com", 1},
		{"password and OTP", func(_ *mockEnv, c *client.Config) {
			c.Username, c.Password, c.OTP = "otp@example.com", "otp-secret", itOTP
		}, "otp@example.com", 1},
		{"API token and OTP", func(_ *mockEnv, c *client.Config) {
			c.Username, c.Password, c.APIToken, c.OTP = "otptoken@example.com", "", "otp-token", itOTP
		}, "otptoken@example.com", 1},
		{"OTP sent to a user without two-factor authentication", func(_ *mockEnv, c *client.Config) {
			c.Username, c.Password, c.OTP = "pw@example.com", "pw-secret", itOTP
		}, "pw@example.com", 1},
		{"user limited to the account", func(_ *mockEnv, c *client.Config) {
			c.Username, c.Password = "scoped@example.com", "scoped-secret"
		}, "scoped@example.com", 1},
		{"pre-issued JWT", func(e *mockEnv, c *client.Config) {
			c.JWT = e.mock.IssueJWT(itAccount, "jwt@example.com", time.Now().Add(time.Hour))
			c.AuthURL, c.Username, c.Password = "", "", ""
		}, "jwt@example.com", 0},
		{"pre-issued JWT without a default account", func(e *mockEnv, c *client.Config) {
			c.JWT = e.mock.IssueJWT(itAccount, "jwt@example.com", time.Now().Add(time.Hour))
			c.AuthURL, c.Username, c.Password, c.AccountID = "", "", "", ""
		}, "jwt@example.com", 0},
		{"pre-issued JWT with credentials configured too", func(e *mockEnv, c *client.Config) {
			c.JWT = e.mock.IssueJWT(itAccount, "jwt@example.com", time.Now().Add(time.Hour))
		}, "jwt@example.com", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newMockEnv(t, mockserver.Config{Users: users})
			cfg := e.config()
			tt.cfg(e, &cfg)
			c, err := client.New(cfg)
			if err != nil {
				t.Fatalf("client.New: %v", err)
			}
			created, err := c.CreateSubscriptions(ctx(t), itAccount, []client.SubscriptionInput{validInput("E")})
			if err != nil {
				t.Fatalf("CreateSubscriptions: %v", err)
			}
			if created[0].CreatedBy != tt.wantUser || created[0].LastUpdatedUserID != tt.wantUser {
				t.Errorf("createdBy %q, lastUpdatedUserId %q, want %q", created[0].CreatedBy, created[0].LastUpdatedUserID, tt.wantUser)
			}
			if _, err := c.ListSubscriptions(ctx(t), itAccount, client.ListOptions{}); err != nil {
				t.Errorf("ListSubscriptions: %v", err)
			}
			if _, err := c.ListEvents(ctx(t)); err != nil {
				t.Errorf("ListEvents: %v", err)
			}
			tok, err := c.Token(ctx(t), itAccount)
			if err != nil || tok == "" {
				t.Errorf("Token = %q, %v", tok, err)
			}
			e.wantJWTFetches(tt.wantFetches)
			e.wantCount(http.MethodGet, mockserver.RouteJWT, tt.wantFetches)
		})
	}
}

// The client reads every body shape of the JWT endpoint that the mock can produce.
func TestMockJWTShapes(t *testing.T) {
	t.Parallel()
	shapes := map[string]mockserver.JWTShape{
		"object token":        mockserver.JWTObjectToken,
		"plain text":          mockserver.JWTPlainText,
		"JSON string":         mockserver.JWTJSONString,
		"object jwt":          mockserver.JWTObjectJWT,
		"object access_token": mockserver.JWTObjectAccessToken,
	}
	for name, shape := range shapes {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newMockEnv(t, mockserver.Config{})
			e.mock.SetJWTShape(shape)
			c := e.client()
			e.seed(itAccount, 2)
			subs, err := c.ListSubscriptions(ctx(t), itAccount, client.ListOptions{})
			if err != nil || len(subs) != 2 {
				t.Fatalf("ListSubscriptions = %d subscriptions, %v", len(subs), err)
			}
			if _, err := c.ListDestinationTypes(ctx(t)); err != nil {
				t.Fatalf("ListDestinationTypes: %v", err)
			}
			e.wantJWTFetches(1)
			e.wantCount(http.MethodGet, mockserver.RouteJWT, 1)
		})
	}
}

// JWTs are cached per account and shared by concurrent callers: many parallel calls of every
// kind cost one JWT fetch per account.
func TestMockTokenCaching(t *testing.T) {
	t.Parallel()
	for _, accounts := range []int{1, 3} {
		t.Run(fmt.Sprintf("%d accounts", accounts), func(t *testing.T) {
			t.Parallel()
			e, c := newMockClient(t)
			const perAccount = 12
			var wg sync.WaitGroup
			errs := make(chan error, accounts*perAccount*3)
			for a := range accounts {
				account := fmt.Sprintf("acc-%d", a)
				if a == 0 {
					account = itAccount
				}
				for range perAccount {
					wg.Go(func() {
						_, err := c.ListSubscriptions(ctx(t), account, client.ListOptions{})
						errs <- err
					})
					wg.Go(func() {
						_, err := c.CreateSubscriptions(ctx(t), account, []client.SubscriptionInput{validInput("E")})
						errs <- err
					})
					wg.Go(func() {
						_, err := c.ListLogLevels(ctx(t)) // the default account's token
						errs <- err
					})
				}
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Errorf("call failed: %v", err)
				}
			}
			e.wantJWTFetches(accounts)
			e.wantCount(http.MethodGet, mockserver.RouteJWT, accounts)
			e.wantCount(http.MethodGet, mockserver.RouteSubscriptions, accounts*perAccount)
			e.wantCount(http.MethodPost, mockserver.RouteSubscriptions, accounts*perAccount)
			e.wantCount(http.MethodGet, mockserver.RouteLogLevels, accounts*perAccount)
			for a := range accounts {
				account := fmt.Sprintf("acc-%d", a)
				if a == 0 {
					account = itAccount
				}
				if n := len(e.mock.Subscriptions(account)); n != perAccount {
					t.Errorf("account %s holds %d subscriptions, want %d", account, n, perAccount)
				}
			}
		})
	}
}

// A 401 from the service makes the client refresh the JWT once and repeat the call once; the
// repeated call succeeds.
func TestMockRefreshOn401(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		method string
		route  string
		call   func(*client.Client) error
		check  func(*testing.T, *mockEnv)
	}{
		{"list", http.MethodGet, mockserver.RouteSubscriptions, func(c *client.Client) error {
			_, err := c.ListSubscriptions(t.Context(), itAccount, client.ListOptions{})
			return err
		}, nil},
		{"create (POST)", http.MethodPost, mockserver.RouteSubscriptions, func(c *client.Client) error {
			_, err := c.CreateSubscriptions(t.Context(), itAccount, []client.SubscriptionInput{validInput("E")})
			return err
		}, func(t *testing.T, e *mockEnv) {
			if n := len(e.mock.Subscriptions(itAccount)); n != 1 {
				t.Errorf("mock holds %d subscriptions, want 1", n)
			}
		}},
		{"bulk delete (PATCH)", http.MethodPatch, mockserver.RouteSubscriptions, func(c *client.Client) error {
			_, err := c.BulkDeleteSubscriptions(t.Context(), itAccount, []string{"2a1f1c1e-0000-4000-8000-000000000001"})
			return err
		}, nil},
		{"topic", http.MethodPost, mockserver.RouteTopic, func(c *client.Client) error {
			r, err := c.CreateEventStreamTopic(t.Context(), itAccount, client.TopicInput{EnvironmentID: "e", SubscriptionName: "s", TopicName: "t"})
			if err == nil && r.SubscriptionCount != 1 {
				return fmt.Errorf("subscriptionCount %d, want 1", r.SubscriptionCount)
			}
			return err
		}, nil},
		{"events", http.MethodGet, mockserver.RouteEvents, func(c *client.Client) error {
			_, err := c.ListEvents(t.Context())
			return err
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, c := newMockClient(t)
			if _, err := c.Token(ctx(t), itAccount); err != nil {
				t.Fatalf("Token: %v", err)
			}
			e.mock.InjectFault(mockserver.Fault{Method: tt.method, Route: tt.route, Status: http.StatusUnauthorized, Count: 1})
			if err := tt.call(c); err != nil {
				t.Fatalf("call: %v", err)
			}
			if tt.check != nil {
				tt.check(t, e)
			}
			e.wantJWTFetches(2)
			e.wantCount(tt.method, tt.route, 2)
		})
	}
}

// An expired cached JWT: the service answers 401, the client refreshes once and repeats.
// Parallel callers that fail together share one refresh. The mock issues already expired
// tokens (negative TTL) until the test restores its TTL, so no test has to wait.
func TestMockRefreshExpiredToken(t *testing.T) {
	t.Parallel()
	for _, callers := range []int{1, 16} {
		t.Run(fmt.Sprintf("%d callers", callers), func(t *testing.T) {
			t.Parallel()
			e := newMockEnv(t, mockserver.Config{JWTTTL: -time.Minute})
			e.seed(itAccount, 1)
			c := e.client()
			if _, err := c.Token(ctx(t), itAccount); err != nil { // caches an expired token
				t.Fatalf("Token: %v", err)
			}
			e.mock.SetJWTTTL(0) // 5 minutes from now on
			var wg sync.WaitGroup
			errs := make(chan error, callers)
			for range callers {
				wg.Go(func() {
					subs, err := c.ListSubscriptions(ctx(t), itAccount, client.ListOptions{})
					if err == nil && len(subs) != 1 {
						err = fmt.Errorf("got %d subscriptions, want 1", len(subs))
					}
					errs <- err
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Errorf("ListSubscriptions: %v", err)
				}
			}
			e.wantJWTFetches(2)
			// Callers that started after the refresh used the new token at once; every
			// caller that got a 401 repeated its request exactly once.
			unauthorized := 0
			for _, r := range e.mock.Requests() {
				if r.Route == mockserver.RouteSubscriptions && r.Status == http.StatusUnauthorized {
					unauthorized++
				}
			}
			if unauthorized < 1 || unauthorized > callers {
				t.Errorf("mock answered 401 %d times, want 1 to %d", unauthorized, callers)
			}
			e.wantCount(http.MethodGet, mockserver.RouteSubscriptions, callers+unauthorized)
		})
	}
}

// When the refreshed token is rejected too, the client gives up after one refresh and one
// repeat, with the service's bodiless 401.
func TestMockRefreshGivesUp(t *testing.T) {
	t.Parallel()
	e := newMockEnv(t, mockserver.Config{JWTTTL: -time.Minute})
	c := e.client()
	_, err := c.GetSubscription(ctx(t), itAccount, "2a1f1c1e-0000-4000-8000-000000000001")
	apiErr := wantAPIError(t, err, http.StatusUnauthorized)
	if apiErr.Operation != "read subscription" {
		t.Errorf("Operation = %q", apiErr.Operation)
	}
	e.wantJWTFetches(2)
	e.wantCount(http.MethodGet, mockserver.RouteSubscription, 2)
}

// Account IDs that need escaping in a path segment reach the mock, and its JWT check,
// as the same account.
func TestMockAccountIDEscaping(t *testing.T) {
	t.Parallel()
	for _, account := range []string{"acc with space", "acc%25percent", "Konto-äöü", "acc?q=1#frag", "acc+plus"} {
		t.Run(account, func(t *testing.T) {
			t.Parallel()
			e := newMockEnv(t, mockserver.Config{Users: []mockserver.User{{Username: itUser, Password: itPassword, Accounts: []string{account}}}})
			c := e.client(func(c *client.Config) { c.AccountID = account })
			created, err := c.CreateSubscriptions(ctx(t), "", []client.SubscriptionInput{validInput("E1"), validInput("E2")})
			if err != nil {
				t.Fatalf("CreateSubscriptions: %v", err)
			}
			if created[0].AccountID != account {
				t.Errorf("accountId %q, want %q", created[0].AccountID, account)
			}
			if n := len(e.mock.Subscriptions(account)); n != 2 {
				t.Fatalf("mock holds %d subscriptions for %q, want 2", n, account)
			}
			listed, err := c.ListSubscriptions(ctx(t), account, client.ListOptions{PageSize: 1})
			if err != nil || len(listed) != 2 {
				t.Fatalf("ListSubscriptions = %d, %v", len(listed), err)
			}
			if _, err := c.GetSubscription(ctx(t), account, created[0].ID); err != nil {
				t.Errorf("GetSubscription: %v", err)
			}
			if err := c.DeleteSubscription(ctx(t), account, created[0].ID); err != nil {
				t.Errorf("DeleteSubscription: %v", err)
			}
			if _, err := c.CreateEventStreamTopic(ctx(t), account, client.TopicInput{EnvironmentID: "e", SubscriptionName: "s", TopicName: "t"}); err != nil {
				t.Errorf("CreateEventStreamTopic: %v", err)
			}
			if len(e.mock.Topics(account)) != 1 {
				t.Errorf("topic not stored for %q", account)
			}
			if err := c.DeleteAllSubscriptions(ctx(t), account); err != nil {
				t.Errorf("DeleteAllSubscriptions: %v", err)
			}
			err = c.DeleteAllSubscriptions(ctx(t), account)
			wantAPIError(t, err, http.StatusNotFound, "No subscriptions found for account "+account)
			e.wantJWTFetches(1)
		})
	}
}
