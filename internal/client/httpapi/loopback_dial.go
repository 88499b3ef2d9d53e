package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"
)

// Plain http:// is accepted for this machine only (CheckURL): the Basic credentials and the
// tokens cross no network there. The name "localhost" is not enough for that by itself: where
// /etc/hosts has no entry for it (scratch and distroless images), Go asks DNS, and whoever
// answers would receive the credentials in clear. So a plain-http request is sent on a
// connection of its own transport, whose dialer
//
//   - dials "localhost" (and "localhost.") as 127.0.0.1, then ::1, without any lookup;
//   - refuses any address that is not a loopback IP before dialing it;
//   - refuses a connection whose remote address is not a loopback address (a proxy elsewhere,
//     say) before a byte is written.
//
// https:// requests use the other transport, which dials as usual.

// dialFunc is the signature of http.Transport.DialContext.
type dialFunc func(ctx context.Context, network, address string) (net.Conn, error)

// localhostAddrs are the addresses that "localhost" names, in the order they are tried.
var localhostAddrs = []string{"127.0.0.1", "::1"}

// NotLoopbackError is the error of a plain-http request whose connection would have gone to an
// address that is not this machine's. Nothing was sent, and it is not retried.
type NotLoopbackError struct {
	// Address is the address the request was to be sent to (host:port).
	Address string
	// Remote is the remote address of the connection that was refused, or "" when the
	// address was refused before dialing.
	Remote string
}

// Error says what was refused and what to do.
func (e *NotLoopbackError) Error() string {
	where := e.Address
	if e.Remote != "" {
		where = fmt.Sprintf("%s (connected to %s)", e.Address, e.Remote)
	}
	return fmt.Sprintf("refused to send a plain http:// request to %s: plain http is sent to a loopback "+
		"address of this machine only, so that credentials never cross a network unencrypted; nothing was sent. "+
		"Use https:// for any other host, or check the proxy settings (HTTP_PROXY, NO_PROXY) for this address", where)
}

// loopbackDial wraps dial so that it connects to loopback addresses only (see above).
func loopbackDial(dial dialFunc) dialFunc {
	return func(ctx context.Context, network, address string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(address)
		if err != nil {
			return nil, err
		}
		targets := []string{address}
		if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
			targets = targets[:0]
			for _, ip := range localhostAddrs {
				targets = append(targets, net.JoinHostPort(ip, port))
			}
		} else if ip, err := netip.ParseAddr(host); err != nil || !ip.Unmap().IsLoopback() {
			return nil, &NotLoopbackError{Address: address}
		}
		var errs []error
		for _, target := range targets {
			conn, err := dial(ctx, network, target)
			if err != nil {
				errs = append(errs, err)
				if ctx.Err() != nil {
					break
				}
				continue
			}
			if !loopbackRemote(conn.RemoteAddr()) {
				_ = conn.Close()
				return nil, &NotLoopbackError{Address: address, Remote: conn.RemoteAddr().String()}
			}
			return conn, nil
		}
		return nil, errors.Join(errs...)
	}
}

// loopbackRemote reports whether a connection's remote address is a loopback IP address.
func loopbackRemote(addr net.Addr) bool {
	if addr == nil {
		return false
	}
	if tcp, ok := addr.(*net.TCPAddr); ok {
		return tcp.IP.IsLoopback()
	}
	ap, err := netip.ParseAddrPort(addr.String())
	return err == nil && ap.Addr().Unmap().IsLoopback()
}

// plainHTTPTransport returns the transport of plain-http requests: a clone of base that dials
// with loopbackDial. A base that is not an *http.Transport (a caller's own RoundTripper, such
// as a test's) dials as it likes and is returned as it is.
func plainHTTPTransport(base http.RoundTripper) http.RoundTripper {
	t, ok := base.(*http.Transport)
	if !ok {
		return base
	}
	plain := t.Clone()
	dial := t.DialContext
	if dial == nil && t.Dial != nil { //nolint:staticcheck // honour a base that sets only the old Dial
		legacy := t.Dial //nolint:staticcheck // see above
		dial = func(_ context.Context, network, address string) (net.Conn, error) { return legacy(network, address) }
	}
	if dial == nil {
		// What http.DefaultTransport dials with.
		dial = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	}
	plain.DialContext = loopbackDial(dial)
	plain.Dial = nil //nolint:staticcheck // replaced by DialContext above
	return plain
}
