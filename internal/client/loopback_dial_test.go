package client

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/net/dns/dnsmessage"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// remoteConn is a connection whose remote address is the test's choice, counting what is
// written to it.
type remoteConn struct {
	net.Conn
	remote  net.Addr
	written *atomic.Int64
}

func (c remoteConn) RemoteAddr() net.Addr { return c.remote }

func (c remoteConn) Write(b []byte) (int, error) {
	c.written.Add(int64(len(b)))
	return c.Conn.Write(b)
}

// TestPlainHTTP_refusesNonLoopbackRemote: a connection for a plain-http request whose remote
// address is not a loopback address (as when "localhost" resolved elsewhere, or a proxy is in
// the way) is closed before a byte is written; the error says so and names what to do, and
// it is not retried.
func TestPlainHTTP_refusesNonLoopbackRemote(t *testing.T) {
	t.Parallel()
	var written atomic.Int64
	var dials atomic.Int32
	fakeDial := func(_ context.Context, _, _ string) (net.Conn, error) {
		dials.Add(1)
		local, peer := net.Pipe()
		t.Cleanup(func() { _ = local.Close(); _ = peer.Close() })
		go func() { // a write (there must be none) ends the connection rather than block
			_, _ = peer.Read(make([]byte, 1))
			_ = peer.Close()
		}()
		return remoteConn{Conn: local, remote: &net.TCPAddr{IP: net.ParseIP("192.0.2.2"), Port: 80}, written: &written}, nil
	}
	c, err := New(Config{
		Config: httpapi.Config{
			BaseURL:    "http://localhost:8080",
			AuthURL:    "http://localhost:8080",
			AccountID:  testAccount,
			Username:   testUser,
			Password:   testPassword,
			MaxRetries: 3,
			HTTPClient: &http.Client{Transport: &http.Transport{DialContext: fakeDial}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListLogLevels(context.Background())
	var nl *httpapi.NotLoopbackError
	if !errors.As(err, &nl) || nl.Remote != "192.0.2.2:80" {
		t.Fatalf("error %v, want a NotLoopbackError naming the remote 192.0.2.2:80", err)
	}
	for _, want := range []string{"generate JWT", "nothing was sent", "https://"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if n := written.Load(); n != 0 {
		t.Errorf("%d bytes were written to a connection whose remote is not loopback", n)
	}
	if n := dials.Load(); n != 1 {
		t.Errorf("%d dials, want 1: the refusal is not retried", n)
	}
}

// TestPlainHTTP_localhostWithoutDNS: a plain-http request to "localhost" never consults DNS.
// The dialer underneath has a resolver whose DNS server answers every name with a
// non-loopback address of this machine, where a listener waits: the server gets no query, the
// listener no connection, the dialer only IP literals, and the request reaches the loopback
// server. (This machine's /etc/hosts names localhost; the dialer seeing only IP literals is
// what holds where it does not.)
func TestPlainHTTP_localhostWithoutDNS(t *testing.T) {
	t.Parallel()
	elsewhere, trap := nonLoopbackListener(t)
	dns, queries := fakeDNS(t, elsewhere)
	resolver := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", dns)
	}}
	var mu sync.Mutex
	var dialed []string
	dialer := &net.Dialer{Resolver: resolver}
	underneath := func(ctx context.Context, network, address string) (net.Conn, error) {
		mu.Lock()
		dialed = append(dialed, address)
		mu.Unlock()
		return dialer.DialContext(ctx, network, address)
	}

	var reached atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		reached.Add(1)
		writeJSON(w, http.StatusOK, `["INFO"]`)
	}))
	t.Cleanup(srv.Close)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	c, err := New(Config{
		Config: httpapi.Config{
			BaseURL:    "http://localhost:" + port,
			AccountID:  testAccount,
			JWT:        "header.payload.signature",
			HTTPClient: &http.Client{Transport: &http.Transport{DialContext: underneath}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListLogLevels(context.Background()); err != nil {
		t.Fatalf("request to localhost: %v", err)
	}
	if n := reached.Load(); n != 1 {
		t.Errorf("the loopback server got %d requests, want 1", n)
	}
	if n := queries.Load(); n != 0 {
		t.Errorf("the DNS server got %d queries, want none", n)
	}
	if n := trap.Load(); n != 0 {
		t.Errorf("the non-loopback listener at %s got %d connections, want none", elsewhere, n)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, a := range dialed {
		host, _, _ := net.SplitHostPort(a)
		if _, err := netip.ParseAddr(host); err != nil {
			t.Errorf("the dialer was given %q, a name a resolver would look up", a)
		}
	}
}

// nonLoopbackListener listens on a non-loopback IPv4 address of this machine and counts the
// connections it accepts; on a machine without one it returns a documentation address where
// nothing listens.
func nonLoopbackListener(t *testing.T) (netip.Addr, *atomic.Int32) {
	t.Helper()
	var accepted atomic.Int32
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		p, err := netip.ParsePrefix(a.String())
		if err != nil || !p.Addr().Is4() || p.Addr().IsLoopback() {
			continue
		}
		l, err := net.Listen("tcp", net.JoinHostPort(p.Addr().String(), "0"))
		if err != nil {
			continue
		}
		t.Cleanup(func() { _ = l.Close() })
		go func() {
			for {
				conn, err := l.Accept()
				if err != nil {
					return
				}
				accepted.Add(1)
				_ = conn.Close()
			}
		}()
		return p.Addr(), &accepted
	}
	t.Log("no non-loopback IPv4 address: the DNS server answers 192.0.2.1, where nothing listens")
	return netip.MustParseAddr("192.0.2.1"), &accepted
}

// fakeDNS serves DNS on a loopback UDP port, answering every A question with answer and
// counting the queries.
func fakeDNS(t *testing.T, answer netip.Addr) (string, *atomic.Int32) {
	t.Helper()
	var queries atomic.Int32
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pc.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			queries.Add(1)
			var p dnsmessage.Parser
			h, err := p.Start(buf[:n])
			if err != nil {
				continue
			}
			q, err := p.Question()
			if err != nil {
				continue
			}
			b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true})
			_ = b.StartQuestions()
			_ = b.Question(q)
			_ = b.StartAnswers()
			if q.Type == dnsmessage.TypeA {
				_ = b.AResource(dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 60},
					dnsmessage.AResource{A: answer.As4()})
			}
			if msg, err := b.Finish(); err == nil {
				_, _ = pc.WriteTo(msg, from)
			}
		}
	}()
	return pc.LocalAddr().String(), &queries
}
