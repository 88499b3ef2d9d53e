package client

import (
	"net"
	"strings"
)

// hiddenUserinfo stands for the user information of a URL in error messages.
const hiddenUserinfo = "***"

// hideUserinfo returns s with whatever could be a URL's user information (from the start of
// the authority, after "//" or else at the start, up to the last "@") replaced by "***", so
// that an error never quotes a password, whether the URL parses or not. A string without "@"
// holds no user information and is returned as it is.
func hideUserinfo(s string) string {
	at := strings.LastIndex(s, "@")
	if at < 0 {
		return s
	}
	start := 0
	if i := strings.Index(s, "//"); i >= 0 && i < at {
		start = i + 2
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
