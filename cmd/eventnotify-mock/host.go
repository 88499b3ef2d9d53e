package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// hostPolicy is the set of Host header values the mock answers.
//
// A web page can reach a server on the loopback interface through a host name its owner
// controls and points at 127.0.0.1 (DNS rebinding); its requests then carry that name in
// Host, and the page could drive the mock with the well-known demo credentials. So the mock
// answers only requests whose Host (any port) is localhost, a loopback IP address, the host
// that -listen names (when it names one rather than every interface), the address it
// listens on, or a host given with -allow-host; "-allow-host '*'" allows any.
type hostPolicy struct {
	anyHost bool
	hosts   map[string]bool // canonicalHost forms
}

// allowAnyHost is the -allow-host value that turns the check off.
const allowAnyHost = "*"

// maxHostShown bounds the part of a refused Host header that the answer repeats.
const maxHostShown = 100

// newHostPolicy is the policy of a mock started with -listen listen, listening on addr,
// with the -allow-host values allow.
func newHostPolicy(listen string, addr net.Addr, allow []string) hostPolicy {
	p := hostPolicy{hosts: make(map[string]bool)}
	add := func(h string) {
		if c := canonicalHost(h); c != "" {
			p.hosts[c] = true
		}
	}
	if host, _, err := net.SplitHostPort(listen); err == nil {
		if ip, err := netip.ParseAddr(host); err != nil || !ip.IsUnspecified() {
			add(host)
		}
	}
	if tcp, ok := addr.(*net.TCPAddr); ok && !tcp.IP.IsUnspecified() {
		add(tcp.IP.String())
	}
	for _, h := range allow {
		if h == allowAnyHost {
			p.anyHost = true
			continue
		}
		add(h)
	}
	return p
}

// allows reports whether the mock answers a request with this Host header value.
func (p hostPolicy) allows(hostHeader string) bool {
	if p.anyHost {
		return true
	}
	h := canonicalHost(hostHeader)
	switch {
	case h == "":
		return false
	case h == "localhost" || p.hosts[h]:
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.IsLoopback()
}

// canonicalHost is the host of a Host header value or host name: without port and
// brackets, in lower case, without a trailing dot, and an IP address in its canonical form
// (an IPv4-mapped IPv6 address as IPv4).
func canonicalHost(h string) string {
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	} else if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
		h = h[1 : len(h)-1]
	}
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	if ip, err := netip.ParseAddr(h); err == nil {
		return ip.Unmap().String()
	}
	return h
}

// handler serves next for the requests p allows and answers the others 421 Misdirected
// Request, with an error body shaped as the service's ({error, messages, path}) so that
// the provider shows its message.
func (p hostPolicy) handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p.allows(r.Host) {
			next.ServeHTTP(w, r)
			return
		}
		shown := r.Host
		if len(shown) > maxHostShown {
			shown = shown[:maxHostShown] + "..."
		}
		msg := fmt.Sprintf("eventnotify-mock answers requests to localhost, a loopback address or the host it "+
			"listens on, not to Host %q: to allow that name, start it with -allow-host %q", shown, canonicalHost(shown))
		body, _ := json.Marshal(struct {
			Error    string   `json:"error"`
			Messages []string `json:"messages"`
			Path     string   `json:"path"`
		}{http.StatusText(http.StatusMisdirectedRequest), []string{msg}, r.URL.Path})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusMisdirectedRequest)
		_, _ = w.Write(body)
	})
}
