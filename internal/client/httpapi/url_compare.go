package httpapi

import (
	"net/url"
	"strconv"
	"strings"
)

// defaultPorts are the ports a URL without one reaches, by scheme.
var defaultPorts = map[string]int{"http": 80, "https": 443}

// SameAddress reports whether two base_url or auth_url values are the same address: the
// whole address, path prefix included, compared in the form AddressKey gives. A value that
// CheckURL refuses, or that AddressKey cannot compare, is the same as nothing. It is the one
// rule by which the provider decides that a provider block's address is the environment's
// (so that the environment's credentials may go there): behind a gateway that routes by path,
// https://gw.example/another-tenant is another service than https://gw.example/eventnotify.
func SameAddress(a, b string) bool {
	ka, okA := AddressKey(a)
	kb, okB := AddressKey(b)
	return okA && okB && ka == kb
}

// AddressKey returns the normalised form of an address for comparison: the scheme and host in
// lower case, the port always written (the scheme's default when none is given, without
// leading zeros), the path's dot segments removed (RFC 3986, 5.2.4), its trailing slashes
// removed and its percent-encodings' hex digits in upper case; the path's letter case is kept.
// ok is false for a value that CheckURL refuses, and for a path holding a percent-encoded dot,
// slash or backslash (%2E, %2F, %5C) or a backslash: servers and gateways disagree on whether
// those separate segments, so such an address is never taken for another.
func AddressKey(s string) (key string, ok bool) {
	if CheckURL(s) != nil {
		return "", false
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	port := defaultPorts[scheme]
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil {
			return "", false
		}
	}
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	escaped := u.EscapedPath()
	if strings.Contains(u.Path, `\`) {
		return "", false
	}
	for _, encoded := range []string{"%2e", "%2f", "%5c"} {
		if strings.Contains(strings.ToLower(escaped), encoded) {
			return "", false
		}
	}
	return scheme + "://" + host + ":" + strconv.Itoa(port) + upperPercentHex(removeDotSegments(escaped)), true
}

// CleanAddress returns an address that CheckURL accepts as the client sends to it: its path's
// dot segments removed (as AddressKey compares it, so that what is compared is what is sent)
// and its trailing slashes removed; the rest as written.
func CleanAddress(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return strings.TrimRight(s, "/")
	}
	escaped := u.EscapedPath()
	if cleaned := removeDotSegments(escaped); cleaned != strings.TrimRight(escaped, "/") {
		return u.Scheme + "://" + u.Host + cleaned
	}
	return strings.TrimRight(s, "/")
}

// removeDotSegments removes the "." and ".." segments of an escaped path (RFC 3986, 5.2.4:
// ".." above the root is dropped) and its trailing slashes; empty segments ("//") are kept.
func removeDotSegments(p string) string {
	var out []string
	for _, seg := range strings.Split(p, "/") {
		switch seg {
		case ".":
		case "..":
			if len(out) > 1 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, seg)
		}
	}
	return strings.TrimRight(strings.Join(out, "/"), "/")
}

// upperPercentHex writes the hex digits of a path's percent-encodings in upper case.
func upperPercentHex(p string) string {
	b := []byte(p)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			b[i+1], b[i+2] = upperHex(b[i+1]), upperHex(b[i+2])
			i += 2
		}
	}
	return string(b)
}

// upperHex returns a hex digit in upper case.
func upperHex(c byte) byte {
	if 'a' <= c && c <= 'f' {
		return c - 'a' + 'A'
	}
	return c
}
