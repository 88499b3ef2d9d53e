package provider

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

const subAddr = "eventnotify_subscription.test"

// The arguments of the test subscription (every_field_test.go): the required ones, and every
// input set to a value other than its default.
var (
	minimalArgs = argLines(true)
	fullArgs    = argLines(false)
)

// TestAccSubscriptionResource_lifecycle creates a subscription with only the
// required arguments, sets every optional one, unsets them again, imports it
// with both id forms and an import block, and destroys it.
func TestAccSubscriptionResource_lifecycle(t *testing.T) {
	m := newTestMock(t)
	sameID := statecheck.CompareValue(compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{
				Config: m.providerBlock() + subscriptionConfig(minimalArgs...),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(subAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(subAddr, tfjsonpath.New("account_id"), knownvalue.StringExact(testAccount)),
					plancheck.ExpectKnownValue(subAddr, tfjsonpath.New("enabled"), knownvalue.Bool(true)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(subAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(uuidPattern)),
					statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("account_id"), knownvalue.StringExact(testAccount)),
					statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("event_name"), knownvalue.StringExact("ATOM.STATUS")),
					statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("destination_type"), knownvalue.StringExact("EVENT_STREAMS")),
					statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("log_level"), knownvalue.StringExact("ERROR")),
					statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("enabled"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("event_streams_topic"), knownvalue.Null()),
					statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("created_by"), knownvalue.StringExact(testUser)),
					statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("created_date"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("last_updated_date"), knownvalue.NotNull()),
				},
				Check: m.checkMockHolds(testAccount, 1),
			},
			{
				Config: m.providerBlock() + subscriptionConfig(fullArgs...),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(subAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(subAddr, tfjsonpath.New("last_updated_date")),
					plancheck.ExpectKnownValue(subAddr, tfjsonpath.New("created_date"), knownvalue.NotNull()),
				}},
				ConfigStateChecks: append([]statecheck.StateCheck{
					sameID.AddStateValue(subAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("event_streams_topic"), knownvalue.StringExact("alerts")),
				}, everyInputIs(subAddr, true)...),
				Check: m.checkMockHolds(testAccount, 1),
			},
			{
				ResourceName:      subAddr,
				ImportState:       true,
				ImportStateVerify: true,
			},
			{
				ResourceName:      subAddr,
				ImportState:       true,
				ImportStateVerify: true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					return testAccount + "/" + s.RootModule().Resources[subAddr].Primary.ID, nil
				},
			},
			{
				ResourceName:    subAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
			},
			{
				Config: m.providerBlock() + subscriptionConfig(minimalArgs...),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(subAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: append([]statecheck.StateCheck{
					sameID.AddStateValue(subAddr, tfjsonpath.New("id")),
				}, everyInputIs(subAddr, false)...),
			},
		},
	})
}

// TestAccSubscriptionResource_updateInPlace changes each updatable argument on
// its own and checks the change is one in-place update of the same subscription.
func TestAccSubscriptionResource_updateInPlace(t *testing.T) {
	var cases []struct{ name, before, after string }
	for _, s := range inputSamples() { // every input, from its fixture value to another
		cases = append(cases, struct{ name, before, after string }{s.attr.name, s.hcl(s.first), s.hcl(s.second)})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			replaceArg := func(line string) string {
				args := make([]string, 0, len(fullArgs))
				for _, a := range fullArgs {
					if strings.HasPrefix(a, tc.name+" ") {
						a = line
					}
					args = append(args, a)
				}
				return m.providerBlock() + subscriptionConfig(args...)
			}
			sameID := statecheck.CompareValue(compare.ValuesSame())
			var updatesBefore int
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				CheckDestroy:             m.checkMockEmpty(),
				Steps: []resource.TestStep{
					{
						Config:            replaceArg(tc.before),
						ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(subAddr, tfjsonpath.New("id"))},
						Check: func(*terraform.State) error {
							updatesBefore = m.Count(http.MethodPut, mockserver.RouteSubscription)
							return nil
						},
					},
					{
						Config: replaceArg(tc.after),
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(subAddr, plancheck.ResourceActionUpdate),
						}},
						ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(subAddr, tfjsonpath.New("id"))},
						Check: func(*terraform.State) error {
							if n := m.Count(http.MethodPut, mockserver.RouteSubscription) - updatesBefore; n != 1 {
								return fmt.Errorf("changing %s sent %d update requests, want 1", tc.name, n)
							}
							if n := m.Count(http.MethodPost, mockserver.RouteSubscriptions); n != 1 {
								return fmt.Errorf("%d create requests, want 1 (no replacement)", n)
							}
							return m.checkMockHolds(testAccount, 1)(nil)
						},
					},
				},
			})
		})
	}
}

