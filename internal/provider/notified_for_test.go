package provider

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// TestRoutingNotifiedAt holds the rule at every boundary: each minimum level against each fired
// level, event names differing only in case, disabled subscriptions, and invalid levels.
func TestRoutingNotifiedAt(t *testing.T) {
	t.Parallel()
	// want[minimum][fired]: a subscription hears its own level and every level above it.
	want := map[string]map[string]bool{
		"INFO":    {"INFO": true, "WARNING": true, "ERROR": true},
		"WARNING": {"INFO": false, "WARNING": true, "ERROR": true},
		"ERROR":   {"INFO": false, "WARNING": false, "ERROR": true},
	}
	type tc struct {
		name  string
		sub   routing
		event string
		level string
		want  bool
	}
	var tests []tc
	for _, minimum := range logLevels {
		for _, fired := range logLevels {
			tests = append(tests,
				tc{fmt.Sprintf("min %s fired %s", minimum, fired),
					routing{"PROCESS.EXECUTION", minimum, true}, "PROCESS.EXECUTION", fired, want[minimum][fired]},
				tc{fmt.Sprintf("disabled min %s fired %s", minimum, fired),
					routing{"PROCESS.EXECUTION", minimum, false}, "PROCESS.EXECUTION", fired, false},
				tc{fmt.Sprintf("other event min %s fired %s", minimum, fired),
					routing{"ATOM.STATUS", minimum, true}, "PROCESS.EXECUTION", fired, false},
			)
		}
	}
	tests = append(tests,
		tc{"event case differs", routing{"process.Execution", "INFO", true}, "PROCESS.EXECUTION", "INFO", true},
		tc{"fired event lower case", routing{"PROCESS.EXECUTION", "ERROR", true}, "process.execution", "ERROR", true},
		tc{"event prefix only", routing{"PROCESS.EXECUTION", "INFO", true}, "PROCESS", "ERROR", false},
		tc{"fired level lower case", routing{"PROCESS.EXECUTION", "INFO", true}, "PROCESS.EXECUTION", "error", false},
		tc{"fired level unknown", routing{"PROCESS.EXECUTION", "INFO", true}, "PROCESS.EXECUTION", "DEBUG", false},
		tc{"fired level empty", routing{"PROCESS.EXECUTION", "INFO", true}, "PROCESS.EXECUTION", "", false},
		tc{"minimum level unknown", routing{"PROCESS.EXECUTION", "DEBUG", true}, "PROCESS.EXECUTION", "ERROR", false},
		tc{"minimum level empty", routing{"PROCESS.EXECUTION", "", true}, "PROCESS.EXECUTION", "ERROR", false},
	)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.sub.notifiedAt(tt.event, tt.level); got != tt.want {
				t.Errorf("%+v notifiedAt(%q, %q) = %v, want %v", tt.sub, tt.event, tt.level, got, tt.want)
			}
		})
	}
}

// TestLevelsNotified holds the levels each minimum level hears, and the error for anything else.
func TestLevelsNotified(t *testing.T) {
	t.Parallel()
	tests := []struct {
		minimum string
		want    []string
		wantErr bool
	}{
		{"INFO", []string{"INFO", "WARNING", "ERROR"}, false},
		{"WARNING", []string{"WARNING", "ERROR"}, false},
		{"ERROR", []string{"ERROR"}, false},
		{"warning", nil, true},
		{"DEBUG", nil, true},
		{"", nil, true},
		{" ERROR", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.minimum, func(t *testing.T) {
			t.Parallel()
			got, err := levelsNotified(tt.minimum)
			if (err != nil) != tt.wantErr || !slices.Equal(got, tt.want) {
				t.Fatalf("levelsNotified(%q) = %v, %v; want %v, error %v", tt.minimum, got, err, tt.want, tt.wantErr)
			}
			if err != nil && !strings.Contains(err.Error(), "INFO, WARNING, ERROR") {
				t.Errorf("the error %q does not name the levels", err)
			}
			// The two readings agree: a minimum hears exactly the levels it lists.
			for _, fired := range logLevels {
				hears := routing{"E", tt.minimum, true}.notifiedAt("E", fired)
				if hears != slices.Contains(got, fired) {
					t.Errorf("minimum %q fired %q: notifiedAt %v, levelsNotified %v", tt.minimum, fired, hears, got)
				}
			}
		})
	}
}

// idsExact is a check of a list of ids, in order.
func idsExact(ids ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, len(ids))
	for i, id := range ids {
		checks[i] = knownvalue.StringExact(id)
	}
	return knownvalue.ListExact(checks)
}

