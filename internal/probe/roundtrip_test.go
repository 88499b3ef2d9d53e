package probe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

const (
	testAccount  = "probe-account"
	testUser     = "prober"
	testPassword = "pr0be-secret-password-7d1e"
)

// testProfiles are the profiles of the round trip: every member differs from the mock's
// default in at least one of them. seed is how many foreign subscriptions the account holds
// first; write runs the probe with -write.
var testProfiles = []struct {
	name    string
	profile string
	seed    int
	write   bool
}{
	{"empty account, writes", `{"jwtBody":"text","singleShape":"wrapped","emptyList":404,"catalogShape":"strings",
		"defaultPageSize":3,"maxPageSize":7,"bulkUpdate":"reject","dateHeader":false,"sortBy":["eventName","createdDate"]}`, 0, true},
	{"empty page, access_token", `{"jwtBody":"object","jwtMember":"access_token","singleShape":"flat","emptyList":200,
		"catalogShape":"toplevel","defaultPageSize":4,"maxPageSize":6,"bulkUpdate":"items","dateHeader":true,"sortBy":[]}`, 0, true},
	{"seeded, read only", `{"jwtBody":"object","jwtMember":"jwt","singleShape":"wrapped","emptyList":"unknown",
		"catalogShape":"objects","defaultPageSize":2,"maxPageSize":5,"dateHeader":true,"unknownMember":{"x":1},
		"sortBy":["subscriptionId","logLevel","enabled","lastUpdatedUserId"]}`, 12, false},
	{"json string, 204", `{"jwtBody":"string","emptyList":204,"defaultPageSize":9,"bulkUpdate":"items"}`, 0, true},
	{"top-level strings, accessToken", `{"jwtBody":"object","jwtMember":"accessToken","catalogShape":"toplevel",
		"catalogFields":{"events":[],"logLevels":[],"destinationTypes":[]}}`, 3, false},
	{"eventName records", `{"catalogShape":"objects","catalogFields":{"events":["description","eventName"],"logLevels":["description","name"],"destinationTypes":["description","name"]}}`, 3, false},
}

// mockWithProfile starts the in-process mock with profile applied and seed foreign
// subscriptions in the account; tokens collects the JWTs it saw in requests.
func mockWithProfile(t *testing.T, profile string, seed int) (*mockserver.Server, *httptest.Server, *tokenLog) {
	t.Helper()
	p, err := mockserver.ParseProfile([]byte(profile))
	if err != nil {
		t.Fatalf("ParseProfile: %v", err)
	}
	srv := mockserver.New(mockserver.Config{Users: []mockserver.User{{Username: testUser, Password: testPassword, Accounts: []string{testAccount}}}})
	srv.ApplyProfile(p)
	for i := range seed {
		srv.PutSubscription(testAccount, mockserver.Subscription{
			EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS", LogLevel: "ERROR",
			EventStreamsTopic: fmt.Sprintf("foreign-%02d", i), Enabled: i%2 == 0, CreatedBy: "someone@example.com",
		})
	}
	tokens := &tokenLog{}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
			tokens.add(v)
		}
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	return srv, hs, tokens
}

// tokenLog is the JWTs a server saw.
type tokenLog struct {
	mu     sync.Mutex
	tokens []string
}

func (l *tokenLog) add(tok string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !slices.Contains(l.tokens, tok) {
		l.tokens = append(l.tokens, tok)
	}
}

func (l *tokenLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.tokens)
}

// testConfig is a probe configuration for the mock at url.
func testConfig(url string, write bool) Config {
	return Config{BaseURL: url, AuthURL: url, AccountID: testAccount, Username: testUser, Password: testPassword,
		Write: write, RequestsPerSecond: -1}
}

// TestRoundTrip: the probe of the mock started with each profile reports that profile, every
// member the profile gives; with -write it leaves the account as it found it, and it never
// prints or writes the password or a JWT.
func TestRoundTrip(t *testing.T) {
	for _, tt := range testProfiles {
		t.Run(tt.name, func(t *testing.T) {
			srv, hs, tokens := mockWithProfile(t, tt.profile, tt.seed)
			before := srv.Subscriptions(testAccount)
			f, err := Run(t.Context(), testConfig(hs.URL, tt.write))
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			got, err := f.Profile()
			if err != nil {
				t.Fatal(err)
			}
			diffs, err := ProfileDiff([]byte(tt.profile), got)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range diffs {
				t.Errorf("%s (reason: %s)", d, f[strings.SplitN(d, ":", 2)[0]].Reason)
			}
			if after := srv.Subscriptions(testAccount); !slices.Equal(before, after) {
				t.Errorf("the account changed: %d subscriptions before, %d after", len(before), len(after))
			}
			var report bytes.Buffer
			if err := f.WriteReport(&report); err != nil {
				t.Fatal(err)
			}
			secrets := append([]string{testPassword}, tokens.all()...)
			if len(secrets) < 2 {
				t.Fatal("the mock saw no JWT")
			}
			for _, s := range secrets {
				if strings.Contains(report.String(), s) || bytes.Contains(got, []byte(s)) {
					t.Errorf("the report or the profile holds a secret")
				}
			}
		})
	}
}

