package client

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/binary"
	"errors"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/testsupport"
)

// TestPermanentNetworkErrors: a host name that does not resolve, an https address whose
// server speaks plain http or another protocol, and a certificate that fails verification
// (unknown authority, another host name, expired) fail after ONE attempt (one dial), with
// an error that keeps the cause and says what to check in the argument that holds the
// address; nothing reaches the server. The control, a resolver that fails for now, is
// retried as before.
func TestPermanentNetworkErrors(t *testing.T) {
	t.Parallel()
	var reached atomic.Int32
	count := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { reached.Add(1) })
	trusted := httptest.NewUnstartedServer(count)
	trusted.Config.ErrorLog = quietLog
	trusted.StartTLS()
	t.Cleanup(trusted.Close)
	plain := httptest.NewServer(count)
	t.Cleanup(plain.Close)
	expired, expiredCA := expiredTLSServer(t, count)
	other := otherProtocolServer(t)

	trustedPool := x509.NewCertPool()
	trustedPool.AddCert(trusted.Certificate())
	// port is the ":port" of a test server, to reach it by another name.
	port := func(s *httptest.Server) string { return ":" + strconv.Itoa(s.Listener.Addr().(*net.TCPAddr).Port) }
	tests := []struct {
		name    string
		url     string
		roots   *x509.CertPool // nil: the system's
		rcode   byte           // the answer of the test's DNS server (3 no such name, 2 server failure)
		want    []string       // parts of the error; {arg} is the argument that holds the address
		wantErr func(error) bool
		dials   int32
	}{
		{name: "no such host", url: "https://eventnotify.invalid", rcode: 3, dials: 1,
			want: []string{"no such host", `The host name "eventnotify.invalid" does not resolve: check its spelling in {arg}`},
			wantErr: func(err error) bool {
				var dnsErr *net.DNSError
				return errors.As(err, &dnsErr) && dnsErr.IsNotFound
			}},
		{name: "https to a plain http server", url: "https://127.0.0.1" + port(plain), dials: 1,
			want: []string{"server gave HTTP response to HTTPS client", "The server at 127.0.0.1" + port(plain) +
				" does not speak https: {arg} names it with https://", "Check the scheme and the port in {arg}"},
			wantErr: func(err error) bool { return errors.Is(err, http.ErrSchemeMismatch) }},
		{name: "https to another protocol", url: "https://" + other, dials: 1,
			want: []string{"does not look like a TLS handshake", "The server at " + other + " does not speak https"},
			wantErr: func(err error) bool {
				var recordHeader tls.RecordHeaderError
				return errors.As(err, &recordHeader)
			}},
		{name: "certificate of an unknown authority", url: trusted.URL, dials: 1,
			want: []string{"certificate signed by unknown authority", `presented a certificate for example.com, *.example.com, 127.0.0.1, ::1 issued by "O=Acme Co"`,
				"point SSL_CERT_FILE", "Check that {arg} names the service itself"},
			wantErr: func(err error) bool {
				var unknown x509.UnknownAuthorityError
				return errors.As(err, &unknown) && errors.Is(err, httpapi.ErrUntrustedCertificate)
			}},
		{name: "certificate for another host name", url: "https://localhost" + port(trusted), roots: trustedPool, dials: 1,
			want: []string{"certificate is valid for", "not localhost", "The server at localhost" + port(trusted) + " presented a certificate for example.com"},
			wantErr: func(err error) bool {
				var hostname x509.HostnameError
				return errors.As(err, &hostname) && errors.Is(err, httpapi.ErrUntrustedCertificate)
			}},
		{name: "expired certificate", url: expired.URL, roots: expiredCA, dials: 1,
			want: []string{"certificate has expired", "valid from 2020-01-01 00:00 UTC until 2020-01-02 00:00 UTC"},
			wantErr: func(err error) bool {
				var invalid x509.CertificateInvalidError
				return errors.As(err, &invalid) && invalid.Reason == x509.Expired && errors.Is(err, httpapi.ErrUntrustedCertificate)
			}},
		{name: "control: a resolver that fails for now is retried", url: "https://eventnotify.invalid", rcode: 2, dials: 3,
			want: []string{"giving up after 3 attempts", "server misbehaving"},
			wantErr: func(err error) bool {
				var dnsErr *net.DNSError
				return errors.As(err, &dnsErr) && !dnsErr.IsNotFound
			}},
	}
	for _, tc := range tests {
		// Through the JWT endpoint (auth_url), and with a pre-issued JWT straight to the
		// service (base_url).
		for _, argument := range []string{"auth_url", "base_url"} {
			t.Run(tc.name+" in "+argument, func(t *testing.T) {
				reached.Store(0)
				var dials atomic.Int32
				dialer := &net.Dialer{}
				if tc.rcode != 0 {
					dialer.Resolver = answeringResolver(tc.rcode)
				}
				rt := http.DefaultTransport.(*http.Transport).Clone()
				rt.TLSClientConfig = &tls.Config{RootCAs: tc.roots}
				rt.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
					dials.Add(1)
					return dialer.DialContext(ctx, network, addr)
				}
				cfg := Config{
					Config: httpapi.Config{
						BaseURL:      tc.url,
						AuthURL:      tc.url,
						AccountID:    testAccount,
						Username:     testUser,
						Password:     testPassword,
						MaxRetries:   2,
						RetryWaitMin: time.Millisecond,
						RetryWaitMax: time.Millisecond,
						HTTPClient:   &http.Client{Transport: rt},
					},
				}
				if argument == "base_url" {
					cfg.Username, cfg.Password, cfg.JWT = "", "", "j"
				}
				c, err := New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				_, err = c.ListLogLevels(context.Background())
				if err == nil || !tc.wantErr(err) {
					t.Fatalf("error %v (%T), not the one expected", err, err)
				}
				for _, w := range tc.want {
					if w = strings.ReplaceAll(w, "{arg}", argument); !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not say %q", err, w)
					}
				}
				if n := dials.Load(); n != tc.dials {
					t.Errorf("%d dials, want %d", n, tc.dials)
				}
				if n := reached.Load(); n != 0 {
					t.Errorf("%d requests reached the server", n)
				}
			})
		}
	}
}

