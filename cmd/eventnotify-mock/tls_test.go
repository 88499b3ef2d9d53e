package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunTLS: with -tls the mock prints an https address, then SSL_CERT_FILE=<the absolute
// path of -tls-cert-out> as the second line, and writes its certificate there before it does; a client that trusts that file alone verifies the handshake
// for every name the mock can be reached by (localhost, 127.0.0.1, ::1, the -allow-host
// names, here reached through 127.0.0.1) and gets answers; another name, or a client that
// does not trust the file, is refused at the handshake.
func TestRunTLS(t *testing.T) {
	certFile := filepath.Join(t.TempDir(), "mock.pem")
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	var stderr syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-listen", "127.0.0.1:0", "-tls", "-tls-cert-out", certFile,
			"-allow-host", "mock,eventnotify-mock.test", "-allow-host", "10.1.2.3"}, pw, &stderr)
		pw.Close()
	}()
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cancel()
			if err := <-done; err != nil {
				t.Errorf("run: %v", err)
			}
		}
	}
	t.Cleanup(stop)
	lines, after := readOutput(t, pr, 6)
	// The second line names the certificate's file, for scripts that export the output.
	if want := "SSL_CERT_FILE=" + certFile; lines[1] != want {
		t.Errorf("second line of standard output = %q, want %q", lines[1], want)
	}
	env := keyValues(t, lines)
	baseURL := env["EVENTNOTIFY_BASE_URL"]
	if !strings.HasPrefix(baseURL, "https://127.0.0.1:") || env["EVENTNOTIFY_AUTH_URL"] != baseURL {
		t.Fatalf("printed %v, want https://127.0.0.1:<port> for both addresses", env)
	}
	addr := strings.TrimPrefix(baseURL, "https://")
	_, port, _ := net.SplitHostPort(addr)

	// The file is there once the first line is, and holds one certificate and no key.
	pemBytes, err := os.ReadFile(certFile)
	if err != nil {
		t.Fatal(err)
	}
	block, rest := pem.Decode(pemBytes)
	if block == nil || block.Type != "CERTIFICATE" || len(strings.TrimSpace(string(rest))) != 0 {
		t.Fatalf("%s holds %q, want one PEM certificate", certFile, pemBytes)
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	if key, ok := cert.PublicKey.(*ecdsa.PublicKey); !ok || key.Curve != elliptic.P256() {
		t.Errorf("certificate key %T, want ECDSA P-256", cert.PublicKey)
	}
	if life := time.Until(cert.NotAfter); life <= 0 || life > certificateValidity {
		t.Errorf("certificate valid until %s, want within %s from now", cert.NotAfter, certificateValidity)
	}
	if info, err := os.Stat(certFile); err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("%s: %v, mode %v; want 0644", certFile, err, info.Mode())
	}

	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pemBytes) {
		t.Fatal("the certificate file adds nothing to a pool")
	}
	// client trusts pool only and reaches every name at the mock's address.
	client := &http.Client{Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool},
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		},
	}}
	t.Cleanup(client.CloseIdleConnections)
	for _, name := range []string{"localhost", "127.0.0.1", "::1", "mock", "eventnotify-mock.test", "10.1.2.3"} {
		t.Run(name, func(t *testing.T) {
			conn, err := tls.Dial("tcp", addr, &tls.Config{ServerName: name, RootCAs: pool})
			if err != nil {
				t.Fatalf("handshake for %s: %v", name, err)
			}
			_ = conn.Close()
			req, err := http.NewRequestWithContext(t.Context(), http.MethodGet,
				"https://"+net.JoinHostPort(name, port)+"/auth/jwt/generate/demo-account", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.SetBasicAuth("demo", "demo-password")
			resp, err := client.Do(req)
			if err != nil {
				t.Fatalf("GET through %s: %v", name, err)
			}
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("GET through %s: status %d, want 200", name, resp.StatusCode)
			}
		})
	}

	var hostname x509.HostnameError
	if _, err := tls.Dial("tcp", addr, &tls.Config{ServerName: "other.example", RootCAs: pool}); !errors.As(err, &hostname) {
		t.Errorf("handshake for a name not allowed: %v, want a host name error", err)
	}
	var unknown x509.UnknownAuthorityError
	if _, err := tls.Dial("tcp", addr, &tls.Config{ServerName: "localhost", RootCAs: x509.NewCertPool()}); !errors.As(err, &unknown) {
		t.Errorf("handshake without the certificate trusted: %v, want an unknown authority error", err)
	}

	// The notes on standard error follow the lines on standard output: read them once it ends.
	stop()
	if more := <-after; len(more) != 0 {
		t.Errorf("standard output goes on after the six lines %q: %q", lines, more)
	}
	for _, want := range []string{"written to " + certFile, "SSL_CERT_FILE=" + certFile,
		"localhost, 127.0.0.1, ::1, mock, eventnotify-mock.test, 10.1.2.3"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("standard error %q does not say %q", stderr.String(), want)
		}
	}
}

// TestCertificateNames: the names of the certificate, each once and in canonical form: the
// loopback names, the -listen host unless it names every interface, the -allow-host names
// but '*'.
func TestCertificateNames(t *testing.T) {
	tests := []struct {
		listen string
		allow  []string
		want   string
	}{
		{"127.0.0.1:0", nil, "localhost 127.0.0.1 ::1"},
		{":8080", []string{"mock"}, "localhost 127.0.0.1 ::1 mock"},
		{"0.0.0.0:8080", []string{"Mock.", "mock", "*", "[::ffff:10.0.0.1]"}, "localhost 127.0.0.1 ::1 mock 10.0.0.1"},
		{"[::]:8080", []string{"ci-mock"}, "localhost 127.0.0.1 ::1 ci-mock"},
		{"eventnotify-mock.internal:8443", []string{"localhost"}, "localhost 127.0.0.1 ::1 eventnotify-mock.internal"},
		{"10.0.0.7:8443", nil, "localhost 127.0.0.1 ::1 10.0.0.7"},
	}
	for _, tt := range tests {
		if got := strings.Join(certificateNames(tt.listen, tt.allow), " "); got != tt.want {
			t.Errorf("certificateNames(%q, %q) = %q, want %q", tt.listen, tt.allow, got, tt.want)
		}
	}
}

// TestRunTLSErrors: -tls-cert-out needs -tls and a name, and a file that cannot be written
// stops the mock before it prints anything.
func TestRunTLSErrors(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		usage bool
	}{
		{"-tls-cert-out without -tls", []string{"-tls-cert-out", filepath.Join(t.TempDir(), "c.pem")}, true},
		{"empty -tls-cert-out", []string{"-tls", "-tls-cert-out", ""}, true},
		{"no such directory", []string{"-tls", "-tls-cert-out", filepath.Join(t.TempDir(), "missing", "c.pem")}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout strings.Builder
			err := run(t.Context(), append([]string{"-listen", "127.0.0.1:0"}, tt.args...), &stdout, io.Discard)
			if err == nil || errors.As(err, new(usageError)) != tt.usage {
				t.Errorf("err = %v, want an error (a usage error: %v)", err, tt.usage)
			}
			if stdout.Len() != 0 {
				t.Errorf("printed %q before failing", stdout.String())
			}
		})
	}
}
