package provider

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

const topicAddr = "eventnotify_event_streams_topic.test"

// TestAccEventStreamsTopicResource_create creates a topic, checks that a
// refresh and plan change nothing without asking the service, adds a second
// subscription on the same topic (subscription_count comes from the service),
// and destroys both: the topic stays in the mock.
func TestAccEventStreamsTopicResource_create(t *testing.T) {
	m := newTestMock(t)
	const second = "eventnotify_event_streams_topic.second"
	secondConfig := `
resource "eventnotify_event_streams_topic" "second" {
  environment_id    = eventnotify_event_streams_topic.test.environment_id
  topic_name        = eventnotify_event_streams_topic.test.topic_name
  subscription_name = "audit"
}
`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy: resource.ComposeTestCheckFunc(
			m.checkMockTopics(testAccount, "env-1/alerts ops-alerts,audit"),
			m.checkNoDeletes(),
		),
		Steps: []resource.TestStep{
			{
				Config: m.providerBlock() + topicConfig(topicArgs...),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(topicAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(topicAddr, tfjsonpath.New("account_id"), knownvalue.StringExact(testAccount)),
					plancheck.ExpectUnknownValue(topicAddr, tfjsonpath.New("id")),
					plancheck.ExpectUnknownValue(topicAddr, tfjsonpath.New("subscription_count")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(topicAddr, tfjsonpath.New("id"), knownvalue.StringExact(testAccount+"/env-1/alerts")),
					statecheck.ExpectKnownValue(topicAddr, tfjsonpath.New("account_id"), knownvalue.StringExact(testAccount)),
					statecheck.ExpectKnownValue(topicAddr, tfjsonpath.New("environment_id"), knownvalue.StringExact("env-1")),
					statecheck.ExpectKnownValue(topicAddr, tfjsonpath.New("subscription_name"), knownvalue.StringExact("ops-alerts")),
					statecheck.ExpectKnownValue(topicAddr, tfjsonpath.New("topic_name"), knownvalue.StringExact("alerts")),
					statecheck.ExpectKnownValue(topicAddr, tfjsonpath.New("topic_description"), knownvalue.StringExact("Alerts for the operations team")),
					statecheck.ExpectKnownValue(topicAddr, tfjsonpath.New("subscription_count"), knownvalue.Int64Exact(1)),
				},
				Check: resource.ComposeTestCheckFunc(
					m.checkMockTopics(testAccount, "env-1/alerts ops-alerts"),
					func(*terraform.State) error {
						if d := m.Topics(testAccount)[0].Description; d != "Alerts for the operations team" {
							return fmt.Errorf("mock holds description %q", d)
						}
						return nil
					},
				),
			},
			{
				// Refresh keeps state and asks the service nothing: the one
				// create stays the only request to createEventStreamTopicAndSubscription.
				Config: m.providerBlock() + topicConfig(topicArgs...),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				Check: func(*terraform.State) error {
					if n := m.Count("", mockserver.RouteTopic); n != 1 {
						return fmt.Errorf("%d requests to createEventStreamTopicAndSubscription, want 1", n)
					}
					return nil
				},
			},
			{
				Config: m.providerBlock() + topicConfig(topicArgs...) + secondConfig,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(topicAddr, plancheck.ResourceActionNoop),
					plancheck.ExpectResourceAction(second, plancheck.ResourceActionCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(topicAddr, tfjsonpath.New("subscription_count"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue(second, tfjsonpath.New("id"), knownvalue.StringExact(testAccount+"/env-1/alerts")),
					statecheck.ExpectKnownValue(second, tfjsonpath.New("subscription_count"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue(second, tfjsonpath.New("topic_description"), knownvalue.Null()),
				},
				Check: m.checkMockTopics(testAccount, "env-1/alerts ops-alerts,audit"),
			},
		},
	})
}

// TestAccEventStreamsTopicResource_replace changes each input on its own and
// checks the change plans a replacement that creates the topic again.
func TestAccEventStreamsTopicResource_replace(t *testing.T) {
	const other = "acc-other"
	cases := []struct {
		name     string
		after    []string
		provider func(m *testMock) string // provider block of the second step; nil = the same
		id       string                   // id after the change
		topics   map[string][]string      // mock topics per account after the change
		count    int64                    // subscription_count after the change
	}{
		{
			name: "environment_id", after: withTopicArg(`environment_id = "env-2"`),
			id:     testAccount + "/env-2/alerts",
			topics: map[string][]string{testAccount: {"env-1/alerts ops-alerts", "env-2/alerts ops-alerts"}},
			count:  1,
		},
		{
			name: "subscription_name", after: withTopicArg(`subscription_name = "ops-pager"`),
			id:     testAccount + "/env-1/alerts",
			topics: map[string][]string{testAccount: {"env-1/alerts ops-alerts,ops-pager"}},
			count:  2,
		},
		{
			name: "topic_name", after: withTopicArg(`topic_name = "incidents"`),
			id:     testAccount + "/env-1/incidents",
			topics: map[string][]string{testAccount: {"env-1/alerts ops-alerts", "env-1/incidents ops-alerts"}},
			count:  1,
		},
		{
			name: "topic_description", after: withTopicArg(`topic_description = "Paged alerts"`),
			id:     testAccount + "/env-1/alerts",
			topics: map[string][]string{testAccount: {"env-1/alerts ops-alerts,ops-alerts"}},
			count:  2,
		},
		{
			name: "topic_description removed", after: withTopicArg(`topic_description`),
			id:     testAccount + "/env-1/alerts",
			topics: map[string][]string{testAccount: {"env-1/alerts ops-alerts,ops-alerts"}},
			count:  2,
		},
		{
			name: "account_id", after: withTopicArg(`account_id = "` + other + `"`),
			id: other + "/env-1/alerts",
			topics: map[string][]string{
				testAccount: {"env-1/alerts ops-alerts"},
				other:       {"env-1/alerts ops-alerts"},
			},
			count: 1,
		},
		{
			name: "provider account_id", after: topicArgs,
			provider: func(m *testMock) string {
				p := m.providerConfig()
				p.accountID = other
				return p.String()
			},
			id: other + "/env-1/alerts",
			topics: map[string][]string{
				testAccount: {"env-1/alerts ops-alerts"},
				other:       {"env-1/alerts ops-alerts"},
			},
			count: 1,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			afterProvider := m.providerBlock()
			if tc.provider != nil {
				afterProvider = tc.provider(m)
			}
			checkTopics := func(*terraform.State) error {
				for account, want := range tc.topics {
					if err := m.checkMockTopics(account, want...)(nil); err != nil {
						return err
					}
				}
				return nil
			}
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				CheckDestroy:             resource.ComposeTestCheckFunc(checkTopics, m.checkNoDeletes()),
				Steps: []resource.TestStep{
					{
						Config: m.providerBlock() + topicConfig(topicArgs...),
						Check:  m.checkMockTopics(testAccount, "env-1/alerts ops-alerts"),
					},
					{
						Config: afterProvider + topicConfig(tc.after...),
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(topicAddr, plancheck.ResourceActionDestroyBeforeCreate),
							plancheck.ExpectResourceAction(topicAddr, plancheck.ResourceActionReplace),
							plancheck.ExpectUnknownValue(topicAddr, tfjsonpath.New("id")),
							plancheck.ExpectUnknownValue(topicAddr, tfjsonpath.New("subscription_count")),
						}},
						ConfigStateChecks: []statecheck.StateCheck{
							statecheck.ExpectKnownValue(topicAddr, tfjsonpath.New("id"), knownvalue.StringExact(tc.id)),
							statecheck.ExpectKnownValue(topicAddr, tfjsonpath.New("subscription_count"), knownvalue.Int64Exact(tc.count)),
						},
						Check: resource.ComposeTestCheckFunc(checkTopics, func(*terraform.State) error {
							if n := m.Count(http.MethodPost, mockserver.RouteTopic); n != 2 {
								return fmt.Errorf("%d requests to createEventStreamTopicAndSubscription, want 2", n)
							}
							return nil
						}),
					},
					{
						// The replacement settles: a second plan is empty.
						Config: afterProvider + topicConfig(tc.after...),
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectEmptyPlan(),
						}},
					},
				},
			})
		})
	}
}

