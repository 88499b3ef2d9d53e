package mockserver_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

var testKey = []byte("test-signing-key")

func authUsers() []mockserver.User {
	return []mockserver.User{
		{Username: "demo", Password: "demo-password"},
		{Username: "tokenuser", APIToken: "tok-secret"},
		{Username: "both", Password: "both-pass", APIToken: "both-token"},
		{Username: "otpuser", Password: "otp-pass", OTP: "123456"},
		{Username: "otptoken", APIToken: "otp-token", OTP: "654321"},
		{Username: "limited", Password: "lim-pass", Accounts: []string{"acc-a", "acc-b"}},
	}
}

// decodeClaims verifies an HS256 JWT with key and returns its header and
// claims, independently of the package.
func decodeClaims(t *testing.T, token string, key []byte) (map[string]any, map[string]any) {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("token %q has %d parts", token, len(parts))
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(parts[0] + "." + parts[1]))
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || !hmac.Equal(sig, mac.Sum(nil)) {
		t.Fatalf("token signature does not verify with the configured key")
	}
	var header, claims map[string]any
	for i, dst := range []*map[string]any{&header, &claims} {
		b, err := base64.RawURLEncoding.DecodeString(parts[i])
		if err != nil {
			t.Fatalf("decode part %d: %v", i, err)
		}
		if err := json.Unmarshal(b, dst); err != nil {
			t.Fatalf("decode part %d: %v", i, err)
		}
	}
	return header, claims
}

// signToken builds an HS256 token with arbitrary header and claims.
func signToken(key []byte, header, claims map[string]any) string {
	enc := base64.RawURLEncoding
	h, _ := json.Marshal(header)
	c, _ := json.Marshal(claims)
	input := enc.EncodeToString(h) + "." + enc.EncodeToString(c)
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(input))
	return input + "." + enc.EncodeToString(mac.Sum(nil))
}

func TestJWTGeneration(t *testing.T) {
	e := newEnv(t, mockserver.Config{Users: authUsers(), SigningKey: testKey})
	tests := []struct {
		name     string
		account  string
		user     string
		password string
		basic    bool // send Basic auth
		otp      string
		header   string // raw Authorization instead of Basic
		want     int
		wantSub  string
	}{
		{name: "password", account: "acc-1", user: "demo", password: "demo-password", basic: true, want: 200, wantSub: "demo"},
		{name: "wrong password", account: "acc-1", user: "demo", password: "nope", basic: true, want: 401},
		{name: "unknown user", account: "acc-1", user: "ghost", password: "demo-password", basic: true, want: 401},
		{name: "no credentials", account: "acc-1", want: 401},
		{name: "bearer instead of basic", account: "acc-1", header: "Bearer abc", want: 401},
		{name: "malformed basic", account: "acc-1", header: "Basic !!!", want: 401},
		{name: "api token", account: "acc-1", user: "PLATFORM_TOKEN.tokenuser", password: "tok-secret", basic: true, want: 200, wantSub: "tokenuser"},
		{name: "api token without prefix", account: "acc-1", user: "tokenuser", password: "tok-secret", basic: true, want: 401},
		{name: "api token user has no password", account: "acc-1", user: "tokenuser", password: "", basic: true, want: 401},
		{name: "wrong api token", account: "acc-1", user: "PLATFORM_TOKEN.tokenuser", password: "other", basic: true, want: 401},
		{name: "password as api token", account: "acc-1", user: "PLATFORM_TOKEN.demo", password: "demo-password", basic: true, want: 401},
		{name: "user with both, password", account: "acc-1", user: "both", password: "both-pass", basic: true, want: 200, wantSub: "both"},
		{name: "user with both, api token", account: "acc-1", user: "PLATFORM_TOKEN.both", password: "both-token", basic: true, want: 200, wantSub: "both"},
		{name: "otp missing", account: "acc-1", user: "otpuser", password: "otp-pass", basic: true, want: 401},
		{name: "otp wrong", account: "acc-1", user: "otpuser", password: "otp-pass", basic: true, otp: "000000", want: 401},
		{name: "otp right", account: "acc-1", user: "otpuser", password: "otp-pass", basic: true, otp: "123456", want: 200, wantSub: "otpuser"},
		{name: "otp right, wrong password", account: "acc-1", user: "otpuser", password: "x", basic: true, otp: "123456", want: 401},
		{name: "otp with api token", account: "acc-1", user: "PLATFORM_TOKEN.otptoken", password: "otp-token", basic: true, otp: "654321", want: 200, wantSub: "otptoken"},
		// Regression: users with two-factor authentication use an API token instead of the
		// password, so an API-token login needs no OTP.
		{name: "otp missing with api token", account: "acc-1", user: "PLATFORM_TOKEN.otptoken", password: "otp-token", basic: true, want: 200, wantSub: "otptoken"},
		{name: "otp wrong with api token", account: "acc-1", user: "PLATFORM_TOKEN.otptoken", password: "otp-token", basic: true, otp: "000000", want: 200, wantSub: "otptoken"},
		{name: "account allowed", account: "acc-b", user: "limited", password: "lim-pass", basic: true, want: 200, wantSub: "limited"},
		{name: "account not allowed", account: "acc-1", user: "limited", password: "lim-pass", basic: true, want: 403},
		// Account ids are compared byte for byte (as httpapi.SameAccount does).
		{name: "account allowed, in another letter case", account: "ACC-B", user: "limited", password: "lim-pass", basic: true, want: 403},
		{name: "account not allowed, wrong password", account: "acc-1", user: "limited", password: "x", basic: true, want: 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := e.with(t)
			path := "/auth/jwt/generate/" + tt.account
			before := e.srv.JWTFetches()
			r := e.doHeaders(http.MethodGet, path, nil, func(h http.Header) {
				if tt.basic {
					(&http.Request{Header: h}).SetBasicAuth(tt.user, tt.password)
				}
				if tt.header != "" {
					h.Set("Authorization", tt.header)
				}
				if tt.otp != "" {
					h.Set("X-Platform-OTP", tt.otp)
				}
			})
			switch tt.want {
			case http.StatusUnauthorized:
				r.wantNoBody(t, http.StatusUnauthorized)
			case http.StatusForbidden:
				r.wantError(t, http.StatusForbidden, "Forbidden", path, "Access Denied")
			default:
				r.wantStatus(t, http.StatusOK)
				var body struct {
					Token string `json:"token"`
				}
				decodeStrict(t, r.body, &body)
				_, claims := decodeClaims(t, body.Token, testKey)
				if claims["sub"] != tt.wantSub || claims["accountId"] != tt.account {
					t.Errorf("claims = %v, want sub %q accountId %q", claims, tt.wantSub, tt.account)
				}
			}
			wantFetches := before
			if tt.want == http.StatusOK {
				wantFetches++
			}
			if got := e.srv.JWTFetches(); got != wantFetches {
				t.Errorf("JWTFetches = %d, want %d", got, wantFetches)
			}
		})
	}
}

