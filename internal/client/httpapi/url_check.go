package httpapi

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// hiddenUserinfo stands for the user information, the query or the fragment of a URL in
// error messages.
const hiddenUserinfo = "***"

// shownURL returns s as an error may quote it: its user information hidden (hideUserinfo),
// and whatever follows the first "?" or "#" after it (a query or fragment, which may carry a
// token, as in "?access_token=...") replaced by "***". When an "@" follows a "?" or "#", the
// string does not say which is which ("https://u:p?w@host", "https://host/?t=a@b"), and
// everything after the scheme is hidden.
func shownURL(s string) string {
	start := authorityStart(s)
	if q := strings.IndexAny(s[start:], "?#"); q >= 0 && strings.LastIndex(s, "@") > start+q {
		return s[:start] + hiddenUserinfo
	}
	shown := hideUserinfo(s)
	if i := strings.IndexAny(shown, "?#"); i >= 0 {
		shown = shown[:i+1] + hiddenUserinfo
	}
	return shown
}

// authorityStart returns where a URL's authority starts in s: after the first "//", or at the
// start when there is none.
func authorityStart(s string) int {
	if i := strings.Index(s, "//"); i >= 0 {
		return i + 2
	}
	return 0
}

// hideUserinfo returns s with whatever could be a URL's user information (from the start of
// the authority, after "//" or else at the start, up to the last "@") replaced by "***", so
// that an error never quotes a password, whether the URL parses or not. A string without "@"
// holds no user information and is returned as it is.
func hideUserinfo(s string) string {
	at := strings.LastIndex(s, "@")
	if at < 0 {
		return s
	}
	start := authorityStart(s)
	if start > at {
		start = 0
	}
	return s[:start] + hiddenUserinfo + s[at:]
}

// loopbackHost reports a host that names this machine: localhost, or a loopback IP address
// (127.0.0.0/8, ::1). Requests to it never cross a network, so plain http is allowed there
// (the mock server, a local TLS-terminating proxy).
func loopbackHost(host string) bool {
	host = strings.TrimSuffix(host, ".")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// servicePaths are the paths the client appends to base_url ("/rest/v1/...") and auth_url
// ("/auth/jwt/generate/..."), by their first two segments: a URL whose path holds them (a
// request URL copied from the service's documentation or a log) makes every request go to
// a path the service does not serve.
var servicePaths = [][2]string{{"rest", "v1"}, {"auth", "jwt"}}

// ServicePathError is the error of a base_url or auth_url whose path already holds one of the
// service's paths, which the client appends itself.
type ServicePathError struct {
	// Value is the URL as given (user information hidden; CheckURL refuses it anyway).
	Value string
	// Path is the service's path found in it, up to the end, such as "/rest/v1/events".
	Path string
	// Suggested is the URL without that path: what to use instead.
	Suggested string
}

// Error names the service's path and the value to use instead.
func (e *ServicePathError) Error() string {
	return fmt.Sprintf("%q ends with %q, a path of the service that the provider appends itself: use %q instead",
		e.Value, e.Path, e.Suggested)
}

// checkServicePath refuses a URL whose path holds one of servicePaths, in any letter case,
// anywhere: "/rest/v1", "/rest/v1/events", "/gateway/auth/jwt/generate/acc". A path of its own
// before it (a gateway's prefix) is kept in the suggestion.
func checkServicePath(shown string, u *url.URL) error {
	segments := strings.Split(strings.Trim(u.EscapedPath(), "/"), "/")
	for i := 0; i+1 < len(segments); i++ {
		for _, p := range servicePaths {
			if !strings.EqualFold(segments[i], p[0]) || !strings.EqualFold(segments[i+1], p[1]) {
				continue
			}
			prefix := ""
			if i > 0 {
				prefix = "/" + strings.Join(segments[:i], "/")
			}
			return &ServicePathError{
				Value:     shown,
				Path:      "/" + strings.Join(segments[i:], "/"),
				Suggested: u.Scheme + "://" + u.Host + prefix,
			}
		}
	}
	return nil
}
