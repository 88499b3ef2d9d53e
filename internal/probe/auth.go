package probe

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// jwtMembers are the members of a JWT object body that the provider reads, in its order.
var jwtMembers = []string{"token", "jwt", "access_token", "accessToken"}

// authenticate obtains the JWT: the pre-issued one, or one generated with the Basic
// credentials (sent to the auth URL only), recording the body's shape.
func (p *prober) authenticate(ctx context.Context) error {
	if p.cfg.JWT != "" {
		p.token = p.cfg.JWT
		p.f.unknown(JWTBody, "a JWT was given (EVENTNOTIFY_JWT), so none was generated")
		p.f.unknown(JWTMember, "a JWT was given (EVENTNOTIFY_JWT), so none was generated")
		return nil
	}
	user, pass := p.cfg.basicCredentials()
	h := http.Header{"Authorization": {"Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))}}
	if p.cfg.OTP != "" {
		h.Set("X-Platform-OTP", p.cfg.OTP)
	}
	u := p.cfg.AuthURL + "/auth/jwt/generate/" + url.PathEscape(p.cfg.AccountID)
	a, err := p.c.do(ctx, http.MethodGet, u, h, nil)
	if err != nil {
		return fmt.Errorf("generating a JWT: %w", err)
	}
	switch a.status {
	case http.StatusOK:
	case http.StatusUnauthorized:
		return errors.New("generating a JWT: the credentials were refused (401): check EVENTNOTIFY_USERNAME and EVENTNOTIFY_PASSWORD " +
			"or EVENTNOTIFY_API_TOKEN (sent with the user name PLATFORM_TOKEN.<username>), and EVENTNOTIFY_OTP for an account with two-factor authentication")
	case http.StatusForbidden:
		return fmt.Errorf("generating a JWT: the user may not access account %q (403): check EVENTNOTIFY_ACCOUNT_ID or -account", p.cfg.AccountID)
	default:
		return fmt.Errorf("generating a JWT: %s answered %d: check EVENTNOTIFY_AUTH_URL", withoutQuery(u), a.status)
	}
	shape, member, token, err := classifyJWTBody(a.body)
	if err != nil {
		return fmt.Errorf("generating a JWT: %w", err)
	}
	p.token = token
	switch shape {
	case "object":
		p.f.set(JWTBody, shape, "the JWT endpoint answered a JSON object holding the token")
		p.f.set(JWTMember, member, "the token is the object's %q member", member)
	case "string":
		p.f.set(JWTBody, shape, "the JWT endpoint answered a JSON string")
		p.f.unknown(JWTMember, "the body is a JSON string, not an object")
	default:
		p.f.set(JWTBody, shape, "the JWT endpoint answered the bare token (Content-Type %q)", a.header.Get("Content-Type"))
		p.f.unknown(JWTMember, "the body is the bare token, not an object")
	}
	return nil
}

// classifyJWTBody reads the JWT endpoint's body: "text" (the bare token), "string" (a JSON
// string) or "object" (a JSON object, with the member holding the token). Its errors never
// quote the body, which holds a credential.
func classifyJWTBody(body []byte) (shape, member, token string, err error) {
	data := bytes.TrimSpace(bytes.TrimPrefix(body, []byte("\xef\xbb\xbf")))
	if len(data) == 0 {
		return "", "", "", errors.New("the JWT endpoint answered an empty body")
	}
	switch data[0] {
	case '"':
		if json.Unmarshal(data, &token) != nil {
			return "", "", "", errors.New("the JWT endpoint's body starts as a JSON string but is not one")
		}
		shape = "string"
	case '{':
		var o map[string]json.RawMessage
		if json.Unmarshal(data, &o) != nil {
			return "", "", "", errors.New("the JWT endpoint's body starts as a JSON object but is not one")
		}
		for _, m := range jwtMembers {
			var s string
			if json.Unmarshal(o[m], &s) == nil && s != "" {
				token, member = s, m
				break
			}
		}
		if token == "" {
			names := make([]string, 0, len(o))
			for k := range o {
				names = append(names, k)
			}
			return "", "", "", fmt.Errorf("the JWT endpoint answered a JSON object without a token, jwt or access_token string member (its members: %s)", strings.Join(names, ", "))
		}
		shape = "object"
	default:
		token, shape = string(data), "text"
	}
	token = strings.TrimSpace(token)
	if len(token) > 7 && strings.EqualFold(token[:7], "bearer ") {
		token = strings.TrimSpace(token[7:])
	}
	if token == "" || strings.ContainsAny(token, " \t\r\n") {
		return "", "", "", errors.New("the JWT endpoint's token is empty or holds white space")
	}
	return shape, member, token, nil
}