// TestAccSubscriptionsDataSource_notifiedFor applies the notified_for filter of the data source
// with the real CLI to the list resource's seed: at, above and below each subscription's
// minimum level, with the event name in another case, a disabled subscription left out, and
// together with another filter; an invalid level fails the plan naming notified_for.log_level.
func TestAccSubscriptionsDataSource_notifiedFor(t *testing.T) {
	m := newTestMock(t)
	seedListSubscriptions(m)
	const (
		disabledInfoAtom = "00000000-0000-4000-8000-000000000001"
		warningAtom      = "00000000-0000-4000-8000-000000000002"
		errorProcess     = "00000000-0000-4000-8000-000000000003"
		infoDeployment   = "00000000-0000-4000-8000-000000000005"
	)
	filter := func(name, event, level, extra string) string {
		return fmt.Sprintf(`
data "eventnotify_subscriptions" %q {
  notified_for = {
    event_name = %q
    log_level  = %q
  }
  %s
}
`, name, event, level, extra)
	}
	config := m.providerBlock() +
		filter("atom_info", "ATOM.STATUS", "INFO", "") +
		filter("atom_warning", "Atom.Status", "WARNING", "") +
		filter("atom_error", "atom.status", "ERROR", "") +
		filter("process_warning", "PROCESS.EXECUTION", "WARNING", "") +
		filter("process_error", "PROCESS.EXECUTION", "ERROR", "") +
		filter("deployment_info", "ATOM.DEPLOYMENT", "INFO", "") +
		filter("deployment_email", "ATOM.DEPLOYMENT", "ERROR", `destination_type = "EMAIL"`) +
		filter("atom_disabled", "ATOM.STATUS", "ERROR", "enabled = false") + `
data "eventnotify_subscriptions" "atom_paused" {
  event_name = "ATOM.STATUS"
  enabled    = false
}
`
	ds := func(name string) string { return "data.eventnotify_subscriptions." + name }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		Steps: []resource.TestStep{
			// First, so that the test's last configuration, which its destroy plans, is a valid one.
			{
				Config:      m.providerBlock() + filter("bad", "ATOM.STATUS", "error", ""),
				ExpectError: errorPattern("notified_for.log_level", "value must be one of"),
			},
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds("atom_info"), tfjsonpath.New("ids"), idsExact()),
					statecheck.ExpectKnownValue(ds("atom_warning"), tfjsonpath.New("ids"), idsExact(warningAtom)),
					statecheck.ExpectKnownValue(ds("atom_error"), tfjsonpath.New("ids"), idsExact(warningAtom)),
					statecheck.ExpectKnownValue(ds("process_warning"), tfjsonpath.New("ids"), idsExact()),
					statecheck.ExpectKnownValue(ds("process_error"), tfjsonpath.New("ids"), idsExact(errorProcess)),
					statecheck.ExpectKnownValue(ds("deployment_info"), tfjsonpath.New("ids"), idsExact(infoDeployment)),
					statecheck.ExpectKnownValue(ds("deployment_email"), tfjsonpath.New("ids"), idsExact()),
					// enabled = false and notified_for together keep nothing: a disabled subscription notifies nobody.
					statecheck.ExpectKnownValue(ds("atom_disabled"), tfjsonpath.New("ids"), idsExact()),
					// ... though the account holds one, at INFO, which every ATOM.STATUS filter above leaves out.
					statecheck.ExpectKnownValue(ds("atom_paused"), tfjsonpath.New("ids"), idsExact(disabledInfoAtom)),
					statecheck.ExpectKnownValue(ds("atom_error"), tfjsonpath.New("notified_for").AtMapKey("event_name"), knownvalue.StringExact("atom.status")),
				},
			},
		},
	})
}

// TestAccSubscriptionsDataSource_notifiedForAgreesWithNotifies: for each event and level, the
// ids the filter keeps are the ids of the unfiltered list for which notifies is true.
func TestAccSubscriptionsDataSource_notifiedForAgreesWithNotifies(t *testing.T) {
	m := newTestMock(t)
	seedListSubscriptions(m)
	config := m.providerBlock() + `
locals {
  cases = [for pair in setproduct(["ATOM.STATUS", "process.execution", "ATOM.DEPLOYMENT", "ENVIRONMENT.ALERT"], ["INFO", "WARNING", "ERROR"]) :
  { event_name = pair[0], log_level = pair[1] }]
}
data "eventnotify_subscriptions" "all" {}
data "eventnotify_subscriptions" "filtered" {
  count        = length(local.cases)
  notified_for = local.cases[count.index]
}
output "disagreements" {
  value = [for i, c in local.cases : "${c.event_name}/${c.log_level}"
    if join(",", data.eventnotify_subscriptions.filtered[i].ids) != join(",", [for s in data.eventnotify_subscriptions.all.subscriptions : s.id
  if provider::eventnotify::notifies(s, c.event_name, c.log_level)])]
}
output "kept" {
  value = sum([for d in data.eventnotify_subscriptions.filtered : length(d.ids)])
}
`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureProviderFunctions)},
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("disagreements", knownvalue.ListExact([]knownvalue.Check{})),
				// ATOM.STATUS: WARNING, ERROR (one each); PROCESS.EXECUTION: ERROR; ATOM.DEPLOYMENT: all three; ENVIRONMENT.ALERT: ERROR.
				statecheck.ExpectKnownOutputValue("kept", knownvalue.Int64Exact(7)),
			},
		}},
	})
}
