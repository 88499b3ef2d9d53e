package provider

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// States written before the timeouts block: fixtures of both resources, written by the
// provider of main at 650ffda (eventnotify_account_subscriptions at schema version 1) with
// Terraform 1.11.4: built with `go build -o DIR/terraform-provider-eventnotify .` in a
// checkout of that commit, then `RECORD_TIMEOUTS_STATE_WITH=DIR TF_ACC=1 go test -run
// TestAccTimeouts_stateWithoutBlockPlansClean ./internal/provider/` writes them.
var timeoutsFixtures = []struct {
	name, file, config string
}{
	{"subscription", "testdata/subscription_before_timeouts.tfstate", `resource "eventnotify_subscription" "test" {
  event_name                     = "PROCESS.EXECUTION"
  destination_type               = "EVENT_STREAMS"
  log_level                      = "ERROR"
  event_streams_environment_id   = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
  event_streams_environment_name = "Production"
  event_streams_topic            = "process-alerts"
}
`},
	{"account", "testdata/account_subscriptions_v1.tfstate", upgradeConfig},
}

// fixtureState is the part of a state file the test reads.
type fixtureState struct {
	Resources []struct {
		Type      string `json:"type"`
		Provider  string `json:"provider"`
		Instances []struct {
			SchemaVersion int            `json:"schema_version"`
			Attributes    map[string]any `json:"attributes"`
		} `json:"instances"`
	} `json:"resources"`
}

// fixtureSubscription is the mock's subscription that a state's object (a resource's
// attributes, or an entry of the account resource) holds.
func fixtureSubscription(attrs map[string]any) mockserver.Subscription {
	str := func(name string) string { s, _ := attrs[name].(string); return s }
	num := func(name string) int64 { f, _ := attrs[name].(float64); return int64(f) }
	return mockserver.Subscription{SubscriptionID: str("id"), EventName: str("event_name"), DestinationType: str("destination_type"),
		LogLevel: str("log_level"), EventStreamsEnvironment: str("event_streams_environment_id"),
		EventStreamsEnvironmentName: str("event_streams_environment_name"), EventStreamsTopic: str("event_streams_topic"),
		DestinationEmail: str("destination_email"), Enabled: attrs["enabled"] == true, CreatedBy: str("created_by"),
		LastUpdatedUserID: str("last_updated_by"), CreatedDate: num("created_date"), LastUpdatedDate: num("last_updated_date")}
}

// TestAccTimeouts_stateWithoutBlockPlansClean plans with this provider against states that
// main's provider wrote before the timeouts block existed, the service holding what they
// hold: the plan is empty and nothing is written; a refresh-only apply stores a null timeouts
// block at the same schema version.
func TestAccTimeouts_stateWithoutBlockPlansClean(t *testing.T) {
	for _, fx := range timeoutsFixtures {
		t.Run(fx.name, func(t *testing.T) {
			m := newTestMock(t)
			w := newCLIWorkspace(t, m)
			w.write("versions.tf", requiredProviders)
			w.write("main.tf", fx.config)
			if dir := os.Getenv("RECORD_TIMEOUTS_STATE_WITH"); dir != "" {
				w.mustRun([]string{"TF_CLI_CONFIG_FILE=" + writeDevOverrides(t, t.TempDir(), dir)}, "apply", "-auto-approve", "-input=false", "-no-color")
				if err := os.WriteFile(fx.file, []byte(w.read("terraform.tfstate")), 0o644); err != nil {
					t.Fatal(err)
				}
				m = newTestMock(t)
				w = newCLIWorkspace(t, m)
				w.write("versions.tf", requiredProviders)
				w.write("main.tf", fx.config)
			}
			body, err := os.ReadFile(fx.file)
			if err != nil {
				t.Fatal(err)
			}
			var fixture fixtureState
			if err := json.Unmarshal(body, &fixture); err != nil || len(fixture.Resources) != 1 || len(fixture.Resources[0].Instances) != 1 {
				t.Fatalf("the fixture is not a state of one resource: %v\n%s", err, body)
			}
			inst := fixture.Resources[0].Instances[0]
			if _, ok := inst.Attributes[timeoutsAttribute]; ok {
				t.Fatalf("the fixture has a timeouts block: %s", body)
			}
			// The service holds what the recorded state holds.
			if entries, ok := inst.Attributes["subscriptions"].(map[string]any); ok {
				for _, e := range entries {
					attrs, _ := e.(map[string]any)
					m.PutSubscription(testAccount, fixtureSubscription(attrs))
				}
			} else {
				m.PutSubscription(testAccount, fixtureSubscription(inst.Attributes))
			}
			// The CLI under test names the provider by its own registry, and refuses a state
			// written by a newer CLI than itself: the state takes the CLI's own address and
			// version, as if that CLI had written it. The provider's part is untouched.
			state := strings.ReplaceAll(string(body), fixture.Resources[0].Provider, `provider["`+acceptanceCLI.providerAddress()+`"]`)
			state = regexp.MustCompile(`"terraform_version": "[^"]*"`).ReplaceAllString(state, `"terraform_version": "`+acceptanceCLI.Version.String()+`"`)
			w.write("terraform.tfstate", state)

			m.ResetCounters()
			if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
				t.Fatalf("the plan of a state without the timeouts block is not empty (exit %d):\n%s", code, out)
			}
			w.mustRun(nil, "apply", "-refresh-only", "-auto-approve", "-input=false", "-no-color")
			if n := writes(m); n != 0 {
				t.Errorf("plan and refresh sent %d writes, want none", n)
			}
			var refreshed fixtureState
			if err := json.Unmarshal([]byte(w.read("terraform.tfstate")), &refreshed); err != nil || len(refreshed.Resources) != 1 {
				t.Fatalf("the refreshed state: %v", err)
			}
			after := refreshed.Resources[0].Instances[0]
			if block, ok := after.Attributes[timeoutsAttribute]; !ok || block != nil {
				t.Errorf("the refreshed state's timeouts block is %v (present: %t), want null", block, ok)
			}
			if after.SchemaVersion != inst.SchemaVersion {
				t.Errorf("schema version %d after the refresh, want %d", after.SchemaVersion, inst.SchemaVersion)
			}
		})
	}
}
