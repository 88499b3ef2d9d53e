package provider

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// topicTestEnv is the environment of the topics of the tests.
const topicTestEnv = "env-1"

// topicEntry is one entry of a topic resource's map in a test configuration.
type topicEntry struct {
	key, event, level string
	disabled          bool
}

// topicResourceConfig renders an eventnotify_topic_subscriptions named name on topic, with
// entries.
func topicResourceConfig(name, topic string, entries ...topicEntry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "resource \"eventnotify_topic_subscriptions\" %q {\n  event_streams_environment_id = %q\n"+
		"  event_streams_topic = %q\n  subscriptions = {\n", name, topicTestEnv, topic)
	for _, e := range entries {
		fmt.Fprintf(&b, "    %q = {\n      event_name = %q\n      log_level  = %q\n", e.key, e.event, e.level)
		if e.disabled {
			b.WriteString("      enabled = false\n")
		}
		b.WriteString("    }\n")
	}
	b.WriteString("  }\n}\n")
	return b.String()
}

// onTopic is a subscription of the mock on topic of topicTestEnv.
func onTopic(topic, event, level string) mockserver.Subscription {
	return mockserver.Subscription{EventName: event, DestinationType: "EVENT_STREAMS", LogLevel: level,
		EventStreamsEnvironment: topicTestEnv, EventStreamsTopic: topic, Enabled: true, CreatedBy: "someone@example.com"}
}

// topicIDs returns the ids of the mock's subscriptions on topic of topicTestEnv, sorted.
func (m *testMock) topicIDs(topic string) []string {
	var ids []string
	for _, s := range m.Subscriptions(testAccount) {
		if s.EventStreamsEnvironment == topicTestEnv && s.EventStreamsTopic == topic {
			ids = append(ids, s.SubscriptionID)
		}
	}
	slices.Sort(ids)
	return ids
}

// topicStateIDs returns the subscription ids that the resource at addr holds in state, sorted.
func topicStateIDs(s *terraform.State, addr string) []string {
	var ids []string
	if r, ok := s.RootModule().Resources[addr]; ok {
		for k, v := range r.Primary.Attributes {
			if parts := strings.Split(k, "."); len(parts) == 3 && parts[0] == "subscriptions" && parts[2] == "id" {
				ids = append(ids, v)
			}
		}
	}
	slices.Sort(ids)
	return ids
}

// checkTopicMatchesMock asserts that the resource at addr holds exactly the n subscriptions of
// topic in the mock.
func (m *testMock) checkTopicMatchesMock(addr, topic string, n int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		inState, inMock := topicStateIDs(s, addr), m.topicIDs(topic)
		if len(inMock) != n || !slices.Equal(inState, inMock) {
			return fmt.Errorf("%s holds %v in state, the mock's topic %q holds %v; want the same %d", addr, inState, topic, inMock, n)
		}
		return nil
	}
}

// checkUntouched asserts that the mock still holds sub exactly as it was.
func (m *testMock) checkUntouched(sub *mockserver.Subscription) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got, ok := m.Subscription(testAccount, sub.SubscriptionID)
		if !ok {
			return fmt.Errorf("subscription %s (topic %q) was deleted", sub.SubscriptionID, sub.EventStreamsTopic)
		}
		if got != *sub {
			return fmt.Errorf("subscription %s changed: %+v, want %+v", sub.SubscriptionID, got, *sub)
		}
		return nil
	}
}

