package provider

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// The timeouts block of both subscription resources (operation_timeouts.go): each operation
// ends at its deadline, a sent create is never forgotten, and the block itself never reaches
// the service nor shows in a plan that changes nothing.

const subscriptionAddr = "eventnotify_subscription.test"

// timedSubscription renders the test subscription with a timeouts block of the given lines
// (none: no block).
func timedSubscription(timeouts ...string) string {
	args := []string{`event_name = "ATOM.STATUS"`, `destination_type = "EVENT_STREAMS"`, `log_level = "ERROR"`,
		`event_streams_topic = "alerts"`}
	if len(timeouts) > 0 {
		args = append(args, "timeouts {\n    "+strings.Join(timeouts, "\n    ")+"\n  }")
	}
	return subscriptionConfig(args...)
}

// timedAccount renders the account resource with one entry and a timeouts block of the given
// lines (none: no block).
func timedAccount(timeouts ...string) string {
	config := acctConfig(acctEntry{key: "alerts", event: "ATOM.STATUS", level: "ERROR", topic: "alerts"})
	if len(timeouts) == 0 {
		return config
	}
	block := "  timeouts {\n"
	for _, line := range timeouts {
		block += "    " + line + "\n"
	}
	return config[:len(config)-2] + block + "  }\n}\n"
}

// TestAccTimeouts_createSettlingEndsAtDeadline sends a create whose answer is lost and whose
// work lands only much later (after the apply): the settling of the lost answer would read
// the account for 15 seconds and then create the subscription again. timeouts.create = "5s"
// ends it at the deadline instead, on each resource: one create request, no second one, and
// the apply fails with the lost answer's error (what may exist, and how it is found) and the
// timeout's (the operation, the time limit, the value to raise). State and the mock agree:
// neither holds it.
func TestAccTimeouts_createSettlingEndsAtDeadline(t *testing.T) {
	for name, tc := range map[string]struct {
		config string
		want   []string
	}{
		// The error's phrases in order.
		"subscription": {timedSubscription(`create = "5s"`), []string{"Unable to create subscription: timed out after 5s",
			"The create of eventnotify_subscription did not finish within 5s", "timeouts.create", `create = "10s"`,
			"lost or unreadable", "terraform import", "eventnotify_subscription.<name>"}},
		// The account resource's next refresh reads what the request may have created into the map;
		// the timeout leads.
		"account": {timedAccount(`create = "5s"`), []string{"The create of eventnotify_account_subscriptions timed out after 5s",
			"The create of eventnotify_account_subscriptions did not finish within 5s", "timeouts.create", `create = "10s"`,
			"lost or unreadable", "Nothing is lost track of"}},
	} {
		t.Run(name, func(t *testing.T) {
			m := newTestMock(t)
			m.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
				Status: http.StatusGatewayTimeout, Count: 1, Later: 1000})
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				CheckDestroy:             m.checkMockEmpty(),
				Steps: []resource.TestStep{{
					Config:      m.providerBlock() + tc.config,
					ExpectError: errorPattern(tc.want...),
				}},
			})
			if n := m.Count(http.MethodPost, mockserver.RouteSubscriptions); n != 1 {
				t.Errorf("%d create requests, want 1: the deadline ends the settling before anything is created again", n)
			}
			if n := len(m.Subscriptions(testAccount)); n != 0 {
				t.Errorf("the mock holds %d subscriptions, state none", n)
			}
		})
	}
}

// TestAccTimeouts_sentCreateIsKept: a create that was sent before the deadline reaches state,
// whether its answer arrives after the deadline (the mock answers in 3 seconds, the create
// may take 1) or is lost after the work (the settling's first read finds it): state and the
// mock hold the same one subscription, and the next plan is empty.
func TestAccTimeouts_sentCreateIsKept(t *testing.T) {
	for name, tc := range map[string]struct {
		latency time.Duration
		fault   *mockserver.Fault
		timeout string
	}{
		"answer after the deadline": {latency: 3 * time.Second, timeout: "1s"},
		"answer lost after the work": {timeout: "5s", fault: &mockserver.Fault{Method: http.MethodPost,
			Route: mockserver.RouteSubscriptions, Status: http.StatusGatewayTimeout, Count: 1, AfterWork: true}},
	} {
		t.Run(name, func(t *testing.T) {
			m := newTestMock(t)
			if tc.fault != nil {
				m.InjectFault(*tc.fault)
			}
			config := m.providerBlock() + timedSubscription(fmt.Sprintf("create = %q", tc.timeout))
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				CheckDestroy:             m.checkMockEmpty(),
				Steps: []resource.TestStep{
					{
						PreConfig: func() { m.SetLatency(tc.latency) },
						Config:    config,
						Check: resource.ComposeTestCheckFunc(m.checkStateMatchesMock(1), func(*terraform.State) error {
							m.SetLatency(0)
							if n := m.Count(http.MethodPost, mockserver.RouteSubscriptions); n != 1 {
								return fmt.Errorf("%d create requests, want 1", n)
							}
							return nil
						}),
					},
					{Config: config, PlanOnly: true},
				},
			})
		})
	}
}