// TestAccSubscriptionResource_accountReplaces moves a subscription to another
// account, which the service can only do by replacing it: once by setting
// account_id, once by changing the provider's account under a subscription
// that does not set it. Regression test for the second case: the attribute's
// RequiresReplace alone planned an in-place update there.
func TestAccSubscriptionResource_accountReplaces(t *testing.T) {
	cases := []struct {
		name  string
		other string
		moved func(m *testMock, other string) string
	}{
		{"account_id set", "acc-other", func(m *testMock, other string) string {
			return m.providerBlock() + subscriptionConfig(append([]string{`account_id = "` + other + `"`}, minimalArgs...)...)
		}},
		{"provider account changed", "acc-provider-2", func(m *testMock, other string) string {
			p := m.providerConfig()
			p.accountID = other
			return p.String() + subscriptionConfig(minimalArgs...)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				CheckDestroy:             m.checkMockEmpty(tc.other),
				Steps: []resource.TestStep{
					{
						Config: m.providerBlock() + subscriptionConfig(minimalArgs...),
						Check:  m.checkMockHolds(testAccount, 1),
					},
					{
						Config: tc.moved(m, tc.other),
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(subAddr, plancheck.ResourceActionDestroyBeforeCreate),
							plancheck.ExpectKnownValue(subAddr, tfjsonpath.New("account_id"), knownvalue.StringExact(tc.other)),
						}},
						ConfigStateChecks: []statecheck.StateCheck{
							statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("account_id"), knownvalue.StringExact(tc.other)),
						},
						Check: resource.ComposeTestCheckFunc(m.checkMockHolds(testAccount, 0), m.checkMockHolds(tc.other, 1)),
					},
				},
			})
		})
	}
}

var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// TestAccSubscriptionResource_drift changes and deletes the subscription
// behind Terraform's back and checks that plans repair both.
func TestAccSubscriptionResource_drift(t *testing.T) {
	m := newTestMock(t)
	sameID := statecheck.CompareValue(compare.ValuesSame())
	config := m.providerBlock() + subscriptionConfig(fullArgs...)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{
				Config:            config,
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(subAddr, tfjsonpath.New("id"))},
			},
			{
				PreConfig: func() {
					sub := m.onlySubscription(t)
					m.ModifySubscription(testAccount, sub.SubscriptionID, func(s *mockserver.Subscription) {
						s.LogLevel = "INFO"
						s.EventStreamsTopic = "hijacked"
					})
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(subAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(subAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("log_level"), knownvalue.StringExact("ERROR")),
				},
				Check: func(*terraform.State) error {
					if sub := m.onlySubscription(t); sub.LogLevel != "ERROR" || sub.EventStreamsTopic != "alerts" {
						return fmt.Errorf("drift not repaired: log level %q, topic %q", sub.LogLevel, sub.EventStreamsTopic)
					}
					return nil
				},
			},
			{
				PreConfig: func() {
					m.DeleteSubscriptionDirect(testAccount, m.onlySubscription(t).SubscriptionID)
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(subAddr, plancheck.ResourceActionCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.CompareValue(compare.ValuesDiffer()).AddStateValue(subAddr, tfjsonpath.New("id")),
				},
				Check: m.checkMockHolds(testAccount, 1),
			},
		},
	})
}

