package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/path"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// topicIdentity builds an identity of the topic resource with the given parts; a nil parts
// is the null identity (an import by id).
func topicIdentity(t *testing.T, parts map[string]string) *tfsdk.ResourceIdentity {
	t.Helper()
	var resp fwresource.IdentitySchemaResponse
	(&TopicSubscriptionsResource{}).IdentitySchema(context.Background(), fwresource.IdentitySchemaRequest{}, &resp)
	typ := resp.IdentitySchema.Type().TerraformType(context.Background())
	if parts == nil {
		return &tfsdk.ResourceIdentity{Schema: resp.IdentitySchema, Raw: tftypes.NewValue(typ, nil)}
	}
	values := map[string]tftypes.Value{}
	for name := range resp.IdentitySchema.Attributes {
		values[name] = tftypes.NewValue(tftypes.String, parts[name])
	}
	return &tfsdk.ResourceIdentity{Schema: resp.IdentitySchema, Raw: tftypes.NewValue(typ, values)}
}

// TestTopicFromIdentity checks how an import block's identity is read: its parts are checked
// as the import id's are, and an error names the attribute that is wrong.
func TestTopicFromIdentity(t *testing.T) {
	tests := []struct {
		name                 string
		parts                map[string]string // nil: no identity
		account, env, topic  string
		wantAttr, wantDetail string
	}{
		{name: "topic with slashes", parts: map[string]string{"account_id": "acct", "event_streams_environment_id": "env",
			"event_streams_topic": "team-a/orders/v2"}, account: "acct", env: "env", topic: "team-a/orders/v2"},
		{name: "topic with spaces", parts: map[string]string{"account_id": "acct", "event_streams_environment_id": "env",
			"event_streams_topic": " orders "}, account: "acct", env: "env", topic: " orders "},
		{name: "blank account", parts: map[string]string{"account_id": " ", "event_streams_environment_id": "env",
			"event_streams_topic": "orders"}, wantAttr: "account_id", wantDetail: "the account id is empty"},
		{name: "account with a path", parts: map[string]string{"account_id": "../acct", "event_streams_environment_id": "env",
			"event_streams_topic": "orders"}, wantAttr: "account_id", wantDetail: "refused rather than sent"},
		{name: "blank environment", parts: map[string]string{"account_id": "acct", "event_streams_environment_id": "",
			"event_streams_topic": "orders"}, wantAttr: "event_streams_environment_id", wantDetail: "the environment id is empty"},
		{name: "environment with a slash", parts: map[string]string{"account_id": "acct", "event_streams_environment_id": "env/a",
			"event_streams_topic": "orders"}, wantAttr: "event_streams_environment_id", wantDetail: `"env/a" contains "/"`},
		{name: "blank topic", parts: map[string]string{"account_id": "acct", "event_streams_environment_id": "env",
			"event_streams_topic": "\t"}, wantAttr: "event_streams_topic", wantDetail: "the topic is empty"},
		{name: "no identity", wantDetail: "needs an id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			account, scope, diags := topicFromIdentity(context.Background(), topicIdentity(t, tt.parts))
			if tt.wantDetail == "" {
				if diags.HasError() {
					t.Fatalf("topicFromIdentity: %v", diags)
				}
				if want := topicScope(tt.env, tt.topic); account != tt.account || scope != want {
					t.Fatalf("topicFromIdentity = %q, %+v; want %q, %+v", account, scope, tt.account, want)
				}
				return
			}
			if len(diags) != 1 || !diags.HasError() || !strings.Contains(diags[0].Detail(), tt.wantDetail) {
				t.Fatalf("topicFromIdentity diagnostics %v, want one error whose detail holds %q", diags, tt.wantDetail)
			}
			if tt.wantAttr != "" {
				withPath, ok := diags[0].(interface{ Path() path.Path })
				if !ok || !withPath.Path().Equal(path.Root(tt.wantAttr)) || diags[0].Summary() != "Invalid import identity" {
					t.Errorf("the error %q is not an invalid import identity of %s", diags[0].Summary(), tt.wantAttr)
				}
			}
		})
	}
}

