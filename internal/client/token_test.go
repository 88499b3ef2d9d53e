package client

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

func basicHeader(user, pass string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
}

// eventsHandler answers the events catalogue.
func eventsHandler(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, 200, `["USER_CREATED"]`)
}

// TestAuthModes checks the headers of each authentication mode.
func TestAuthModes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		mutate     func(f *fakeAPI, cfg *Config)
		wantBasic  string
		wantOTP    string
		wantFetch  int32
		preIssued  bool
		fakeConfig func(f *fakeAPI)
	}{
		{
			name:      "password",
			mutate:    func(f *fakeAPI, cfg *Config) {},
			wantBasic: basicHeader(testUser, testPassword), wantFetch: 1,
		},
		{
			name: "API token",
			mutate: func(f *fakeAPI, cfg *Config) {
				cfg.Password, cfg.APIToken = "", testAPIToken
			},
			fakeConfig: func(f *fakeAPI) { f.acceptUser, f.acceptPass = "PLATFORM_TOKEN."+testUser, testAPIToken },
			wantBasic:  basicHeader("PLATFORM_TOKEN."+testUser, testAPIToken), wantFetch: 1,
		},
		{
			name: "API token, user name already prefixed",
			mutate: func(f *fakeAPI, cfg *Config) {
				cfg.Username, cfg.Password, cfg.APIToken = "PLATFORM_TOKEN."+testUser, "", testAPIToken
			},
			fakeConfig: func(f *fakeAPI) { f.acceptUser, f.acceptPass = "PLATFORM_TOKEN."+testUser, testAPIToken },
			wantBasic:  basicHeader("PLATFORM_TOKEN."+testUser, testAPIToken), wantFetch: 1,
		},
		{
			name:       "password and OTP",
			mutate:     func(f *fakeAPI, cfg *Config) { cfg.OTP = testOTP },
			fakeConfig: func(f *fakeAPI) { f.requireOTP = testOTP },
			wantBasic:  basicHeader(testUser, testPassword), wantOTP: testOTP, wantFetch: 1,
		},
		{
			name: "pre-issued JWT",
			mutate: func(f *fakeAPI, cfg *Config) {
				cfg.Username, cfg.Password, cfg.AuthURL = "", "", ""
				cfg.JWT = f.issue(testAccount)
			},
			preIssued: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, eventsHandler)
			if tc.fakeConfig != nil {
				f.set(tc.fakeConfig)
			}
			var jwtValue string
			c := f.newClient(func(cfg *Config) {
				tc.mutate(f, cfg)
				jwtValue = cfg.JWT
			})
			for i := 0; i < 3; i++ {
				if _, err := c.ListEvents(context.Background()); err != nil {
					t.Fatalf("ListEvents: %v", err)
				}
			}
			if got := f.jwtFetches.Load(); got != tc.wantFetch {
				t.Errorf("%d JWT fetches, want %d", got, tc.wantFetch)
			}
			for _, r := range f.jwts() {
				if r.Auth != tc.wantBasic {
					t.Errorf("JWT request Authorization %q, want %q", r.Auth, tc.wantBasic)
				}
				if r.OTP != tc.wantOTP {
					t.Errorf("X-Platform-OTP %q, want %q", r.OTP, tc.wantOTP)
				}
				if r.Path != "/auth/jwt/generate/"+testAccount || r.Method != http.MethodGet {
					t.Errorf("JWT request %s %s", r.Method, r.Path)
				}
				if r.UserAgent != testUA {
					t.Errorf("JWT request User-Agent %q", r.UserAgent)
				}
			}
			for _, r := range f.api() {
				if !strings.HasPrefix(r.Auth, "Bearer ") {
					t.Errorf("service Authorization %q", r.Auth)
				}
				if tc.preIssued && r.Auth != "Bearer "+jwtValue {
					t.Errorf("service call did not use the pre-issued JWT")
				}
				if r.OTP != "" {
					t.Errorf("OTP sent to the service: %q", r.OTP)
				}
			}
		})
	}
}

