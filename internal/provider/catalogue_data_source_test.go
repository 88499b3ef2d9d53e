package provider

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

const catalogueConfig = `
data "eventnotify_events" "all" {}
data "eventnotify_log_levels" "all" {}
data "eventnotify_destination_types" "all" {}
`

// catalogueChecks asserts the names and records the three data sources read
// from the mock's catalogues.
func catalogueChecks(events, levels, types []mockserver.CatalogueEntry) []statecheck.StateCheck {
	var checks []statecheck.StateCheck
	for _, c := range []struct {
		address, attr string
		entries       []mockserver.CatalogueEntry
	}{
		{"data.eventnotify_events.all", "events", events},
		{"data.eventnotify_log_levels.all", "log_levels", levels},
		{"data.eventnotify_destination_types.all", "destination_types", types},
	} {
		names := make([]knownvalue.Check, len(c.entries))
		records := make([]knownvalue.Check, len(c.entries))
		for i, e := range c.entries {
			names[i] = knownvalue.StringExact(e.Name)
			records[i] = knownvalue.ObjectExact(map[string]knownvalue.Check{
				"name":        knownvalue.StringExact(e.Name),
				"description": knownvalue.StringExact(e.Description),
			})
		}
		checks = append(checks,
			statecheck.ExpectKnownValue(c.address, tfjsonpath.New("names"), knownvalue.ListExact(names)),
			statecheck.ExpectKnownValue(c.address, tfjsonpath.New(c.attr), knownvalue.ListExact(records)),
		)
	}
	return checks
}

var (
	testEvents = []mockserver.CatalogueEntry{
		{Name: "ATOM.STATUS", Description: "Runtime status changed"},
		{Name: "PROCESS.EXECUTION", Description: "A process finished"},
	}
	testLevels = []mockserver.CatalogueEntry{
		{Name: "INFO", Description: "Everything"},
		{Name: "WARNING", Description: "Warnings and errors"},
		{Name: "ERROR", Description: "Errors only"},
	}
	testDestinationTypes = []mockserver.CatalogueEntry{
		{Name: "EVENT_STREAMS", Description: "An event streams topic"},
		{Name: "EMAIL", Description: "An email address"},
	}
)

// TestAccCatalogues_authModes reads the catalogues with every way of
// authenticating.
func TestAccCatalogues_authModes(t *testing.T) {
	cases := []struct {
		name        string
		credentials func(m *testMock) string
		jwtFetches  func(n int) bool
	}{
		{
			name:        "password",
			credentials: func(*testMock) string { return fmt.Sprintf("username = %q\n  password = %q", testUser, testPassword) },
			jwtFetches:  func(n int) bool { return n > 0 },
		},
		{
			name: "api token",
			credentials: func(*testMock) string {
				return fmt.Sprintf("username = %q\n  api_token = %q", testTokenUser, testAPIToken)
			},
			jwtFetches: func(n int) bool { return n > 0 },
		},
		{
			name: "otp",
			credentials: func(*testMock) string {
				return fmt.Sprintf("username = %q\n  password = %q\n  otp = %q", testOTPUser, testOTPPassword, testOTP)
			},
			jwtFetches: func(n int) bool { return n > 0 },
		},
		{
			name: "pre-issued jwt",
			credentials: func(m *testMock) string {
				return fmt.Sprintf("jwt = %q", m.IssueJWT(testAccount, testUser, time.Now().Add(time.Hour)))
			},
			jwtFetches: func(n int) bool { return n == 0 },
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			m.setTestCatalogues()
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				Steps: []resource.TestStep{{
					Config:            m.providerBlockWith(tc.credentials(m)) + catalogueConfig,
					ConfigStateChecks: catalogueChecks(testEvents, testLevels, testDestinationTypes),
					Check: func(*terraform.State) error {
						if n := m.JWTFetches(); !tc.jwtFetches(n) {
							return fmt.Errorf("unexpected number of JWT fetches for %s: %d", tc.name, n)
						}
						return nil
					},
				}},
			})
		})
	}
}

