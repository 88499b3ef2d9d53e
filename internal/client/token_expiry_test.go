package client

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// TestTokenWithExpiry shares the token cache with Token, reports the cached expiry, and
// replaces a cached token that has less than the asked validity left.
func TestTokenWithExpiry(t *testing.T) {
	t.Parallel()
	f := newFake(t, eventsHandler)
	c := f.newClient(nil)
	var mu sync.Mutex
	now := time.Now()
	c.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }

	first, err := c.Token(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	token, expiresAt, err := c.TokenWithExpiry(t.Context(), "", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if token != first || f.jwtFetches.Load() != 1 {
		t.Errorf("TokenWithExpiry fetched again (%d fetches) instead of using Token's cached token", f.jwtFetches.Load())
	}
	if d := time.Until(expiresAt); d < 4*time.Minute || d > 5*time.Minute+time.Second {
		t.Errorf("expires in %v, want about 5m", d)
	}

	// Two minutes later the token still has three left: enough for a minute, not for four.
	advance(2 * time.Minute)
	if again, _, _ := c.TokenWithExpiry(t.Context(), "", time.Minute); again != first {
		t.Error("a token with 3m left was replaced although 1m was asked for")
	}
	fresh, _, err := c.TokenWithExpiry(t.Context(), testAccount, 4*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if fresh == first || f.jwtFetches.Load() != 2 {
		t.Errorf("a token with 3m left was kept although 4m was asked for (%d fetches)", f.jwtFetches.Load())
	}
	if cached, _ := c.Token(t.Context(), ""); cached != fresh {
		t.Error("Token does not return the token that TokenWithExpiry fetched")
	}

	// A service that issues shorter-lived tokens than asked for costs one fetch per call, not a loop.
	if _, _, err := c.TokenWithExpiry(t.Context(), "", time.Hour); err != nil {
		t.Fatal(err)
	}
	if got := f.jwtFetches.Load(); got != 3 {
		t.Errorf("%d fetches, want 3", got)
	}

	// Another account gets its own token.
	other, _, err := c.TokenWithExpiry(t.Context(), "acc-2", 0)
	if err != nil {
		t.Fatal(err)
	}
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(other, claims); err != nil || claims["acct"] != "acc-2" {
		t.Errorf("token for acc-2 carries account %v (%v)", claims["acct"], err)
	}
}

// TestTokenWithExpiryPreIssued returns the pre-issued JWT with its exp claim, refuses another
// account, and reports no expiry for a token without exp.
func TestTokenWithExpiryPreIssued(t *testing.T) {
	t.Parallel()
	f := newFake(t, eventsHandler)
	preIssued := f.issue(testAccount)
	c := f.newClient(func(cfg *Config) { cfg.Username, cfg.Password, cfg.AuthURL, cfg.JWT = "", "", "", preIssued })

	token, expiresAt, err := c.TokenWithExpiry(t.Context(), "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(preIssued, claims); err != nil {
		t.Fatal(err)
	}
	exp, err := claims.GetExpirationTime()
	if err != nil || exp == nil {
		t.Fatalf("the pre-issued JWT has no exp claim: %v", err)
	}
	want := exp.Time
	if token != preIssued || !expiresAt.Equal(want) || want.IsZero() {
		t.Errorf("got the pre-issued JWT %v, expiring %v; want it, expiring %v", token == preIssued, expiresAt, want)
	}
	if _, _, err := c.TokenWithExpiry(t.Context(), testAccount, 0); err != nil {
		t.Errorf("the configured account, named: %v", err)
	}
	if _, _, err := c.TokenWithExpiry(t.Context(), "acc-2", 0); !errors.Is(err, httpapi.ErrPreIssuedJWTAccount) {
		t.Errorf("another account: %v, want ErrPreIssuedJWTAccount", err)
	}
	if f.jwtFetches.Load() != 0 {
		t.Errorf("%d JWT fetches with a pre-issued JWT", f.jwtFetches.Load())
	}

	opaque := f.newClient(func(cfg *Config) { cfg.Username, cfg.Password, cfg.AuthURL, cfg.JWT = "", "", "", "opaque-token" })
	if _, expiresAt, err := opaque.TokenWithExpiry(t.Context(), "", 0); err != nil || !expiresAt.IsZero() {
		t.Errorf("a token that is not a JWT: expiry %v, error %v; want the zero time", expiresAt, err)
	}
}