// TestAccEventStreamsTopicResource_destroy destroys a topic: Terraform forgets
// it, no request reaches the service, and the mock still holds the topic.
// The warning that Delete adds is checked by TestEventStreamsTopicResource_deleteWarning,
// since plugin-testing offers no way to assert warnings.
func TestAccEventStreamsTopicResource_destroy(t *testing.T) {
	m := newTestMock(t)
	var requestsBefore int
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy: resource.ComposeTestCheckFunc(
			m.checkMockTopics(testAccount, "env-1/alerts ops-alerts"),
			m.checkNoDeletes(),
			func(*terraform.State) error {
				if n := m.Count(http.MethodPost, mockserver.RouteTopic); n != 1 {
					return fmt.Errorf("%d requests to createEventStreamTopicAndSubscription, want 1", n)
				}
				return nil
			},
		),
		Steps: []resource.TestStep{
			{
				Config: m.providerBlock() + topicConfig(topicArgs...),
				Check:  m.checkMockTopics(testAccount, "env-1/alerts ops-alerts"),
			},
			{
				// Removing the resource from the configuration destroys it.
				PreConfig: func() { requestsBefore = m.Count("", mockserver.RouteTopic) },
				Config:    m.providerBlock(),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(topicAddr, plancheck.ResourceActionDestroy),
				}},
				Check: resource.ComposeTestCheckFunc(
					func(s *terraform.State) error {
						if _, ok := s.RootModule().Resources[topicAddr]; ok {
							return fmt.Errorf("%s is still in state after destroy", topicAddr)
						}
						if n := m.Count("", mockserver.RouteTopic) - requestsBefore; n != 0 {
							return fmt.Errorf("destroy sent %d requests to createEventStreamTopicAndSubscription", n)
						}
						return nil
					},
					m.checkMockTopics(testAccount, "env-1/alerts ops-alerts"),
					m.checkNoDeletes(),
				),
			},
		},
	})
}

