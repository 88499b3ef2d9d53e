package client

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// This file is fakeAPI, a small scripted fake of the service, written from SERVICE.md for these unit
// tests only: a JWT endpoint issuing real signed tokens and a bearer check in front of a
// per-test handler for the /rest/v1 paths.
//
// It is not a second harness of the mock: the mock (internal/mockserver, started for the
// mockserver_*_test.go files by internal/testsupport) implements the spec, while this fake answers
// what each unit test scripts (JWT bodies of every form, slow or failing JWT requests, revoked
// tokens, malformed and hostile answers), which the mock never does.

const (
	testAccount  = "acc-1"
	testUser     = "alice@example.com"
	testPassword = "pw-Zq8secretpassword"
	testAPIToken = "tok-9f8e7d6c5b4a3210"
	testOTP      = "493817"
	testUA       = "terraform-provider-eventnotify/1.2.3-test"
)

// hostilePassword holds the characters that JSON, HTML and URLs write otherwise.
const hostilePassword = `pw<&"sec ret'>+/%`

// testSigningKey signs the fake's JWTs.
func testSigningKey() []byte { return []byte("fake-signing-key-for-tests") }

// recorded is one request as the fake saw it.
type recorded struct {
	Method      string
	Path        string // escaped path
	Query       map[string][]string
	Auth        string
	OTP         string
	UserAgent   string
	ContentType string
	Body        []byte
}

// fakeAPI is the fake service.
type fakeAPI struct {
	t   *testing.T
	srv *httptest.Server

	mu         sync.Mutex
	ttl        time.Duration // token lifetime; 0 => 5m
	noExp      bool          // issue tokens without exp
	jwtForm    string        // plain, plain-newline, json-string, token, jwt, access_token
	jwtDelay   time.Duration
	jwtFail    []int // statuses answered by the next JWT requests
	acceptUser string
	acceptPass string
	requireOTP string
	jwtHandler http.HandlerFunc // when set, answers every JWT request instead of the fake
	minSeq     int64            // tokens with a lower sequence number are rejected (revoked)
	seq        int64
	handler    http.HandlerFunc
	jwtReqs    []recorded
	apiReqs    []recorded

	jwtFetches atomic.Int32     // successful JWT responses
	apiCalls   atomic.Int32     // requests that reached the handler
	rejected   atomic.Int32     // 401s answered to service calls
	retries    waitRecorder     // the RetryWait of testConfig: the waits between attempts
	clock      func() time.Time // the fake's time for issuing and checking tokens; nil: time.Now
}

// now reads the fake's clock.
func (f *fakeAPI) now() time.Time {
	f.mu.Lock()
	clock := f.clock
	f.mu.Unlock()
	if clock == nil {
		return time.Now()
	}
	return clock()
}

// newFake starts a fake accepting testUser/testPassword.
func newFake(t *testing.T, handler http.HandlerFunc) *fakeAPI {
	t.Helper()
	f := &fakeAPI{t: t, acceptUser: testUser, acceptPass: testPassword, handler: handler, jwtForm: "plain"}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// set changes the fake's settings under its lock.
func (f *fakeAPI) set(fn func(f *fakeAPI)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(f)
}

// revokeAll makes every token issued so far invalid.
func (f *fakeAPI) revokeAll() {
	f.mu.Lock()
	f.minSeq = f.seq + 1
	f.mu.Unlock()
}

// api returns the recorded service requests.
func (f *fakeAPI) api() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.apiReqs...)
}

// jwts returns the recorded JWT requests.
func (f *fakeAPI) jwts() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.jwtReqs...)
}

// issue signs a token for the account.
func (f *fakeAPI) issue(account string) string {
	f.mu.Lock()
	f.seq++
	seq := f.seq
	ttl := f.ttl
	noExp := f.noExp
	f.mu.Unlock()
	if ttl == 0 {
		ttl = 5 * time.Minute
	}
	now := f.now()
	claims := jwt.MapClaims{"sub": testUser, "acct": account, "seq": seq, "iat": now.Unix()}
	if !noExp {
		claims["exp"] = now.Add(ttl).Unix()
	}
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(testSigningKey())
	if err != nil {
		f.t.Errorf("signing: %v", err)
	}
	return s
}

