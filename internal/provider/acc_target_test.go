package provider

// The service a test written for any endpoint runs against: the in-process mock in the usual
// runs, or the service the EVENTNOTIFY_* variables name in a live run (acc_live_test.go). Such a
// test creates only subscriptions whose topic starts with its own prefix (tfacc-<run>-<test>),
// looks only at those, reads event names and log levels from the service's catalogue, and checks
// the service through its own API (the tests' client), never through the mock's store. In the
// usual runs the mock's accounts also hold subscriptions of other teams, and a cleanup fails the
// test when any of them changed: the guarantee a live run gives an account is tested on every run.

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/testsupport"
)

// accDisposableMockAccount is the account the whole-account tests may empty in the usual runs.
const accDisposableMockAccount = "acc-disposable"

// accTarget is the service of one test written for any endpoint.
type accTarget struct {
	t           testing.TB
	mock        *testMock // the in-process mock; nil in a live run
	account     string    // the provider's account
	disposable  string    // an account the whole-account tests may empty; "" when none is named
	allowTopics bool      // the event-streams topic test may create topics
	provider    string    // the provider block
	client      *client.Client
	prefix      string // the topics of this test's subscriptions start with it

	events, levels []string // names read from the service's catalogues, in the service's order
}

// newAccTarget is the service of a test written for any endpoint: the live run's, or a new
// in-process mock whose accounts hold other teams' subscriptions, which must be unchanged when
// the test ends.
func newAccTarget(t *testing.T) *accTarget {
	t.Helper()
	tg := &accTarget{t: t, prefix: accTopicPrefix + accRunID + "-" + testSlug(t.Name())}
	env := lookupEnv
	if liveRun != nil {
		tg.account, tg.disposable, tg.allowTopics = liveRun.account, liveRun.disposable, liveRun.allowTopics
		// The environment names the service, as for any user's provider block: the block sets
		// nothing, so the provider's defaults (rate limit and retries included) apply.
		tg.provider = "provider \"eventnotify\" {}\n"
	} else {
		m := fromHarness(t, testsupport.Start(t, mockserver.Config{}))
		m.setTestCatalogues()
		tg.mock, tg.account, tg.disposable, tg.allowTopics = m, testAccount, accDisposableMockAccount, true
		tg.provider = m.providerBlock()
		env = envOf(mockEnvVars(m.URL))
		tg.seedOtherTeams()
	}
	cfg, diags := resolveSettings(providerModel{}, env)
	if diags.HasError() {
		t.Fatalf("the tests' client: %v", diags)
	}
	cfg.ListCacheTTL = -1 // every check asks the service
	c, err := client.New(cfg)
	if err != nil {
		t.Fatalf("the tests' client: %v", err)
	}
	tg.client = c
	tg.readCatalogues()
	return tg
}

// testSlug is a short, stable part of a topic name for the test: eight hexadecimal digits of the
// test's name, so that the topic stays short whatever the name.
func testSlug(name string) string {
	h := fnv.New32a()
	_, _ = h.Write([]byte(name))
	return fmt.Sprintf("%08x", h.Sum32())
}

// topic is the topic of this test named by suffix: tfacc-<run>-<test>-<suffix>.
func (tg *accTarget) topic(suffix string) string { return tg.prefix + "-" + suffix }

// ctx is the context of the tests' own calls.
func (tg *accTarget) ctx() context.Context { return tg.t.Context() }

// readCatalogues reads the event names and log levels the tests use from the service, and skips
// the test when the service offers too few of them or no EVENT_STREAMS destination.
func (tg *accTarget) readCatalogues() {
	tg.t.Helper()
	events, err := tg.client.ListEvents(tg.ctx())
	if err != nil {
		tg.t.Fatalf("reading the events catalogue: %v", err)
	}
	levels, err := tg.client.ListLogLevels(tg.ctx())
	if err != nil {
		tg.t.Fatalf("reading the log levels catalogue: %v", err)
	}
	types, err := tg.client.ListDestinationTypes(tg.ctx())
	if err != nil {
		tg.t.Fatalf("reading the destination types catalogue: %v", err)
	}
	for _, e := range events {
		tg.events = append(tg.events, e.Name)
	}
	for _, l := range levels {
		tg.levels = append(tg.levels, l.Name)
	}
	if !slices.ContainsFunc(types, func(e client.CatalogueEntry) bool { return e.Name == "EVENT_STREAMS" }) {
		tg.t.Skip("the service's destination types catalogue has no EVENT_STREAMS")
	}
	if len(tg.events) < 2 || len(tg.levels) < 2 {
		tg.t.Skipf("the service's catalogues list %d events and %d log levels; the test needs two of each", len(tg.events), len(tg.levels))
	}
}

// event and level are the i-th event name and log level of the service's catalogues.
func (tg *accTarget) event(i int) string { return tg.events[i%len(tg.events)] }
func (tg *accTarget) level(i int) string { return tg.levels[i%len(tg.levels)] }

// needDisposable skips a test that takes over a whole account when no account may be emptied.
func (tg *accTarget) needDisposable() {
	tg.t.Helper()
	if tg.disposable == "" {
		tg.t.Skipf("takes over a whole account: set %s to an account that holds nothing anyone needs", envAccDisposableAccount)
	}
}

