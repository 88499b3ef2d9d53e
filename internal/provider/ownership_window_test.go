package provider

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// The adoption window, second round (issue 30): a Date header off the clock that dates
// subscriptions, identical subscriptions with several lost answers, and a look-alike created
// after the answer. A create answer that lists the whole account is a case of
// TestAccOwnership_createBeforeDestroyReplace.

// TestAccOwnership_dateAheadNoSecondCopy loses the answer of a create that the service carried
// out, while its Date header runs two seconds ahead of the clock that dates subscriptions: the
// subscription looks older than the request. The provider does not create a second copy: the
// apply fails with the unknown outcome naming it, and the service holds one subscription. Once
// the user has dealt with it (here: deleted it), the next apply creates it once.
func TestAccOwnership_dateAheadNoSecondCopy(t *testing.T) {
	m := newTestMock(t)
	m.SetDateOffset(2 * time.Second)
	config := m.providerBlock() + twinConfig("a")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: settleFactories(nil),
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					m.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
						Status: http.StatusBadGateway, AfterWork: true, Count: 1})
				},
				Config: config,
				// The advice holds for a candidate that another configuration holds (issue 37 item 8).
				ExpectError: errorPattern("Unable to create subscription (outcome unknown: it may be subscription",
					"may be what the request created", "A candidate may be held by another configuration",
					"terraform state list and terraform state show in the other configurations", "created_date",
					"terraform import", "Applying again without importing one creates another copy"),
			},
			{
				PreConfig: func() {
					subs := m.Subscriptions(testAccount)
					if len(subs) != 1 || m.Count(http.MethodPost, mockserver.RouteSubscriptions) != 1 {
						t.Fatalf("after the failed apply the mock holds %d subscriptions after %d creates, want 1 and 1",
							len(subs), m.Count(http.MethodPost, mockserver.RouteSubscriptions))
					}
					m.DeleteSubscriptionDirect(testAccount, subs[0].SubscriptionID)
				},
				Config: config,
				Check:  m.checkStateMatchesMock(1),
			},
		},
	})
}

// TestAccOwnership_dateAheadAccountResource is TestAccOwnership_dateAheadNoSecondCopy for the
// entries of eventnotify_account_subscriptions: each apply fails with the unknown outcome naming
// the candidate, which may be another configuration's, and says what the next apply does with
// it, which it then does. After the first apply (a create), the tainted resource is replaced:
// the candidate is deleted and the entry created again. After a later one, the entry takes the
// candidate: no second create.
func TestAccOwnership_dateAheadAccountResource(t *testing.T) {
	m := newTestMock(t)
	m.SetDateOffset(2 * time.Second)
	a := acctEntry{key: "a", event: "ATOM.STATUS", level: "ERROR", topic: "twins", environment: topicTestEnv}
	b := acctEntry{key: "b", event: "ATOM.STATUS", level: "ERROR", topic: "other", environment: topicTestEnv}
	lost := func() {
		m.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
			Status: http.StatusBadGateway, AfterWork: true, Count: 1})
	}
	expect := errorPattern("Unable to create 1 subscriptions in account acc-test (outcome unknown: it may be subscription",
		"may be what the request created", "Nothing is lost track of",
		"A candidate may be held by another configuration", "terraform state list and terraform state show",
		"created_date", "Terraform marks the resource tainted", "deletes every subscription the refresh reads into it",
		"the next plan gives an entry a candidate of its content", "left holding a deleted id", "keep one holder")
	// creates checks the count of create requests, and which of the mock's subscriptions are new.
	var before []string
	creates := func(want int, kept bool) resource.TestCheckFunc {
		return func(*terraform.State) error {
			if c := m.Count(http.MethodPost, mockserver.RouteSubscriptions); c != want {
				return fmt.Errorf("%d create requests, want %d", c, want)
			}
			if now := m.mockIDs(testAccount); slices.Equal(now, before) != kept {
				return fmt.Errorf("the mock held %v and holds %v: kept %t, want %t", before, now, !kept, kept)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: settleFactories(nil),
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			// The first apply, a create: its answer lost.
			{PreConfig: lost, Config: m.providerBlock() + acctConfig(a), ExpectError: expect},
			// The tainted resource is replaced: the candidate deleted, the entry created again.
			{
				PreConfig: func() { before = m.mockIDs(testAccount) },
				Config:    m.providerBlock() + acctConfig(a),
				Check:     resource.ComposeTestCheckFunc(m.checkAcctStateMatchesMock(1), creates(2, false)),
			},
			// A later apply adds b: its answer lost.
			{PreConfig: lost, Config: m.providerBlock() + acctConfig(a, b), ExpectError: expect},
			// The entry takes the candidate.
			{
				PreConfig: func() { before = m.mockIDs(testAccount) },
				Config:    m.providerBlock() + acctConfig(a, b),
				Check:     resource.ComposeTestCheckFunc(m.checkAcctStateMatchesMock(2), creates(3, true)),
			},
		},
	})
}

