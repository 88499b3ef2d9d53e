package provider

// The sweeper (sweep_test.go) against the in-process mock: what it deletes, what it keeps, what it
// prints, and how it reads EVENTNOTIFY_SWEEP_MIN_AGE.

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/testsupport"
)

// The accounts of the sweeper's tests: the provider's, the disposable one, and one the sweep is
// not given.
const (
	sweepDisposable = "acc-disposable"
	sweepUnlisted   = "acc-unlisted"
)

// sweepSeed is a subscription a test stores before a sweep, dated age before the service's clock;
// undated ones have no createdDate.
type sweepSeed struct {
	topic   string
	age     time.Duration
	undated bool
	email   bool // an EMAIL subscription, with no topic
}

// sweepSeeds are the subscriptions of every account of the sweeper's tests: leftovers of live runs
// of several ages, one without a createdDate, and foreign ones, some old, whose topics only look
// like a live run's.
var sweepSeeds = []sweepSeed{
	{topic: "tfacc-2h", age: 2 * time.Hour},
	{topic: "tfacc-61m", age: 61 * time.Minute},
	{topic: "tfacc-45m", age: 45 * time.Minute},
	{topic: "tfacc-10m", age: 10 * time.Minute},
	{topic: "tfacc-0s", age: 0},
	{topic: "tfacc-undated", undated: true},
	{topic: "orders-3h", age: 3 * time.Hour},
	{topic: "team-tfacc-3h", age: 3 * time.Hour}, // contains the prefix, not at the start
	{topic: "TFACC-3h", age: 3 * time.Hour},      // the prefix is case-sensitive
	{topic: "Tfacc-5h", age: 5 * time.Hour},      // in any case
	{topic: "tfacc3h", age: 3 * time.Hour},       // no hyphen
	{topic: " tfacc-space", age: 3 * time.Hour},  // not at the very start
	{email: true, age: 3 * time.Hour},            // no topic at all
}

// sweepClock is the service's clock in the sweeper's tests, years away from this machine's: ages
// measured on this machine's clock would make every subscription old.
var sweepClock = time.Date(2021, time.March, 4, 5, 6, 7, 0, time.UTC)

// seedSweepAccounts stores sweepSeeds in each account, dated on the mock's stopped clock.
func seedSweepAccounts(t *testing.T, m *mockserver.Server, accounts ...string) {
	t.Helper()
	m.StopClock(sweepClock)
	for _, a := range accounts {
		for _, s := range sweepSeeds {
			sub := mockserver.Subscription{EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS", LogLevel: "INFO",
				EventStreamsEnvironment: "env-1", EventStreamsTopic: s.topic, Enabled: true,
				CreatedDate: sweepClock.Add(-s.age).UnixMilli(), CreatedBy: "someone@example.com"}
			if s.email {
				sub.DestinationType, sub.EventStreamsEnvironment, sub.DestinationEmail = "EMAIL", "", "ops@example.com"
			}
			stored := m.PutSubscription(a, sub)
			if s.undated && !m.ModifySubscription(a, stored.SubscriptionID, func(x *mockserver.Subscription) { x.CreatedDate = 0 }) {
				t.Fatalf("the undated subscription %s vanished", stored.SubscriptionID)
			}
		}
	}
}

// deletedLine matches a line of a deleted subscription and captures its fields.
var deletedLine = regexp.MustCompile(`^deleted  account=(\S+) id=(\S+) topic=(\S+) event=(\S+) age=(\S+)$`)