func record(r *http.Request) recorded {
	body, _ := io.ReadAll(r.Body)
	return recorded{
		Method:      r.Method,
		Path:        r.URL.EscapedPath(),
		Query:       r.URL.Query(),
		Auth:        r.Header.Get("Authorization"),
		OTP:         r.Header.Get("X-Platform-OTP"),
		UserAgent:   r.Header.Get("User-Agent"),
		ContentType: r.Header.Get("Content-Type"),
		Body:        body,
	}
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	rec := record(r)
	r.Body = io.NopCloser(strings.NewReader(string(rec.Body)))
	if strings.HasPrefix(r.URL.Path, "/auth/jwt/generate/") {
		f.serveJWT(w, r, rec)
		return
	}
	f.mu.Lock()
	f.apiReqs = append(f.apiReqs, rec)
	minSeq := f.minSeq
	handler := f.handler
	f.mu.Unlock()

	tokenAccount, ok := f.verify(rec.Auth, minSeq)
	if !ok {
		f.rejected.Add(1)
		w.WriteHeader(http.StatusUnauthorized) // no body, as the spec says
		return
	}
	if rest, ok := strings.CutPrefix(r.URL.EscapedPath(), "/rest/v1/accounts/"); ok {
		if acct, err := url.PathUnescape(strings.Split(rest, "/")[0]); err != nil || acct != tokenAccount {
			writeJSON(w, http.StatusForbidden, fmt.Sprintf(`{"error":"Forbidden","messages":["Access Denied"],"path":%q}`, r.URL.Path))
			return
		}
	}
	f.apiCalls.Add(1)
	if handler == nil {
		http.NotFound(w, r)
		return
	}
	handler(w, r)
}

// verify checks a bearer token and returns its account.
func (f *fakeAPI) verify(auth string, minSeq int64) (string, bool) {
	raw, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok {
		return "", false
	}
	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(raw, claims, func(*jwt.Token) (any, error) { return testSigningKey(), nil },
		jwt.WithValidMethods([]string{"HS256"}), jwt.WithTimeFunc(f.now))
	if err != nil {
		return "", false
	}
	if seq, _ := claims["seq"].(float64); int64(seq) < minSeq {
		return "", false
	}
	acct, _ := claims["acct"].(string)
	return acct, true
}

func (f *fakeAPI) serveJWT(w http.ResponseWriter, r *http.Request, rec recorded) {
	f.mu.Lock()
	f.jwtReqs = append(f.jwtReqs, rec)
	delay, form := f.jwtDelay, f.jwtForm
	var fail int
	if len(f.jwtFail) > 0 {
		fail, f.jwtFail = f.jwtFail[0], f.jwtFail[1:]
	}
	user, pass, otp := f.acceptUser, f.acceptPass, f.requireOTP
	override := f.jwtHandler
	f.mu.Unlock()
	if override != nil {
		override(w, r)
		return
	}
	if delay > 0 {
		time.Sleep(delay)
	}
	if fail != 0 {
		w.WriteHeader(fail)
		return
	}
	if r.Method != http.MethodGet {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	u, p, ok := r.BasicAuth()
	if !ok || u != user || p != pass || (otp != "" && rec.OTP != otp) {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	account := strings.TrimPrefix(r.URL.Path, "/auth/jwt/generate/")
	token := f.issue(account)
	f.jwtFetches.Add(1)
	switch form {
	case "plain":
		w.Header().Set("Content-Type", "text/plain")
		_, _ = io.WriteString(w, token)
	case "plain-newline":
		w.Header().Set("Content-Type", "text/plain")
		_, _ = io.WriteString(w, "  "+token+"\r\n")
	case "json-string":
		writeJSON(w, http.StatusOK, fmt.Sprintf("%q", token))
	default: // token, jwt, access_token
		writeJSON(w, http.StatusOK, fmt.Sprintf(`{"expiresIn":300,%q:%q}`, form, token))
	}
}

// writeJSON answers a JSON body.
func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// testConfig is a password configuration for the fake, with fast retries.
func (f *fakeAPI) testConfig() Config {
	return Config{
		Config: httpapi.Config{
			BaseURL:      f.srv.URL,
			AuthURL:      f.srv.URL + "/",
			AccountID:    testAccount,
			Username:     testUser,
			Password:     testPassword,
			MaxRetries:   3,
			UserAgent:    testUA,
			RetryWaitMin: time.Millisecond,
			RetryWaitMax: 5 * time.Millisecond,
			RetryWait:    f.retries.Wait,
		},
	}
}

// newClient builds a client for the fake; mutate may adjust the configuration.
func (f *fakeAPI) newClient(mutate func(*Config)) *Client {
	f.t.Helper()
	cfg := f.testConfig()
	if mutate != nil {
		mutate(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		f.t.Fatalf("New: %v", err)
	}
	return c
}

// jsonEqual compares two JSON documents structurally.
func jsonEqual(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("request body is not JSON: %v: %s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad expectation %s: %v", want, err)
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if string(gb) != string(wb) {
		t.Errorf("request body\n got: %s\nwant: %s", gb, wb)
	}
}

// newServer starts a plain test server.
func newServer(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}
