package provider

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/testsupport"
)

// listResourceExample is the list resource's example, which the docs show.
const listResourceExample = "../../examples/list-resources/eventnotify_subscription/list-resource.tfquery.hcl"

// newOneAccountMock is a mock on which the test user may read testAccount only, as a reader's
// credentials usually read their own account only: another account answers 403.
func newOneAccountMock(t *testing.T) *testMock {
	t.Helper()
	return fromHarness(t, testsupport.Start(t, mockserver.Config{Users: []mockserver.User{
		{Username: testUser, Password: testPassword, Accounts: []string{testAccount}}}}))
}

// TestListResourceExampleRunsAsCopied checks, without a CLI, what lets the list resource's
// example run as a reader copies it: no list block of the example file or of the page names an
// account (account_id), so that every block lists the provider's own account, which its
// credentials can read (TestDocsListResourcePage checks that the page shows the file as it
// is). The example once listed "audit-account-id", an account nobody has: `terraform query`
// failed for everyone.
func TestListResourceExampleRunsAsCopied(t *testing.T) {
	example, err := os.ReadFile(listResourceExample)
	if err != nil {
		t.Fatal(err)
	}
	page := readPage(t, "../../docs/list-resources/subscription.md")
	sources := map[string]string{listResourceExample: string(example)}
	for i, block := range hclCodeBlocks(page) {
		sources[fmt.Sprintf("docs/list-resources/subscription.md (HCL block %d)", i+1)] = block
	}
	lists := 0
	for name, src := range sources {
		file, diags := hclsyntax.ParseConfig([]byte(src), name, hcl.InitialPos)
		if diags.HasErrors() {
			t.Errorf("%s: %s", name, diags.Error())
			continue
		}
		for _, block := range file.Body.(*hclsyntax.Body).Blocks {
			if block.Type != "list" {
				continue
			}
			lists++
			for _, inner := range block.Body.Blocks {
				if attr := inner.Body.Attributes["account_id"]; inner.Type == "config" && attr != nil {
					t.Errorf("%s: list %q names account_id at line %d: a reader's credentials cannot read that account, "+
						"so terraform query fails as copied; list the provider's account", name, strings.Join(block.Labels, "."), attr.SrcRange.Start.Line)
				}
			}
		}
	}
	if lists < 2 {
		t.Errorf("found %d list blocks in the example and the page, want the example's (at least 2)", lists)
	}
}

// TestAccSubscriptionList_queryGenerateConfig runs the list resource's example, as copied,
// with `terraform query` (Terraform 1.14 and later; with an older acceptance CLI it runs with
// a CLI that EVENTNOTIFY_TEST_NEWER_CLIS names, and skips without one; OpenTofu has no list
// resources). The user may read the provider's account only, as a reader's credentials
// usually do: the example finds every subscription of that account once, none of another
// account, and `-generate-config-out` writes the configuration and the import blocks that take
// them all into state in one plan, with no change on the service.
func TestAccSubscriptionList_queryGenerateConfig(t *testing.T) {
	m := newOneAccountMock(t)
	w := newCLIWorkspace(t, m)
	w.requireNewer(featureListResources)
	seeded := seedExistingSubscriptions(m)
	other := m.PutSubscription("acc-other", mockserver.Subscription{EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS",
		LogLevel: "ERROR", EventStreamsEnvironment: "env-other", EventStreamsTopic: "other", Enabled: true})
	w.copyFile(listResourceExample, "search.tfquery.hcl")

	out := w.mustRun(nil, "query", "-no-color")
	for _, s := range seeded {
		if n := strings.Count(out, "["+s.SubscriptionID+"]"); n != 1 {
			t.Errorf("terraform query lists subscription %s (%s, enabled %v) %d times, want once:\n%s", s.SubscriptionID, s.EventName, s.Enabled, n, out)
		}
	}
	if strings.Contains(out, other.SubscriptionID) {
		t.Errorf("terraform query lists subscription %s of another account:\n%s", other.SubscriptionID, out)
	}
	if !strings.Contains(out, "ATOM.STATUS -> EVENT_STREAMS env-1/topic-ATOM.STATUS (INFO) ["+seeded[0].SubscriptionID+"]") {
		t.Errorf("terraform query does not show the display name of %s:\n%s", seeded[0].SubscriptionID, out)
	}

	w.mustRun(nil, "query", "-generate-config-out=generated.tf", "-no-color")
	generated := w.read("generated.tf")
	for what, want := range map[string]string{"eventnotify_subscription blocks": `resource "eventnotify_subscription"`,
		"import blocks": "import {", "import blocks by identity": "identity = {"} {
		if n := strings.Count(generated, want); n != len(seeded) {
			t.Errorf("generated.tf holds %d %s, want %d:\n%s", n, what, len(seeded), generated)
		}
	}
	for _, s := range seeded {
		if n := strings.Count(generated, `"`+s.SubscriptionID+`"`); n != 1 {
			t.Errorf("generated.tf imports subscription %s %d times, want once:\n%s", s.SubscriptionID, n, generated)
		}
	}
	out = w.mustRun(nil, "plan", "-input=false", "-no-color")
	if want := fmt.Sprintf("Plan: %d to import, 0 to add, 0 to change, 0 to destroy.", len(seeded)); !strings.Contains(out, want) {
		t.Fatalf("the plan of the generated configuration does not say %q:\n%s\ngenerated.tf:\n%s", want, out, generated)
	}
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("plan after importing with the generated configuration is not empty (exit %d):\n%s", code, out)
	}
	checkAdopted(t, m, seeded)
}

