package provider

// The single subscription's acceptance tests for any endpoint (acc_target_test.go): they run
// against the in-process mock in every run of the suite, and against the service the
// EVENTNOTIFY_* variables name in a live run.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// subscriptionOn renders the subscription "test" of event at level on topic, with extra lines.
func subscriptionOn(event, level, topic string, extra ...string) string {
	return subscriptionConfig(append([]string{fmt.Sprintf("event_name = %q", event), `destination_type = "EVENT_STREAMS"`,
		fmt.Sprintf("log_level = %q", level), fmt.Sprintf("event_streams_topic = %q", topic)}, extra...)...)
}

// heldID is the id the state holds for addr.
func heldID(s *terraform.State, addr string) (string, error) {
	rs, ok := s.RootModule().Resources[addr]
	if !ok {
		return "", fmt.Errorf("%s is not in the state", addr)
	}
	return rs.Primary.ID, nil
}

// TestAccService_subscriptionLifecycle creates a subscription, changes its log level and event
// in place, imports it in every form the CLI has (the id, account/id, an import block, and an
// identity where the CLI has resource identity), and destroys it; the service's own answers are
// checked after each step.
func TestAccService_subscriptionLifecycle(t *testing.T) {
	tg := newAccTarget(t)
	topic := tg.topic("lifecycle")
	sameID := statecheck.CompareValue(compare.ValuesSame())
	importStep := func(kind resource.ImportStateKind, id func(*terraform.State) (string, error)) resource.TestStep {
		return resource.TestStep{ResourceName: subAddr, ImportState: true, ImportStateKind: kind,
			ImportStateVerify: kind == resource.ImportCommandWithID, ImportStateIdFunc: id}
	}
	steps := []resource.TestStep{
		{
			Config: tg.provider + subscriptionOn(tg.event(0), tg.level(0), topic),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(subAddr, plancheck.ResourceActionCreate),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				sameID.AddStateValue(subAddr, tfjsonpath.New("id")),
				statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("account_id"), knownvalue.StringExact(tg.account)),
				statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("created_date"), knownvalue.NotNull()),
			},
			Check: resource.ComposeAggregateTestCheckFunc(tg.checkService(subAddr, tg.event(0), tg.level(0), topic), tg.checkOwn(tg.account, 1)),
		},
		{
			Config: tg.provider + subscriptionOn(tg.event(1), tg.level(1), topic),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(subAddr, plancheck.ResourceActionUpdate),
			}},
			ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(subAddr, tfjsonpath.New("id"))},
			Check:             resource.ComposeAggregateTestCheckFunc(tg.checkService(subAddr, tg.event(1), tg.level(1), topic), tg.checkOwn(tg.account, 1)),
		},
		importStep(resource.ImportCommandWithID, nil),
		importStep(resource.ImportCommandWithID, func(s *terraform.State) (string, error) {
			id, err := heldID(s, subAddr)
			return tg.account + "/" + id, err
		}),
		importStep(resource.ImportBlockWithID, nil),
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             tg.checkGone(),
		Steps:                    steps,
	})
	t.Run("identity", func(t *testing.T) {
		tg := newAccTarget(t)
		topic := tg.topic("identity")
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: testProviderFactories,
			TerraformVersionChecks:   []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureResourceIdentity)},
			CheckDestroy:             tg.checkGone(),
			Steps: []resource.TestStep{
				{
					Config:            tg.provider + subscriptionOn(tg.event(0), tg.level(0), topic),
					ConfigStateChecks: expectSubscriptionIdentity(tg.account),
				},
				importStep(resource.ImportBlockWithResourceIdentity, nil),
			},
		})
	})
}

