package provider

import (
	"testing"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// The acceptance tests of provider::eventnotify::notifies and levels_notified, run by the real
// CLI: with no provider block, with an unconfigured one (Terraform only), and on the objects the
// provider itself hands out. The rule's boundaries are held by notified_for_test.go.

// featureProviderFunctions: provider-defined functions (provider::NAME::FUNCTION).
var featureProviderFunctions = cliFeature{what: "provider-defined functions", terraform: functionsTerraform + ".0", opentofu: functionsOpenTofu + ".0"}

// functionOutputs calls both functions on literal objects; functionOutputChecks holds the answers.
const functionOutputs = `
output "warning_levels" {
  value = provider::eventnotify::levels_notified("WARNING")
}
output "warning_hears_error" {
  value = provider::eventnotify::notifies({ event_name = "process.execution", log_level = "WARNING" }, "PROCESS.EXECUTION", "ERROR")
}
output "warning_misses_info" {
  value = provider::eventnotify::notifies({ event_name = "PROCESS.EXECUTION", log_level = "WARNING" }, "PROCESS.EXECUTION", "INFO")
}
output "disabled_misses_error" {
  value = provider::eventnotify::notifies({ event_name = "PROCESS.EXECUTION", log_level = "INFO", enabled = false }, "PROCESS.EXECUTION", "ERROR")
}
`

// functionOutputChecks are the answers of functionOutputs.
func functionOutputChecks() []statecheck.StateCheck {
	return []statecheck.StateCheck{
		statecheck.ExpectKnownOutputValue("warning_levels", knownvalue.ListExact([]knownvalue.Check{
			knownvalue.StringExact("WARNING"), knownvalue.StringExact("ERROR"),
		})),
		statecheck.ExpectKnownOutputValue("warning_hears_error", knownvalue.Bool(true)),
		statecheck.ExpectKnownOutputValue("warning_misses_info", knownvalue.Bool(false)),
		statecheck.ExpectKnownOutputValue("disabled_misses_error", knownvalue.Bool(false)),
	}
}

// TestAccFunctions_noProviderBlock: the functions answer with no provider block and no
// credentials anywhere (TestMain clears the EVENTNOTIFY_* variables), under Terraform and OpenTofu.
func TestAccFunctions_noProviderBlock(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureProviderFunctions)},
		Steps:                    []resource.TestStep{{Config: functionOutputs, ConfigStateChecks: functionOutputChecks()}},
	})
}

// TestAccFunctions_unconfiguredProviderBlock: under Terraform the functions answer beside a
// provider block that could not configure (no account, no credentials): Terraform calls them on
// an unconfigured provider. OpenTofu configures the provider before it calls a function, so there
// such a block fails with the provider's configuration error, as the functions' docs say; the
// test holds that too, so that a change of OpenTofu's shows here.
func TestAccFunctions_unconfiguredProviderBlock(t *testing.T) {
	step := resource.TestStep{Config: `provider "eventnotify" {}` + "\n" + functionOutputs, ConfigStateChecks: functionOutputChecks()}
	if acceptanceCLI != nil && acceptanceCLI.OpenTofu() {
		step = resource.TestStep{Config: step.Config, ExpectError: errorPattern("Missing credentials")}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureProviderFunctions)},
		Steps:                    []resource.TestStep{step},
	})
}