// needTopicCreation skips the event-streams topic test unless topics may be created.
func (tg *accTarget) needTopicCreation() {
	tg.t.Helper()
	if !tg.allowTopics {
		tg.t.Skipf("creates event-streams topics, which nothing can delete: set %s=true to allow it", envAccAllowTopicCreation)
	}
}

// own lists the account's subscriptions whose topic starts with this test's prefix, through the
// service's own API.
func (tg *accTarget) own(account string) ([]client.Subscription, error) {
	subs, err := tg.client.AccountSubscriptions(tg.ctx(), account)
	if err != nil {
		return nil, fmt.Errorf("listing account %s: %w", account, err)
	}
	var mine []client.Subscription
	for _, s := range subs {
		if strings.HasPrefix(s.EventStreamsTopic, tg.prefix) {
			mine = append(mine, s)
		}
	}
	return mine, nil
}

// checkOwn checks that the account holds exactly n subscriptions of this test.
func (tg *accTarget) checkOwn(account string, n int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		mine, err := tg.own(account)
		if err != nil {
			return err
		}
		if len(mine) != n {
			return fmt.Errorf("account %s holds %d subscriptions of this test, want %d: %v", account, len(mine), n, mine)
		}
		return nil
	}
}

// checkGone is a CheckDestroy: every subscription of the state (none when it is nil) is gone
// (the service answers 404 for it), and the accounts hold none of this test's.
func (tg *accTarget) checkGone(accounts ...string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		var resources map[string]*terraform.ResourceState
		if s != nil {
			resources = s.RootModule().Resources
		}
		for _, rs := range resources {
			if rs.Type != "eventnotify_subscription" {
				continue
			}
			account := rs.Primary.Attributes["account_id"]
			if _, err := tg.client.GetSubscription(tg.ctx(), account, rs.Primary.ID); !errors.Is(err, httpapi.ErrNotFound) {
				return fmt.Errorf("subscription %s of account %s after destroy: want the service's 404, got %v", rs.Primary.ID, account, err)
			}
		}
		for _, a := range append(accounts, tg.account) {
			if err := tg.checkOwn(a, 0)(s); err != nil {
				return err
			}
		}
		return nil
	}
}

// checkService checks the subscription the state holds at addr against the service's own
// answer for it: the same event, log level and topic.
func (tg *accTarget) checkService(addr, event, level, topic string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[addr]
		if !ok {
			return fmt.Errorf("%s is not in the state", addr)
		}
		got, err := tg.client.GetSubscription(tg.ctx(), rs.Primary.Attributes["account_id"], rs.Primary.ID)
		if err != nil {
			return fmt.Errorf("reading %s (%s) from the service: %w", addr, rs.Primary.ID, err)
		}
		if got.EventName != event || got.LogLevel != level || got.EventStreamsTopic != topic {
			return fmt.Errorf("the service holds %s as %s/%s on %q, want %s/%s on %q", rs.Primary.ID, got.EventName,
				got.LogLevel, got.EventStreamsTopic, event, level, topic)
		}
		return nil
	}
}

// otherTeams are subscriptions of other teams that the mock's accounts hold in the usual runs.
func otherTeams() []mockserver.Subscription {
	return []mockserver.Subscription{
		{EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS", LogLevel: "ERROR", EventStreamsTopic: "payments-alerts", Enabled: true},
		{EventName: "PROCESS.EXECUTION", DestinationType: "EMAIL", LogLevel: "INFO", DestinationEmail: "ops@example.com", Enabled: true},
		// Another run's: its prefix, not this test's.
		{EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS", LogLevel: "WARNING", EventStreamsTopic: accTopicPrefix + "00000000-other", Enabled: true},
	}
}

// seedOtherTeams stores otherTeams in the provider's account (the disposable one is the
// whole-account tests' to empty) and fails the test at its end when any of them changed.
func (tg *accTarget) seedOtherTeams() {
	for _, s := range otherTeams() {
		tg.mock.PutSubscription(tg.account, s)
	}
	before := tg.mock.Subscriptions(tg.account)
	tg.t.Cleanup(func() {
		after := tg.mock.Subscriptions(tg.account)
		for _, b := range before {
			i := slices.IndexFunc(after, func(a mockserver.Subscription) bool { return a.SubscriptionID == b.SubscriptionID })
			switch {
			case i < 0:
				tg.t.Errorf("another team's subscription %s (topic %q) was deleted", b.SubscriptionID, b.EventStreamsTopic)
			case after[i] != b:
				tg.t.Errorf("another team's subscription %s changed:\nbefore %+v\nafter  %+v", b.SubscriptionID, b, after[i])
			}
		}
	})
}

// cliWorkspace is a CLI workspace (cli_test.go) on the built provider whose runs reach this
// test's service: the mock's, or the live run's EVENTNOTIFY_* variables as they are.
func (tg *accTarget) cliWorkspace(t *testing.T) *cliWorkspace {
	t.Helper()
	var service []string
	if tg.mock != nil {
		service = tg.mock.serviceEnv()
	} else {
		for _, kv := range os.Environ() {
			if strings.HasPrefix(kv, "EVENTNOTIFY_") {
				service = append(service, kv)
			}
		}
	}
	w := newServiceCLIWorkspace(t, service)
	w.env = append(w.env, "TF_CLI_CONFIG_FILE="+writeDevOverrides(t, t.TempDir(), buildProvider(t)))
	return w
}