// TestAccService_subscriptionDrift changes and then deletes the subscription through the
// service's own API, behind the provider's back: the plan shows the update that restores it,
// then the create that brings it back, and each apply does so.
func TestAccService_subscriptionDrift(t *testing.T) {
	tg := newAccTarget(t)
	topic := tg.topic("drift")
	config := tg.provider + subscriptionOn(tg.event(0), tg.level(0), topic)
	var id string
	keepID := func(s *terraform.State) (err error) { id, err = heldID(s, subAddr); return err }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             tg.checkGone(),
		Steps: []resource.TestStep{
			{Config: config, Check: keepID},
			{
				PreConfig: func() {
					_, err := tg.client.UpdateSubscription(tg.ctx(), tg.account, id, client.SubscriptionInput{
						EventName: tg.event(0), DestinationType: "EVENT_STREAMS", LogLevel: tg.level(1), EventStreamsTopic: topic, Enabled: new(true),
					})
					if err != nil {
						t.Fatalf("changing the subscription through the service's API: %v", err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(subAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(subAddr, tfjsonpath.New("log_level"), knownvalue.StringExact(tg.level(0))),
				}},
				Check: tg.checkService(subAddr, tg.event(0), tg.level(0), topic),
			},
			{
				PreConfig: func() {
					if err := tg.client.DeleteSubscription(tg.ctx(), tg.account, id); err != nil {
						t.Fatalf("deleting the subscription through the service's API: %v", err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(subAddr, plancheck.ResourceActionCreate),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(tg.checkService(subAddr, tg.event(0), tg.level(0), topic), tg.checkOwn(tg.account, 1),
					func(s *terraform.State) error {
						if now, _ := heldID(s, subAddr); now == id {
							return fmt.Errorf("the state still holds the deleted subscription %s", id)
						}
						return nil
					}),
			},
		},
	})
}

// TestAccService_batching creates, changes and destroys several subscriptions in one apply each:
// every one reaches the service once. Against the mock, the creates share requests.
func TestAccService_batching(t *testing.T) {
	tg := newAccTarget(t)
	const n = 5
	config := func(level string) string {
		return tg.provider + fmt.Sprintf(`
resource "eventnotify_subscription" "many" {
  count               = %d
  event_name          = %q
  destination_type    = "EVENT_STREAMS"
  log_level           = %q
  event_streams_topic = "%s-${count.index}"
}
`, n, tg.event(0), level, tg.topic("batch"))
	}
	distinct := func(s *terraform.State) error {
		seen := map[string]bool{}
		for i := range n {
			id, err := heldID(s, fmt.Sprintf("eventnotify_subscription.many.%d", i))
			if err != nil {
				return err
			}
			if seen[id] {
				return fmt.Errorf("two resources hold subscription %s", id)
			}
			seen[id] = true
		}
		return nil
	}
	var creates int
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             tg.checkGone(),
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					if tg.mock != nil {
						creates = tg.mock.Count("POST", mockserver.RouteSubscriptions)
					}
				},
				Config: config(tg.level(0)),
				Check: resource.ComposeAggregateTestCheckFunc(tg.checkOwn(tg.account, n), distinct, func(*terraform.State) error {
					if tg.mock == nil {
						return nil
					}
					if sent := tg.mock.Count("POST", mockserver.RouteSubscriptions) - creates; sent >= n {
						return fmt.Errorf("%d creates sent %d create requests: they were not batched", n, sent)
					}
					return nil
				}),
			},
			{
				Config: config(tg.level(1)),
				Check: resource.ComposeAggregateTestCheckFunc(tg.checkOwn(tg.account, n), distinct, func(*terraform.State) error {
					mine, err := tg.own(tg.account)
					for _, s := range mine {
						if s.LogLevel != tg.level(1) {
							return fmt.Errorf("subscription %s is at %s after the update, want %s", s.ID, s.LogLevel, tg.level(1))
						}
					}
					return err
				}),
			},
		},
	})
}

// TestAccService_unknownEventName is the catalogue check with names read from the service: an
// event name close to one of its catalogue fails the plan, naming the catalogue's, and nothing is
// created.
func TestAccService_unknownEventName(t *testing.T) {
	tg := newAccTarget(t)
	wrong := tg.event(0) + "X"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		Steps: []resource.TestStep{{
			Config:      tg.provider + subscriptionOn(wrong, tg.level(0), tg.topic("unknown-event")),
			ExpectError: errorPattern("Unknown event name", strings.Fields(tg.event(0))[0]),
		}},
	})
	if err := tg.checkOwn(tg.account, 0)(nil); err != nil {
		t.Error(err)
	}
}