// TestJWTBodyForms accepts every JWT body form of SERVICE.md.
func TestJWTBodyForms(t *testing.T) {
	t.Parallel()
	for _, form := range []string{"plain", "plain-newline", "json-string", "token", "jwt", "access_token"} {
		t.Run(form, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, eventsHandler)
			f.set(func(f *fakeAPI) { f.jwtForm = form })
			c := f.newClient(nil)
			tok, err := c.Token(context.Background(), "")
			if err != nil {
				t.Fatalf("Token: %v", err)
			}
			if strings.Count(tok, ".") != 2 || strings.ContainsAny(tok, " \"\n") {
				t.Errorf("token %q", tok)
			}
			if _, err := c.ListEvents(context.Background()); err != nil {
				t.Errorf("ListEvents with the token: %v", err)
			}
		})
	}
}

// TestTokenCacheConcurrent: N concurrent callers share one fetch.
func TestTokenCacheConcurrent(t *testing.T) {
	t.Parallel()
	f := newFake(t, eventsHandler)
	f.set(func(f *fakeAPI) { f.jwtDelay = 50 * time.Millisecond })
	c := f.newClient(nil)
	const n = 25
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.ListEvents(context.Background()); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := f.jwtFetches.Load(); got != 1 {
		t.Errorf("%d JWT fetches for %d concurrent calls, want 1", got, n)
	}
	if got := len(f.jwts()); got != 1 {
		t.Errorf("%d JWT requests, want 1", got)
	}
}

// TestTokenPerAccount caches one token per account.
func TestTokenPerAccount(t *testing.T) {
	t.Parallel()
	f := newFake(t, eventsHandler)
	c := f.newClient(nil)
	ctx := context.Background()
	a1, err := c.Token(ctx, "acc-1")
	if err != nil {
		t.Fatal(err)
	}
	a2, err := c.Token(ctx, "acc-2")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := c.Token(ctx, "")
	if a1 == a2 || again != a1 {
		t.Errorf("tokens not per account")
	}
	if got := f.jwtFetches.Load(); got != 2 {
		t.Errorf("%d fetches, want 2", got)
	}
}