// TestAccTimeouts_readBounded makes the mock slower (3 seconds an answer) than the read
// timeout (1 second) of each resource: the refresh fails, naming the read, its time limit and
// timeouts.read; with the mock fast again, the plan is empty. The account resource's refresh
// goes through the protocol fast path (accountProtocol), which takes the same timeout; its
// error leads with the timeout, and the listing's error that follows points to it instead of
// advising request_timeout.
func TestAccTimeouts_readBounded(t *testing.T) {
	for name, tc := range map[string]struct {
		config, want string
		then         []string // phrases after the timeout's advice, in order
	}{
		"subscription": {config: timedSubscription(`read = "1s"`), want: "Unable to read subscription"},
		"account": {config: timedAccount(`read = "1s"`), want: "The read of eventnotify_account_subscriptions timed out after 1s",
			then: []string{"Unable to list the subscriptions of account", "The operation timed out",
				"The read's timeout (timeouts.read, the first error) ended this request."}},
	} {
		t.Run(name, func(t *testing.T) {
			m := newTestMock(t)
			config := m.providerBlock() + tc.config
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				CheckDestroy:             m.checkMockEmpty(),
				Steps: []resource.TestStep{
					{Config: config},
					{
						PreConfig: func() { m.SetLatency(3 * time.Second) },
						Config:    config, PlanOnly: true,
						ExpectError: errorPattern(append([]string{tc.want, "did not finish within 1s", "timeouts.read", `read = "2s"`}, tc.then...)...),
					},
					{PreConfig: func() { m.SetLatency(0) }, Config: config, PlanOnly: true},
				},
			})
		})
	}
}

// TestAccTimeouts_invalidDuration: a timeouts value that is not a duration, or is not
// positive, fails at plan time, before any request to the service, on both resources.
func TestAccTimeouts_invalidDuration(t *testing.T) {
	m := newTestMock(t)
	var steps []resource.TestStep
	for _, render := range []func(...string) string{timedSubscription, timedAccount} {
		for value, want := range map[string]string{
			"soon": "Invalid Attribute Value Time Duration",
			"0s":   "must be a positive duration",
			"-5m":  "must be a positive duration",
		} {
			steps = append(steps, resource.TestStep{
				Config:   m.providerBlock() + render(fmt.Sprintf("update = %q", value)),
				PlanOnly: true, ExpectError: errorPattern(want),
			})
		}
	}
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: testProviderFactories, Steps: steps})
	m.noWrites(t)
}

// TestAccTimeouts_changeAndImport adds a timeouts block to each existing resource: the plan
// is an update that sends nothing to the service and keeps every value of the state (the
// subscription's last_updated_date too), after which the plan is empty; changing the block
// does the same.
func TestAccTimeouts_change(t *testing.T) {
	for name, tc := range map[string]struct {
		addr   string
		render func(...string) string
	}{
		"subscription": {subscriptionAddr, timedSubscription},
		"account":      {acctAddr, timedAccount},
	} {
		t.Run(name, func(t *testing.T) {
			m := newTestMock(t)
			var before writeCounts
			var lastUpdated string
			mark := func() { before = m.writes() }
			noWrites := func(s *terraform.State) error {
				if w := m.writes(); w != before {
					return fmt.Errorf("changing the timeouts block made %s, before %s: want no request", w, before)
				}
				if tc.addr == subscriptionAddr {
					got := s.RootModule().Resources[subscriptionAddr].Primary.Attributes["last_updated_date"]
					if lastUpdated == "" {
						lastUpdated = got
					} else if got != lastUpdated {
						return fmt.Errorf("last_updated_date went from %s to %s", lastUpdated, got)
					}
				}
				return m.checkMockHolds(testAccount, 1)(s)
			}
			update := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(tc.addr, plancheck.ResourceActionUpdate)}}
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				CheckDestroy:             m.checkMockEmpty(),
				Steps: []resource.TestStep{
					{Config: m.providerBlock() + tc.render(), Check: func(s *terraform.State) error {
						mark()
						return noWrites(s)
					}},
					{
						Config:           m.providerBlock() + tc.render(`create = "30m"`, `read = "2m"`),
						ConfigPlanChecks: update,
						ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(tc.addr,
							tfjsonpath.New("timeouts").AtMapKey("create"), knownvalue.StringExact("30m"))},
						Check: noWrites,
					},
					{
						Config:           m.providerBlock() + tc.render(`read = "3m"`),
						ConfigPlanChecks: update,
						ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(tc.addr,
							tfjsonpath.New("timeouts").AtMapKey("create"), knownvalue.Null())},
						Check: noWrites,
					},
				},
			})
		})
	}
}