func TestJWTClaimsAndTTL(t *testing.T) {
	e := newEnv(t, mockserver.Config{SigningKey: testKey})
	check := func(wantTTL int64) {
		t.Helper()
		before := time.Now().Unix()
		token := e.jwt(testAccount)
		header, claims := decodeClaims(t, token, testKey)
		if header["alg"] != "HS256" {
			t.Errorf("alg = %v, want HS256", header["alg"])
		}
		iat, _ := claims["iat"].(float64)
		exp, _ := claims["exp"].(float64)
		if int64(iat) < before || int64(iat) > time.Now().Unix() {
			t.Errorf("iat = %v, want about now (%d)", iat, before)
		}
		if d := int64(exp) - int64(iat); d < wantTTL || d > wantTTL+1 {
			t.Errorf("exp - iat = %d, want %d", d, wantTTL)
		}
		if claims["sub"] != testUser || claims["accountId"] != testAccount {
			t.Errorf("claims = %v", claims)
		}
	}
	check(300) // the spec's 5 minutes
	e.srv.SetJWTTTL(2 * time.Minute)
	check(120)
	e.srv.SetJWTTTL(0)
	check(300)

	// A negative TTL issues tokens that are already expired.
	e.srv.SetJWTTTL(-time.Minute)
	token := e.jwt(testAccount)
	e.do(http.MethodGet, subsPath(testAccount), token, nil).wantNoBody(t, http.StatusUnauthorized)
}

