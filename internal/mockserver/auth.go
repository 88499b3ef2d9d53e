package mockserver

import (
	"crypto/subtle"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"
)

// APITokenPrefix prefixes the Basic auth user name of an API-token login.
const APITokenPrefix = "PLATFORM_TOKEN."

// OTPHeader carries the one-time password on JWT generation.
const OTPHeader = "X-Platform-OTP"

// IssueJWT returns a token signed as the server signs them, for accountID
// and username, expiring at expiresAt (truncated to whole seconds; a past
// expiresAt gives an expired token). It does not count as a JWT fetch.
func (s *Server) IssueJWT(accountID, username string, expiresAt time.Time) string {
	now := time.Now()
	s.mu.Lock()
	key := s.key
	s.mu.Unlock()
	return signJWT(key, jwtClaims{
		Subject:   username,
		AccountID: accountID,
		IssuedAt:  now.Unix(),
		ExpiresAt: expiresAt.Unix(),
	})
}

// generateJWT serves GET /auth/jwt/generate/{accountId}.
func (s *Server) generateJWT(w http.ResponseWriter, r *http.Request, accountID string) {
	name, secret, ok := r.BasicAuth()
	if !ok {
		s.unauthorizedBasic(w, r)
		return
	}
	now := time.Now()
	s.mu.Lock()
	u, viaToken, ok := s.login(name, secret)
	ttl, shape, key := s.jwtTTL, s.jwtShape, s.key
	s.mu.Unlock()
	if !ok {
		s.unauthorizedBasic(w, r)
		return
	}
	// Users with two-factor authentication use an API token instead of the password
	// (SERVICE.md authentication rule 4): only a password login of such a user needs the OTP.
	if u.OTP != "" && !viaToken && subtle.ConstantTimeCompare([]byte(r.Header.Get(OTPHeader)), []byte(u.OTP)) != 1 {
		s.unauthorizedBasic(w, r)
		return
	}
	// Account ids are compared byte for byte, here and in authenticate, as the client's
	// SameAccount does: "ACC-1" is another account than "acc-1".
	if len(u.Accounts) > 0 && !slices.Contains(u.Accounts, accountID) {
		writeSpecError(w, r, http.StatusForbidden, msgAccessDenied)
		return
	}
	// exp is rounded up to a whole second so that a token lives at least ttl.
	exp := int64(math.Ceil(float64(now.Add(ttl).UnixMilli()) / 1000))
	token := signJWT(key, jwtClaims{Subject: u.Username, AccountID: accountID, IssuedAt: now.Unix(), ExpiresAt: exp})
	s.mu.Lock()
	s.jwtFetches++
	s.mu.Unlock()
	writeToken(w, r, shape, token)
}

func (s *Server) unauthorizedBasic(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("WWW-Authenticate", `Basic realm="eventnotify"`)
	writeError(w, r, http.StatusUnauthorized, "")
}

// login checks Basic credentials: an API token for "PLATFORM_TOKEN.<user>",
// else a password for the user name; viaToken tells which. The caller holds
// s.mu.
func (s *Server) login(name, secret string) (u User, viaToken, ok bool) {
	if rest, ok := strings.CutPrefix(name, APITokenPrefix); ok {
		if u, found := s.users[rest]; found && u.APIToken != "" && equalSecret(u.APIToken, secret) {
			return cloneUser(u), true, true
		}
	}
	if u, found := s.users[name]; found && u.Password != "" && equalSecret(u.Password, secret) {
		return cloneUser(u), false, true
	}
	return User{}, false, false
}

func equalSecret(want, got string) bool {
	return subtle.ConstantTimeCompare([]byte(want), []byte(got)) == 1
}

// writeToken writes the JWT endpoint's body in the configured shape.
func writeToken(w http.ResponseWriter, r *http.Request, shape JWTShape, token string) {
	switch shape {
	case JWTPlainText:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(token))
	case JWTJSONString:
		writeJSON(w, r, http.StatusOK, token)
	case JWTObjectJWT:
		writeJSON(w, r, http.StatusOK, map[string]string{"jwt": token})
	case JWTObjectAccessToken:
		writeJSON(w, r, http.StatusOK, map[string]string{"access_token": token})
	case JWTObjectAccessTokenCamel:
		writeJSON(w, r, http.StatusOK, map[string]string{"accessToken": token})
	default:
		writeJSON(w, r, http.StatusOK, map[string]string{"token": token})
	}
}

// authenticate checks the bearer JWT of a service call. It returns the
// token's user name and 0, or 401 (no, malformed, badly signed or expired
// token) or 403 (token for another account than the path's).
func (s *Server) authenticate(r *http.Request, m routeMatch) (string, int) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", http.StatusUnauthorized
	}
	s.mu.Lock()
	key := s.key
	s.mu.Unlock()
	c, err := parseJWT(key, strings.TrimSpace(token), time.Now())
	if err != nil {
		return "", http.StatusUnauthorized
	}
	if m.accountID != "" && c.AccountID != m.accountID {
		return "", http.StatusForbidden
	}
	return c.Subject, 0
}
