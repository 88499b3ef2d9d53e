package provider

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// accountIdentityOf builds an identity of the account resource naming account; nil is the null
// identity (an import by id).
func accountIdentityOf(t *testing.T, account *string) *tfsdk.ResourceIdentity {
	t.Helper()
	var resp fwresource.IdentitySchemaResponse
	(&AccountSubscriptionsResource{}).IdentitySchema(context.Background(), fwresource.IdentitySchemaRequest{}, &resp)
	typ := resp.IdentitySchema.Type().TerraformType(context.Background())
	if account == nil {
		return &tfsdk.ResourceIdentity{Schema: resp.IdentitySchema, Raw: tftypes.NewValue(typ, nil)}
	}
	return &tfsdk.ResourceIdentity{Schema: resp.IdentitySchema,
		Raw: tftypes.NewValue(typ, map[string]tftypes.Value{"account_id": tftypes.NewValue(tftypes.String, *account)})}
}

// TestAccountFromIdentity checks how an import block's identity is read: its account is checked
// as every account id is, and an error names the attribute.
func TestAccountFromIdentity(t *testing.T) {
	str := func(s string) *string { return &s }
	tests := []struct {
		name       string
		account    *string // nil: no identity
		want       string
		wantDetail string
	}{
		{name: "an account", account: str("acct-1"), want: "acct-1"},
		{name: "a UUID-shaped account", account: str("3fa85f64-5717-4562-b3fc-2c963f66afa6"), want: "3fa85f64-5717-4562-b3fc-2c963f66afa6"},
		{name: "blank", account: str(" "), wantDetail: "must not be empty"},
		{name: "a path", account: str("../acct"), wantDetail: "refused rather than sent"},
		{name: "a slash", account: str("acct/3fa85f64"), wantDetail: `contains "/"`},
		{name: "a control character", account: str("acct\n"), wantDetail: "control or invisible character"},
		{name: "no identity", wantDetail: "needs an id (<account_id>)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			account, diags := accountFromIdentity(context.Background(), accountIdentityOf(t, tt.account))
			if tt.wantDetail == "" {
				if diags.HasError() || account != tt.want {
					t.Fatalf("accountFromIdentity = %q, %v; want %q", account, diags, tt.want)
				}
				return
			}
			if len(diags) != 1 || !diags.HasError() || !strings.Contains(diags[0].Detail(), tt.wantDetail) {
				t.Fatalf("accountFromIdentity diagnostics %v, want one error whose detail holds %q", diags, tt.wantDetail)
			}
			if tt.account != nil {
				withPath, ok := diags[0].(interface{ Path() path.Path })
				if !ok || !withPath.Path().Equal(path.Root("account_id")) || diags[0].Summary() != "Invalid import identity" {
					t.Errorf("the error %q is not an invalid import identity of account_id", diags[0].Summary())
				}
			}
		})
	}
}

// expectAccountIdentity checks the identity of the account resource: account, the same as the
// state's account_id and id.
func expectAccountIdentity(account string) []statecheck.StateCheck {
	return []statecheck.StateCheck{
		statecheck.ExpectIdentity(acctAddr, map[string]knownvalue.Check{"account_id": knownvalue.StringExact(account)}),
		statecheck.ExpectIdentityValueMatchesState(acctAddr, tfjsonpath.New("account_id")),
		statecheck.ExpectIdentityValueMatchesStateAtPath(acctAddr, tfjsonpath.New("account_id"), tfjsonpath.New("id")),
	}
}

// accountIdentityImportBlock is an import block into eventnotify_account_subscriptions.all that
// names its identity.
func accountIdentityImportBlock(account string) string {
	return fmt.Sprintf("\nimport {\n  to = %s\n  identity = {\n    account_id = %q\n  }\n}\n", acctAddr, account)
}

// TestAccAccountSubscriptions_identity creates an account resource on an account that already
// holds the subscriptions of its entries, then changes an entry, and checks its identity at each
// step; then imports it by its identity (the import plans no change and finds the same
// identity), by id in an import block, and with the import command (ImportStateVerify). The
// plans that change nothing on the way are the fast path's (the parity check compares them,
// identity included).
func TestAccAccountSubscriptions_identity(t *testing.T) {
	m := newTestMock(t)
	seeded := seedAccount(m, 3)
	changedSubs := slices.Clone(seeded)
	changedSubs[1].LogLevel = "ERROR"
	changed := configFor(changedSubs)
	if changed == configFor(seeded) {
		t.Fatal("the change changes nothing")
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureResourceIdentity)},
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			// Create, taking the account's subscriptions over: the identity names the account.
			{
				Config:            m.providerBlock() + configFor(seeded),
				ConfigStateChecks: expectAccountIdentity(testAccount),
				Check:             resource.ComposeTestCheckFunc(m.checkAcctStateMatchesMock(3), m.checkNoWrites("the takeover")),
			},
			// Update in place: the identity stays.
			{
				Config: m.providerBlock() + changed,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(acctAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: expectAccountIdentity(testAccount),
			},
			// Import by identity, by id in a block, and with the import command.
			{ResourceName: acctAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity},
			{ResourceName: acctAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID},
			// takeover records what the plan that created the resource took over; an import
			// creates nothing and holds it null.
			{ResourceName: acctAddr, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"takeover"}},
		},
	})
}

