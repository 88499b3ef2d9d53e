package provider

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/testsupport"
)

// TestAccSecurity_hostileCertificateNames points the provider at a server whose self-signed
// certificate has DNS names holding ESC, CR, BEL and an OSC sequence that sets the terminal's
// title (issue 29, item 4). The run fails before any request with the certificate error,
// and neither plan's output nor plan -json's diagnostics once decoded hold a raw control
// character: the names are shown escaped.
func TestAccSecurity_hostileCertificateNames(t *testing.T) {
	m := newTestMock(t)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(29),
		DNSNames:     []string{"evil.example\x1b[2K\rApply complete! Resources: 0 added.", "\x1b]0;pwned\x07title.example"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	var reached atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached.Add(1) }))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshakes fail by design
	srv.StartTLS()
	t.Cleanup(srv.Close)

	w := newCLIWorkspace(t, m)
	w.env = append(w.env, envBaseURL+"="+srv.URL, envAuthURL+"="+srv.URL)
	w.write("main.tf", requiredProviders+`
provider "eventnotify" {}

data "eventnotify_log_levels" "all" {}
`)
	out, code := w.run(nil, "plan", "-input=false", "-no-color")
	jsonOut, _ := w.run(nil, "plan", "-input=false", "-json")
	if code == 0 || reached.Load() != 0 {
		t.Fatalf("plan exited %d and %d requests reached the server:\n%s", code, reached.Load(), out)
	}
	for name, text := range map[string]string{"plan output": out, "plan -json diagnostics": diagnosticsOf(jsonOut)} {
		// Terraform wraps the plain output's lines; the escaped names hold no space to wrap at.
		for _, want := range []string{"TLS certificate could not be verified", `\x1b]0;pwned\x07title.example`} {
			if !strings.Contains(strings.Join(strings.Fields(text), " "), want) {
				t.Errorf("the %s does not say %q:\n%s", name, want, text)
			}
		}
		if i := strings.IndexAny(text, "\x1b\x07\r"); i >= 0 {
			t.Errorf("the %s holds a raw control character: %q", name, text[max(0, i-40):min(len(text), i+40)])
		}
	}
}

// TestAccSecurity_hostileProxyStatus makes the provider reach https://eventnotify.invalid
// through an HTTPS proxy (HTTPS_PROXY in the CLI's environment) that answers CONNECT with
// 407 and a status text that clears the line, forges Terraform's output and sets the
// terminal's title (issue 29, item 4). Neither plan's output, nor plan -json's diagnostics
// once decoded, nor the TRACE log holds a raw control character; the text is shown escaped.
func TestAccSecurity_hostileProxyStatus(t *testing.T) {
	m := newTestMock(t)
	var connects atomic.Int32
	proxyAddr := testsupport.ServeTCP(t, func(conn net.Conn) {
		req, err := http.ReadRequest(bufio.NewReader(conn))
		if err != nil || req.Method != http.MethodConnect {
			return
		}
		connects.Add(1)
		_, _ = conn.Write([]byte("HTTP/1.1 407 Proxy Authentication Required\x1b[2K\rApply complete! \x1b]0;pwned\x07\r\n" +
			"Content-Length: 0\r\nConnection: close\r\n\r\n"))
	})

	w := newCLIWorkspace(t, m)
	w.env = append(w.env, envBaseURL+"=https://eventnotify.invalid", envAuthURL+"=https://eventnotify.invalid",
		"HTTPS_PROXY=http://"+proxyAddr)
	w.write("main.tf", requiredProviders+`
provider "eventnotify" {
  max_retries = 0
}

data "eventnotify_log_levels" "all" {}
`)
	logPath := filepath.Join(t.TempDir(), "plan.log")
	out, code := w.run([]string{"TF_LOG=TRACE", "TF_LOG_PATH=" + logPath}, "plan", "-input=false", "-no-color")
	logged, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	jsonOut, _ := w.run(nil, "plan", "-input=false", "-json")
	if code == 0 || connects.Load() == 0 {
		t.Fatalf("plan exited %d after %d CONNECTs to the proxy:\n%s", code, connects.Load(), out)
	}
	for name, text := range map[string]string{"plan output": out, "plan -json diagnostics": diagnosticsOf(jsonOut),
		"TRACE log": string(logged)} {
		// Terraform wraps the plain output's lines.
		want := `Proxy Authentication Required\x1b[2K\rApply complete! \x1b]0;pwned\x07`
		if !strings.Contains(strings.Join(strings.Fields(text), " "), want) {
			t.Errorf("the %s does not show the proxy's status text escaped (%s):\n%s", name, want, text)
		}
		if i := strings.IndexAny(text, "\x1b\x07\r"); i >= 0 {
			t.Errorf("the %s holds a raw control character: %q", name, text[max(0, i-40):min(len(text), i+40)])
		}
	}
}

// diagnosticsOf returns the summaries and details of the diagnostics of a -json run's output.
func diagnosticsOf(jsonOut string) string {
	var details []string
	sc := bufio.NewScanner(strings.NewReader(jsonOut))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			Diagnostic struct{ Summary, Detail string } `json:"diagnostic"`
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Diagnostic.Detail != "" {
			details = append(details, line.Diagnostic.Summary+"\n"+line.Diagnostic.Detail)
		}
	}
	return strings.Join(details, "\n")
}
