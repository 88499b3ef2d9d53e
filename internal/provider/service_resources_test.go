package provider

// The acceptance tests for any endpoint (acc_target_test.go) of the topic and account resources,
// the event-streams topic resource and the data sources.

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
)

// accEnvironment is the event-streams environment id of the tests' subscriptions.
const accEnvironment = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"

// entry is one subscriptions map entry of the topic or account resource.
type entry struct{ key, event, level, topic string }

// entriesHCL renders the entries as the subscriptions map; the topic resource's entries carry no
// destination or topic of their own.
func entriesHCL(entries []entry) string {
	var b strings.Builder
	b.WriteString("  subscriptions = {\n")
	for _, e := range entries {
		fmt.Fprintf(&b, "    %s = {\n      event_name = %q\n      log_level  = %q\n", e.key, e.event, e.level)
		if e.topic != "" {
			fmt.Fprintf(&b, "      destination_type    = \"EVENT_STREAMS\"\n      event_streams_topic = %q\n", e.topic)
		}
		b.WriteString("    }\n")
	}
	b.WriteString("  }\n")
	return b.String()
}

// importedOwn checks an import of a topic or account resource: it holds n entries, keyed by
// their ids (as an import keys them), which are this test's subscriptions on the service.
func (tg *accTarget) importedOwn(account string, n int) resource.ImportStateCheckFunc {
	return func(states []*terraform.InstanceState) error {
		if len(states) != 1 {
			return fmt.Errorf("the import gave %d resources, want 1", len(states))
		}
		attrs := states[0].Attributes
		if attrs["subscriptions.%"] != fmt.Sprint(n) {
			return fmt.Errorf("the import holds %s entries, want %d", attrs["subscriptions.%"], n)
		}
		mine, err := tg.own(account)
		if err != nil {
			return err
		}
		for _, s := range mine {
			if attrs["subscriptions."+s.ID+".id"] != s.ID {
				return fmt.Errorf("the import holds no entry %s for the service's subscription %s: %v", s.ID, s.ID, attrs)
			}
		}
		return nil
	}
}

// TestAccService_topicSubscriptions gives a team's topic two subscriptions, changes one and adds
// a third in place, imports the topic in each form, and destroys it: the account's other
// subscriptions are never touched (the mock's hold other teams', acc_target_test.go).
func TestAccService_topicSubscriptions(t *testing.T) {
	tg := newAccTarget(t)
	const addr = "eventnotify_topic_subscriptions.team"
	topic := tg.topic("team")
	config := func(entries ...entry) string {
		return tg.provider + fmt.Sprintf("resource \"eventnotify_topic_subscriptions\" \"team\" {\n  event_streams_environment_id = %q\n"+
			"  event_streams_topic = %q\n%s}\n", accEnvironment, topic, entriesHCL(entries))
	}
	first := []entry{{"errors", tg.event(0), tg.level(1), ""}, {"status", tg.event(1), tg.level(0), ""}}
	changed := []entry{{"errors", tg.event(0), tg.level(0), ""}, first[1], {"more", tg.event(1), tg.level(1), ""}}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             tg.checkGone(),
		Steps: []resource.TestStep{
			{
				Config: config(first...),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("subscriptions"), knownvalue.MapSizeExact(2)),
				},
				Check: tg.checkOwn(tg.account, 2),
			},
			{
				Config: config(changed...),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				Check: tg.checkOwn(tg.account, 3),
			},
			{ResourceName: addr, ImportState: true, ImportStateId: tg.account + "/" + accEnvironment + "/" + topic,
				ImportStateCheck: tg.importedOwn(tg.account, 3)},
		},
	})
}

// TestAccService_accountSubscriptions holds a whole account: only the disposable one. It may hold
// what earlier runs left there; the plan names those deletions and the apply makes them.
func TestAccService_accountSubscriptions(t *testing.T) {
	tg := newAccTarget(t)
	tg.needDisposable()
	const addr = "eventnotify_account_subscriptions.all"
	config := func(entries ...entry) string {
		return tg.provider + fmt.Sprintf("resource \"eventnotify_account_subscriptions\" \"all\" {\n  account_id = %q\n%s}\n",
			tg.disposable, entriesHCL(entries))
	}
	first := []entry{{"a", tg.event(0), tg.level(0), tg.topic("a")}, {"b", tg.event(1), tg.level(1), tg.topic("b")}}
	changed := []entry{{"a", tg.event(0), tg.level(1), tg.topic("a")}, {"c", tg.event(1), tg.level(0), tg.topic("c")}}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             tg.checkGone(tg.disposable),
		Steps: []resource.TestStep{
			{
				Config: config(first...),
				Check:  tg.checkOwn(tg.disposable, 2),
			},
			{
				Config: config(changed...),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				Check: tg.checkOwn(tg.disposable, 2),
			},
			{ResourceName: addr, ImportState: true, ImportStateId: tg.disposable, ImportStateCheck: tg.importedOwn(tg.disposable, 2)},
		},
	})
}

