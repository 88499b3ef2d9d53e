package client

import (
	"context"
	"crypto/tls"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// TestUntrustedCertificate: a server whose certificate no trusted authority
// signed is refused during the handshake, so no request (and no credential)
// reaches it; the error is the certificate error, is not retried, and says
// what failed. The same server is reached once its certificate is trusted.
func TestUntrustedCertificate(t *testing.T) {
	t.Parallel()
	var reached atomic.Int32
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		if strings.HasPrefix(r.URL.Path, "/auth/jwt/generate/") {
			_, _ = w.Write([]byte("header.payload.signature"))
			return
		}
		writeJSON(w, http.StatusOK, `["INFO"]`)
	}))
	t.Cleanup(srv.Close)
	cfg := Config{
		Config: httpapi.Config{
			BaseURL:    srv.URL,
			AuthURL:    srv.URL,
			AccountID:  testAccount,
			Username:   testUser,
			Password:   testPassword,
			MaxRetries: 3,
		},
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListLogLevels(context.Background())
	var verification *tls.CertificateVerificationError
	if !errors.As(err, &verification) || !errors.Is(err, httpapi.ErrUntrustedCertificate) {
		t.Fatalf("error %v, want a certificate verification error matching ErrUntrustedCertificate", err)
	}
	for _, want := range []string{"generate JWT", "certificate signed by unknown authority"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "attempts") {
		t.Errorf("error %q: a certificate error was retried", err)
	}
	if n := reached.Load(); n != 0 {
		t.Fatalf("%d requests reached a server with an untrusted certificate", n)
	}

	// The control: trusting the test server's certificate is all it takes.
	cfg.HTTPClient = srv.Client()
	trusted, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := trusted.ListLogLevels(context.Background()); err != nil {
		t.Fatalf("with the certificate trusted: %v", err)
	}
}
