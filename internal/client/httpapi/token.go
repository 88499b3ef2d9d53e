package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/sync/singleflight"
)

const (
	// OpGenerateJWT names the JWT endpoint in errors and logs.
	OpGenerateJWT = "generate JWT"
	// defaultTokenLifetime is assumed for a token without an exp claim (the service's
	// documented lifetime).
	defaultTokenLifetime = 5 * time.Minute
	// maxRefreshMargin is the longest time before expiry at which a token is refreshed.
	maxRefreshMargin = 30 * time.Second
	// MaxTokenBytes bounds a token read from the JWT endpoint: it is sent in a header of
	// every request (servers commonly accept 8 KiB of headers) and handed to configurations.
	MaxTokenBytes = 16 << 10
)

// tokenCache holds one JWT per account. Fetches are deduplicated per account, so concurrent
// callers share one fetch.
type tokenCache struct {
	mu      sync.RWMutex
	entries map[string]cachedToken
	group   singleflight.Group
}

// cachedToken is a JWT with the moment from which it should be replaced.
type cachedToken struct {
	value     string
	expiresAt time.Time
	refreshAt time.Time
}

// fresh returns the account's token if it is not due for refresh at now.
func (tc *tokenCache) fresh(accountID string, now time.Time) (string, bool) {
	tc.mu.RLock()
	e, ok := tc.entries[accountID]
	tc.mu.RUnlock()
	if !ok || !now.Before(e.refreshAt) {
		return "", false
	}
	return e.value, true
}

// store caches a token.
func (tc *tokenCache) store(accountID string, t cachedToken) {
	tc.mu.Lock()
	tc.entries[accountID] = t
	tc.mu.Unlock()
}

// invalidate drops the account's token, but only if it is still the one that failed: a
// caller whose request failed with an old token must not throw away a token that another
// caller has just fetched.
func (tc *tokenCache) invalidate(accountID, failed string) {
	tc.mu.Lock()
	if e, ok := tc.entries[accountID]; ok && e.value == failed {
		delete(tc.entries, accountID)
	}
	tc.mu.Unlock()
}

// Token returns the JWT that authenticates calls for accountID ("" means the configured
// account): the pre-issued JWT when one is configured (for the configured account only: any
// other fails with ErrPreIssuedJWTAccount), else a cached token, fetched from
// {AuthURL}/auth/jwt/generate/{accountId} when there is none or it is about to expire.
// Concurrent callers for one account share a single fetch.
func (c *Client) Token(ctx context.Context, accountID string) (string, error) {
	if c.cfg.JWT != "" {
		return c.preIssued(accountID)
	}
	if id, err := c.Account(accountID); err == nil {
		if t, ok := c.tokens.fresh(id, c.now()); ok {
			return t, nil
		}
	}
	return c.token(maskSecrets(ctx, c.secrets...), accountID)
}

// token is Token on a context whose logger already masks the configured secrets.
func (c *Client) token(ctx context.Context, accountID string) (string, error) {
	if c.cfg.JWT != "" {
		return c.preIssued(accountID)
	}
	accountID, err := c.Account(accountID)
	if err != nil {
		return "", err
	}
	if t, ok := c.tokens.fresh(accountID, c.now()); ok {
		return t, nil
	}
	token, err := SharedFlight(ctx, &c.tokens.group, accountID, func() (string, error) {
		if t, ok := c.tokens.fresh(accountID, c.now()); ok {
			return t, nil
		}
		return c.fetchToken(ctx, accountID)
	})
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return "", fmt.Errorf("%s for account %q: %w", OpGenerateJWT, accountID, err)
	}
	return token, err
}

