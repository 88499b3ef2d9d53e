package provider

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// Updates whose answer does not tell their outcome, read back (client: update_settle.go;
// reports: update_outcomes.go). The actions' case is TestSubscriptionsAction_lostAnswers.

// TestAccStateTruth_truncatedUpdateAnswer answers the subscription's update with a 200 whose body
// is cut short, after the service applied it: the apply reads the subscription back with one
// GET and succeeds, state holds the new level, the mock holds what state holds, and the next
// plan is empty. It used to fail the apply with "could not decode response" and keep the old
// level in state.
func TestAccStateTruth_truncatedUpdateAnswer(t *testing.T) {
	m := newTestMock(t)
	level := func(l string) string {
		return m.providerBlock() + subscriptionConfig(`event_name = "ATOM.STATUS"`, `destination_type = "EVENT_STREAMS"`,
			fmt.Sprintf("log_level = %q", l), `event_streams_topic = "alerts"`)
	}
	var puts, reads int
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			// Created with INFO.
			{Config: level("INFO"), Check: m.checkStateMatchesMock(1)},
			// Updated to ERROR; the 200 is cut after 40 bytes.
			{
				PreConfig: func() {
					puts, reads = m.Count(http.MethodPut, mockserver.RouteSubscription), m.Count(http.MethodGet, mockserver.RouteSubscription)
					m.InjectFault(mockserver.Fault{Method: http.MethodPut, Route: mockserver.RouteSubscription, Truncate: 40, Count: 1})
				},
				Config: level("ERROR"),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr("eventnotify_subscription.test", "log_level", "ERROR"),
					m.checkStateMatchesMock(1),
					func(*terraform.State) error {
						if s := m.onlySubscription(t); s.LogLevel != "ERROR" {
							return fmt.Errorf("the mock holds log level %s, want ERROR", s.LogLevel)
						}
						// One PUT, and one GET to read it back (the refresh reads from the listing).
						if n := m.Count(http.MethodPut, mockserver.RouteSubscription) - puts; n != 1 {
							return fmt.Errorf("%d updates sent, want 1", n)
						}
						if n := m.Count(http.MethodGet, mockserver.RouteSubscription) - reads; n != 1 {
							return fmt.Errorf("%d single reads, want 1: the read-back of the cut answer", n)
						}
						return nil
					},
				),
			},
			// The next plan is empty.
			{Config: level("ERROR"), PlanOnly: true},
		},
	})
}

// TestAccAccountSubscriptions_lostUpdateAnswers changes the level of all 5 entries of the
// account resource while every bulk update's answer is lost after the service applied it:
// the 5 are read back with one listing of the account (not 5 reads), the apply succeeds, and
// state holds what the service holds. Then a 500 before any work: the apply fails with one
// error naming the 5 (not one per entry), and state keeps their old level, which the next
// apply writes.
func TestAccAccountSubscriptions_lostUpdateAnswers(t *testing.T) {
	m := newTestMock(t)
	config := func(entries ...acctEntry) string { return m.providerBlock() + acctConfig(entries...) }
	all := []int{0, 1, 2, 3, 4}
	warningLevels := func(entries []acctEntry) []acctEntry {
		for i := range entries {
			entries[i].level = "WARNING"
		}
		return entries
	}
	var lists, reads int
	counts := func() { lists, reads = m.listRequests(), m.Count(http.MethodGet, mockserver.RouteSubscription) }
	var removeFault func()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			// Five entries at INFO.
			{Config: config(levelEntries(5)...), Check: m.checkAcctStateMatchesMock(5)},
			// All five to ERROR, every bulk update's answer dropped after the work.
			{
				PreConfig: func() {
					counts()
					removeFault = m.InjectFault(mockserver.Fault{Method: http.MethodPatch, Route: mockserver.RouteSubscriptions,
						Drop: true, AfterWork: true})
				},
				Config: config(levelEntries(5, all...)...),
				Check: resource.ComposeTestCheckFunc(
					m.checkAcctStateMatchesMock(5),
					m.checkLevels("k0", "k1", "k2", "k3", "k4"),
					func(*terraform.State) error {
						removeFault()
						if m.lostAnswers(http.MethodPatch) == 0 {
							return fmt.Errorf("no bulk update answer was lost: the fault did not fire")
						}
						// The plan's refresh lists once, the apply's update once more (it converges from
						// what the service holds, not from the plan's state), and the read-back once.
						if n := m.listRequests() - lists; n != 3 {
							return fmt.Errorf("%d listing requests, want 3 (the plan's, the update's, the read-back)", n)
						}
						if n := m.Count(http.MethodGet, mockserver.RouteSubscription) - reads; n != 0 {
							return fmt.Errorf("%d single reads, want none", n)
						}
						return nil
					},
				),
			},
			{Config: config(levelEntries(5, all...)...), PlanOnly: true},
			// All five to WARNING, the bulk update answered 500 before any work: one error.
			{
				PreConfig: func() {
					removeFault = m.InjectFault(mockserver.Fault{Method: http.MethodPatch, Route: mockserver.RouteSubscriptions,
						Status: http.StatusInternalServerError, Count: 1})
				},
				Config: config(warningLevels(levelEntries(5))...),
				ExpectError: regexp.MustCompile(`(?s)Unable to update 5 of 5 subscriptions of account ` + testAccount +
					`: not updated.*HTTP 500 Internal Server Error.*Read back \(one listing of the account\), they hold settings\s+other than`),
			},
			// State kept the old level (ERROR), which the mock holds; the apply writes WARNING.
			{
				PreConfig: func() { removeFault() },
				Config:    config(warningLevels(levelEntries(5))...),
				Check: resource.ComposeTestCheckFunc(m.checkAcctStateMatchesMock(5), func(*terraform.State) error {
					for _, s := range m.Subscriptions(testAccount) {
						if s.LogLevel != "WARNING" {
							return fmt.Errorf("subscription %s has log level %s, want WARNING", s.SubscriptionID, s.LogLevel)
						}
					}
					return nil
				}),
			},
		},
	})
}