// TestTokenRefreshBeforeExpiry: a 2-second token is replaced before it expires, so the
// service never sees an expired token. The client and the fake share a clock that the test
// moves on by 1.7s, past the refresh point (0.4s before expiry) but not past the expiry.
func TestTokenRefreshBeforeExpiry(t *testing.T) {
	t.Parallel()
	f := newFake(t, eventsHandler)
	var mu sync.Mutex
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC) // a whole second: exp is in seconds
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	f.set(func(f *fakeAPI) { f.ttl = 2 * time.Second; f.clock = clock })
	c := f.newClient(nil)
	c.now = clock
	ctx := context.Background()
	first, err := c.Token(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListEvents(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	now = now.Add(1700 * time.Millisecond)
	mu.Unlock()
	if _, err := c.ListEvents(ctx); err != nil {
		t.Fatal(err)
	}
	second, _ := c.Token(ctx, "")
	if first == second {
		t.Error("token was not refreshed")
	}
	if got := f.jwtFetches.Load(); got != 2 {
		t.Errorf("%d fetches, want 2", got)
	}
	if got := f.rejected.Load(); got != 0 {
		t.Errorf("the service rejected %d calls: the token was used too late", got)
	}
}

// TestTokenRefreshFakeClock checks the refresh point with an injected clock.
func TestTokenRefreshFakeClock(t *testing.T) {
	t.Parallel()
	f := newFake(t, eventsHandler)
	c := f.newClient(nil)
	var mu sync.Mutex
	now := time.Now()
	c.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	ctx := context.Background()
	if _, err := c.Token(ctx, ""); err != nil {
		t.Fatal(err)
	}
	// A 5-minute token is refreshed 30s before it expires.
	advance(4*time.Minute + 20*time.Second)
	_, _ = c.Token(ctx, "")
	if got := f.jwtFetches.Load(); got != 1 {
		t.Fatalf("refreshed too early: %d fetches", got)
	}
	advance(15 * time.Second)
	_, _ = c.Token(ctx, "")
	if got := f.jwtFetches.Load(); got != 2 {
		t.Fatalf("not refreshed 25s before expiry: %d fetches", got)
	}
}

// Test401RefreshesOnce: a rejected token is refreshed once and the call repeated once.
func Test401RefreshesOnce(t *testing.T) {
	t.Parallel()
	f := newFake(t, eventsHandler)
	c := f.newClient(nil)
	ctx := context.Background()
	if _, err := c.ListEvents(ctx); err != nil {
		t.Fatal(err)
	}
	f.revokeAll()
	if _, err := c.ListEvents(ctx); err != nil {
		t.Fatalf("ListEvents after revocation: %v", err)
	}
	if got := f.jwtFetches.Load(); got != 2 {
		t.Errorf("%d fetches, want 2", got)
	}
	if got := len(f.api()); got != 3 {
		t.Errorf("%d service requests, want 3 (one, then a 401 and its repeat)", got)
	}
}

// Test401Persistent: a service that keeps answering 401 costs one refresh and one repeat,
// then an error with the credentials advice.
func Test401Persistent(t *testing.T) {
	t.Parallel()
	f := newFake(t, eventsHandler)
	c := f.newClient(nil)
	f.set(func(f *fakeAPI) { f.minSeq = 1 << 60 })
	_, err := c.ListEvents(context.Background())
	var apiErr *httpapi.APIError
	if !errors.Is(err, httpapi.ErrUnauthorized) || !strings.Contains(err.Error(), "list events: HTTP 401") ||
		!errors.As(err, &apiErr) || apiErr.PreIssuedJWT || apiErr.JWTEndpoint {
		t.Fatalf("error %v", err)
	}
	if got := f.jwtFetches.Load(); got != 2 {
		t.Errorf("%d fetches, want 2", got)
	}
	if got := len(f.api()); got != 2 {
		t.Errorf("%d service requests, want 2", got)
	}
}

// TestParallel401SharedRefresh: callers that fail together with the same token share one
// refresh.
func TestParallel401SharedRefresh(t *testing.T) {
	t.Parallel()
	f := newFake(t, eventsHandler)
	c := f.newClient(nil)
	ctx := context.Background()
	if _, err := c.Token(ctx, ""); err != nil {
		t.Fatal(err)
	}
	f.revokeAll()
	f.set(func(f *fakeAPI) { f.jwtDelay = 30 * time.Millisecond })
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.ListEvents(ctx); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := f.jwtFetches.Load(); got != 2 {
		t.Errorf("%d fetches, want 2 (the first and one shared refresh)", got)
	}
}

// TestPreIssuedJWTRejected: with a pre-issued JWT a 401 is reported, never refreshed.
func TestPreIssuedJWTRejected(t *testing.T) {
	t.Parallel()
	f := newFake(t, eventsHandler)
	f.set(func(f *fakeAPI) { f.ttl = -time.Minute }) // already expired
	expired := f.issue(testAccount)
	c := f.newClient(func(cfg *Config) {
		cfg.Username, cfg.Password, cfg.AuthURL, cfg.JWT = "", "", "", expired
	})
	_, err := c.ListEvents(context.Background())
	var apiErr *httpapi.APIError
	if !errors.Is(err, httpapi.ErrUnauthorized) || !errors.As(err, &apiErr) || !apiErr.PreIssuedJWT {
		t.Fatalf("error %v, want a 401 that says the pre-issued JWT was used", err)
	}
	if got := len(f.jwts()); got != 0 {
		t.Errorf("%d JWT requests, want 0", got)
	}
	if got := len(f.api()); got != 1 {
		t.Errorf("%d service requests, want 1", got)
	}
}

// TestJWTEndpointErrors: wrong credentials and other failures of the JWT endpoint.
func TestJWTEndpointErrors(t *testing.T) {
	t.Parallel()
	t.Run("wrong password", func(t *testing.T) {
		f := newFake(t, eventsHandler)
		c := f.newClient(func(cfg *Config) { cfg.Password = "wrong" })
		_, err := c.ListEvents(context.Background())
		if !errors.Is(err, httpapi.ErrUnauthorized) {
			t.Fatalf("error %v", err)
		}
		msg := err.Error()
		var apiErr *httpapi.APIError
		if !errors.As(err, &apiErr) || !apiErr.JWTEndpoint || apiErr.PreIssuedJWT {
			t.Errorf("error %v is not marked as the JWT endpoint's", err)
		}
		for _, want := range []string{"list events: generate JWT: HTTP 401 Unauthorized"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%q lacks %q", msg, want)
			}
		}
		if strings.Contains(msg, "wrong") {
			t.Errorf("error reveals the password: %q", msg)
		}
		if got := len(f.api()); got != 0 {
			t.Errorf("%d service requests", got)
		}
		if got := len(f.jwts()); got != 1 {
			t.Errorf("401 from the JWT endpoint retried: %d requests", got)
		}
	})
	t.Run("missing OTP", func(t *testing.T) {
		f := newFake(t, eventsHandler)
		f.set(func(f *fakeAPI) { f.requireOTP = testOTP })
		c := f.newClient(nil)
		_, err := c.Token(context.Background(), "")
		var apiErr *httpapi.APIError
		if !errors.Is(err, httpapi.ErrUnauthorized) || !errors.As(err, &apiErr) || apiErr.OTPSent || !apiErr.JWTEndpoint {
			t.Fatalf("error %v, want the JWT endpoint's 401 for a request without an OTP", err)
		}
	})
	t.Run("503 retried", func(t *testing.T) {
		f := newFake(t, eventsHandler)
		f.set(func(f *fakeAPI) { f.jwtFail = []int{503, 502} })
		c := f.newClient(nil)
		if _, err := c.ListEvents(context.Background()); err != nil {
			t.Fatalf("ListEvents: %v", err)
		}
		if got := len(f.jwts()); got != 3 {
			t.Errorf("%d JWT requests, want 3", got)
		}
	})
	t.Run("403", func(t *testing.T) {
		f := newFake(t, eventsHandler)
		f.set(func(f *fakeAPI) { f.jwtFail = []int{403} })
		c := f.newClient(nil)
		_, err := c.Token(context.Background(), "acc-7")
		if !errors.Is(err, httpapi.ErrForbidden) || !strings.Contains(err.Error(), `account "acc-7"`) {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("unparseable 200", func(t *testing.T) {
		srv := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte("<html>sign in</html>"))
		}))
		c, err := New(Config{Config: httpapi.Config{BaseURL: srv.URL, AuthURL: srv.URL, AccountID: "a", Username: "u", Password: "p"}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Token(context.Background(), "")
		if err == nil || !strings.HasPrefix(err.Error(), "could not decode response of generate JWT") {
			t.Fatalf("error %v", err)
		}
	})
}

// TestTokenLeaderCancelled: a caller whose context ends does not fail the callers that
// share its fetch. The JWT endpoint holds its answers until the leader has been cancelled.
func TestTokenLeaderCancelled(t *testing.T) {
	t.Parallel()
	fake := newFake(t, eventsHandler)
	arrived := make(chan struct{}, 8)
	release := make(chan struct{})
	fake.set(func(f *fakeAPI) {
		f.jwtHandler = func(w http.ResponseWriter, r *http.Request) {
			arrived <- struct{}{}
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
			_, _ = io.WriteString(w, fake.issue(testAccount))
		}
	})
	c := fake.newClient(nil)
	leaderCtx, cancel := context.WithCancel(context.Background())
	leaderErr := make(chan error, 1)
	go func() {
		_, err := c.Token(leaderCtx, "")
		leaderErr <- err
	}()
	<-arrived // the leader's fetch is at the JWT endpoint
	followerErr := make(chan error, 1)
	go func() {
		_, err := c.Token(context.Background(), "")
		followerErr <- err
	}()
	// A nudge for the follower to join the fetch before the leader ends; the outcome is the
	// same if it joins later (it then starts a fetch of its own).
	time.Sleep(30 * time.Millisecond)
	cancel()
	if err := <-leaderErr; !errors.Is(err, context.Canceled) {
		t.Errorf("leader: %v", err)
	}
	close(release)
	if err := <-followerErr; err != nil {
		t.Errorf("follower: %v", err)
	}
}