// TestAccAccountSubscriptions_importByIdentity imports accounts that Terraform did not manage
// with import blocks that name their identity, the provider's account and another: the plan
// imports with no change, the state holds the account's subscriptions keyed as the configuration
// keys them, its identity names the account, and nothing is written. Identities that name no
// account are rejected, naming the attribute, before any request.
func TestAccAccountSubscriptions_importByIdentity(t *testing.T) {
	t.Run("own account", func(t *testing.T) {
		m := newTestMock(t)
		seeded := seedAccount(m, 4)
		config := m.providerBlock() + configFor(seeded)
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: testProviderFactories,
			TerraformVersionChecks:   []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureResourceIdentity)},
			Steps: []resource.TestStep{
				{
					Config:      config + accountIdentityImportBlock(testAccount+"/"+seeded[0].SubscriptionID),
					ExpectError: errorPattern("Invalid import identity", "account_id", `contains "/"`),
				},
				{
					Config:      config + accountIdentityImportBlock(" "),
					ExpectError: errorPattern("Invalid import identity", "account_id must not be empty"),
				},
				{
					Config: config + accountIdentityImportBlock(testAccount),
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(acctAddr, plancheck.ResourceActionNoop),
					}},
					ConfigStateChecks: append(expectAccountIdentity(testAccount),
						statecheck.ExpectKnownValue(acctAddr, tfjsonpath.New("subscriptions"), knownvalue.MapSizeExact(4))),
					Check: resource.ComposeTestCheckFunc(m.checkAcctStateMatchesMock(4), m.checkNoWrites("the import")),
				},
			},
		})
		if n := m.Count("GET", mockserver.RouteSubscriptions); n == 0 {
			t.Error("the import never listed the account")
		}
	})
	t.Run("other account", func(t *testing.T) {
		m := newTestMock(t)
		const otherAccount = "acc-other"
		other := m.PutSubscription(otherAccount, mockserver.Subscription{EventName: "PROCESS.EXECUTION",
			DestinationType: "EVENT_STREAMS", LogLevel: "INFO", EventStreamsTopic: "alerts", Enabled: true})
		m.PutSubscription(testAccount, mockserver.Subscription{EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS",
			LogLevel: "ERROR", Enabled: true})
		config := m.providerBlock() + strings.Replace(configFor([]mockserver.Subscription{other}),
			"{\n", "{\n  account_id = \""+otherAccount+"\"\n", 1)
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: testProviderFactories,
			TerraformVersionChecks:   []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureResourceIdentity)},
			Steps: []resource.TestStep{{
				Config: config + accountIdentityImportBlock(otherAccount),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(acctAddr, plancheck.ResourceActionNoop),
				}},
				ConfigStateChecks: append(expectAccountIdentity(otherAccount),
					statecheck.ExpectKnownValue(acctAddr, acctSubPath(other.SubscriptionID, "id"), knownvalue.StringExact(other.SubscriptionID))),
				Check: m.checkNoWrites("the import"),
			}},
		})
	})
}

// TestAccAccountSubscriptions_identityUpgrade applies with the provider as it was before the
// account resource had an identity (the main branch before this change: the same resource
// without IdentitySchema), then plans with this provider: the plan is empty, the refresh records
// the identity, nothing is written, and the fast path answered the refresh and the plan (the
// parity check compared the plan with the framework's, identity included).
func TestAccAccountSubscriptions_identityUpgrade(t *testing.T) {
	m := newTestMock(t)
	config := m.providerBlock() + acctConfig(
		acctEntry{key: "a", event: "ATOM.STATUS", level: "ERROR", topic: "alerts"},
		acctEntry{key: "b", event: "PROCESS.EXECUTION", level: "WARNING", topic: "processes", disabled: true})
	sw := &stepWrites{t: t, m: m}
	counter := &fastPathCounter{}
	var before [5]int64
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureResourceIdentity)},
		CheckDestroy:           m.checkMockEmpty(),
		Steps: []resource.TestStep{
			// main's provider writes a state without identity.
			{
				ProtoV6ProviderFactories: identitylessProviderFactories,
				Config:                   config,
				ConfigStateChecks:        []statecheck.StateCheck{expectNoIdentity{acctAddr}},
			},
			// This provider plans it: nothing to do, and the identity is recorded.
			{
				PreConfig:                func() { sw.mark(); before = counter.counts() },
				ProtoV6ProviderFactories: counter.factories(),
				Config:                   config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				ConfigStateChecks: expectAccountIdentity(testAccount),
				Check:             sw.expect("the first plan and apply with identity", writeCounts{}),
			},
		},
	})
	after := counter.counts()
	for i, call := range []string{"ReadResource", "PlanResourceChange"} {
		if after[i+1] <= before[i+1] {
			t.Errorf("the plan with identity made no %s that the fast path answered", call)
		}
	}
	if after[4] != after[2] {
		t.Errorf("the parity server compared %d of the %d plans that the fast path answered", after[4], after[2])
	}
}

