package provider

import (
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"
)

// featureLifecycleDestroy is `lifecycle { destroy = false }` in a resource block: Terraform 1.16
// (hashicorp/terraform#38784), OpenTofu 1.12 (opentofu/opentofu#3409).
var featureLifecycleDestroy = cliFeature{what: "lifecycle { destroy = false } in resource blocks", terraform: "1.16.0", opentofu: "1.12.0"}

// The account resource's examples of destroy = false and of the removed block that the page shows.
const (
	accountDestroyFalseExample = "../../examples/resources/eventnotify_account_subscriptions/destroy-false.tf"
	accountRemovedExample      = "../../examples/resources/eventnotify_account_subscriptions/removed.tf"
)

// TestCLIFeatureLifecycleDestroy pins the versions that take destroy = false in a resource block.
func TestCLIFeatureLifecycleDestroy(t *testing.T) {
	for _, tc := range []struct {
		name, version string
		want          bool
	}{
		{"Terraform", "1.16.0-rc2", true}, // prereleases count as their release
		{"Terraform", "1.15.9", false},
		{"OpenTofu", "1.12.6", true},
		{"OpenTofu", "1.11.5", false},
	} {
		cli := &cliInfo{Name: tc.name, Version: version.Must(version.NewVersion(tc.version))}
		if got, why := cli.supports(featureLifecycleDestroy); got != tc.want || (!got && why == "") {
			t.Errorf("%s %s supports destroy = false = %v (%q), want %v", tc.name, tc.version, got, why, tc.want)
		}
	}
}

// TestDocsAccountDestroyFalse checks, without a CLI, the account resource page's section on
// destroy = false: it shows both examples as they are, and says where Terraform and OpenTofu
// differ: deleting the block destroys the resource under Terraform.
func TestDocsAccountDestroyFalse(t *testing.T) {
	page := readPage(t, "../../docs/resources/account_subscriptions.md")
	for _, example := range []string{accountDestroyFalseExample, accountRemovedExample} {
		body, err := os.ReadFile(example)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(page, "```terraform\n"+strings.TrimSpace(string(body))+"\n```") {
			t.Errorf("docs/resources/account_subscriptions.md does not show %s as it is", example)
		}
	}
	// The section runs to the next second-level heading (its examples hold "# " comment lines).
	_, section, _ := strings.Cut(page, "\n### Keeping the subscriptions when the resource goes: `destroy = false`\n")
	section, _, _ = strings.Cut(section, "\n## ")
	for _, must := range []string{"Terraform 1.16", "OpenTofu 1.12", "| deleting the block | **destroys it", "hashicorp/terraform#39088"} {
		if !strings.Contains(section, must) {
			t.Errorf("the destroy = false section of docs/resources/account_subscriptions.md does not say %q:\n%s", must, section)
		}
	}
}

// TestAccAccountSubscriptions_destroyFalse runs the account resource page's destroy = false
// example with the CLI (Terraform 1.16, OpenTofu 1.12 and later; with an older acceptance CLI it
// runs with one that EVENTNOTIFY_TEST_NEWER_CLIS names, and skips without one): destroy, a
// replacement of a tainted resource and the page's removed block each leave the account's
// subscription in place; deleting the block plans to destroy the resource under Terraform
// (which would delete every subscription of the account) and to forget it under OpenTofu, which
// then keeps the subscription, as OpenTofu does when account_id changes.
func TestAccAccountSubscriptions_destroyFalse(t *testing.T) {
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	w.requireNewer(featureLifecycleDestroy)
	w.require(featureRemovedForget)
	w.copyFile(accountDestroyFalseExample, "main.tf")
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	subs := m.Subscriptions(testAccount)
	if len(subs) != 1 {
		t.Fatalf("the example's apply left %d subscriptions in the account, want 1: %+v", len(subs), subs)
	}
	id := subs[0].SubscriptionID
	kept := func(step string) {
		t.Helper()
		if got := m.Subscriptions(testAccount); len(got) != 1 || got[0].SubscriptionID != id {
			t.Fatalf("after %s, the account holds %+v, want subscription %s alone", step, got, id)
		}
	}
	forgotten := func(step string) {
		t.Helper()
		if out := w.mustRun(nil, "state", "list"); strings.TrimSpace(out) != "" {
			t.Errorf("after %s, the state still holds %s", step, out)
		}
	}

	// destroy forgets: the subscription stays. OpenTofu says so with an error (exit 1) unless told not to.
	out, code := w.run(nil, "destroy", "-auto-approve", "-input=false", "-no-color")
	if w.cli.OpenTofu() {
		if code != 1 || !strings.Contains(out, "-suppress-forget-errors") {
			t.Errorf("tofu destroy: exit %d, want 1 with the error that names -suppress-forget-errors:\n%s", code, out)
		}
	} else if code != 0 || !strings.Contains(out, "will not be destroyed") {
		t.Errorf("terraform destroy: exit %d, want 0 and a resource that will not be destroyed:\n%s", code, out)
	}
	kept("destroy")
	forgotten("destroy")

	// The next apply takes the account over again, with the same subscription; a replacement of
	// the tainted resource forgets the old object.
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	kept("applying again")
	w.mustRun(nil, "taint", "eventnotify_account_subscriptions.production")
	out = w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	if !strings.Contains(out, "0 destroyed") {
		t.Errorf("the replacement of the tainted resource destroyed something:\n%s", out)
	}
	kept("replacing the tainted resource")

	// Deleting the block: Terraform plans to destroy, OpenTofu to forget.
	w.write("main.tf", "")
	out = w.mustRun(nil, "plan", "-input=false", "-no-color")
	if w.cli.OpenTofu() {
		if !strings.Contains(out, "0 to destroy, 1 to forget") {
			t.Errorf("tofu plan without the block does not forget the resource:\n%s", out)
		}
	} else if !strings.Contains(out, "0 to add, 0 to change, 1 to destroy") {
		t.Errorf("terraform plan without the block: want the destroy the page warns of:\n%s", out)
	}

	// The page's removed block forgets, with either CLI.
	w.copyFile(accountRemovedExample, "main.tf")
	out = w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	if !strings.Contains(out, "0 destroyed") {
		t.Errorf("the removed block destroyed something:\n%s", out)
	}
	kept("the removed block")
	forgotten("the removed block")

	// OpenTofu forgets the old account on a new account_id too. Terraform 1.16.0-rc2 destroys it
	// (hashicorp/terraform#39088, fixed after rc2 by hashicorp/terraform#39169): not run there.
	if !w.cli.OpenTofu() {
		return
	}
	w.copyFile(accountDestroyFalseExample, "main.tf")
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	w.write("main.tf", strings.Replace(w.read("main.tf"), "  subscriptions = {", "  account_id = \"acc-other\"\n\n  subscriptions = {", 1))
	out = w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	if !strings.Contains(out, "0 to destroy, 1 to forget") || !strings.Contains(out, "0 destroyed") {
		t.Errorf("a new account_id does not forget the old account's resource:\n%s", out)
	}
	kept("a new account_id")
	if got := m.Subscriptions("acc-other"); len(got) != 1 {
		t.Errorf("the new account holds %d subscriptions, want 1", len(got))
	}
}