// expectTopicIdentity checks the identity of the topic resource at addr: account, env and
// topic, each the same as the state's attribute, and the state's id made of them.
func expectTopicIdentity(addr, account, env, topic string) []statecheck.StateCheck {
	checks := []statecheck.StateCheck{
		statecheck.ExpectIdentity(addr, map[string]knownvalue.Check{
			"account_id":                   knownvalue.StringExact(account),
			"event_streams_environment_id": knownvalue.StringExact(env),
			"event_streams_topic":          knownvalue.StringExact(topic),
		}),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(account+"/"+env+"/"+topic)),
	}
	for _, attr := range []string{"account_id", "event_streams_environment_id", "event_streams_topic"} {
		checks = append(checks, statecheck.ExpectIdentityValueMatchesState(addr, tfjsonpath.New(attr)))
	}
	return checks
}

// checkNoWrites fails when the mock has received a write request.
func (m *testMock) checkNoWrites(what string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if w := m.writes(); w.total() != 0 {
			return fmt.Errorf("%s made %s, want none", what, w)
		}
		return nil
	}
}

// TestAccTopicSubscriptions_identity creates a topic resource on a topic whose name holds "/"
// and already has the subscriptions of its entries (keyed by id, as an import keys them), then
// changes an entry, and checks its identity at each step; then imports it by its identity
// (the import plans no change and finds the same identity), by id in an import block, and with
// the import command (ImportStateVerify).
func TestAccTopicSubscriptions_identity(t *testing.T) {
	m := newTestMock(t)
	const topic = "team-a/orders"
	const addr = "eventnotify_topic_subscriptions.orders"
	seeded := seedTopic(m, topic, "Production", 3)
	elsewhere := m.PutSubscription(testAccount, onTopic("billing", "ATOM.STATUS", "INFO"))
	changed := slices.Clone(seeded)
	changed[1].LogLevel = "ERROR"
	if changed[1].LogLevel == seeded[1].LogLevel {
		t.Fatal("the change changes nothing")
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureResourceIdentity)},
		CheckDestroy: func(s *terraform.State) error {
			if ids := m.topicIDs(topic); len(ids) != 0 {
				return fmt.Errorf("destroy left %v on the topic", ids)
			}
			return m.checkUntouched(&elsewhere)(s)
		},
		Steps: []resource.TestStep{
			// Create, taking the topic's subscriptions over: the identity names the scope.
			{
				Config:            m.providerBlock() + topicConfigFor(topic, "Production", seeded),
				ConfigStateChecks: expectTopicIdentity(addr, testAccount, topicTestEnv, topic),
				Check:             resource.ComposeTestCheckFunc(m.checkTopicMatchesMock(addr, topic, 3), m.checkNoWrites("the takeover")),
			},
			// Update in place: the identity stays.
			{
				Config: m.providerBlock() + topicConfigFor(topic, "Production", changed),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: expectTopicIdentity(addr, testAccount, topicTestEnv, topic),
			},
			// Import by identity, by id in a block, and with the import command.
			{ResourceName: addr, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity},
			{ResourceName: addr, ImportState: true, ImportStateKind: resource.ImportBlockWithID},
			// takeover records what the plan that created the resource took over; an import
			// creates nothing and holds it null (the topic resource's documentation says so).
			{ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"takeover"}},
		},
	})
}

// topicIdentityImportBlock is an import block into eventnotify_topic_subscriptions.orders
// that names its identity.
func topicIdentityImportBlock(account, env, topic string) string {
	return fmt.Sprintf(`
import {
  to = eventnotify_topic_subscriptions.orders
  identity = {
    account_id                   = %q
    event_streams_environment_id = %q
    event_streams_topic          = %q
  }
}
`, account, env, topic)
}