// TestAccTopicSubscriptions_twoTeams runs two topic resources and a hand-made subscription on
// a third topic in one account, counting every step's writes:
//   - create both topics, one of which already has a subscription like an entry and one that no
//     entry holds: the one alike is taken over, the other deleted, the hand-made one untouched;
//   - a changed log level on one topic: one bulk update (PATCH, like the bulk delete), the other topic and the hand-made
//     subscription untouched;
//   - a renamed key: no write;
//   - drift inside a scope (a subscription added to the topic by hand, an entry's subscription
//     disabled by hand): the plan shows both, the apply deletes the one and repairs the other;
//   - drift outside (a subscription added on the third topic, one on another environment with
//     the same topic name): no change planned;
//   - destroy: both topics are empty, the third topic's subscriptions remain.
func TestAccTopicSubscriptions_twoTeams(t *testing.T) {
	m := newTestMock(t)
	handMade := m.PutSubscription(testAccount, onTopic("billing", "ATOM.STATUS", "ERROR"))
	alike := m.PutSubscription(testAccount, onTopic("orders", "Atom.Status", "ERROR"))
	stale := m.PutSubscription(testAccount, onTopic("orders", "PROCESS.EXECUTION", "INFO"))
	sw := &stepWrites{t: t, m: m}
	const orders, audit = "eventnotify_topic_subscriptions.orders", "eventnotify_topic_subscriptions.audit"
	a := topicEntry{key: "a", event: "ATOM.STATUS", level: "ERROR"}
	b := topicEntry{key: "b", event: "PROCESS.EXECUTION", level: "WARNING"}
	c := topicEntry{key: "c", event: "ENVIRONMENT.ALERT", level: "INFO", disabled: true}
	bInfo := b
	bInfo.level = "INFO"
	b2 := bInfo
	b2.key = "b2"
	config := func(ordersEntries []topicEntry, auditEntries ...topicEntry) string {
		return m.providerBlock() + topicResourceConfig("orders", "orders", ordersEntries...) +
			topicResourceConfig("audit", "audit", auditEntries...)
	}
	var outside, otherEnv mockserver.Subscription
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy: func(s *terraform.State) error {
			if ids := append(m.topicIDs("orders"), m.topicIDs("audit")...); len(ids) != 0 {
				return fmt.Errorf("destroy left %v on the topics", ids)
			}
			if err := m.checkUntouched(&handMade)(s); err != nil || outside.SubscriptionID == "" {
				return err
			}
			return m.checkUntouched(&outside)(s)
		},
		Steps: []resource.TestStep{
			{
				PreConfig: sw.mark,
				Config:    config([]topicEntry{a, b}, c),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(orders, tfjsonpath.New("id"),
						knownvalue.StringExact(testAccount+"/"+topicTestEnv+"/orders")),
					statecheck.ExpectKnownValue(orders, acctSubPath("a", "id"), knownvalue.StringExact(alike.SubscriptionID)),
					statecheck.ExpectKnownValue(orders, acctSubPath("a", "event_name"), knownvalue.StringExact("ATOM.STATUS")),
					statecheck.ExpectKnownValue(audit, acctSubPath("c", "enabled"), knownvalue.Bool(false)),
				},
				Check: resource.ComposeTestCheckFunc(
					// orders: one create (b), one bulk delete (stale); audit: one create (c).
					sw.expect("create two topics", writeCounts{post: 2, patch: 1}),
					m.checkTopicMatchesMock(orders, "orders", 2),
					m.checkTopicMatchesMock(audit, "audit", 1),
					m.checkUntouched(&handMade),
					func(*terraform.State) error {
						if _, ok := m.Subscription(testAccount, stale.SubscriptionID); ok {
							return fmt.Errorf("the subscription of orders that no entry holds was not deleted")
						}
						return nil
					},
				),
			},
			{
				PreConfig: sw.mark,
				Config:    config([]topicEntry{a, bInfo}, c),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(orders, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(audit, plancheck.ResourceActionNoop),
				}},
				Check: resource.ComposeTestCheckFunc(
					sw.expect("one log level", writeCounts{patch: 1}),
					m.checkTopicMatchesMock(orders, "orders", 2),
					m.checkUntouched(&handMade),
				),
			},
			{
				PreConfig: sw.mark,
				Config:    config([]topicEntry{a, b2}, c),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(orders, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(sw.expect("rename b", writeCounts{}), m.checkTopicMatchesMock(orders, "orders", 2)),
			},
			{
				PreConfig: func() {
					sw.mark()
					m.PutSubscription(testAccount, onTopic("orders", "ENVIRONMENT.ALERT", "ERROR"))
					sub := m.topicIDs("audit")[0]
					s, _ := m.Subscription(testAccount, sub)
					s.Enabled = true
					m.PutSubscription(testAccount, s)
				},
				Config: config([]topicEntry{a, b2}, c),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(orders, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(audit, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(orders, tfjsonpath.New("subscriptions"), knownvalue.MapSizeExact(2)),
				},
				Check: resource.ComposeTestCheckFunc(
					sw.expect("drift inside both scopes", writeCounts{patch: 2}),
					m.checkTopicMatchesMock(orders, "orders", 2),
					m.checkTopicMatchesMock(audit, "audit", 1),
					func(*terraform.State) error {
						if s, _ := m.Subscription(testAccount, m.topicIDs("audit")[0]); s.Enabled {
							return fmt.Errorf("the audit entry's subscription is still enabled")
						}
						return nil
					},
				),
			},
			{
				PreConfig: func() {
					sw.mark()
					outside = m.PutSubscription(testAccount, onTopic("billing", "PROCESS.EXECUTION", "INFO"))
					o := onTopic("orders", "ATOM.DEPLOYMENT", "INFO")
					o.EventStreamsEnvironment = "env-2"
					otherEnv = m.PutSubscription(testAccount, o)
				},
				Config: config([]topicEntry{a, b2}, c),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				Check: resource.ComposeTestCheckFunc(
					sw.expect("drift outside the scopes", writeCounts{}),
					m.checkUntouched(&handMade),
					m.checkUntouched(&outside),
					m.checkUntouched(&otherEnv),
				),
			},
		},
	})
}