// TestAccSubscriptionList_failedGenerateConfig pins what the list resource's page says about
// a `terraform query -generate-config-out` run that fails (here a list block names an account
// the user may not read, as the example once did): the command fails naming the account and
// the service's answer, the file holds the blocks of what the other list blocks found, the
// next run refuses to write into the file while it exists, and once the file is deleted and
// the failing block fixed, the run writes it whole.
func TestAccSubscriptionList_failedGenerateConfig(t *testing.T) {
	m := newOneAccountMock(t)
	w := newCLIWorkspace(t, m)
	w.requireNewer(featureListResources)
	seeded := seedExistingSubscriptions(m)
	forbidden := `list "eventnotify_subscription" "audit" {
  provider = eventnotify

  config {
    account_id = "audit-account-id"
  }
}
`
	w.copyFile(listResourceExample, "search.tfquery.hcl")
	w.write("audit.tfquery.hcl", forbidden)

	out, code := w.run(nil, "query", "-generate-config-out=generated.tf", "-no-color")
	if code == 0 || !strings.Contains(out, "audit-account-id") || !strings.Contains(out, "403") {
		t.Fatalf("terraform query with a block for an account the user may not read: exit %d, want a failure that names "+
			"the account and the service's 403:\n%s", code, out)
	}
	// The example's blocks succeeded: the file holds what they found, every subscription.
	partial := w.read("generated.tf")
	if n := strings.Count(partial, `resource "eventnotify_subscription"`); n != len(seeded) {
		t.Errorf("the failed run wrote %d resource blocks, want the %d that the other blocks found:\n%s", n, len(seeded), partial)
	}

	out, code = w.run(nil, "query", "-generate-config-out=generated.tf", "-no-color")
	if code == 0 || !strings.Contains(out, "already exists") {
		t.Errorf("terraform query into the file a failed run left: exit %d, want a refusal that says the file already exists:\n%s", code, out)
	}
	if got := w.read("generated.tf"); got != partial {
		t.Errorf("the refused run changed generated.tf:\nbefore\n%s\nafter\n%s", partial, got)
	}

	w.remove("generated.tf")
	w.remove("audit.tfquery.hcl")
	w.mustRun(nil, "query", "-generate-config-out=generated.tf", "-no-color")
	if n := strings.Count(w.read("generated.tf"), `resource "eventnotify_subscription"`); n != len(seeded) {
		t.Errorf("after deleting the file, the run wrote %d resource blocks, want %d", n, len(seeded))
	}
}