// TestAccAccountSubscriptions_identityUpgradeWithoutRefresh applies with the provider as it was
// before the account resource had an identity, then applies with this provider and
// -refresh=false (so no read records the identity first): a change of the timeouts block only,
// then a change of an entry. Each apply succeeds and records the identity, and only the entry's
// change is written.
func TestAccAccountSubscriptions_identityUpgradeWithoutRefresh(t *testing.T) {
	m := newTestMock(t)
	w := newBareCLIWorkspace(t, m)
	w.require(featureResourceIdentity)
	a := acctEntry{key: "a", event: "ATOM.STATUS", level: "ERROR", topic: "alerts"}
	config := func(extra string, entries ...acctEntry) string {
		return requiredProviders + m.providerBlock() + strings.Replace(acctConfig(entries...), "\n}\n", "\n"+extra+"}\n", 1)
	}
	main := []inProcessProvider{{source: "eventnotify/eventnotify", factory: identitylessProviderFactories["eventnotify"]}}
	current := []inProcessProvider{{source: "eventnotify/eventnotify", factory: testProviderFactories["eventnotify"]}}
	apply := []string{"apply", "-auto-approve", "-input=false", "-no-color", "-refresh=false"}

	w.write("main.tf", config("", a))
	w.mustRunInProcess(main, apply...)
	if id := identityInShow(t, w.mustRunInProcess(main, "show", "-json"), acctAddr); len(id) != 0 {
		t.Fatalf("the provider without identity wrote the identity %v", id)
	}
	want := map[string]any{"account_id": testAccount}
	const timeouts = "  timeouts {\n    read = \"5m\"\n  }\n"
	steps := []struct {
		name    string
		config  string
		updates int
	}{
		{"a change of the timeouts block only", config(timeouts, a), 0},
		{"a change of an entry", config(timeouts, acctEntry{key: "a", event: "ATOM.STATUS", level: "INFO", topic: "alerts"}), 1},
	}
	for _, step := range steps {
		before := m.writes()
		w.write("main.tf", step.config)
		out := w.mustRunInProcess(current, apply...)
		if !strings.Contains(out, "1 changed") {
			t.Errorf("%s: the apply changed nothing:\n%s", step.name, out)
		}
		if got := m.writes().minus(before); got != (writeCounts{patch: step.updates}) {
			t.Errorf("%s made %s, want %d bulk updates", step.name, got, step.updates)
		}
		if got := identityInShow(t, w.mustRunInProcess(current, "show", "-json"), acctAddr); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("after %s the identity is %v, want %v", step.name, got, want)
		}
	}
	w.mustRunInProcess(current, "destroy", "-auto-approve", "-input=false", "-no-color")
}

// TestAccAccountSubscriptions_importByIdentityExample runs the resource page's import block
// with an identity through the CLI, with a configuration of the account's subscriptions: the
// apply imports the account with no write, the state holds the identity, and the next plan is
// empty.
func TestAccAccountSubscriptions_importByIdentityExample(t *testing.T) {
	m := newTestMock(t)
	seeded := seedAccount(m, 3)
	w := newCLIWorkspace(t, m)
	w.require(featureResourceIdentity)
	body, err := os.ReadFile("../../examples/resources/eventnotify_account_subscriptions/import-by-identity-block.tf")
	if err != nil {
		t.Fatal(err)
	}
	w.write("import.tf", strings.ReplaceAll(string(body), `"my-account-id"`, `"`+testAccount+`"`))
	w.write("main.tf", requiredProviders+configFor(seeded))
	if out := w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color"); !strings.Contains(out, "1 imported") {
		t.Errorf("apply imported nothing:\n%s", out)
	}
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("the plan after the import was not empty (exit %d):\n%s", code, out)
	}
	want := map[string]any{"account_id": testAccount}
	if got := identityInShow(t, w.mustRun(nil, "show", "-json"), acctAddr); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the identity is %v, want %v", got, want)
	}
	if err := m.checkNoWrites("the import")(nil); err != nil {
		t.Error(err)
	}
}
