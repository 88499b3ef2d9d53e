package provider

// The sweeper of `make sweep` (GNUmakefile; CONTRIBUTING.md, "Test"): terraform-plugin-testing's
// sweepers, run by resource.TestMain when `go test` is given -sweep. It deletes the subscriptions
// that failed live runs left: those whose event_streams_topic starts with accTopicPrefix ("tfacc-",
// case-sensitive, as every live test writes it) and that are older than EVENTNOTIFY_SWEEP_MIN_AGE
// (default one hour, so that a run in progress keeps its own), in the provider's account and in
// EVENTNOTIFY_ACC_DISPOSABLE_ACCOUNT. It never changes anything else.
//
// Ages are measured on the service's clock: the Date headers of the listing's answers bound it
// (httpapi.ClockProbe), and a subscription is old only when even the lower bound of that clock,
// less httpapi.ServiceClockSkew, puts it past the minimum age. The client's calibrated createdDate
// clock (internal/client/created_clock.go) is not usable here: only the Client's own creates
// calibrate it, and a sweep creates nothing. A service that sends no Date header leaves this
// machine's clock, and the sweep says so.
//
// The event-streams topics that eventnotify_event_streams_topic creates are not swept: the service
// has no operation that deletes one.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// sweepRegion is the one "region" the sweepers take (`make sweep` passes -sweep=env): the service
// has no region for a sweep, the EVENTNOTIFY_* variables name it, and the word says so.
const sweepRegion = "env"

// defaultSweepMinAge is EVENTNOTIFY_SWEEP_MIN_AGE when it is unset: a live run takes minutes, so a
// subscription of a run in progress is younger.
const defaultSweepMinAge = time.Hour

// sweepUserAgent tells the service's logs that the requests are the sweeper's.
const sweepUserAgent = "terraform-provider-eventnotify-sweeper"

func init() {
	resource.AddTestSweepers("eventnotify_subscription", &resource.Sweeper{
		Name: "eventnotify_subscription",
		F:    sweepLeftoverSubscriptions,
	})
}

// sweepLeftoverSubscriptions is the registered sweeper: the service, account and credentials of
// the provider's environment (TestMain has checked the address and the account: liveFromEnv),
// EVENTNOTIFY_ACC_DISPOSABLE_ACCOUNT besides, and the minimum age of EVENTNOTIFY_SWEEP_MIN_AGE.
func sweepLeftoverSubscriptions(region string) error {
	if region != sweepRegion {
		return fmt.Errorf("-sweep=%s: the sweepers take no region (the EVENTNOTIFY_* variables name the service): "+
			"give -sweep=%s, as make sweep does", region, sweepRegion)
	}
	if liveRun == nil {
		return errors.New("no service to sweep: TestMain reads it from the EVENTNOTIFY_* variables when -sweep is given")
	}
	minAge, err := sweepMinAge(lookupEnv)
	if err != nil {
		return err
	}
	c, account, err := newSweepClient(lookupEnv)
	if err != nil {
		return err
	}
	return sweepSubscriptions(context.Background(), c, []string{account, liveRun.disposable}, minAge, os.Stdout)
}

// sweepMinAge reads EVENTNOTIFY_SWEEP_MIN_AGE: a Go duration, defaultSweepMinAge when unset or
// empty. 0 sweeps every tfacc- subscription with a createdDate, a run in progress's too; a
// negative age is refused.
func sweepMinAge(env func(string) (string, bool)) (time.Duration, error) {
	v, ok := env(envSweepMinAge)
	if !ok || v == "" {
		return defaultSweepMinAge, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%q is not a Go duration such as 1h or 30m (the default is %s)", envSweepMinAge, v, defaultSweepMinAge)
	}
	if d < 0 {
		return 0, fmt.Errorf("%s=%q is negative: the sweeper deletes what is older than it, so it must be 0 or more "+
			"(0 sweeps every tfacc- subscription, a run in progress's too)", envSweepMinAge, v)
	}
	return d, nil
}

