package client

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/testsupport"
)

// The tests of this file make the transport's own errors carry hostile text (issue 29,
// item 4): the names of a certificate and the status text of a proxy, which reach the
// client before any trust is established. The error and the log show them escaped, and
// errors.Is and errors.As still see the transport's error.

// hostileNames are DNS names that would clear a line, forge Terraform's output and set the
// terminal's title if printed as they are.
var hostileNames = []string{"evil.example\x1b[2K\rApply complete! Resources: 0 added.", "\x1b]0;pwned\x07title.example"}

// hostileCertificate returns a self-signed certificate for hostileNames.
func hostileCertificate(t *testing.T) (tls.Certificate, *x509.Certificate) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(29),
		Subject:               pkix.Name{CommonName: "hostile\x1b[31m"},
		DNSNames:              hostileNames,
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, leaf
}

// checkQuotedTransportError asserts that err and the log are free of control characters
// and secrets, that err still shows the hostile text escaped, and the log inLog ("": the
// log need not quote the hostile text; its own masks hide the secrets, as "***").
func checkQuotedTransportError(t *testing.T, err error, log *bytes.Buffer, escaped, inLog string) {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	noUnsafeText(t, "the error", err.Error())
	noSecrets(t, "the error", err.Error(), map[string]string{"password": hostilePassword})
	if !strings.Contains(err.Error(), escaped) {
		t.Errorf("the error does not show %q: %s", escaped, err)
	}
	logged := inLog == ""
	for _, s := range logStrings(t, log) {
		noUnsafeText(t, "the log", s)
		noSecrets(t, "the log", s, map[string]string{"password": hostilePassword})
		logged = logged || strings.Contains(s, inLog)
	}
	if !logged {
		t.Errorf("the log does not show the failed attempt's error %q", inLog)
	}
}

func TestHostileCertificateNames(t *testing.T) {
	t.Parallel()
	cert, leaf := hostileCertificate(t)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("a request reached the server: %s %s", r.Method, r.URL.Path)
	}))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshakes fail by design
	srv.StartTLS()
	t.Cleanup(srv.Close)
	// By name, so that Go's x509.HostnameError lists the certificate's names.
	serverURL := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	trusting := x509.NewCertPool()
	trusting.AddCert(leaf)

	tests := []struct {
		name   string
		client *http.Client
		as     func(error) bool
		inLog  string // what the log of the failed attempt shows
	}{
		// Signed by no trusted authority: the provider's hint names the certificate.
		{"untrusted", nil, func(err error) bool {
			var v *tls.CertificateVerificationError
			return errors.As(err, &v)
		}, ""},
		// Trusted, but not for 127.0.0.1: Go's own error lists the names.
		{"trusted, wrong host", &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: trusting}}},
			func(err error) bool {
				var h x509.HostnameError
				return errors.As(err, &h) && h.Certificate.Equal(leaf)
			}, `certificate is valid for evil.example\x1b[2K\rApply complete!`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := New(Config{
				Config: httpapi.Config{
					BaseURL:    serverURL,
					AuthURL:    serverURL,
					AccountID:  testAccount,
					Username:   testUser,
					Password:   hostilePassword,
					MaxRetries: 1,
					HTTPClient: tc.client,
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			var logged bytes.Buffer
			_, err = c.ListLogLevels(tflogtest.RootLogger(context.Background(), &logged))
			if !errors.Is(err, httpapi.ErrUntrustedCertificate) || !tc.as(err) {
				t.Errorf("error %v: errors.Is/As do not find the certificate error through the escaping", err)
			}
			checkQuotedTransportError(t, err, &logged, `evil.example\x1b[2K\rApply complete!`, tc.inLog)
			if !strings.Contains(err.Error(), `\x1b]0;pwned\x07title.example`) {
				t.Errorf("the error does not show the second name escaped: %s", err)
			}
		})
	}
}

// hostileProxy is an HTTPS proxy that answers every CONNECT with 407 and status text.
func hostileProxy(t *testing.T, status string) *url.URL {
	t.Helper()
	addr := testsupport.ServeTCP(t, func(conn net.Conn) {
		req, err := http.ReadRequest(bufio.NewReader(conn))
		if err != nil || req.Method != http.MethodConnect {
			return
		}
		_, _ = conn.Write([]byte("HTTP/1.1 407 " + status + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
	})
	return &url.URL{Scheme: "http", Host: addr}
}

func TestHostileProxyStatus(t *testing.T) {
	t.Parallel()
	// The status text clears the line, forges Terraform's output, sets the title, and
	// repeats the password (as if the proxy had seen it).
	proxy := hostileProxy(t, "Proxy Authentication Required\x1b[2K\rApply complete! \x1b]0;pwned\x07 "+hostilePassword)
	c, err := New(Config{
		Config: httpapi.Config{
			BaseURL:      "https://eventnotify.invalid",
			AuthURL:      "https://eventnotify.invalid",
			AccountID:    testAccount,
			Username:     testUser,
			Password:     hostilePassword,
			MaxRetries:   1,
			RetryWaitMin: time.Millisecond,
			RetryWaitMax: time.Millisecond,
			// http.ProxyFromEnvironment reads the environment once per process: the test's proxy
			// comes through the transport instead.
			HTTPClient: &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	_, err = c.ListLogLevels(tflogtest.RootLogger(context.Background(), &log))
	var urlErr *url.Error
	if !errors.As(err, &urlErr) || !strings.HasPrefix(urlErr.URL, "https://eventnotify.invalid/") {
		t.Errorf("error %v: errors.As does not find the request's *url.Error through the escaping", err)
	}
	forged := `Proxy Authentication Required\x1b[2K\rApply complete! \x1b]0;pwned\x07 `
	checkQuotedTransportError(t, err, &log, forged+httpapi.RedactedMarker, forged)
}
