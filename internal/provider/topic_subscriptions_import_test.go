package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// TestParseTopicImportID checks the import id's parsing: the account and the environment id
// hold no "/", so the rest, "/" included, is the topic.
func TestParseTopicImportID(t *testing.T) {
	tests := []struct {
		id, account, env, topic string
		wantErr                 string
	}{
		{id: "acct/env/orders", account: "acct", env: "env", topic: "orders"},
		{id: "acct/env/team/orders/v2", account: "acct", env: "env", topic: "team/orders/v2"},
		{id: "acct/env/ spaced topic ", account: "acct", env: "env", topic: " spaced topic "},
		{id: "acct/env", wantErr: "three parts"},
		{id: "acct", wantErr: "three parts"},
		{id: "/env/orders", wantErr: "account id is empty"},
		{id: "acct//orders", wantErr: "environment id is empty"},
		{id: "acct/env/", wantErr: "topic is empty"},
		{id: "../env/orders", wantErr: "account id"},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			account, env, topic, err := parseTopicImportID(tt.id)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("parseTopicImportID(%q) = error %v, want one containing %q", tt.id, err, tt.wantErr)
				}
				return
			}
			if err != nil || account != tt.account || env != tt.env || topic != tt.topic {
				t.Fatalf("parseTopicImportID(%q) = %q, %q, %q, %v; want %q, %q, %q", tt.id, account, env, topic, err,
					tt.account, tt.env, tt.topic)
			}
		})
	}
}

// topicConfigFor renders a topic resource named "orders" on topic that holds the seeded
// subscriptions, keyed by id as an import keys them, with the environment name name.
func topicConfigFor(topic, name string, seeded []mockserver.Subscription) string {
	var b strings.Builder
	fmt.Fprintf(&b, "resource \"eventnotify_topic_subscriptions\" \"orders\" {\n  event_streams_environment_id = %q\n"+
		"  event_streams_topic = %q\n", topicTestEnv, topic)
	if name != "" {
		fmt.Fprintf(&b, "  event_streams_environment_name = %q\n", name)
	}
	b.WriteString("  subscriptions = {\n")
	for _, s := range seeded {
		fmt.Fprintf(&b, "    %q = {\n      event_name = %q\n      log_level = %q\n      enabled = %t\n    }\n",
			s.SubscriptionID, s.EventName, s.LogLevel, s.Enabled)
	}
	b.WriteString("  }\n}\n")
	return b.String()
}

// seedTopic puts n subscriptions on topic of topicTestEnv, with environment name name.
func seedTopic(m *testMock, topic, name string, n int) []mockserver.Subscription {
	levels := []string{"INFO", "WARNING", "ERROR"}
	events := []string{"ATOM.STATUS", "ATOM.DEPLOYMENT", "PROCESS.EXECUTION", "ENVIRONMENT.ALERT"}
	out := make([]mockserver.Subscription, n)
	for i := range out {
		s := onTopic(topic, events[i%4], levels[i%3])
		s.EventStreamsEnvironmentName, s.Enabled = name, i%4 != 0
		out[i] = m.PutSubscription(testAccount, s)
	}
	return out
}