func TestSweepSubscriptions(t *testing.T) {
	cases := []struct {
		name    string
		minAge  time.Duration
		deleted []string // topics swept in each listed account
	}{
		{name: "default 1h", minAge: defaultSweepMinAge, deleted: []string{"tfacc-2h", "tfacc-61m"}},
		{name: "30m", minAge: 30 * time.Minute, deleted: []string{"tfacc-2h", "tfacc-61m", "tfacc-45m"}},
		{name: "0 sweeps every dated one", minAge: 0, deleted: []string{"tfacc-2h", "tfacc-61m", "tfacc-45m", "tfacc-10m", "tfacc-0s"}},
		{name: "3h sweeps none", minAge: 3 * time.Hour, deleted: nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := newTestMock(t)
			seedSweepAccounts(t, m.Server, testAccount, sweepDisposable, sweepUnlisted)
			before := map[string][]mockserver.Subscription{}
			for _, a := range []string{testAccount, sweepDisposable, sweepUnlisted} {
				before[a] = m.Subscriptions(a)
			}
			c, account, err := newSweepClient(envOf(mockEnvVars(m.URL)))
			if err != nil {
				t.Fatal(err)
			}
			if account != testAccount {
				t.Fatalf("the sweep client's account is %q, want the provider's %q", account, testAccount)
			}
			var out bytes.Buffer
			if err := sweepSubscriptions(context.Background(), c, []string{account, sweepDisposable, ""}, tc.minAge, &out); err != nil {
				t.Fatalf("sweep failed: %v\n%s", err, out.String())
			}
			t.Logf("sweep output:\n%s", out.String())

			// Each listed account lost exactly the subscriptions named, the unlisted one nothing;
			// every other subscription is as it was, field by field.
			printed := map[string]string{} // id -> line
			for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
				if f := deletedLine.FindStringSubmatch(line); f != nil {
					printed[f[2]] = line
				} else if strings.HasPrefix(line, "deleted") {
					t.Errorf("a deleted line not in the promised form: %q", line)
				}
			}
			nDeleted := 0
			for _, a := range []string{testAccount, sweepDisposable, sweepUnlisted} {
				var want []mockserver.Subscription
				for _, s := range before[a] {
					if a != sweepUnlisted && slices.Contains(tc.deleted, s.EventStreamsTopic) {
						nDeleted++
						checkDeletedLine(t, printed[s.SubscriptionID], a, s)
						continue
					}
					if _, ok := printed[s.SubscriptionID]; ok {
						t.Errorf("account %s: %s (topic %q) is printed as deleted but must be kept", a, s.SubscriptionID, s.EventStreamsTopic)
					}
					want = append(want, s)
				}
				if got := m.Subscriptions(a); !slices.Equal(got, want) {
					t.Errorf("account %s after the sweep:\n got  %+v\n want %+v", a, topics(got), topics(want))
				}
			}
			if len(printed) != nDeleted {
				t.Errorf("%d deleted lines, want %d", len(printed), nDeleted)
			}
			for _, a := range []string{testAccount, sweepDisposable} {
				young := 0
				for _, s := range sweepSeeds {
					if !s.undated && strings.HasPrefix(s.topic, "tfacc-") && !slices.Contains(tc.deleted, s.topic) {
						young++
					}
				}
				summary := "account " + a + ": deleted " + strconv.Itoa(len(tc.deleted)) + ", kept " + strconv.Itoa(young) +
					" tfacc- subscriptions younger than " + tc.minAge.String() + " and 1 without a createdDate"
				if !strings.Contains(out.String(), summary) {
					t.Errorf("the output lacks the summary %q", summary)
				}
				if !strings.Contains(out.String(), "kept     account="+a+" id=") {
					t.Errorf("the output does not name account %s's subscription without a createdDate as kept", a)
				}
			}
			if strings.Contains(out.String(), sweepUnlisted) {
				t.Errorf("the output names the account the sweep was not given")
			}
			if strings.Contains(out.String(), "no Date header") {
				t.Errorf("the mock sends Date headers, yet the sweep measured ages on this machine's clock")
			}
		})
	}
}

// checkDeletedLine asserts that line names the deleted subscription s of the account, with an age
// no less than the one it was seeded with.
func checkDeletedLine(t *testing.T, line, account string, s mockserver.Subscription) {
	t.Helper()
	f := deletedLine.FindStringSubmatch(line)
	if f == nil {
		t.Errorf("account %s: %s (topic %s) was deleted but no line names it", account, s.SubscriptionID, s.EventStreamsTopic)
		return
	}
	if f[1] != account || f[3] != s.EventStreamsTopic || f[4] != s.EventName {
		t.Errorf("the line of %s names account %s, topic %s, event %s; want %s, %s, %s", s.SubscriptionID, f[1], f[3], f[4],
			account, s.EventStreamsTopic, s.EventName)
	}
	age, err := time.ParseDuration(f[5])
	seeded := sweepClock.Sub(time.UnixMilli(s.CreatedDate))
	if err != nil || age < seeded || age >= seeded+time.Minute {
		t.Errorf("the line of %s gives age %q; it was created %s before the service's clock", s.SubscriptionID, f[5], seeded)
	}
}

// topics lists the subscriptions' topics, for a readable failure.
func topics(subs []mockserver.Subscription) []string {
	out := make([]string, len(subs))
	for i, s := range subs {
		out[i] = s.SubscriptionID[:8] + ":" + s.EventStreamsTopic
	}
	return out
}

