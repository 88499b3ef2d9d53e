package httpapi

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// ErrPreIssuedJWTAccount is returned by TokenWithExpiry when the Client holds a pre-issued JWT
// and is asked for a token of another account than its own: it cannot generate one.
var ErrPreIssuedJWTAccount = errors.New("a pre-issued JWT authenticates the configured account only; " +
	"a JWT for another account needs Basic credentials (username with password or API token)")

// preIssued returns the pre-issued JWT for a call of accountID ("" means the configured
// account), or ErrPreIssuedJWTAccount when accountID is another account than the configured
// one: the token was issued for that account and is never sent with a request for another.
// A Client without a configured account sends it for the account its caller names.
func (c *Client) preIssued(accountID string) (string, error) {
	if c.cfg.AccountID != "" && accountID != "" && !SameAccount(accountID, c.cfg.AccountID) {
		return "", fmt.Errorf("%s for account %q: %w", OpGenerateJWT, accountID, ErrPreIssuedJWTAccount)
	}
	return c.cfg.JWT, nil
}

// entry returns the account's cached token, whatever its age.
func (tc *tokenCache) entry(accountID string) (cachedToken, bool) {
	tc.mu.RLock()
	defer tc.mu.RUnlock()
	e, ok := tc.entries[accountID]
	return e, ok
}

// TokenWithExpiry is Token for a caller that hands the JWT on, such as the eventnotify_jwt
// ephemeral resource: it also returns when the token expires, and it shares the cache of
// Token, except that a cached token with less than minValidity left is replaced by a new one
// (one fetch; a token that the service issues with a shorter lifetime is returned as it is).
//
// With a pre-issued JWT it returns that JWT and the time of its exp claim (the zero time when
// it has none, or is not a JWT), and ErrPreIssuedJWTAccount for an account other than the
// configured one.
func (c *Client) TokenWithExpiry(ctx context.Context, accountID string, minValidity time.Duration) (string, time.Time, error) {
	if c.cfg.JWT != "" {
		token, err := c.preIssued(accountID)
		if err != nil {
			return "", time.Time{}, err
		}
		return token, expClaim(token), nil
	}
	id, err := c.Account(accountID)
	if err != nil {
		return "", time.Time{}, err
	}
	if e, ok := c.tokens.entry(id); ok && e.expiresAt.Sub(c.now()) < minValidity {
		c.tokens.invalidate(id, e.value)
	}
	token, err := c.Token(ctx, id)
	if err != nil {
		return "", time.Time{}, err
	}
	if e, ok := c.tokens.entry(id); ok && e.value == token {
		return token, e.expiresAt, nil
	}
	// Another caller replaced the entry in between: read the expiry from the token itself.
	expiresAt, _ := tokenExpiry(token, c.now())
	return token, expiresAt, nil
}

// expClaim returns the time of a JWT's exp claim, read without verifying the signature, or
// the zero time when the token is not a JWT or has no exp.
func expClaim(token string) time.Time {
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(token, claims); err != nil {
		return time.Time{}
	}
	exp, err := claims.GetExpirationTime()
	if err != nil || exp == nil {
		return time.Time{}
	}
	return exp.Time
}