// TestAccTopicSubscriptions_import imports a topic whose name holds "/", in an account that
// also has subscriptions on another topic of the environment and on the same topic name in
// another environment: the state holds the topic's subscriptions only, keyed by id, the plan
// of the configuration that matches is empty, nothing is written, and an import block and
// ImportStateVerify agree. A malformed id fails naming the form.
func TestAccTopicSubscriptions_import(t *testing.T) {
	m := newTestMock(t)
	const topic = "team-a/orders"
	const addr = "eventnotify_topic_subscriptions.orders"
	seeded := seedTopic(m, topic, "Production", 5)
	elsewhere := m.PutSubscription(testAccount, onTopic("billing", "ATOM.STATUS", "INFO"))
	o := onTopic(topic, "ATOM.STATUS", "INFO")
	o.EventStreamsEnvironment = "env-2"
	otherEnv := m.PutSubscription(testAccount, o)
	config := m.providerBlock() + topicConfigFor(topic, "Production", seeded)
	importID := testAccount + "/" + topicTestEnv + "/" + topic
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy: func(s *terraform.State) error {
			if ids := m.topicIDs(topic); len(ids) != 0 {
				return fmt.Errorf("destroy left %v on the topic", ids)
			}
			if err := m.checkUntouched(&elsewhere)(s); err != nil {
				return err
			}
			return m.checkUntouched(&otherEnv)(s)
		},
		Steps: []resource.TestStep{
			{
				Config:        config,
				ResourceName:  addr,
				ImportState:   true,
				ImportStateId: testAccount + "/" + topicTestEnv,
				ExpectError:   errorPattern("Invalid import id", "<account_id>/<event_streams_environment_id>/<event_streams_topic>"),
			},
			{
				Config:             config,
				ResourceName:       addr,
				ImportState:        true,
				ImportStateId:      importID,
				ImportStatePersist: true,
			},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(importID)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("event_streams_topic"), knownvalue.StringExact(topic)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("event_streams_environment_name"), knownvalue.StringExact("Production")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("subscriptions"), knownvalue.MapSizeExact(5)),
					statecheck.ExpectKnownValue(addr, acctSubPath(seeded[0].SubscriptionID, "enabled"), knownvalue.Bool(false)),
				},
				Check: resource.ComposeTestCheckFunc(m.checkTopicMatchesMock(addr, topic, 5), func(*terraform.State) error {
					if w := m.writes(); w.total() != 0 {
						return fmt.Errorf("moving the topic made %s, want none", w)
					}
					return nil
				}),
			},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true},
			{ResourceName: addr, ImportState: true, ImportStateKind: resource.ImportBlockWithID},
		},
	})
}

// TestAccTopicSubscriptions_generateConfig imports a topic with an import block and
// -generate-config-out: the generated configuration plans no change and nothing is written.
// Gated like the account resource's: OpenTofu 1.12 writes map keys that are not identifiers
// unquoted.
func TestAccTopicSubscriptions_generateConfig(t *testing.T) {
	m := newTestMock(t)
	seedTopic(m, "orders", "Production", 4)
	m.PutSubscription(testAccount, onTopic("billing", "ATOM.STATUS", "INFO"))
	const addr = "eventnotify_topic_subscriptions.orders"
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureGeneratedMapKeys)},
		ProtoV6ProviderFactories: testProviderFactories,
		Steps: []resource.TestStep{{
			Config:          m.providerBlock(),
			ResourceName:    addr,
			ImportState:     true,
			ImportStateKind: resource.ImportBlockWithID,
			ImportStateId:   testAccount + "/" + topicTestEnv + "/orders",
			GenerateConfig:  true,
			ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(addr, tfjsonpath.New("subscriptions"), knownvalue.MapSizeExact(4)),
				plancheck.ExpectKnownValue(addr, tfjsonpath.New("event_streams_environment_name"), knownvalue.StringExact("Production")),
			}},
		}},
	})
	if w := m.writes(); w.total() != 0 {
		t.Errorf("importing with generated configuration made %s, want none", w)
	}
}

// TestAccTopicSubscriptions_environmentNameDrift changes the environment name of one
// subscription of the topic by hand: the plan shows the resource's name changing back, and
// the apply writes the configured name on the subscriptions (one bulk update).
func TestAccTopicSubscriptions_environmentNameDrift(t *testing.T) {
	m := newTestMock(t)
	seeded := seedTopic(m, "orders", "Production", 3)
	const addr = "eventnotify_topic_subscriptions.orders"
	config := m.providerBlock() + topicConfigFor("orders", "Production", seeded)
	sw := &stepWrites{t: t, m: m}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:             config,
				ResourceName:       addr,
				ImportState:        true,
				ImportStateId:      testAccount + "/" + topicTestEnv + "/orders",
				ImportStatePersist: true,
			},
			{
				PreConfig: func() {
					s := seeded[1]
					s.EventStreamsEnvironmentName = "Staging"
					m.PutSubscription(testAccount, s)
					sw.mark()
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("event_streams_environment_name"), knownvalue.StringExact("Production")),
				}},
				Check: resource.ComposeTestCheckFunc(sw.expect("environment name repaired", writeCounts{patch: 1}),
					func(*terraform.State) error {
						for _, s := range m.Subscriptions(testAccount) {
							if s.EventStreamsEnvironmentName != "Production" {
								return fmt.Errorf("subscription %s has environment name %q, want Production", s.SubscriptionID,
									s.EventStreamsEnvironmentName)
							}
						}
						return nil
					}),
			},
		},
	})
}