// TestAccTopicSubscriptions_importByIdentity imports topics that Terraform did not create with
// import blocks that name their identity, in the provider's account (a topic whose name holds
// "/", in an account that also has subscriptions on another topic and on the same topic name
// in another environment) and in another account: the plan imports with no change, the state
// holds the topic's subscriptions only, its identity names the topic, and nothing is written.
// Identities that name no topic are rejected, naming the attribute, before any write.
func TestAccTopicSubscriptions_importByIdentity(t *testing.T) {
	const addr = "eventnotify_topic_subscriptions.orders"
	t.Run("own account", func(t *testing.T) {
		m := newTestMock(t)
		const topic = "team-a/orders"
		seeded := seedTopic(m, topic, "Production", 3)
		m.PutSubscription(testAccount, onTopic("billing", "ATOM.STATUS", "INFO"))
		o := onTopic(topic, "ATOM.STATUS", "INFO")
		o.EventStreamsEnvironment = "env-2"
		m.PutSubscription(testAccount, o)
		config := m.providerBlock() + topicConfigFor(topic, "Production", seeded)
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: testProviderFactories,
			TerraformVersionChecks:   []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureResourceIdentity)},
			Steps: []resource.TestStep{
				{
					Config:      config + topicIdentityImportBlock(testAccount, "env-1/team-a", "orders"),
					ExpectError: errorPattern("Invalid import identity", `event_streams_environment_id: "env-1/team-a" contains "/"`),
				},
				{
					Config:      config + topicIdentityImportBlock(testAccount, topicTestEnv, " "),
					ExpectError: errorPattern("Invalid import identity", "event_streams_topic: the topic is empty"),
				},
				{
					Config: config + topicIdentityImportBlock(testAccount, topicTestEnv, topic),
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop),
					}},
					ConfigStateChecks: append(expectTopicIdentity(addr, testAccount, topicTestEnv, topic),
						statecheck.ExpectKnownValue(addr, tfjsonpath.New("subscriptions"), knownvalue.MapSizeExact(3))),
					Check: resource.ComposeTestCheckFunc(m.checkTopicMatchesMock(addr, topic, 3), m.checkNoWrites("the import")),
				},
			},
		})
	})
	t.Run("other account", func(t *testing.T) {
		m := newTestMock(t)
		const otherAccount = "acc-other"
		other := onTopic("alerts", "PROCESS.EXECUTION", "INFO")
		other = m.PutSubscription(otherAccount, other)
		config := m.providerBlock() + strings.Replace(topicConfigFor("alerts", "", []mockserver.Subscription{other}),
			"{\n", "{\n  account_id = \""+otherAccount+"\"\n", 1)
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: testProviderFactories,
			TerraformVersionChecks:   []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureResourceIdentity)},
			Steps: []resource.TestStep{{
				Config: config + topicIdentityImportBlock(otherAccount, topicTestEnv, "alerts"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop),
				}},
				ConfigStateChecks: append(expectTopicIdentity(addr, otherAccount, topicTestEnv, "alerts"),
					statecheck.ExpectKnownValue(addr, acctSubPath(other.SubscriptionID, "id"), knownvalue.StringExact(other.SubscriptionID))),
				Check: m.checkNoWrites("the import"),
			}},
		})
	})
}