// TestEventStreamsTopicResource_deleteWarning calls Delete directly and checks
// its only diagnostic is a warning that says the topic still exists and how
// to remove it.
func TestEventStreamsTopicResource_deleteWarning(t *testing.T) {
	ctx := context.Background()
	r := NewEventStreamsTopicResource()
	var schemaResp fwresource.SchemaResponse
	r.Schema(ctx, fwresource.SchemaRequest{}, &schemaResp)
	if schemaResp.Diagnostics.HasError() {
		t.Fatalf("schema: %v", schemaResp.Diagnostics)
	}
	state := tfsdk.State{Schema: schemaResp.Schema}
	if d := state.Set(ctx, &eventStreamsTopicModel{
		ID:                types.StringValue("acc-1/env-1/alerts"),
		AccountID:         types.StringValue("acc-1"),
		EnvironmentID:     types.StringValue("env-1"),
		SubscriptionName:  types.StringValue("ops-alerts"),
		TopicName:         types.StringValue("alerts"),
		TopicDescription:  types.StringNull(),
		SubscriptionCount: types.Int64Value(1),
	}); d.HasError() {
		t.Fatalf("state: %v", d)
	}
	resp := fwresource.DeleteResponse{State: state}
	// Delete must not need a configured provider: it makes no request.
	r.Delete(ctx, fwresource.DeleteRequest{State: state}, &resp)

	if resp.Diagnostics.HasError() {
		t.Fatalf("Delete returned errors: %v", resp.Diagnostics.Errors())
	}
	warnings := resp.Diagnostics.Warnings()
	if len(warnings) != 1 || len(resp.Diagnostics) != 1 {
		t.Fatalf("Delete returned %d diagnostics (%d warnings), want one warning", len(resp.Diagnostics), len(warnings))
	}
	w := warnings[0]
	if w.Severity() != diag.SeverityWarning {
		t.Errorf("severity %v", w.Severity())
	}
	if want := `Event streams topic "alerts" still exists`; w.Summary() != want {
		t.Errorf("summary %q, want %q", w.Summary(), want)
	}
	for _, phrase := range []string{
		`"alerts"`, `"ops-alerts"`, `event streams environment "env-1"`, `(account "acc-1")`,
		"still exist", "only removed them from its state",
		"event streams environment's own console or API",
	} {
		if !strings.Contains(w.Detail(), phrase) {
			t.Errorf("warning detail lacks %q:\n%s", phrase, w.Detail())
		}
	}
}

