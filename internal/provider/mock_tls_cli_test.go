package provider

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// TestAccGuideMockServer_anotherContainer follows the mock server guide's advice for a mock in
// another container, as CI runs it: the mock command started with -tls and -allow-host mock,
// and a provider that reaches it as https://mock:<port> and trusts the certificate the mock
// wrote, through SSL_CERT_FILE alone (SSL_CERT_DIR names an empty directory, so no other
// authority is trusted). The provider runs in its own process (the CLI starts it through
// dev_overrides), as it reads SSL_CERT_FILE once per process. The name "mock" reaches the
// mock through an HTTPS proxy that maps it to 127.0.0.1 (the part a container network's DNS
// plays), so the TLS handshake verifies the certificate for the name "mock".
//
// Steps: http://mock is refused at plan time (plain http only to this machine: the trap
// the guide is about); https without the certificate trusted fails at once, naming
// SSL_CERT_FILE; with it, apply, plan (no changes) and destroy work, the proxy carried only
// connections to mock:<port>, and the mock saw the subscription created and deleted.
func TestAccGuideMockServer_anotherContainer(t *testing.T) {
	w := newCLIWorkspace(t, newTestMock(t))
	dir := t.TempDir()
	certFile := filepath.Join(dir, "eventnotify-mock.pem")
	env := startMockCommand(t, "-listen", "127.0.0.1:0", "-tls", "-allow-host", "mock", "-tls-cert-out", certFile)
	_, port, err := net.SplitHostPort(strings.TrimPrefix(env["EVENTNOTIFY_BASE_URL"], "https://"))
	if err != nil || !strings.HasPrefix(env["EVENTNOTIFY_BASE_URL"], "https://127.0.0.1:") || env["SSL_CERT_FILE"] != certFile {
		t.Fatalf("the mock printed %v, want an https address and SSL_CERT_FILE=%s", env, certFile)
	}
	proxy := newNameProxy(t, "mock:"+port, "127.0.0.1:"+port)
	emptyDir := filepath.Join(dir, "no-authorities")
	if err := os.Mkdir(emptyDir, 0o755); err != nil {
		t.Fatal(err)
	}
	// The environment of the other container: the mock's name, its credentials, the proxy.
	mockEnv := func(scheme string, trusted bool) []string {
		e := []string{
			"EVENTNOTIFY_BASE_URL=" + scheme + "://mock:" + port, "EVENTNOTIFY_AUTH_URL=" + scheme + "://mock:" + port,
			"EVENTNOTIFY_ACCOUNT_ID=" + env["EVENTNOTIFY_ACCOUNT_ID"], "EVENTNOTIFY_USERNAME=" + env["EVENTNOTIFY_USERNAME"],
			"EVENTNOTIFY_PASSWORD=" + env["EVENTNOTIFY_PASSWORD"], "EVENTNOTIFY_MAX_RETRIES=2",
			"HTTPS_PROXY=" + proxy.URL, "SSL_CERT_DIR=" + emptyDir,
		}
		if trusted {
			e = append(e, "SSL_CERT_FILE="+certFile)
		} else {
			e = append(e, "SSL_CERT_FILE="+filepath.Join(emptyDir, "none.pem"))
		}
		return e
	}
	w.write("versions.tf", requiredProviders)
	w.write("main.tf", `resource "eventnotify_subscription" "alerts" {
  event_name                   = "ATOM.STATUS"
  destination_type             = "EVENT_STREAMS"
  log_level                    = "ERROR"
  event_streams_environment_id = "env-1"
  event_streams_topic          = "alerts"
}
`)

	out, code := w.run(mockEnv("http", true), "plan", "-input=false", "-no-color")
	expectOutput(t, "a plan against http://mock", out, true, "uses plain http:// for a host other than this machine",
		"a mock in another container or host serves https when started with -tls")
	if code != 1 {
		t.Errorf("a plan against http://mock exits %d, want 1", code)
	}

	out, code = w.run(mockEnv("https", false), "plan", "-input=false", "-no-color")
	expectOutput(t, "a plan without the certificate trusted", out, true, "x509: certificate signed by unknown authority",
		"The server at mock:"+port+" presented a certificate for localhost, mock, 127.0.0.1, ::1",
		"point SSL_CERT_FILE", "Not retried")
	if code != 1 || strings.Contains(out, "giving up after") {
		t.Errorf("a plan without the certificate trusted exits %d, want 1 after one attempt:\n%s", code, out)
	}

	w.mustRun(mockEnv("https", true), "apply", "-auto-approve", "-input=false", "-no-color")
	stats := mockStats(t, env["EVENTNOTIFY_BASE_URL"], certFile)
	if stats.Subscriptions != 1 {
		t.Errorf("after the apply the mock holds %d subscriptions, want 1", stats.Subscriptions)
	}
	if out, code := w.run(mockEnv("https", true), "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Errorf("the plan after the apply exits %d, want 0 (no changes):\n%s", code, out)
	}
	w.mustRun(mockEnv("https", true), "destroy", "-auto-approve", "-input=false", "-no-color")
	if stats := mockStats(t, env["EVENTNOTIFY_BASE_URL"], certFile); stats.Subscriptions != 0 {
		t.Errorf("after the destroy the mock holds %d subscriptions, want none", stats.Subscriptions)
	}
	if got := proxy.targets(); len(got) == 0 || slices.ContainsFunc(got, func(s string) bool { return s != "mock:"+port }) {
		t.Errorf("the proxy was asked for %q, want mock:%s only", got, port)
	}
}