// newSweepClient builds the client as the provider's Configure does from the environment alone (no
// provider block): resolveSettings, then client.New. It returns the provider's account too.
func newSweepClient(env func(string) (string, bool)) (*client.Client, string, error) {
	cfg, diags := resolveSettings(providerModel{}, env)
	if diags.HasError() {
		var msgs []string
		for _, d := range diags.Errors() {
			msgs = append(msgs, d.Summary()+": "+d.Detail())
		}
		return nil, "", fmt.Errorf("the EVENTNOTIFY_* variables do not configure the provider: %s", strings.Join(msgs, "; "))
	}
	cfg.UserAgent = sweepUserAgent
	c, err := client.New(cfg)
	if err != nil {
		return nil, "", fmt.Errorf("the EVENTNOTIFY_* variables do not make a client: %w", err)
	}
	return c, cfg.AccountID, nil
}

// sweepSubscriptions deletes, in each account (an empty one or one named twice is skipped), the
// subscriptions whose topic starts with accTopicPrefix and that are older than minAge, and writes
// to w a line for each one deleted, each one kept for want of a createdDate and each delete that
// failed, then a summary of the account. A failed listing or delete makes the error, after every
// other account and subscription has been tried.
func sweepSubscriptions(ctx context.Context, c *client.Client, accounts []string, minAge time.Duration, w io.Writer) error {
	var errs []error
	done := map[string]bool{}
	for _, account := range accounts {
		if account == "" || done[account] {
			continue
		}
		done[account] = true
		if err := sweepAccount(ctx, c, account, minAge, w); err != nil {
			errs = append(errs, fmt.Errorf("account %s: %w", account, err))
		}
	}
	return errors.Join(errs...)
}

// sweepTally counts what a sweep of one account did.
type sweepTally struct {
	deleted, gone, young, undated, failed, others int
}

// sweepAccount is sweepSubscriptions for one account.
func sweepAccount(ctx context.Context, c *client.Client, account string, minAge time.Duration, w io.Writer) error {
	probe := &httpapi.ClockProbe{}
	subs, err := c.ListSubscriptions(httpapi.WithClockProbe(ctx, probe), account, client.ListOptions{})
	if err != nil {
		fmt.Fprintf(w, "account %s: not swept: listing its subscriptions failed: %v\n", account, err)
		return fmt.Errorf("listing its subscriptions: %w", err)
	}
	// The lower bound of the service's clock, less how far the clock that writes createdDate may
	// lag the one that writes Date headers: no subscription is taken for older than it is.
	now, byService := probe.ServiceTimeAt(time.Now())
	skew := httpapi.ServiceClockSkew
	if !byService {
		now, skew = time.Now(), 0
	}
	var t sweepTally
	var errs []error
	noted := false
	for _, s := range subs {
		if !strings.HasPrefix(s.EventStreamsTopic, accTopicPrefix) {
			t.others++
			continue
		}
		what := fmt.Sprintf("account=%s id=%s topic=%s event=%s", account, s.ID, s.EventStreamsTopic, s.EventName)
		if s.CreatedDate <= 0 {
			t.undated++
			fmt.Fprintf(w, "kept     %s: it has no createdDate, so its age is unknown\n", what)
			continue
		}
		if !byService && !noted {
			noted = true
			fmt.Fprintf(w, "account %s: the service's listing carried no Date header: ages are measured on this machine's clock\n", account)
		}
		age := now.Sub(time.UnixMilli(s.CreatedDate))
		if minAge > 0 && age-skew <= minAge {
			t.young++
			continue
		}
		what += " age=" + age.Truncate(time.Second).String()
		switch err := c.DeleteSubscription(ctx, account, s.ID); {
		case err == nil:
			t.deleted++
			fmt.Fprintf(w, "deleted  %s\n", what)
		case errors.Is(err, httpapi.ErrNotFound):
			t.gone++
			fmt.Fprintf(w, "gone     %s: the service no longer has it (another sweep?)\n", what)
		default:
			t.failed++
			fmt.Fprintf(w, "failed   %s: %v\n", what, err)
			errs = append(errs, fmt.Errorf("deleting %s: %w", s.ID, err))
		}
	}
	fmt.Fprintf(w, "account %s: deleted %d, kept %d %s subscriptions younger than %s and %d without a createdDate, "+
		"%d already gone, %d failed; %d other subscriptions not touched\n",
		account, t.deleted, t.young, accTopicPrefix, minAge, t.undated, t.gone, t.failed, t.others)
	if t.failed > 0 {
		return fmt.Errorf("%d of %d deletes failed: %w", t.failed, t.deleted+t.gone+t.failed, errors.Join(errs...))
	}
	return nil
}