// TestClientWriter_updatesReadBack calls the account and topic resources' writer with 30 level
// changes whose bulk update's answer does not tell the outcome: what the read-back finds applied
// takes the planned values, the rest keeps the held ones, and what it did not find applied is one
// error, with counts, never one per entry.
func TestClientWriter_updatesReadBack(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		faults  []mockserver.Fault
		landed  bool
		summary string // of the one error; "" = none
	}{
		{name: "lost after the work", faults: []mockserver.Fault{{Method: http.MethodPatch, Route: mockserver.RouteSubscriptions,
			Drop: true, AfterWork: true}}, landed: true},
		{name: "500 before the work", faults: []mockserver.Fault{{Method: http.MethodPatch, Route: mockserver.RouteSubscriptions,
			Status: http.StatusInternalServerError}}, summary: "Unable to update 30 of 30 subscriptions of account " + testAccount + ": not updated"},
		{name: "lost after the work, and the listing fails", faults: []mockserver.Fault{
			{Method: http.MethodPatch, Route: mockserver.RouteSubscriptions, Drop: true, AfterWork: true},
			{Method: http.MethodGet, Route: mockserver.RouteSubscriptions, Status: http.StatusInternalServerError}},
			landed: true, summary: "Unable to update 30 of 30 subscriptions of account " + testAccount + ": the outcome is unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := newTestMock(t)
			for i := range 30 {
				m.PutSubscription(testAccount, mockserver.Subscription{EventName: fmt.Sprintf("EVENT.%02d", i),
					DestinationType: "EVENT_STREAMS", LogLevel: "INFO", EventStreamsTopic: "t", Enabled: true})
			}
			c, err := client.New(client.Config{Config: httpapi.Config{BaseURL: m.URL, AuthURL: m.URL, AccountID: testAccount,
				Username: testUser, Password: testPassword, UserAgent: "test"}})
			if err != nil {
				t.Fatal(err)
			}
			listed, err := c.AccountSubscriptions(t.Context(), testAccount)
			if err != nil {
				t.Fatal(err)
			}
			held := map[string]accountEntry{}
			var ups []update
			for i := range listed {
				key := listed[i].EventName
				held[key] = accountEntryFromAPI(&listed[i])
				planned := held[key]
				planned.LogLevel = types.StringValue("ERROR")
				ups = append(ups, update{key: key, heldKey: key, planned: planned})
			}
			for _, f := range tt.faults {
				m.InjectFault(f)
			}
			var diags diag.Diagnostics
			out := clientWriter{c: c}.updateEntries(t.Context(), testAccount, held, ups, &diags)
			var summaries []string
			for _, d := range diags {
				summaries = append(summaries, d.Summary())
			}
			if tt.summary == "" && len(diags) > 0 || tt.summary != "" && (len(diags) != 1 || !strings.Contains(summaries[0], tt.summary)) {
				t.Errorf("diagnostics %q, want %q alone", summaries, tt.summary)
			}
			want := "INFO" // the held level when the update was not found applied
			if tt.summary == "" {
				want = "ERROR"
			}
			for _, u := range out {
				if got := u.planned.LogLevel.ValueString(); got != want {
					t.Errorf("entry %s: level %s afterwards, want %s", u.key, got, want)
				}
			}
			if len(out) != len(ups) {
				t.Errorf("%d entries afterwards, want %d", len(out), len(ups))
			}
			for _, s := range m.Subscriptions(testAccount) {
				if (s.LogLevel == "ERROR") != tt.landed {
					t.Errorf("the mock holds %s at %s, want the update landed: %v", s.SubscriptionID, s.LogLevel, tt.landed)
				}
			}
		})
	}
}