// IsContextError reports a cancellation or deadline.
func IsContextError(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// fetchToken generates a JWT for the account and caches it.
func (c *Client) fetchToken(ctx context.Context, accountID string) (string, error) {
	user, pass := c.cfg.basicCredentials()
	path := "/auth/jwt/generate/" + url.PathEscape(accountID)
	req := &httpRequest{
		operation: OpGenerateJWT,
		method:    http.MethodGet,
		url:       c.cfg.AuthURL + path,
		path:      path,
		basicUser: user,
		basicPass: pass,
		otp:       c.cfg.OTP,
		auth:      true,
	}
	if u, err := url.Parse(c.cfg.AuthURL); err == nil {
		req.path = strings.TrimRight(u.Path, "/") + path
	}
	resp, err := c.send(ctx, req)
	if err != nil {
		return "", err
	}
	if !resp.success() {
		return "", c.apiError(req, accountID, resp)
	}
	if resp.readErr != nil {
		return "", fmt.Errorf("could not read response of %s: %w", OpGenerateJWT, resp.readErr)
	}
	token, err := parseTokenBody(resp.Body)
	if err != nil {
		// The body is not quoted: it might hold a credential.
		return "", MalformedResponse(OpGenerateJWT, err)
	}
	fetchedAt := c.now()
	expiresAt, lifetime := tokenExpiry(token, fetchedAt)
	c.tokens.store(accountID, cachedToken{
		value:     token,
		expiresAt: expiresAt,
		refreshAt: expiresAt.Add(-refreshMargin(lifetime)),
	})
	return token, nil
}

// parseTokenBody reads a JWT from the endpoint's body: plain text, a JSON string, or a JSON
// object with a "token", "jwt" or "access_token" member.
func parseTokenBody(body []byte) (string, error) {
	data := bytes.TrimSpace(bytes.TrimPrefix(body, []byte("\xef\xbb\xbf")))
	if len(data) == 0 {
		return "", ErrNoBody
	}
	var token string
	switch data[0] {
	case '"':
		if err := json.Unmarshal(data, &token); err != nil {
			return "", errors.New("the body is not a valid JSON string")
		}
	case '{':
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(data, &obj); err != nil {
			return "", errors.New("the body is not a valid JSON object")
		}
		for _, key := range []string{"token", "jwt", "access_token", "accessToken"} {
			raw, ok := obj[key]
			if !ok {
				continue
			}
			var s string
			if json.Unmarshal(raw, &s) == nil && s != "" {
				token = s
				break
			}
		}
		if token == "" {
			return "", errors.New(`the JSON object has no "token", "jwt" or "access_token" string member`)
		}
	default:
		token = string(data)
	}
	token = strings.TrimSpace(token)
	if len(token) > 7 && strings.EqualFold(token[:7], "bearer ") {
		token = strings.TrimSpace(token[7:])
	}
	if token == "" {
		return "", errors.New("the token is empty")
	}
	if strings.ContainsAny(token, " \t\r\n\"'<>{}[]") || HasUnsafeRune(token) {
		return "", errors.New("the body is not a token")
	}
	if len(token) > MaxTokenBytes {
		return "", fmt.Errorf("the token is %d bytes long; at most %d are accepted", len(token), MaxTokenBytes)
	}
	return token, nil
}

// tokenExpiry returns when a token expires and its lifetime, from its exp (and iat) claims,
// read without verifying the signature. A token that is not a JWT or has no exp is assumed to
// live defaultTokenLifetime. With iat the lifetime does not depend on clock skew.
func tokenExpiry(token string, fetchedAt time.Time) (time.Time, time.Duration) {
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(token, claims); err != nil {
		return fetchedAt.Add(defaultTokenLifetime), defaultTokenLifetime
	}
	exp, err := claims.GetExpirationTime()
	if err != nil || exp == nil {
		return fetchedAt.Add(defaultTokenLifetime), defaultTokenLifetime
	}
	expiresAt := exp.Time
	lifetime := expiresAt.Sub(fetchedAt)
	if iat, err := claims.GetIssuedAt(); err == nil && iat != nil && exp.After(iat.Time) {
		lifetime = exp.Sub(iat.Time)
		if local := fetchedAt.Add(lifetime); local.Before(expiresAt) {
			expiresAt = local
		}
	}
	if lifetime <= 0 {
		lifetime = defaultTokenLifetime
	}
	if !expiresAt.After(fetchedAt) {
		// The local clock is ahead of the issuer's: trust the lifetime rather than refetch
		// on every call; a 401 still triggers a refresh.
		expiresAt = fetchedAt.Add(lifetime)
	}
	return expiresAt, lifetime
}

// refreshMargin is how long before expiry a token is replaced: min(30s, 20% of its lifetime).
func refreshMargin(lifetime time.Duration) time.Duration {
	m := lifetime / 5
	if m > maxRefreshMargin {
		m = maxRefreshMargin
	}
	return m
}