// TestWriteTouchesOnlyItsOwn: with -write the probe creates subscriptions of its own
// (topic tfacc-probe-...) and deletes them all; the foreign ones are left as they were, field by
// field.
func TestWriteTouchesOnlyItsOwn(t *testing.T) {
	// The largest page (50) is more than the account holds, so the probe creates all ten.
	srv, hs, _ := mockWithProfile(t, `{"maxPageSize":50}`, 7)
	before := srv.Subscriptions(testAccount)
	var created []string
	var mu sync.Mutex
	var watch func()
	watch = func() {
		srv.OnServed(http.MethodPost, mockserver.RouteSubscriptions, func() {
			mu.Lock()
			defer mu.Unlock()
			for _, s := range srv.Subscriptions(testAccount) {
				if strings.HasPrefix(s.EventStreamsTopic, TopicPrefix) && !slices.Contains(created, s.SubscriptionID) {
					created = append(created, s.SubscriptionID)
				}
			}
			watch()
		})
	}
	watch()
	f, err := Run(t.Context(), testConfig(hs.URL, true))
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if len(created) != MaxOwnSubscriptions {
		t.Errorf("created %d subscriptions, want %d (maxPageSize: %v, %s)", len(created), MaxOwnSubscriptions, f[MaxPageSize].Value, f[MaxPageSize].Reason)
	}
	if after := srv.Subscriptions(testAccount); !slices.Equal(before, after) {
		t.Errorf("the account differs after the probe:\nbefore %+v\nafter  %+v", before, after)
	}
}

// TestWriteCleansUpWhenCancelled: a probe whose context is cancelled in the middle of its
// writes still deletes what it created.
func TestWriteCleansUpWhenCancelled(t *testing.T) {
	srv, hs, _ := mockWithProfile(t, `{"maxPageSize":50}`, 2)
	before := srv.Subscriptions(testAccount)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	n := 0
	var watch func()
	watch = func() {
		srv.OnServed(http.MethodPost, mockserver.RouteSubscriptions, func() {
			if n++; n == 3 {
				cancel()
				return
			}
			watch()
		})
	}
	watch()
	_, err := Run(ctx, testConfig(hs.URL, true))
	if n != 3 {
		t.Fatalf("the probe created %d subscriptions, want at least 3 before the cancel", n)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run: %v, want the cancellation", err)
	}
	if after := srv.Subscriptions(testAccount); !slices.Equal(before, after) {
		t.Errorf("the account differs after the cancelled probe: %d subscriptions before, %d after", len(before), len(after))
	}
}

// TestWriteFindsALostCreate: a create whose answer is lost (the subscription is stored, the
// connection drops) is found by its topic and deleted too.
func TestWriteFindsALostCreate(t *testing.T) {
	srv, hs, _ := mockWithProfile(t, `{"maxPageSize":50}`, 3)
	before := srv.Subscriptions(testAccount)
	srv.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions, AfterWork: true, Drop: true, Count: 1})
	if _, err := Run(t.Context(), testConfig(hs.URL, true)); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if after := srv.Subscriptions(testAccount); !slices.Equal(before, after) {
		t.Errorf("the account differs after the probe: %d subscriptions before, %d after", len(before), len(after))
	}
}

// TestRedirectNotFollowed: an address that redirects is reported, and the probe sends nothing
// (no credentials above all) to where it points.
func TestRedirectNotFollowed(t *testing.T) {
	var hits int
	var mu sync.Mutex
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		hits++
		mu.Unlock()
		_, _ = w.Write([]byte(`{"token":"a.b.c"}`))
	}))
	defer target.Close()
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+r.URL.Path, http.StatusFound)
	}))
	defer redirector.Close()
	_, err := Run(t.Context(), testConfig(redirector.URL, false))
	if re := new(RedirectError); !errorsAs(err, &re) || !strings.HasPrefix(re.Location, target.URL) {
		t.Errorf("err = %v, want a *RedirectError to %s", err, target.URL)
	}
	mu.Lock()
	defer mu.Unlock()
	if hits != 0 {
		t.Errorf("the redirect's target got %d requests, want 0", hits)
	}
}
