package main

import (
	"net"
	"net/netip"
	"strconv"
	"strings"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// startup is what the command prints once it listens.
type startup struct {
	// env is written to standard output in one write: KEY=VALUE lines only,
	// EVENTNOTIFY_BASE_URL first and, with -tls, SSL_CERT_FILE second, so that a script
	// that sees the first line sees them all and can export every line. It holds no secret
	// that the user passed in.
	env string
	// notes are for people, on standard error: where the address and the secrets come from.
	notes []string
}

// startupOutput is what a mock started with o prints once it listens on addr; certFile is
// the absolute path of the certificate's file with -tls, else "".
func startupOutput(o options, addr net.Addr, certFile string) startup {
	hostport, everyInterface := clientAddr(o.listen, addr)
	scheme := "http://"
	if o.tls {
		scheme = "https://"
	}
	baseURL := scheme + hostport
	lines := []string{"EVENTNOTIFY_BASE_URL=" + baseURL}
	if certFile != "" {
		lines = append(lines, "SSL_CERT_FILE="+certFile)
	}
	lines = append(lines,
		"EVENTNOTIFY_AUTH_URL="+baseURL,
		"EVENTNOTIFY_ACCOUNT_ID="+o.account,
		"EVENTNOTIFY_USERNAME="+o.username,
	)
	var notes []string
	if everyInterface {
		notes = append(notes, everyInterfaceNote(hostport, o))
	}
	switch {
	case o.password == "":
		notes = append(notes, "password sign-in is off (-password \"\")")
	case o.passwordSet:
		notes = append(notes, "password: the value of "+o.passwordOf+" (not printed)")
	default: // the built-in demo password is public
		lines = append(lines, "EVENTNOTIFY_PASSWORD="+o.password)
	}
	if o.apiToken != "" {
		notes = append(notes, "API token: the value of "+o.apiTokenOf+" (not printed), with the user name PLATFORM_TOKEN."+o.username)
	}
	return startup{env: strings.Join(lines, "\n") + "\n", notes: notes}
}

// clientAddr is the address a client on this machine uses to reach a listener on addr,
// started with -listen listen, and whether it listens on every interface: addr itself, or
// for every interface the loopback address of the family that -listen names (::1 for
// [::]:port, else 127.0.0.1, which the dual-stack listener of :port also serves).
func clientAddr(listen string, addr net.Addr) (string, bool) {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || !tcp.IP.IsUnspecified() {
		return addr.String(), false
	}
	loopback := "127.0.0.1"
	if host, _, err := net.SplitHostPort(listen); err == nil {
		if ip, err := netip.ParseAddr(host); err == nil && ip.Is6() && !ip.Is4In6() {
			loopback = "::1"
		}
	}
	return net.JoinHostPort(loopback, strconv.Itoa(tcp.Port)), true
}

// everyInterfaceNote says what listening on every interface means: the Host check keeps out web
// pages (DNS rebinding), not network clients, which can send any Host header they like.
func everyInterfaceNote(hostport string, o options) string {
	_, port, _ := net.SplitHostPort(hostport)
	note := "listening on every interface, port " + port + "; EVENTNOTIFY_BASE_URL is the loopback address for clients on " +
		"this machine. The Host check keeps out web pages, not other machines: "
	if o.password == mockserver.DefaultPassword {
		return note + "anyone who can reach port " + port + " can sign in with the demo credentials printed here, which are " +
			"public. Listen on 127.0.0.1, or set a password of your own (EVENTNOTIFY_MOCK_PASSWORD or -password-file)"
	}
	return note + "anyone who can reach port " + port + " and has the password or API token can sign in"
}