// TestAccFunctions_onProviderObjects: notifies reads a subscription resource and an element of the
// eventnotify_subscriptions data source as they are; its answer on a planned resource is known
// in the plan.
func TestAccFunctions_onProviderObjects(t *testing.T) {
	m := newTestMock(t)
	m.setTestCatalogues()
	config := m.providerBlock() + `
resource "eventnotify_subscription" "warn" {
  event_name       = "PROCESS.EXECUTION"
  destination_type = "EVENT_STREAMS"
  log_level        = "WARNING"
}
data "eventnotify_subscriptions" "all" {
  depends_on = [eventnotify_subscription.warn]
}
output "resource_hears_error" {
  value = provider::eventnotify::notifies(eventnotify_subscription.warn, "process.execution", "ERROR")
}
output "resource_misses_info" {
  value = provider::eventnotify::notifies(eventnotify_subscription.warn, "PROCESS.EXECUTION", "INFO")
}
output "element_hears_warning" {
  value = provider::eventnotify::notifies(data.eventnotify_subscriptions.all.subscriptions[0], "PROCESS.EXECUTION", "WARNING")
}
output "element_misses_other_event" {
  value = provider::eventnotify::notifies(data.eventnotify_subscriptions.all.subscriptions[0], "ATOM.STATUS", "ERROR")
}
`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureProviderFunctions)},
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{{
			Config: config,
			// Known in the first plan, while the resource's id and dates are not: the function
			// reads only event_name, log_level and enabled.
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownOutputValue("resource_hears_error", knownvalue.Bool(true)),
				plancheck.ExpectKnownOutputValue("resource_misses_info", knownvalue.Bool(false)),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("resource_hears_error", knownvalue.Bool(true)),
				statecheck.ExpectKnownOutputValue("resource_misses_info", knownvalue.Bool(false)),
				statecheck.ExpectKnownOutputValue("element_hears_warning", knownvalue.Bool(true)),
				statecheck.ExpectKnownOutputValue("element_misses_other_event", knownvalue.Bool(false)),
			},
		}},
	})
}

// TestAccFunctions_errorsNameTheArgument: invalid input fails the plan with an error that names
// the argument.
func TestAccFunctions_errorsNameTheArgument(t *testing.T) {
	tests := map[string]struct {
		call   string
		expect []string
	}{
		"levels_notified log_level": {`provider::eventnotify::levels_notified("error")`,
			[]string{`log_level: "error" is not a log level`, "INFO, WARNING, ERROR"}},
		"notifies log_level": {`provider::eventnotify::notifies({ event_name = "A", log_level = "INFO" }, "A", "DEBUG")`,
			[]string{`log_level: "DEBUG" is not a log level`}},
		"notifies event_name": {`provider::eventnotify::notifies({ event_name = "A", log_level = "INFO" }, "", "INFO")`,
			[]string{"event_name: an event name is required"}},
		"notifies subscription": {`provider::eventnotify::notifies({ event_name = "A" }, "A", "INFO")`,
			[]string{"subscription: the object has no log_level"}},
		"notifies subscription level": {`provider::eventnotify::notifies({ event_name = "A", log_level = "warning" }, "A", "INFO")`,
			[]string{`subscription: log_level "warning" is not a log level`}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories,
				TerraformVersionChecks:   []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureProviderFunctions)},
				Steps: []resource.TestStep{{
					Config:      "output \"x\" {\n  value = " + tt.call + "\n}\n",
					ExpectError: errorPattern(tt.expect...),
				}},
			})
		})
	}
}

// TestFeatureProviderFunctions pins the CLI versions with provider-defined functions
// (functionsTerraform, functionsOpenTofu), which TestCompatibilityTables holds the docs' rows to.
func TestFeatureProviderFunctions(t *testing.T) {
	for _, tc := range []struct {
		cli  cliInfo
		want bool
	}{
		{cliInfo{Name: "Terraform", Version: version.Must(version.NewVersion("1.7.5"))}, false},
		{cliInfo{Name: "Terraform", Version: version.Must(version.NewVersion("1.8.0"))}, true},
		{cliInfo{Name: "OpenTofu", Version: version.Must(version.NewVersion("1.6.2"))}, false},
		{cliInfo{Name: "OpenTofu", Version: version.Must(version.NewVersion("1.7.0"))}, true},
	} {
		if got, why := tc.cli.supports(featureProviderFunctions); got != tc.want || (!got && why == "") {
			t.Errorf("%s %s: supports = %v (%q), want %v", tc.cli.Name, tc.cli.Version, got, why, tc.want)
		}
	}
}