// TestEventStreamsTopicResource_importRefused calls ImportState directly.
func TestEventStreamsTopicResource_importRefused(t *testing.T) {
	r := NewEventStreamsTopicResource().(fwresource.ResourceWithImportState)
	var resp fwresource.ImportStateResponse
	r.ImportState(context.Background(), fwresource.ImportStateRequest{ID: "acc-1/env-1/alerts"}, &resp)
	if errs := resp.Diagnostics.Errors(); len(errs) != 1 || !strings.Contains(errs[0].Detail(), "no operation that reads") {
		t.Fatalf("ImportState diagnostics: %v", resp.Diagnostics)
	}
}

// TestAccEventStreamsTopicResource_blankValues rejects blank values, and values
// with control or invisible characters, at plan time, naming the attribute,
// without a single request to the service.
func TestAccEventStreamsTopicResource_blankValues(t *testing.T) {
	const blank, invisible = "must not be empty or only white space", "contains the control or invisible character"
	cases := []struct{ line, expect string }{
		{`environment_id = ""`, blank},
		{`environment_id = "   "`, blank},
		{`subscription_name = ""`, blank},
		{`subscription_name = "\t"`, blank},
		{`topic_name = ""`, blank},
		{`topic_name = " "`, blank},
		{`account_id = ""`, blank},
		{`topic_name = "alerts\u200b"`, invisible},
		{`environment_id = "env\n1"`, invisible},
	}
	for _, tc := range cases {
		name := strings.Fields(tc.line)[0]
		t.Run(tc.line, func(t *testing.T) {
			m := newTestMock(t)
			m.expectRejectedWithoutRequests(t, m.providerBlock()+topicConfig(withTopicArg(tc.line)...), errorPattern(name, tc.expect))
		})
	}
}

// TestAccEventStreamsTopicResource_serviceRejects shows the service's own 400
// message (SERVICE.md rule 4) in the diagnostic, and that nothing reaches state.
func TestAccEventStreamsTopicResource_serviceRejects(t *testing.T) {
	m := newTestMock(t)
	m.InjectFault(mockserver.Fault{
		Method: http.MethodPost, Route: mockserver.RouteTopic, Status: http.StatusBadRequest,
		Body: `{"error":"Bad Request","messages":["eventStreamsEnvironmentId cannot be blank"],` +
			`"path":"/rest/v1/accounts/acc-test/eventStreams/topic/subscription"}`,
	})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockTopics(testAccount),
		Steps: []resource.TestStep{{
			Config: m.providerBlock() + topicConfig(topicArgs...),
			ExpectError: errorPattern(`Unable to create event streams topic "alerts"`, "HTTP 400",
				"eventStreamsEnvironmentId cannot be blank", "correct the values the messages name"),
		}},
	})
	if n := m.Count(http.MethodPost, mockserver.RouteTopic); n != 1 {
		t.Errorf("%d requests to createEventStreamTopicAndSubscription, want 1 (a 400 is not retried)", n)
	}
}

// TestAccEventStreamsTopicResource_importRefused attempts both forms of import
// (terraform import and an import block) and gets the explanation instead.
func TestAccEventStreamsTopicResource_importRefused(t *testing.T) {
	expect := errorPattern("Import of eventnotify_event_streams_topic is not supported",
		"no operation that reads an event streams topic back")
	for name, kind := range map[string]resource.ImportStateKind{
		"command":      resource.ImportCommandWithID,
		"import block": resource.ImportBlockWithID,
	} {
		t.Run(name, func(t *testing.T) {
			m := newTestMock(t)
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				Steps: []resource.TestStep{{
					Config:          m.providerBlock() + topicConfig(topicArgs...),
					ResourceName:    topicAddr,
					ImportState:     true,
					ImportStateKind: kind,
					ImportStateId:   testAccount + "/env-1/alerts",
					ExpectError:     expect,
				}},
			})
			if n := m.Count("", mockserver.RouteTopic); n != 0 {
				t.Errorf("the import attempt sent %d requests to createEventStreamTopicAndSubscription", n)
			}
		})
	}
}
