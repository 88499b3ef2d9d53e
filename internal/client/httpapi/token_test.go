package httpapi

import (
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// TestParseTokenBody covers good and bad bodies of the JWT endpoint without a server.
func TestParseTokenBody(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body, want string
		wantErr    bool
	}{
		{"abc.def.ghi", "abc.def.ghi", false},
		{"\xef\xbb\xbf abc.def.ghi\n", "abc.def.ghi", false},
		{`"abc.def.ghi"`, "abc.def.ghi", false},
		{`{"token":"t1"}`, "t1", false},
		{`{"jwt":"t2","other":1}`, "t2", false},
		{`{"access_token":"t3","token_type":"Bearer"}`, "t3", false},
		{`{"token":"","jwt":"t4"}`, "t4", false},
		{"Bearer abc.def.ghi", "abc.def.ghi", false},
		{"", "", true},
		{"   \n", "", true},
		{`""`, "", true},
		{`"unterminated`, "", true},
		{`{"token":`, "", true},
		{`{"foo":"bar"}`, "", true},
		{`{"token":42}`, "", true},
		{"<html><body>login</body></html>", "", true},
		{"two words", "", true},
	}
	for _, tc := range tests {
		got, err := parseTokenBody([]byte(tc.body))
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("parseTokenBody(%q) = %q, %v; want %q, error %t", tc.body, got, err, tc.want, tc.wantErr)
		}
	}
}

// TestTokenExpiry covers the expiry rules on crafted tokens.
func TestTokenExpiry(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_700_000_000, 0)
	sign := func(claims jwt.MapClaims) string {
		s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte("k"))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	tests := []struct {
		name         string
		token        string
		wantExpires  time.Time
		wantLifetime time.Duration
		wantMargin   time.Duration
	}{
		{"not a JWT", "opaque-token", now.Add(5 * time.Minute), 5 * time.Minute, 30 * time.Second},
		{"no exp", sign(jwt.MapClaims{"sub": "x"}), now.Add(5 * time.Minute), 5 * time.Minute, 30 * time.Second},
		{"exp only", sign(jwt.MapClaims{"exp": now.Add(5 * time.Minute).Unix()}), now.Add(5 * time.Minute), 5 * time.Minute, 30 * time.Second},
		{"exp and iat, 2s", sign(jwt.MapClaims{"iat": now.Unix(), "exp": now.Add(2 * time.Second).Unix()}), now.Add(2 * time.Second), 2 * time.Second, 400 * time.Millisecond},
		{"local clock behind issuer", sign(jwt.MapClaims{"iat": now.Add(time.Hour).Unix(), "exp": now.Add(time.Hour + time.Minute).Unix()}), now.Add(time.Minute), time.Minute, 12 * time.Second},
		{"local clock ahead, no iat", sign(jwt.MapClaims{"exp": now.Add(-time.Hour).Unix()}), now.Add(5 * time.Minute), 5 * time.Minute, 30 * time.Second},
		{"exp as string is ignored", sign(jwt.MapClaims{"exp": "soon"}), now.Add(5 * time.Minute), 5 * time.Minute, 30 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			exp, life := tokenExpiry(tc.token, now)
			if !exp.Equal(tc.wantExpires) || life != tc.wantLifetime {
				t.Errorf("tokenExpiry = %v, %v; want %v, %v", exp.Sub(now), life, tc.wantExpires.Sub(now), tc.wantLifetime)
			}
			if m := refreshMargin(life); m != tc.wantMargin {
				t.Errorf("refreshMargin = %v, want %v", m, tc.wantMargin)
			}
		})
	}
}

// TestInvalidateOnlyFailedToken: a stale failure does not discard a newer token.
func TestInvalidateOnlyFailedToken(t *testing.T) {
	t.Parallel()
	var tc tokenCache
	tc.entries = map[string]cachedToken{}
	far := time.Now().Add(time.Hour)
	tc.store("a", cachedToken{value: "new", expiresAt: far, refreshAt: far})
	tc.invalidate("a", "old")
	if _, ok := tc.fresh("a", time.Now()); !ok {
		t.Fatal("newer token was discarded")
	}
	tc.invalidate("a", "new")
	if _, ok := tc.fresh("a", time.Now()); ok {
		t.Fatal("failed token was kept")
	}
}