// quietLog drops the test servers' logs of the handshakes the client refuses.
var quietLog = log.New(io.Discard, "", 0)

// answeringResolver is a resolver whose every query gets the DNS answer code rcode (3: no
// such name, 2: server failure) from an in-process server: what a lookup of a name under
// .invalid gets from any resolver, without a network.
func answeringResolver(rcode byte) *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
		client, server := net.Pipe()
		go func() {
			defer server.Close()
			// A net.Conn that is not a PacketConn speaks DNS over a stream: each message
			// is preceded by its length in two bytes.
			for {
				var length [2]byte
				if _, err := io.ReadFull(server, length[:]); err != nil {
					return
				}
				msg := make([]byte, binary.BigEndian.Uint16(length[:]))
				if _, err := io.ReadFull(server, msg); err != nil || len(msg) < 12 {
					return
				}
				// The answer is the query with the response bit, recursion available and
				// rcode set: same id, same question, no records.
				msg[2] |= 0x80
				msg[3] = msg[3]&0x70 | 0x80 | rcode
				if _, err := server.Write(append(length[:], msg...)); err != nil {
					return
				}
			}
		}()
		return client, nil
	}}
}

// expiredTLSServer serves handler with a certificate for 127.0.0.1 that expired in 2020,
// and returns the pool that trusts it.
func expiredTLSServer(t *testing.T, handler http.Handler) (*httptest.Server, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	template := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "expired"},
		NotBefore: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), NotAfter: time.Date(2020, 1, 2, 0, 0, 0, 0, time.UTC),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IsCA: true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(handler)
	srv.Config.ErrorLog = quietLog
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return srv, pool
}

// otherProtocolServer listens on 127.0.0.1 and greets every connection as an SSH server
// does; it returns its host:port.
func otherProtocolServer(t *testing.T) string {
	t.Helper()
	return testsupport.ServeTCP(t, func(conn net.Conn) { _, _ = conn.Write([]byte("SSH-2.0-OpenSSH_9.6\r\n")) })
}
