package provider

// Live mode: the acceptance tests against the service the EVENTNOTIFY_* variables name
// (`make testacc-live`, EVENTNOTIFY_ACC_LIVE=1), instead of the in-process mock. TestMain keeps
// the variables for the provider (which reads them as any user's provider does: no credential
// is written into a configuration) and for the tests' own client; every test that starts the
// in-process mock skips, saying why, and the tests written against an accTarget
// (acc_target_test.go) run against whichever service the run has.

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The variables of the acceptance tests against a real service (CONTRIBUTING.md, "Against a real
// service").
const (
	envAccLive               = "EVENTNOTIFY_ACC_LIVE"
	envAccDisposableAccount  = "EVENTNOTIFY_ACC_DISPOSABLE_ACCOUNT"
	envAccAllowTopicCreation = "EVENTNOTIFY_ACC_ALLOW_TOPIC_CREATION"
	envSweepMinAge           = "EVENTNOTIFY_SWEEP_MIN_AGE"
)

// accTopicPrefix starts the event_streams_topic of every subscription a live run creates, and
// of nothing else: the sweepers delete what carries it (sweep_test.go).
const accTopicPrefix = "tfacc-"

// liveService is the service of a live run or of a sweep: what the environment names.
type liveService struct {
	account     string // EVENTNOTIFY_ACCOUNT_ID
	disposable  string // EVENTNOTIFY_ACC_DISPOSABLE_ACCOUNT: an account the whole-account tests may empty
	allowTopics bool   // EVENTNOTIFY_ACC_ALLOW_TOPIC_CREATION=true
}

// liveRun is the live run's service; TestMain sets it when EVENTNOTIFY_ACC_LIVE is true (or a
// sweep runs), and it stays nil for the usual runs against the in-process mock.
var liveRun *liveService

// accRunID tells this test process's subscriptions apart from another run's on the same
// account: two runs at once never look at each other's.
var accRunID = newRunID()

// newRunID is eight random hexadecimal digits.
func newRunID() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b) // never fails (crypto/rand documents it)
	return hex.EncodeToString(b)
}

// liveFromEnv reads a live run's service from the environment: nil, nil when the run is not
// live and no sweep was asked for, an error when it is but a variable it needs is missing.
func liveFromEnv(sweep bool) (*liveService, error) {
	live, err := envTrue(envAccLive)
	if err != nil {
		return nil, err
	}
	if !live && !sweep {
		return nil, nil
	}
	l := &liveService{account: os.Getenv(envAccountID), disposable: os.Getenv(envAccDisposableAccount)}
	if l.allowTopics, err = envTrue(envAccAllowTopicCreation); err != nil {
		return nil, err
	}
	var missing []string
	for _, name := range []string{envAccountID, envBaseURL} {
		if os.Getenv(name) == "" && (name != envBaseURL || os.Getenv(envRegion) == "") {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		asked := envAccLive + " is set"
		if !live {
			asked = "-sweep is given (make sweep)"
		}
		return nil, fmt.Errorf("%s but %s is not: set the service's address, account and credentials "+
			"(EVENTNOTIFY_BASE_URL, EVENTNOTIFY_AUTH_URL, EVENTNOTIFY_ACCOUNT_ID, and EVENTNOTIFY_USERNAME with "+
			"EVENTNOTIFY_PASSWORD or EVENTNOTIFY_API_TOKEN, or EVENTNOTIFY_JWT)", asked, strings.Join(missing, " and "))
	}
	if l.disposable != "" && l.disposable == l.account {
		return nil, fmt.Errorf("%s names the provider's own account %q: the whole-account tests empty the account it "+
			"names, so it must be another one, which holds nothing anyone needs", envAccDisposableAccount, l.account)
	}
	return l, nil
}

// envTrue reads a boolean variable: unset or empty is false.
func envTrue(name string) (bool, error) {
	v := os.Getenv(name)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s=%q: want true or false", name, v)
	}
	return b, nil
}

// skipWhenLive skips a test that needs the in-process mock when the run is live, with the one
// line that says why.
func skipWhenLive(t testing.TB) {
	t.Helper()
	if liveRun != nil {
		t.Skip("live run: needs the in-process mock's hooks (its store, faults, held answers, clock or request counts)")
	}
}