// TestSweepSubscriptions_failedDelete: a delete the service refuses is printed with the client's
// error and fails the sweep, after the other old subscription was deleted.
func TestSweepSubscriptions_failedDelete(t *testing.T) {
	m := newTestMock(t)
	seedSweepAccounts(t, m.Server, testAccount)
	m.InjectFault(mockserver.Fault{Method: http.MethodDelete, Route: mockserver.RouteSubscription, Status: http.StatusBadRequest, Count: 1})
	c, account, err := newSweepClient(envOf(mockEnvVars(m.URL)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = sweepSubscriptions(context.Background(), c, []string{account}, time.Hour, &out)
	t.Logf("sweep output:\n%s", out.String())
	if err == nil {
		t.Fatal("a refused delete did not fail the sweep")
	}
	var left []string
	for _, s := range m.Subscriptions(testAccount) {
		if s.EventStreamsTopic == "tfacc-2h" || s.EventStreamsTopic == "tfacc-61m" {
			left = append(left, s.SubscriptionID)
		}
	}
	if len(left) != 1 {
		t.Fatalf("%d of the two old tfacc- subscriptions are left, want the one whose delete failed", len(left))
	}
	failed := regexp.MustCompile(`(?m)^failed   account=` + testAccount + ` id=` + left[0] + ` topic=\S+ event=\S+ age=\S+: .*400`)
	if !failed.MatchString(out.String()) {
		t.Errorf("no line names the failed delete of %s with the service's answer", left[0])
	}
	if !strings.Contains(err.Error(), left[0]) || !strings.Contains(out.String(), "deleted 1, ") ||
		!strings.Contains(out.String(), ", 1 failed;") {
		t.Errorf("the error or the summary does not tell the failure: %v", err)
	}
}

// TestSweepSubscriptions_noDateHeader: a service that sends no Date header leaves this machine's
// clock, and the sweep says so. The mock's clock stands years behind this machine's, so every
// dated tfacc- subscription is old by this machine's clock.
func TestSweepSubscriptions_noDateHeader(t *testing.T) {
	skipWhenLive(t)
	srv := testsupport.New(mockserver.Config{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		srv.ServeHTTP(noDateWriter{w}, r)
	}))
	t.Cleanup(ts.Close)
	seedSweepAccounts(t, srv, testAccount)
	c, account, err := newSweepClient(envOf(mockEnvVars(ts.URL)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := sweepSubscriptions(context.Background(), c, []string{account}, time.Hour, &out); err != nil {
		t.Fatalf("sweep failed: %v\n%s", err, out.String())
	}
	t.Logf("sweep output:\n%s", out.String())
	if !strings.Contains(out.String(), "account "+testAccount+": the service's listing carried no Date header: ages are measured on this machine's clock") {
		t.Errorf("the sweep does not say that it measured ages on this machine's clock")
	}
	var left []string
	for _, s := range srv.Subscriptions(testAccount) {
		if strings.HasPrefix(s.EventStreamsTopic, "tfacc-") {
			left = append(left, s.EventStreamsTopic)
		}
	}
	if !slices.Equal(left, []string{"tfacc-undated"}) {
		t.Errorf("tfacc- subscriptions left: %q, want only the undated one", left)
	}
}

// noDateWriter answers without a Date header: Go's server adds none when the header is nil.
type noDateWriter struct{ http.ResponseWriter }

func (w noDateWriter) WriteHeader(code int) {
	w.Header()["Date"] = nil
	w.ResponseWriter.WriteHeader(code)
}

func (w noDateWriter) Write(b []byte) (int, error) {
	w.Header()["Date"] = nil
	return w.ResponseWriter.Write(b)
}

func TestSweepMinAge(t *testing.T) {
	cases := []struct {
		name    string
		env     map[string]string
		want    time.Duration
		wantErr string
	}{
		{name: "unset", env: nil, want: time.Hour},
		{name: "empty", env: map[string]string{envSweepMinAge: ""}, want: time.Hour},
		{name: "30m", env: map[string]string{envSweepMinAge: "30m"}, want: 30 * time.Minute},
		{name: "1h30m", env: map[string]string{envSweepMinAge: "1h30m"}, want: 90 * time.Minute},
		{name: "0s", env: map[string]string{envSweepMinAge: "0s"}, want: 0},
		{name: "0", env: map[string]string{envSweepMinAge: "0"}, want: 0},
		{name: "no unit", env: map[string]string{envSweepMinAge: "10"}, wantErr: `EVENTNOTIFY_SWEEP_MIN_AGE="10" is not a Go duration`},
		{name: "words", env: map[string]string{envSweepMinAge: "an hour"}, wantErr: `EVENTNOTIFY_SWEEP_MIN_AGE="an hour" is not a Go duration`},
		{name: "negative", env: map[string]string{envSweepMinAge: "-1h"}, wantErr: `EVENTNOTIFY_SWEEP_MIN_AGE="-1h" is negative`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := sweepMinAge(envOf(tc.env))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %s, %v; want %s", got, err, tc.want)
			}
		})
	}
}

// TestSweepConfiguration: the sweeper refuses a region and an environment the provider refuses,
// before it sends anything.
func TestSweepConfiguration(t *testing.T) {
	if err := sweepLeftoverSubscriptions("us"); err == nil || !strings.Contains(err.Error(), "give -sweep=env") {
		t.Errorf("-sweep=us: error %v, want one that names -sweep=env", err)
	}
	cases := []struct {
		name    string
		drop    string
		wantErr string
	}{
		{name: "no account", drop: envAccountID, wantErr: "EVENTNOTIFY_ACCOUNT_ID"},
		{name: "no password", drop: envPassword, wantErr: "EVENTNOTIFY_PASSWORD"},
		{name: "no user name", drop: envUsername, wantErr: "EVENTNOTIFY_USERNAME"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			full := envOf(mockEnvVars("http://127.0.0.1:1"))
			env := func(name string) (string, bool) {
				if name == tc.drop {
					return "", false
				}
				return full(name)
			}
			if _, _, err := newSweepClient(env); err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %v, want one naming %s", err, tc.wantErr)
			}
		})
	}
}
