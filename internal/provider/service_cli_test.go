package provider

// The acceptance tests for any endpoint (acc_target_test.go) that run the CLI itself: the list
// resource and the actions, which plugin-testing's steps do not run.

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// TestAccService_queryAndActions creates a subscription of the test's, finds it with `terraform
// query`, and disables and enables it with the actions, which name it by id so that nothing else
// of the account is changed (Terraform 1.14 and later; with an older acceptance CLI it runs with
// one that EVENTNOTIFY_TEST_NEWER_CLIS names, and skips without one; OpenTofu has neither).
func TestAccService_queryAndActions(t *testing.T) {
	tg := newAccTarget(t)
	w := tg.cliWorkspace(t)
	w.requireNewer(featureActions)
	topic := tg.topic("actions")
	w.write("versions.tf", requiredProviders)
	w.write("main.tf", subscriptionOn(tg.event(0), tg.level(0), topic)+`
action "eventnotify_disable_subscriptions" "mine" {
  config {
    ids = [eventnotify_subscription.test.id]
  }
}
action "eventnotify_enable_subscriptions" "mine" {
  config {
    ids = [eventnotify_subscription.test.id]
  }
}
`)
	w.write("mine.tfquery.hcl", fmt.Sprintf(`
list "eventnotify_subscription" "mine" {
  provider = eventnotify
  limit    = 10000
  config {
    event_name = %q
    log_level  = %q
  }
}
`, tg.event(0), tg.level(0)))
	t.Cleanup(func() { w.run(nil, "destroy", "-auto-approve", "-input=false", "-no-color") })
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	mine, err := tg.own(tg.account)
	if err != nil || len(mine) != 1 {
		t.Fatalf("after the apply the account holds %d subscriptions of the test (%v), want 1", len(mine), err)
	}
	id := mine[0].ID

	if out := w.mustRun(nil, "query", "-no-color"); strings.Count(out, "["+id+"]") != 1 {
		t.Errorf("terraform query does not list the test's subscription %s once:\n%s", id, out)
	}
	for _, step := range []struct {
		action  string
		enabled bool
	}{{"eventnotify_disable_subscriptions", false}, {"eventnotify_enable_subscriptions", true}} {
		w.mustRun(nil, "apply", "-invoke=action."+step.action+".mine", "-auto-approve", "-input=false", "-no-color")
		got, err := tg.client.GetSubscription(tg.ctx(), tg.account, id)
		if err != nil {
			t.Fatalf("reading %s after %s: %v", id, step.action, err)
		}
		if got.Enabled != step.enabled {
			t.Errorf("after %s the service holds %s with enabled %v, want %v", step.action, id, got.Enabled, step.enabled)
		}
	}
	w.mustRun(nil, "destroy", "-auto-approve", "-input=false", "-no-color")
	if _, err := tg.client.GetSubscription(tg.ctx(), tg.account, id); !errors.Is(err, httpapi.ErrNotFound) {
		t.Errorf("subscription %s after destroy: want the service's 404, got %v", id, err)
	}
	if err := tg.checkGone()(nil); err != nil {
		t.Error(err)
	}
}