// TestAccService_eventStreamsTopic creates a topic with a subscription on it: topics cannot be
// deleted, so only where that is allowed.
func TestAccService_eventStreamsTopic(t *testing.T) {
	tg := newAccTarget(t)
	tg.needTopicCreation()
	const addr = "eventnotify_event_streams_topic.test"
	topic := tg.topic("created")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		Steps: []resource.TestStep{{
			Config: tg.provider + fmt.Sprintf(`
resource "eventnotify_event_streams_topic" "test" {
  environment_id    = %q
  topic_name        = %q
  subscription_name = %q
}
`, accEnvironment, topic, topic+"-sub"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("topic_name"), knownvalue.StringExact(topic)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("subscription_count"), knownvalue.NotNull()),
			},
		}},
	})
}

// TestAccService_dataSources reads a subscription of the test's and the catalogues through the
// data sources; the filtered listing runs on the disposable account alone, since it reads
// every subscription of the account into the state.
func TestAccService_dataSources(t *testing.T) {
	tg := newAccTarget(t)
	topic := tg.topic("read")
	const ds = "data.eventnotify_subscription.test"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             tg.checkGone(),
		Steps: []resource.TestStep{{
			Config: tg.provider + subscriptionOn(tg.event(0), tg.level(0), topic) + `
data "eventnotify_subscription" "test" {
  id = eventnotify_subscription.test.id
}
data "eventnotify_events" "all" {}
data "eventnotify_log_levels" "all" {}
data "eventnotify_destination_types" "all" {}
`,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttrPair(ds, "id", subAddr, "id"),
				resource.TestCheckResourceAttr(ds, "event_name", tg.event(0)),
				resource.TestCheckResourceAttr(ds, "log_level", tg.level(0)),
				resource.TestCheckResourceAttr(ds, "event_streams_topic", topic),
				resource.TestCheckTypeSetElemAttr("data.eventnotify_events.all", "names.*", tg.event(0)),
				resource.TestCheckTypeSetElemAttr("data.eventnotify_events.all", "names.*", tg.event(1)),
				resource.TestCheckTypeSetElemAttr("data.eventnotify_log_levels.all", "names.*", tg.level(0)),
				resource.TestCheckTypeSetElemAttr("data.eventnotify_destination_types.all", "names.*", "EVENT_STREAMS"),
			),
		}},
	})
	t.Run("filtered listing", func(t *testing.T) {
		tg := newAccTarget(t)
		tg.needDisposable()
		const list = "data.eventnotify_subscriptions.mine"
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: testProviderFactories,
			CheckDestroy:             tg.checkGone(tg.disposable),
			Steps: []resource.TestStep{{
				Config: tg.provider + fmt.Sprintf(`
resource "eventnotify_subscription" "many" {
  count               = 2
  account_id          = %[1]q
  event_name          = %[2]q
  destination_type    = "EVENT_STREAMS"
  log_level           = %[3]q
  event_streams_topic = "%[4]s-${count.index}"
}
data "eventnotify_subscriptions" "mine" {
  account_id = %[1]q
  event_name = %[2]q
  log_level  = %[3]q
  depends_on = [eventnotify_subscription.many]
}
`, tg.disposable, tg.event(0), tg.level(0), tg.topic("listed")),
				Check: func(s *terraform.State) error {
					ids := map[string]bool{}
					for i := range 2 {
						id, err := heldID(s, fmt.Sprintf("eventnotify_subscription.many.%d", i))
						if err != nil {
							return err
						}
						ids[id] = true
					}
					found := 0
					attrs := s.RootModule().Resources[list].Primary.Attributes
					for k, v := range attrs {
						if strings.HasPrefix(k, "ids.") && k != "ids.#" && ids[v] {
							found++
						}
					}
					if found != 2 {
						return fmt.Errorf("the filtered listing holds %d of the 2 subscriptions created: %v", found, attrs)
					}
					return nil
				},
			}},
		})
	})
}