func TestJWTShapes(t *testing.T) {
	tests := []struct {
		shape       mockserver.JWTShape
		contentType string
		extract     func(t *testing.T, b []byte) string
	}{
		{mockserver.JWTObjectToken, "application/json", func(t *testing.T, b []byte) string {
			var v struct {
				Token string `json:"token"`
			}
			decodeStrict(t, b, &v)
			return v.Token
		}},
		{mockserver.JWTPlainText, "text/plain", func(_ *testing.T, b []byte) string { return string(b) }},
		{mockserver.JWTJSONString, "application/json", func(t *testing.T, b []byte) string {
			var v string
			decodeStrict(t, b, &v)
			return v
		}},
		{mockserver.JWTObjectJWT, "application/json", func(t *testing.T, b []byte) string {
			var v struct {
				JWT string `json:"jwt"`
			}
			decodeStrict(t, b, &v)
			return v.JWT
		}},
		{mockserver.JWTObjectAccessToken, "application/json", func(t *testing.T, b []byte) string {
			var v struct {
				AccessToken string `json:"access_token"`
			}
			decodeStrict(t, b, &v)
			return v.AccessToken
		}},
	}
	e := newEnv(t, mockserver.Config{SigningKey: testKey})
	for _, tt := range tests {
		e.srv.SetJWTShape(tt.shape)
		r := e.doHeaders(http.MethodGet, "/auth/jwt/generate/"+testAccount, nil, func(h http.Header) {
			(&http.Request{Header: h}).SetBasicAuth(testUser, testPassword)
		})
		r.wantStatus(t, http.StatusOK)
		if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, tt.contentType) {
			t.Errorf("shape %d: Content-Type = %q, want %s", tt.shape, ct, tt.contentType)
		}
		token := tt.extract(t, r.body)
		decodeClaims(t, token, testKey)
		e.do(http.MethodGet, "/rest/v1/events", token, nil).wantStatus(t, http.StatusOK)
	}
}

func TestServiceAuth(t *testing.T) {
	e := newEnv(t, mockserver.Config{SigningKey: testKey})
	other := mockserver.New(mockserver.Config{})
	valid := e.jwt(testAccount)
	parts := strings.Split(valid, ".")
	future := time.Now().Add(time.Hour).Unix()
	tamperedClaims, _ := json.Marshal(map[string]any{"sub": testUser, "accountId": "acc-other", "exp": future})
	tampered := parts[0] + "." + base64.RawURLEncoding.EncodeToString(tamperedClaims) + "." + parts[2]

	tests := []struct {
		name   string
		header string
		want   int
	}{
		{"valid", "Bearer " + valid, http.StatusNoContent},
		{"lower-case scheme", "bearer " + valid, http.StatusNoContent},
		{"missing", "", http.StatusUnauthorized},
		{"scheme only", "Bearer", http.StatusUnauthorized},
		{"basic", "Basic ZGVtbzpkZW1vLXBhc3N3b3Jk", http.StatusUnauthorized},
		{"garbage", "Bearer not-a-jwt", http.StatusUnauthorized},
		{"bad signature", "Bearer " + other.IssueJWT(testAccount, testUser, time.Now().Add(time.Hour)), http.StatusUnauthorized},
		{"tampered claims", "Bearer " + tampered, http.StatusUnauthorized},
		{"expired", "Bearer " + e.srv.IssueJWT(testAccount, testUser, time.Now().Add(-time.Second)), http.StatusUnauthorized},
		{"alg none", "Bearer " + base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none"}`)) + "." + parts[1] + ".", http.StatusUnauthorized},
		{"alg HS512 header", "Bearer " + signToken(testKey, map[string]any{"alg": "HS512"}, map[string]any{"sub": testUser, "accountId": testAccount, "exp": future}), http.StatusUnauthorized},
		{"no exp", "Bearer " + signToken(testKey, map[string]any{"alg": "HS256"}, map[string]any{"sub": testUser, "accountId": testAccount}), http.StatusUnauthorized},
		{"no accountId", "Bearer " + signToken(testKey, map[string]any{"alg": "HS256"}, map[string]any{"sub": testUser, "exp": future}), http.StatusUnauthorized},
		{"no sub", "Bearer " + signToken(testKey, map[string]any{"alg": "HS256"}, map[string]any{"accountId": testAccount, "exp": future}), http.StatusUnauthorized},
		{"issued by IssueJWT", "Bearer " + e.srv.IssueJWT(testAccount, "someone", time.Now().Add(time.Minute)), http.StatusNoContent},
		{"other account", "Bearer " + e.jwt("acc-other"), http.StatusForbidden},
	}
	path := subsPath(testAccount)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := e.with(t)
			r := e.doHeaders(http.MethodGet, path, nil, func(h http.Header) {
				if tt.header != "" {
					h.Set("Authorization", tt.header)
				}
			})
			switch tt.want {
			case http.StatusForbidden:
				r.wantError(t, http.StatusForbidden, "Forbidden", path, "Access Denied")
			default:
				r.wantNoBody(t, tt.want)
			}
		})
	}
}

