package mockserver

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"time"
)

// jwtClaims are the claims of the JWTs the server issues.
type jwtClaims struct {
	Subject   string `json:"sub"`
	AccountID string `json:"accountId"`
	IssuedAt  int64  `json:"iat"`
	ExpiresAt int64  `json:"exp"`
}

// jwtHeader is the fixed JOSE header of the issued JWTs.
const jwtHeader = `{"alg":"HS256","typ":"JWT"}`

var (
	errTokenMalformed = errors.New("malformed token")
	errTokenSignature = errors.New("bad token signature")
	errTokenAlgorithm = errors.New("unsupported token algorithm")
	errTokenClaims    = errors.New("missing or invalid token claims")
	errTokenExpired   = errors.New("token expired")
)

// signJWT returns an HS256-signed compact JWT carrying c.
func signJWT(key []byte, c jwtClaims) string {
	payload, _ := json.Marshal(c) // a struct of strings and integers always encodes
	enc := base64.RawURLEncoding
	signingInput := enc.EncodeToString([]byte(jwtHeader)) + "." + enc.EncodeToString(payload)
	return signingInput + "." + enc.EncodeToString(hmacSHA256(key, signingInput))
}

func hmacSHA256(key []byte, input string) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(input))
	return mac.Sum(nil)
}

// parseJWT verifies token (HS256 with key, then exp against now) and
// returns its claims. sub, accountId and exp are required.
func parseJWT(key []byte, token string, now time.Time) (jwtClaims, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return jwtClaims{}, errTokenMalformed
	}
	enc := base64.RawURLEncoding
	headerJSON, err := enc.DecodeString(parts[0])
	if err != nil {
		return jwtClaims{}, errTokenMalformed
	}
	var header struct {
		Alg string `json:"alg"`
	}
	if json.Unmarshal(headerJSON, &header) != nil {
		return jwtClaims{}, errTokenMalformed
	}
	if header.Alg != "HS256" {
		return jwtClaims{}, errTokenAlgorithm
	}
	sig, err := enc.DecodeString(parts[2])
	if err != nil {
		return jwtClaims{}, errTokenMalformed
	}
	if !hmac.Equal(sig, hmacSHA256(key, parts[0]+"."+parts[1])) {
		return jwtClaims{}, errTokenSignature
	}
	payload, err := enc.DecodeString(parts[1])
	if err != nil {
		return jwtClaims{}, errTokenMalformed
	}
	var raw struct {
		Subject   string       `json:"sub"`
		AccountID string       `json:"accountId"`
		IssuedAt  *json.Number `json:"iat"`
		ExpiresAt *json.Number `json:"exp"`
	}
	if json.Unmarshal(payload, &raw) != nil {
		return jwtClaims{}, errTokenClaims
	}
	if raw.Subject == "" || raw.AccountID == "" || raw.ExpiresAt == nil {
		return jwtClaims{}, errTokenClaims
	}
	exp, err := raw.ExpiresAt.Float64()
	if err != nil || math.IsNaN(exp) || math.IsInf(exp, 0) {
		return jwtClaims{}, errTokenClaims
	}
	if float64(now.UnixMilli())/1000 >= exp {
		return jwtClaims{}, errTokenExpired
	}
	c := jwtClaims{Subject: raw.Subject, AccountID: raw.AccountID, ExpiresAt: int64(math.Min(exp, math.MaxInt64/2))}
	if raw.IssuedAt != nil {
		if iat, err := raw.IssuedAt.Int64(); err == nil {
			c.IssuedAt = iat
		}
	}
	return c, nil
}
