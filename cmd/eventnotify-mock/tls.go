package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// With -tls the mock serves https with a certificate it makes at start: self-signed, ECDSA
// P-256, for the names a client may use (certificateNames), valid from an hour before the
// start (clocks of containers differ) for certificateValidity. Its PEM is written to
// -tls-cert-out, so that a client on another machine or in another container can trust it
// (SSL_CERT_FILE on Linux); the private key never leaves the process. The provider accepts
// plain http for this machine only, so https is how a mock in another container is reached.

// certificateValidity is how long the certificate of a -tls mock is valid after its start.
const certificateValidity = 7 * 24 * time.Hour

// defaultCertOut is the file -tls writes the certificate to when -tls-cert-out is not given.
const defaultCertOut = "eventnotify-mock.pem"

// mockCertificate is the certificate of a -tls mock: for the server, and its PEM for clients.
type mockCertificate struct {
	tls      tls.Certificate
	pem      []byte
	names    []string // the names and addresses it is valid for
	notAfter time.Time
}

// certificateNames are the host names and IP addresses a client may reach a mock started
// with -listen listen and the -allow-host names allow by: localhost, 127.0.0.1, ::1, the host
// of -listen (unless it names every interface) and every -allow-host name but '*', each once.
func certificateNames(listen string, allow []string) []string {
	names := []string{"localhost", "127.0.0.1", "::1"}
	add := func(h string) {
		if c := canonicalHost(h); c != "" && !slices.Contains(names, c) {
			names = append(names, c)
		}
	}
	if host, _, err := net.SplitHostPort(listen); err == nil {
		if ip, err := netip.ParseAddr(host); err != nil || !ip.IsUnspecified() {
			add(host)
		}
	}
	for _, h := range allow {
		if h != allowAnyHost {
			add(h)
		}
	}
	return names
}

// serveTLS makes the certificate of a mock started with o and writes it to -tls-cert-out;
// it returns the certificate and the file's absolute path.
func serveTLS(o options) (*mockCertificate, string, error) {
	cert, err := newMockCertificate(certificateNames(o.listen, o.allowHosts), time.Now())
	if err != nil {
		return nil, "", err
	}
	path, err := cert.writeCertificate(o.certOut)
	if err != nil {
		return nil, "", err
	}
	return cert, path, nil
}

// newMockCertificate makes a self-signed certificate for names (host names and IP
// addresses), valid from an hour before now for certificateValidity.
func newMockCertificate(names []string, now time.Time) (*mockCertificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("certificate key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return nil, fmt.Errorf("certificate serial number: %w", err)
	}
	template := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "eventnotify-mock", Organization: []string{"eventnotify-mock (self-signed)"}},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(certificateValidity),
		// Its own authority, so that a trust store (SSL_CERT_FILE, a system's CA directory)
		// accepts it as a root.
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	for _, n := range names {
		if ip, err := netip.ParseAddr(n); err == nil {
			template.IPAddresses = append(template.IPAddresses, net.IP(ip.AsSlice()))
		} else {
			template.DNSNames = append(template.DNSNames, n)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		return nil, fmt.Errorf("certificate: %w", err)
	}
	return &mockCertificate{
		tls:      tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key},
		pem:      pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		names:    names,
		notAfter: template.NotAfter,
	}, nil
}

// writeCertificate writes the certificate's PEM to path (readable by all: it holds no
// secret), through a file beside it renamed into place, so that a client never reads half
// of it; it returns the absolute path.
func (c *mockCertificate) writeCertificate(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("certificate file: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(abs), ".eventnotify-mock-*.pem")
	if err != nil {
		return "", fmt.Errorf("certificate file: %w", err)
	}
	// Readable by all (CreateTemp makes it 0600): a client in another container may run as
	// another user, and a certificate is no secret.
	err = tmp.Chmod(0o644)
	if err == nil {
		_, err = tmp.Write(c.pem)
	}
	if closeErr := tmp.Close(); err == nil {
		err = closeErr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), abs)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return "", fmt.Errorf("certificate file: %w", err)
	}
	return abs, nil
}

// note is the line on standard error about the certificate written to path.
func (c *mockCertificate) note(path string) string {
	return fmt.Sprintf("https with a self-signed certificate for %s, valid until %s, written to %s: "+
		"clients trust it with SSL_CERT_FILE=%s (Linux)", strings.Join(c.names, ", "),
		c.notAfter.UTC().Format(time.RFC3339), path, path)
}

// tlsConfig is the server's TLS configuration.
func (c *mockCertificate) tlsConfig() *tls.Config {
	return &tls.Config{Certificates: []tls.Certificate{c.tls}, MinVersion: tls.VersionTLS12}
}