// TestEveryOperationAuthenticates runs the two auth rules against each
// operation: no token is 401 without a body, a token of another account
// is 403; the catalogues take a token of any account.
func TestEveryOperationAuthenticates(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	otherToken := e.jwt("acc-other")
	id := "3f1c2a9e-8b7d-4c5e-9f01-23456789abcd"
	ops := []struct {
		method, path string
		body         any
	}{
		{http.MethodGet, subsPath(testAccount), nil},
		{http.MethodPut, subsPath(testAccount), map[string]any{"subscriptions": []any{validItem()}}},
		{http.MethodPost, subsPath(testAccount), map[string]any{"subscriptions": []any{validItem()}}},
		{http.MethodDelete, subsPath(testAccount), nil},
		{http.MethodPatch, subsPath(testAccount), map[string]any{"operation": "delete", "subscriptionIds": []string{id}}},
		{http.MethodGet, subsPath(testAccount) + "/" + id, nil},
		{http.MethodPut, subsPath(testAccount) + "/" + id, map[string]any{"subscription": validItem()}},
		{http.MethodDelete, subsPath(testAccount) + "/" + id, nil},
		{http.MethodPost, "/rest/v1/accounts/" + testAccount + "/eventStreams/topic/subscription",
			map[string]any{"eventStreamsEnvironmentId": "e", "eventStreamsSubscriptionName": "s", "topicName": "t"}},
	}
	for _, op := range ops {
		t.Run(op.method+" "+op.path, func(t *testing.T) {
			e := e.with(t)
			e.do(op.method, op.path, "", op.body).wantNoBody(t, http.StatusUnauthorized)
			e.do(op.method, op.path, otherToken, op.body).wantError(t, http.StatusForbidden, "Forbidden", op.path, "Access Denied")
		})
	}
	if n := len(e.srv.Subscriptions(testAccount)); n != 0 {
		t.Errorf("unauthorised calls stored %d subscriptions", n)
	}
	for _, path := range []string{"/rest/v1/log-levels", "/rest/v1/events", "/rest/v1/destination-types"} {
		e.do(http.MethodGet, path, "", nil).wantNoBody(t, http.StatusUnauthorized)
		e.do(http.MethodGet, path, otherToken, nil).wantStatus(t, http.StatusOK)
		expired := e.srv.IssueJWT(testAccount, testUser, time.Now().Add(-time.Minute))
		e.do(http.MethodGet, path, expired, nil).wantNoBody(t, http.StatusUnauthorized)
	}
}

func TestAddUser(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	e.srv.AddUser(mockserver.User{Username: "ci", Password: "pw", Accounts: []string{testAccount}})
	token := e.jwtAs(testAccount, "ci", "pw", "")
	e.do(http.MethodGet, subsPath(testAccount), token, nil).wantNoBody(t, http.StatusNoContent)
	// Replacing the user changes the password.
	e.srv.AddUser(mockserver.User{Username: "ci", Password: "pw2"})
	r := e.doHeaders(http.MethodGet, "/auth/jwt/generate/"+testAccount, nil, func(h http.Header) {
		(&http.Request{Header: h}).SetBasicAuth("ci", "pw")
	})
	r.wantNoBody(t, http.StatusUnauthorized)
	e.jwtAs("anything", "ci", "pw2", "")
	// The default user exists only when Config.Users is empty.
	e2 := newEnv(t, mockserver.Config{Users: []mockserver.User{{Username: "x", Password: "y"}}})
	r = e2.doHeaders(http.MethodGet, "/auth/jwt/generate/"+testAccount, nil, func(h http.Header) {
		(&http.Request{Header: h}).SetBasicAuth(testUser, testPassword)
	})
	r.wantNoBody(t, http.StatusUnauthorized)
}

// TestDefaultUser shows that a Server configured with no users accepts its default user (the
// harness always configures users, so it starts this server itself).
func TestDefaultUser(t *testing.T) {
	ts := httptest.NewServer(mockserver.New(mockserver.Config{}))
	t.Cleanup(ts.Close)
	e := &testEnv{t: t, ts: ts}
	token := e.jwtAs(testAccount, mockserver.DefaultUsername, mockserver.DefaultPassword, "")
	e.do(http.MethodGet, subsPath(testAccount), token, nil).wantNoBody(t, http.StatusNoContent)
}