// TestAccSubscriptionResource_invalidValues rejects bad arguments at plan time
// without a single request to the service.
func TestAccSubscriptionResource_invalidValues(t *testing.T) {
	cases := []struct {
		name, arg string
		expect    []string
	}{
		{"destination_type", `destination_type = "SLACK"`, []string{"destination_type", `value must be one of: ["EVENT_STREAMS" "EMAIL"]`, `got: "SLACK"`}},
		{"destination_type casing", `destination_type = "event_streams"`, []string{"destination_type", `value must be one of`}},
		{"log_level", `log_level = "WARN"`, []string{"log_level", `value must be one of: ["INFO" "WARNING" "ERROR"]`, `got: "WARN"`}},
		{"empty event_name", `event_name = ""`, []string{"event_name", "must not be empty or only white space"}},
		{"blank topic", `event_streams_topic = "  "`, []string{"event_streams_topic", "must not be empty or only white space"}},
		{"blank account", `account_id = ""`, []string{"account_id", "must not be empty or only white space"}},
		// Regression: Unicode white space (here a no-break space) is blank too.
		{"unicode blank topic", "event_streams_topic = \"\u00a0\"", []string{"event_streams_topic", "must not be empty or only white space"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { testInvalidSubscriptionArg(t, tc.arg, tc.expect...) })
	}
}

// testInvalidSubscriptionArg plans a subscription whose other arguments are
// minimalArgs with arg in place of its namesake, and checks that the plan fails
// with expect and that not a single request reached the service.
func testInvalidSubscriptionArg(t *testing.T, arg string, expect ...string) {
	t.Helper()
	m := newTestMock(t)
	args := []string{arg}
	for _, a := range minimalArgs {
		if !strings.HasPrefix(a, strings.Fields(arg)[0]+" ") {
			args = append(args, a)
		}
	}
	m.expectRejectedWithoutRequests(t, m.providerBlock()+subscriptionConfig(args...), errorPattern(expect...))
}

// TestAccSubscriptionResource_serviceRejects shows the service's 400 messages
// verbatim in the diagnostic, and that nothing reaches state. (The catalogue
// lists the event, so the plan's check lets it through.)
func TestAccSubscriptionResource_serviceRejects(t *testing.T) {
	m := newTestMock(t)
	m.SetEvents([]mockserver.CatalogueEntry{{Name: "NOPE.NEVER"}})
	m.InjectFault(mockserver.Fault{
		Method: http.MethodPost, Route: mockserver.RouteSubscriptions, Status: http.StatusBadRequest,
		Body: `{"error":"Bad Request","messages":["Must provide a valid eventName","Event NOPE.NEVER is not offered to this account"],"path":"/rest/v1/accounts/acc-test/subscriptions"}`,
	})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{{
			Config: m.providerBlock() + subscriptionConfig(`event_name = "NOPE.NEVER"`, `destination_type = "EVENT_STREAMS"`, `log_level = "INFO"`),
			ExpectError: errorPattern("Unable to create subscription", `"create subscriptions"`, "HTTP 400",
				"Must provide a valid eventName", "Event NOPE.NEVER is not offered to this account"),
		}},
	})
}

// TestAccSubscriptionResource_responseShapes runs create, read, update and
// import with both shapes of a single subscription in responses (SERVICE.md rule 5).
func TestAccSubscriptionResource_responseShapes(t *testing.T) {
	for name, shape := range map[string]mockserver.SingleShape{"flat": mockserver.SingleFlat, "wrapped": mockserver.SingleWrapped} {
		t.Run(name, func(t *testing.T) {
			m := newTestMock(t)
			m.SetSingleShape(shape)
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				CheckDestroy:             m.checkMockEmpty(),
				Steps: []resource.TestStep{
					{Config: m.providerBlock() + subscriptionConfig(minimalArgs...)},
					{
						Config: m.providerBlock() + subscriptionConfig(fullArgs...),
						ConfigStateChecks: []statecheck.StateCheck{
							statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("event_streams_topic"), knownvalue.StringExact("alerts")),
							statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("created_by"), knownvalue.StringExact(testUser)),
						},
					},
					{ResourceName: subAddr, ImportState: true, ImportStateVerify: true},
				},
			})
		})
	}
}

// TestAccSubscriptionResource_serviceSpellings has the mock answer with its
// other spellings (upper-case event names, WARN for WARNING): no diff appears
// and the configured spelling stays in state.
func TestAccSubscriptionResource_serviceSpellings(t *testing.T) {
	m := newTestMock(t)
	m.SetResponseTransform(func(s *mockserver.Subscription) {
		s.EventName = strings.ToUpper(s.EventName)
		if s.LogLevel == "WARNING" {
			s.LogLevel = "WARN"
		}
	})
	config := m.providerBlock() + subscriptionConfig(`event_name = "Atom.Status"`, `destination_type = "EVENT_STREAMS"`, `log_level = "WARNING"`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("event_name"), knownvalue.StringExact("Atom.Status")),
					statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("log_level"), knownvalue.StringExact("WARNING")),
				},
			},
			{
				// A refresh and plan with the service's spellings shows nothing to do.
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
			{
				// A real change still shows, and keeps the new configured spelling.
				Config: strings.Replace(config, `"Atom.Status"`, `"Process.Execution"`, 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(subAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("event_name"), knownvalue.StringExact("Process.Execution")),
				},
			},
		},
	})
}