// startMockCommand runs the mock server's command with args until the test ends (then stops
// it with SIGTERM, as the guide does) and returns the KEY=VALUE lines it printed.
func startMockCommand(t *testing.T, args ...string) map[string]string {
	t.Helper()
	cmd := exec.Command(filepath.Join(mockBuild.get(t), "eventnotify-mock"), args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		if err := cmd.Wait(); err != nil {
			t.Errorf("the mock exited with %v:\n%s", err, stderr.String())
		}
	})
	// The mock prints its lines in one write once it listens, the certificate already written.
	// With -tls, SSL_CERT_FILE is the second of six lines.
	lines := 5
	if slices.Contains(args, "-tls") {
		lines = 6
	}
	env := map[string]string{}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), "=")
		env[k] = v
		if len(env) == lines {
			break
		}
	}
	if len(env) < lines {
		t.Fatalf("the mock printed %v and stopped: %v", env, sc.Err())
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	return env
}

// mockCounters is what the mock's GET /_mock/stats reports that these tests read.
type mockCounters struct {
	Subscriptions int `json:"subscriptions"`
}

// mockStats reads the counters of the mock at baseURL, trusting the certificate in certFile.
func mockStats(t *testing.T, baseURL, certFile string) mockCounters {
	t.Helper()
	pemBytes, err := os.ReadFile(certFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pemBytes) {
		t.Fatalf("%s holds no certificate", certFile)
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	defer client.CloseIdleConnections()
	resp, err := client.Get(baseURL + "/_mock/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var c mockCounters
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /_mock/stats: status %d, %v", resp.StatusCode, err)
	}
	return c
}

// nameProxy is an HTTPS proxy (CONNECT) that reaches one name, as a container network's
// DNS would: a tunnel to target for CONNECT name, 403 for anything else.
type nameProxy struct {
	*httptest.Server
	mu  sync.Mutex
	got []string // the CONNECT targets asked for
}

// newNameProxy starts a proxy that tunnels CONNECT name to target until the test ends.
func newNameProxy(t *testing.T, name, target string) *nameProxy {
	t.Helper()
	p := &nameProxy{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.got = append(p.got, r.Host)
		p.mu.Unlock()
		if r.Method != http.MethodConnect || r.Host != name {
			http.Error(w, "this proxy reaches "+name+" only", http.StatusForbidden)
			return
		}
		upstream, err := (&net.Dialer{}).DialContext(r.Context(), "tcp", target)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		w.WriteHeader(http.StatusOK)
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			_ = upstream.Close()
			return
		}
		go func() {
			_, _ = io.Copy(upstream, buf)
			_ = upstream.(*net.TCPConn).CloseWrite()
		}()
		_, _ = io.Copy(conn, upstream)
		_ = conn.Close()
		_ = upstream.Close()
	}))
	t.Cleanup(p.Close)
	return p
}

// targets returns the CONNECT targets the proxy was asked for.
func (p *nameProxy) targets() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.got)
}