// TestAccCatalogues_shapes reads every catalogue wrapper shape the client is
// documented to accept.
func TestAccCatalogues_shapes(t *testing.T) {
	withoutDescriptions := func(in []mockserver.CatalogueEntry) []mockserver.CatalogueEntry {
		out := make([]mockserver.CatalogueEntry, len(in))
		for i, e := range in {
			out[i] = mockserver.CatalogueEntry{Name: e.Name}
		}
		return out
	}
	cases := []struct {
		name         string
		shape        mockserver.CatalogueShape
		descriptions bool
	}{
		{"wrapped objects", mockserver.CatalogueWrappedObjects, true},
		{"array of objects", mockserver.CatalogueArrayObjects, true},
		{"array of strings", mockserver.CatalogueArrayStrings, false},
		{"wrapped strings", mockserver.CatalogueWrappedStrings, false},
		{"eventName key", mockserver.CatalogueEventNameKey, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			m.setTestCatalogues()
			m.SetCatalogueShape(tc.shape)
			events, levels, types := testEvents, testLevels, testDestinationTypes
			if !tc.descriptions {
				events, levels, types = withoutDescriptions(events), withoutDescriptions(levels), withoutDescriptions(types)
			}
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				Steps: []resource.TestStep{{
					Config:            m.providerBlock() + catalogueConfig,
					ConfigStateChecks: catalogueChecks(events, levels, types),
				}},
			})
		})
	}
}

// TestAccCatalogues_empty shows that an empty catalogue is an empty list.
func TestAccCatalogues_empty(t *testing.T) {
	m := newTestMock(t)
	m.SetEvents(nil)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		Steps: []resource.TestStep{{
			Config: m.providerBlock() + `data "eventnotify_events" "all" {}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.eventnotify_events.all", tfjsonpath.New("names"), knownvalue.ListExact(nil)),
				statecheck.ExpectKnownValue("data.eventnotify_events.all", tfjsonpath.New("events"), knownvalue.ListExact(nil)),
			},
		}},
	})
}

// TestAccCatalogues_serviceErrors shows the diagnostics of failed reads.
func TestAccCatalogues_serviceErrors(t *testing.T) {
	cases := []struct {
		name   string
		setup  func(m *testMock) string
		expect *regexp.Regexp
	}{
		{
			name: "wrong password",
			setup: func(m *testMock) string {
				return m.providerBlockWith(fmt.Sprintf("username = %q\n  password = %q", testUser, "wrong")) + catalogueConfig
			},
			expect: errorPattern("generate JWT", "HTTP 401", "Check username with password or api_token"),
		},
		{
			name: "otp missing",
			setup: func(m *testMock) string {
				return m.providerBlockWith(fmt.Sprintf("username = %q\n  password = %q", testOTPUser, testOTPPassword)) + catalogueConfig
			},
			expect: errorPattern("HTTP 401", "EVENTNOTIFY_OTP"),
		},
		{
			name: "expired pre-issued jwt",
			setup: func(m *testMock) string {
				return m.providerBlockWith(fmt.Sprintf("jwt = %q", m.IssueJWT(testAccount, testUser, time.Now().Add(-time.Minute)))) + catalogueConfig
			},
			expect: errorPattern("HTTP 401", "EVENTNOTIFY_JWT"),
		},
		{
			name: "no access to the account",
			setup: func(m *testMock) string {
				m.AddUser(mockserver.User{Username: "outsider", Password: "pw", Accounts: []string{"other-account"}})
				return m.providerBlockWith(`username = "outsider"`+"\n  password = \"pw\"") + catalogueConfig
			},
			expect: errorPattern("HTTP 403", "Access Denied", "no access to this account"),
		},
		{
			name: "server error with error id",
			setup: func(m *testMock) string {
				m.InjectFault(mockserver.Fault{Route: mockserver.RouteEvents, Status: 500})
				return m.providerBlock() + catalogueConfig
			},
			expect: regexp.MustCompile(`(?s)list events.*HTTP 500.*Error ID:\s+[0-9a-f-]{36}`),
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				Steps: []resource.TestStep{{
					Config:      tc.setup(m),
					ExpectError: tc.expect,
				}},
			})
		})
	}
}