// TestAccTopicSubscriptions_identityUpgrade applies with the provider as it was before the
// topic resource had an identity (the main branch before this change), then plans with this
// provider: the plan is empty, the refresh records the identity, and nothing is written.
func TestAccTopicSubscriptions_identityUpgrade(t *testing.T) {
	m := newTestMock(t)
	const addr = "eventnotify_topic_subscriptions.orders"
	config := m.providerBlock() + topicResourceConfig("orders", "team-a/orders",
		topicEntry{key: "a", event: "ATOM.STATUS", level: "ERROR"},
		topicEntry{key: "b", event: "PROCESS.EXECUTION", level: "WARNING", disabled: true})
	sw := &stepWrites{t: t, m: m}
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureResourceIdentity)},
		CheckDestroy:           m.checkMockEmpty(),
		Steps: []resource.TestStep{
			// main's provider writes a state without identity.
			{
				ProtoV6ProviderFactories: identitylessProviderFactories,
				Config:                   config,
				ConfigStateChecks:        []statecheck.StateCheck{expectNoIdentity{addr}},
			},
			// This provider plans it: nothing to do, and the identity is recorded.
			{
				PreConfig:                sw.mark,
				ProtoV6ProviderFactories: testProviderFactories,
				Config:                   config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				ConfigStateChecks: expectTopicIdentity(addr, testAccount, topicTestEnv, "team-a/orders"),
				Check:             sw.expect("the first plan and apply with identity", writeCounts{}),
			},
		},
	})
}

// identityInShow returns the identity of the resource at addr in the output of terraform show
// -json (nil for none).
func identityInShow(t *testing.T, showJSON, addr string) map[string]any {
	t.Helper()
	var state tfjson.State
	if err := json.Unmarshal([]byte(showJSON), &state); err != nil {
		t.Fatalf("decoding terraform show -json: %v", err)
	}
	if state.Values != nil && state.Values.RootModule != nil {
		for _, r := range state.Values.RootModule.Resources {
			if r.Address == addr {
				return r.IdentityValues
			}
		}
	}
	t.Fatalf("the state does not hold %s:\n%s", addr, showJSON)
	return nil
}

// TestAccTopicSubscriptions_identityUpgradeWithoutRefresh applies with the provider as it was
// before the topic resource had an identity, then applies with this provider and -refresh=false
// (so no read records the identity first): a change of the timeouts block only, then a change
// of an entry. Each apply succeeds and records the identity, and only the entry's change is
// written.
func TestAccTopicSubscriptions_identityUpgradeWithoutRefresh(t *testing.T) {
	m := newTestMock(t)
	w := newBareCLIWorkspace(t, m)
	w.require(featureResourceIdentity)
	const addr = "eventnotify_topic_subscriptions.orders"
	a := topicEntry{key: "a", event: "ATOM.STATUS", level: "ERROR"}
	config := func(extra string, entries ...topicEntry) string {
		c := topicResourceConfig("orders", "orders", entries...)
		return requiredProviders + m.providerBlock() + strings.Replace(c, "\n}\n", "\n"+extra+"}\n", 1)
	}
	main := []inProcessProvider{{source: "eventnotify/eventnotify", factory: identitylessProviderFactories["eventnotify"]}}
	current := []inProcessProvider{{source: "eventnotify/eventnotify", factory: testProviderFactories["eventnotify"]}}
	apply := []string{"apply", "-auto-approve", "-input=false", "-no-color", "-refresh=false"}

	w.write("main.tf", config("", a))
	w.mustRunInProcess(main, apply...)
	if id := identityInShow(t, w.mustRunInProcess(main, "show", "-json"), addr); len(id) != 0 {
		t.Fatalf("the provider without identity wrote the identity %v", id)
	}
	want := map[string]any{"account_id": testAccount, "event_streams_environment_id": topicTestEnv, "event_streams_topic": "orders"}
	const timeouts = "  timeouts {\n    read = \"5m\"\n  }\n"
	steps := []struct {
		name    string
		config  string
		updates int
	}{
		{"a change of the timeouts block only", config(timeouts, a), 0},
		{"a change of an entry", config(timeouts, topicEntry{key: "a", event: "ATOM.STATUS", level: "INFO"}), 1},
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
		if got := identityInShow(t, w.mustRunInProcess(current, "show", "-json"), addr); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("after %s the identity is %v, want %v", step.name, got, want)
		}
	}
	w.mustRunInProcess(current, "destroy", "-auto-approve", "-input=false", "-no-color")
}