// TestAccOwnership_identicalLostAnswersSettleTogether gives five resources identical inputs,
// each created in its own request, and loses every other create's answer after the work: the
// lost creates of one content are settled together, so the apply succeeds with each resource
// holding its own subscription, no create repeated, and nothing left after destroy.
func TestAccOwnership_identicalLostAnswersSettleTogether(t *testing.T) {
	m := newTestMock(t)
	m.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
		Status: http.StatusBadGateway, AfterWork: true, Ratio: 0.5})
	config := m.providerBlock("max_batch_size = 1") + twinConfig("a", "b", "c", "d", "e")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: settleFactories(nil),
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeTestCheckFunc(
					m.checkStateMatchesMock(5),
					func(*terraform.State) error {
						if lost := m.lostAnswers(http.MethodPost); lost < 2 {
							return fmt.Errorf("%d create answers lost, want at least 2: the fault did not fire as meant", lost)
						}
						if c := m.Count(http.MethodPost, mockserver.RouteSubscriptions); c != 5 {
							return fmt.Errorf("%d create requests for 5 subscriptions: a create was repeated", c)
						}
						return nil
					},
				),
			},
			{Config: config, PlanOnly: true},
		},
	})
}

// TestAccOwnership_lookAlikeAfterTheAnswer loses a create's answer before any work (502), and
// during the grace period another writer (another run on the same account, same user, same
// content) creates its subscription, which the service dates after the failed answer came
// back. It is adopted only with a warning (client-level: TestMockCreateLostAdoptionWindow; at
// the CLI, with the other writer a second provider configuration:
// TestAccOwnership_twoConfigurationsRace); the service holds exactly what state holds, nothing
// is created twice, and destroy leaves nothing.
func TestAccOwnership_lookAlikeAfterTheAnswer(t *testing.T) {
	m := newTestMock(t)
	var other string
	var once sync.Once
	factories := map[string]func() (tfprotov6.ProviderServer, error){
		"eventnotify": parityServerFor(func() *EventNotifyProvider {
			return &EventNotifyProvider{version: "test", adjustClient: func(c *client.Config) {
				c.SettleWait = func(ctx context.Context, _ time.Duration) error {
					once.Do(func() {
						// The other run's create, five seconds after the answer by the service's clock.
						other = m.PutSubscription(testAccount, mockserver.Subscription{
							EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS", LogLevel: "ERROR",
							EventStreamsTopic: "twins", Enabled: true,
							CreatedDate: time.Now().Add(5 * time.Second).UnixMilli(), CreatedBy: testUser, LastUpdatedUserID: testUser,
						}).SubscriptionID
					})
					return ctx.Err()
				}
			}}
		}),
	}
	config := m.providerBlock() + twinConfig("a")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					m.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
						Status: http.StatusBadGateway, Count: 1})
				},
				Config: config,
				Check: resource.ComposeTestCheckFunc(
					m.checkStateMatchesMock(1),
					func(s *terraform.State) error {
						if other == "" || stateID(s, "a") != other {
							return fmt.Errorf("state holds %q, want the look-alike %q", stateID(s, "a"), other)
						}
						if c := m.Count(http.MethodPost, mockserver.RouteSubscriptions); c != 1 {
							return fmt.Errorf("%d create requests, want 1", c)
						}
						return nil
					},
				),
			},
		},
	})
}