// TestAccTimeouts_importPlansClean imports each resource with an import block whose
// configuration has no timeouts block: the import plans no change (the imported state's
// block is null); the account resource's configuration is keyed by subscription id, as its
// import keys it.
func TestAccTimeouts_importPlansClean(t *testing.T) {
	const id = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
	for name, tc := range map[string]struct{ addr, config, importID string }{
		"subscription": {subscriptionAddr, timedSubscription(), ""},
		"account": {acctAddr, acctConfig(acctEntry{key: id, event: "ATOM.STATUS", level: "ERROR", topic: "alerts"}),
			testAccount},
	} {
		t.Run(name, func(t *testing.T) {
			m := newTestMock(t)
			m.PutSubscription(testAccount, mockserver.Subscription{SubscriptionID: id, EventName: "ATOM.STATUS",
				DestinationType: "EVENT_STREAMS", LogLevel: "ERROR", EventStreamsTopic: "alerts", Enabled: true})
			var before writeCounts
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				Steps: []resource.TestStep{
					{Config: m.providerBlock() + tc.config, Check: func(*terraform.State) error {
						before = m.writes()
						return nil
					}},
					{Config: m.providerBlock() + tc.config, ResourceName: tc.addr, ImportState: true,
						ImportStateKind: resource.ImportBlockWithID, ImportStateId: tc.importID},
				},
			})
			// The destroy at the end deletes; the import writes nothing.
			if w := m.writes(); w.post != before.post || w.put != before.put || w.patch != before.patch {
				t.Errorf("the import and destroy made %s (before them %s), want no create or update", w, before)
			}
		})
	}
}

// TestAccTimeouts_examples applies the timeouts examples of the resource pages: each applies,
// plans empty a second time with its timeouts block, and destroys what it created.
func TestAccTimeouts_examples(t *testing.T) {
	for _, example := range []string{"eventnotify_subscription", "eventnotify_account_subscriptions"} {
		t.Run(example, func(t *testing.T) {
			t.Parallel()
			m := newTestMock(t)
			w := newCLIWorkspace(t, m)
			w.copyFile("../../examples/resources/"+example+"/timeouts.tf", "main.tf")
			w.applyPlanDestroy(nil, func() {
				if n := len(m.Subscriptions(testAccount)); n != 1 {
					t.Errorf("the example made %d subscriptions, want 1", n)
				}
			})
			if n := len(m.Subscriptions(testAccount)); n != 0 {
				t.Errorf("after destroy the mock holds %d subscriptions", n)
			}
		})
	}
}