// TestAccSubscriptionResource_importErrors covers malformed and unknown ids: an
// unknown one names the account looked in and where it came from.
func TestAccSubscriptionResource_importErrors(t *testing.T) {
	m := newTestMock(t)
	cases := []struct {
		name, id string
		expect   []string
	}{
		{"not a uuid", "not-a-uuid", []string{"Invalid import id", `"not-a-uuid"`, "is not a subscription id", "<subscription_id>", "<account_id>/<subscription_id>"}},
		{"too many parts", "a/b/3fa85f64-5717-4562-b3fc-2c963f66afa6", []string{"Invalid import id", "3 parts", "<account_id>/<subscription_id>"}},
		{"empty account", "/3fa85f64-5717-4562-b3fc-2c963f66afa6", []string{"Invalid import id", "empty account id"}},
		{"does not exist", "3fa85f64-5717-4562-b3fc-2c963f66afa6", []string{"Cannot import subscription 3fa85f64-5717-4562-b3fc-2c963f66afa6",
			`Account "` + testAccount + `" holds no subscription`, `import id "3fa85f64-5717-4562-b3fc-2c963f66afa6" names no account`}},
		{"does not exist in the account named", testAccount + "/3fa85f64-5717-4562-b3fc-2c963f66afa6", []string{"Cannot import subscription",
			`The account "` + testAccount + `" comes from the import id "` + testAccount + `/3fa85f64-5717-4562-b3fc-2c963f66afa6"; check it.`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				Steps: []resource.TestStep{{
					Config:        m.providerBlock() + subscriptionConfig(minimalArgs...),
					ResourceName:  subAddr,
					ImportState:   true,
					ImportStateId: tc.id,
					ExpectError:   errorPattern(tc.expect...),
				}},
			})
		})
	}
}

// TestAccSubscriptionResource_generateConfig imports a subscription made
// outside Terraform with an import block and -generate-config-out; the
// generated configuration plans with no changes.
func TestAccSubscriptionResource_generateConfig(t *testing.T) {
	m := newTestMock(t)
	sub := m.PutSubscription(testAccount, mockserver.Subscription{
		EventName: "PROCESS.EXECUTION", DestinationType: "EVENT_STREAMS", LogLevel: "WARNING",
		EventStreamsEnvironment: "env-9", EventStreamsTopic: "ops", Enabled: false,
	})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		Steps: []resource.TestStep{{
			Config:          m.providerBlock(),
			ResourceName:    subAddr,
			ImportState:     true,
			ImportStateKind: resource.ImportBlockWithID,
			ImportStateId:   sub.SubscriptionID,
			GenerateConfig:  true,
			ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(subAddr, tfjsonpath.New("event_streams_topic"), knownvalue.StringExact("ops")),
				plancheck.ExpectKnownValue(subAddr, tfjsonpath.New("enabled"), knownvalue.Bool(false)),
			}},
		}},
	})
}

// TestAccSubscriptionResource_wrongBaseURLKeepsState refreshes through a
// base_url the service does not serve (a path of its own; one with the
// service's path "/rest/v1" is refused at configure): the router's 404 is an
// error, not a deleted subscription, so nothing leaves state and nothing is
// recreated.
// Regression test: any 404 used to count as "deleted outside Terraform".
func TestAccSubscriptionResource_wrongBaseURLKeepsState(t *testing.T) {
	m := newTestMock(t)
	config := m.providerBlock() + subscriptionConfig(minimalArgs...)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{Config: config},
			{
				Config:      strings.Replace(config, `base_url                = "`+m.URL+`"`, `base_url                = "`+m.URL+`/gateway"`, 1),
				ExpectError: errorPattern("Unable to read subscription", "HTTP 404"),
			},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				Check: m.checkMockHolds(testAccount, 1),
			},
		},
	})
}
