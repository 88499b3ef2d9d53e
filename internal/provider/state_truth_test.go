package provider

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// State-truth tests: state never disagrees with the service when answers are
// lost after the service acted, when an address that is not the service
// answers 404, or when an address redirects.

// gateway starts a server that answers every request the way an API gateway
// answers a path it does not serve, and counts the requests.
func gateway(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"message":"Not Found"}`))
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// TestAccStateTruth_foreignNotFound points base_url, then auth_url, at a
// gateway that answers 404 {"message":"Not Found"}: plan and apply fail with
// an error that names the address and the argument to check, nothing leaves
// state, and the service is untouched (the plan with the right address is
// empty afterwards).
func TestAccStateTruth_foreignNotFound(t *testing.T) {
	tests := []struct {
		name     string
		argument string
	}{
		{"base_url", "base_url"},
		{"auth_url", "auth_url"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			gw, hits := gateway(t)
			p := m.providerConfig()
			if tc.argument == "base_url" {
				p.baseURL = gw.URL
			} else {
				p.authURL = gw.URL
			}
			wrong := p.String()
			changed := strings.Replace(manyConfig(3), `"ERROR"`, `"INFO"`, 1)
			expect := errorPattern("The address "+gw.URL, "HTTP 404", "not the service's own answer", tc.argument)
			var before []mockserver.Subscription
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				CheckDestroy:             m.checkMockEmpty(),
				Steps: []resource.TestStep{
					{
						Config: m.providerBlock() + manyConfig(3),
						Check: func(*terraform.State) error {
							before = m.Subscriptions(testAccount)
							return nil
						},
					},
					{Config: wrong + manyConfig(3), PlanOnly: true, ExpectError: expect},
					{Config: wrong + changed, ExpectError: expect},
					{
						Config: m.providerBlock() + manyConfig(3),
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
						Check: resource.ComposeTestCheckFunc(
							m.checkStateMatchesMock(3),
							func(*terraform.State) error {
								if hits.Load() == 0 {
									return fmt.Errorf("the gateway was never asked")
								}
								return sameSubscriptions(before, m.Subscriptions(testAccount))
							},
						),
					},
				},
			})
		})
	}
}

// sameSubscriptions fails unless the service holds exactly what it held.
func sameSubscriptions(before, after []mockserver.Subscription) error {
	if len(before) != len(after) {
		return fmt.Errorf("the service held %d subscriptions and holds %d", len(before), len(after))
	}
	for i := range before {
		if before[i] != after[i] {
			return fmt.Errorf("subscription %s changed: %+v, then %+v", before[i].SubscriptionID, before[i], after[i])
		}
	}
	return nil
}

// TestAccStateTruth_redirect points base_url at an address that redirects
// every request (an http address moved elsewhere): update and destroy fail
// with an error that names the Location, nothing on the service changes, the
// redirect's target never receives a request (nor the bearer token), and
// state still matches the service.
func TestAccStateTruth_redirect(t *testing.T) {
	m := newTestMock(t)
	var targetHits atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		targetHits.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(target.Close)
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+r.URL.Path, http.StatusMovedPermanently)
	}))
	t.Cleanup(redirector.Close)
	p := m.providerConfig()
	p.baseURL = redirector.URL
	moved := p.String()
	changed := strings.Replace(manyConfig(3), `"ERROR"`, `"INFO"`, 1)
	expect := errorPattern("HTTP 301", "redirects to "+target.URL+"/rest/v1/accounts/"+testAccount, "Set base_url")
	var before []mockserver.Subscription
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{
				Config: m.providerBlock() + manyConfig(3),
				Check: func(*terraform.State) error {
					before = m.Subscriptions(testAccount)
					return nil
				},
			},
			{Config: moved + changed, ExpectError: expect},
			{Config: moved + manyConfig(3), Destroy: true, ExpectError: expect},
			{
				Config: m.providerBlock() + manyConfig(3),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(
					m.checkStateMatchesMock(3),
					func(*terraform.State) error {
						if n := targetHits.Load(); n != 0 {
							return fmt.Errorf("the redirect's target received %d requests", n)
						}
						return sameSubscriptions(before, m.Subscriptions(testAccount))
					},
				),
			},
		},
	})
}

// TestAccStateTruth_jwtAloneNeedsNoAuthURL: a provider with only a pre-issued
// JWT (no user name, password or auth_url) reads and writes.
func TestAccStateTruth_jwtAloneNeedsNoAuthURL(t *testing.T) {
	m := newTestMock(t)
	config := fmt.Sprintf(`
provider "eventnotify" {
  account_id              = %q
  base_url                = %q
  jwt                     = %q
  max_requests_per_second = 0
}
`, testAccount, m.URL, m.IssueJWT(testAccount, testUser, time.Now().Add(time.Hour))) + manyConfig(1)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{{
			Config: config,
			Check:  m.checkStateMatchesMock(1),
		}},
	})
	if n := m.JWTFetches(); n != 0 {
		t.Errorf("%d JWTs were generated with a pre-issued JWT configured", n)
	}
}

// TestAccStateTruth_destinationEmailPlan: destination_email keeps its prior
// value in the plan while destination_type is unchanged, and is unknown when
// destination_type changes.
func TestAccStateTruth_destinationEmailPlan(t *testing.T) {
	m := newTestMock(t)
	config := func(destination, level string) string {
		return m.providerBlock() + fmt.Sprintf(`
resource "eventnotify_subscription" "test" {
  event_name       = "ATOM.STATUS"
  destination_type = %q
  log_level        = %q
}
`, destination, level)
	}
	const address = "eventnotify_subscription.test"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{Config: config("EVENT_STREAMS", "ERROR")},
			{
				Config: config("EVENT_STREAMS", "INFO"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(address, tfjsonpath.New("destination_email"), knownvalue.Null()),
				}},
			},
			{
				Config: config("EMAIL", "INFO"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(address, tfjsonpath.New("destination_email")),
				}},
			},
		},
	})
}