// TestStartOperation checks which timeout an operation takes (the block's value, else the
// default) and how its error names it.
func TestStartOperation(t *testing.T) {
	ctx := t.Context()
	block := func(attrs map[string]string) timeouts.Value {
		values := map[string]attr.Value{}
		for name := range timeoutsAttrTypes() {
			values[name] = types.StringNull()
			if v, ok := attrs[name]; ok {
				values[name] = types.StringValue(v)
			}
		}
		return timeouts.Value{Object: types.ObjectValueMust(timeoutsAttrTypes(), values)}
	}
	for _, tc := range []struct {
		name       string
		value      timeouts.Value
		op         string
		want       string // the timeout as the error renders it
		configured bool
	}{
		{name: "no block: the default", value: nullTimeouts(), op: "create", want: "20m"},
		{name: "no block, read", value: nullTimeouts(), op: "read", want: "15m"},
		{name: "the block without this operation", value: block(map[string]string{"create": "1h"}), op: "delete", want: "20m"},
		{name: "the block's value", value: block(map[string]string{"create": "1h"}), op: "create", want: "1h", configured: true},
		{name: "seconds and minutes", value: block(map[string]string{"update": "90s"}), op: "update", want: "1m30s", configured: true},
		{name: "the default, written out", value: block(map[string]string{"read": "15m"}), op: "read", want: "15m", configured: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			op, cancel, diags := subscriptionTimeouts.startOperation(ctx, tc.value, "eventnotify_subscription", tc.op)
			defer cancel()
			if diags.HasError() {
				t.Fatal(diags)
			}
			if got := durationText(op.timeout); got != tc.want || op.configured != tc.configured {
				t.Fatalf("timeout %s (configured %t), want %s (%t)", got, op.configured, tc.want, tc.configured)
			}
			if _, ok := op.ctx.Deadline(); !ok || op.timedOut() {
				t.Fatal("the operation's context has no deadline, or has timed out already")
			}
			text := op.timeoutText()
			for _, want := range []string{"The " + tc.op + " of eventnotify_subscription did not finish within " + tc.want,
				"timeouts." + tc.op, tc.op + " = "} {
				if !strings.Contains(text, want) {
					t.Errorf("the timeout's text lacks %q:\n%s", want, text)
				}
			}
		})
	}
}

// TestCheckTimeout: an operation that its timeout ended reports the timeout first, then the
// calls' errors, none of which advises request_timeout (a call the deadline ended points to
// the timeout instead; any other keeps its detail); an operation that did not time out keeps
// its diagnostics as they are.
func TestCheckTimeout(t *testing.T) {
	deadline := fmt.Errorf("list subscriptions: %w", context.DeadlineExceeded)
	rejected := &httpapi.APIError{Operation: "bulk update subscriptions", StatusCode: http.StatusBadRequest,
		Messages: []string{"log_level is invalid"}}
	calls := func() diag.Diagnostics {
		var diags diag.Diagnostics
		addClientError(&diags, "Unable to list the subscriptions of account acc-test", deadline)
		diags.AddAttributeError(path.Root("subscriptions"), "Unable to read subscription s-1", clientErrorDetail(deadline))
		addClientError(&diags, "Unable to update subscription s-2", rejected)
		diags.AddWarning("Subscription adopted", "a warning")
		return diags
	}
	for _, tc := range []struct {
		name     string
		timedOut bool
	}{
		{"timed out", true},
		{"not timed out", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeoutCause(t.Context(), time.Hour, errOperationTimeout)
			if tc.timedOut {
				// A deadline already passed: the context ends at once, with the operation's cause.
				ctx, cancel = context.WithTimeoutCause(t.Context(), -time.Second, errOperationTimeout)
			}
			defer cancel()
			op := &boundOperation{ctx: ctx, resource: accountResourceTypeName, op: "update", timeout: 5 * time.Second, configured: true}
			diags := calls()
			op.checkTimeout(&diags)
			if !tc.timedOut {
				if !diags.Equal(calls()) {
					t.Fatalf("the diagnostics changed:\n%v", diags)
				}
				return
			}
			if len(diags) != 5 {
				t.Fatalf("%d diagnostics, want the timeout's and the 4 others:\n%v", len(diags), diags)
			}
			if got, want := diags[0].Summary(), "The update of eventnotify_account_subscriptions timed out after 5s"; got != want {
				t.Errorf("the first diagnostic is %q, want %q", got, want)
			}
			for i, d := range diags {
				if strings.Contains(d.Detail(), "request_timeout") {
					t.Errorf("diagnostic %d (%s) advises request_timeout:\n%s", i, d.Summary(), d.Detail())
				}
			}
			for _, i := range []int{1, 2} {
				if want := "The update's timeout (timeouts.update, the first error) ended this request."; !strings.HasSuffix(diags[i].Detail(), want) {
					t.Errorf("diagnostic %d (%s) does not end with %q:\n%s", i, diags[i].Summary(), want, diags[i].Detail())
				}
			}
			if p, ok := diags[2].(diag.DiagnosticWithPath); !ok || !p.Path().Equal(path.Root("subscriptions")) {
				t.Errorf("the attribute error lost its path: %#v", diags[2])
			}
			if !diags[3].Equal(calls()[2]) || !diags[4].Equal(calls()[3]) {
				t.Errorf("the 400's error or the warning changed:\n%v\n%v", diags[3], diags[4])
			}
		})
	}
}
