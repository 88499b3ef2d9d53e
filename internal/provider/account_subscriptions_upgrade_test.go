package provider

import (
	"encoding/json"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// upgradeFixtureV0 is a state of eventnotify_account_subscriptions of schema version 0 (each
// entry with the audit values), written by the provider of main at 2ee82d3 with Terraform
// 1.11.4: built with `go build -o DIR/terraform-provider-eventnotify .` in a checkout of that
// commit, then `RECORD_UPGRADE_STATE_WITH=DIR TF_ACC=1 go test -run
// TestAccAccountSubscriptions_upgradeFromV0 ./internal/provider/` writes it.
const upgradeFixtureV0 = "testdata/account_subscriptions_v0.tfstate"

// upgradeConfig holds an event-streams entry, a disabled one and an EMAIL one (which has a
// destination email on the service).
const upgradeConfig = `resource "eventnotify_account_subscriptions" "all" {
  subscriptions = {
    process_errors = {
      event_name                     = "PROCESS.EXECUTION"
      destination_type               = "EVENT_STREAMS"
      log_level                      = "ERROR"
      event_streams_environment_id   = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
      event_streams_environment_name = "Production"
      event_streams_topic            = "process-alerts"
    }
    atoms_quiet = {
      event_name          = "ATOM.STATUS"
      destination_type    = "EVENT_STREAMS"
      log_level           = "INFO"
      event_streams_topic = "atoms"
      enabled             = false
    }
    mail = {
      event_name       = "ENVIRONMENT.ALERT"
      destination_type = "EMAIL"
      log_level        = "WARNING"
    }
  }
}
`

// v0State is the part of a state file the test reads.
type v0State struct {
	Resources []struct {
		Provider  string `json:"provider"`
		Instances []struct {
			SchemaVersion int `json:"schema_version"`
			Attributes    struct {
				Subscriptions map[string]map[string]any `json:"subscriptions"`
			} `json:"attributes"`
		} `json:"instances"`
	} `json:"resources"`
}

// readV0State decodes a state file holding one eventnotify_account_subscriptions.
func readV0State(t *testing.T, body []byte) v0State {
	t.Helper()
	var s v0State
	if err := json.Unmarshal(body, &s); err != nil || len(s.Resources) != 1 || len(s.Resources[0].Instances) != 1 {
		t.Fatalf("state file: %v\n%s", err, body)
	}
	return s
}

// TestAccAccountSubscriptions_upgradeFromV0 plans with this provider against a state that the
// provider of main at 2ee82d3 wrote (upgradeFixtureV0, schema version 0, the service holding
// what it holds): the plan is empty and nothing is written; a refresh-only apply stores the
// entries with the inputs and the id only, and a null timeouts block, at schema version 1.
func TestAccAccountSubscriptions_upgradeFromV0(t *testing.T) {
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	w.write("versions.tf", requiredProviders)
	w.write("main.tf", upgradeConfig)
	if dir := os.Getenv("RECORD_UPGRADE_STATE_WITH"); dir != "" {
		w.mustRun([]string{"TF_CLI_CONFIG_FILE=" + writeDevOverrides(t, t.TempDir(), dir)}, "apply", "-auto-approve", "-input=false", "-no-color")
		if err := os.WriteFile(upgradeFixtureV0, []byte(w.read("terraform.tfstate")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	body, err := os.ReadFile(upgradeFixtureV0)
	if err != nil {
		t.Fatal(err)
	}
	fixture := readV0State(t, body)
	inst := fixture.Resources[0].Instances[0]
	if inst.SchemaVersion != 0 || len(inst.Attributes.Subscriptions) != 3 {
		t.Fatalf("the fixture is not a version 0 state of 3 entries: %s", body)
	}
	// The service holds what the recorded state holds.
	for _, e := range inst.Attributes.Subscriptions {
		if _, ok := e["created_date"]; !ok {
			t.Fatalf("a fixture entry holds no audit values: %v", e)
		}
		str := func(name string) string { s, _ := e[name].(string); return s }
		m.PutSubscription(testAccount, mockserver.Subscription{SubscriptionID: str("id"), EventName: str("event_name"),
			DestinationType: str("destination_type"), LogLevel: str("log_level"), EventStreamsEnvironment: str("event_streams_environment_id"),
			EventStreamsEnvironmentName: str("event_streams_environment_name"), EventStreamsTopic: str("event_streams_topic"),
			DestinationEmail: str("destination_email"), Enabled: e["enabled"] == true, CreatedBy: str("created_by"), LastUpdatedUserID: str("last_updated_by")})
	}
	// The CLI under test names the provider by its own registry, and refuses a state written
	// by a newer CLI than itself (Terraform 1.5.7 one of 1.11.4): the state takes the CLI's own
	// address and version, as if that CLI had written it. The provider's part is untouched.
	state := strings.ReplaceAll(string(body), fixture.Resources[0].Provider, `provider["`+acceptanceCLI.providerAddress()+`"]`)
	state = regexp.MustCompile(`"terraform_version": "[^"]*"`).ReplaceAllString(state, `"terraform_version": "`+acceptanceCLI.Version.String()+`"`)
	w.write("terraform.tfstate", state)

	m.ResetCounters()
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("the plan of a version 0 state is not empty (exit %d):\n%s", code, out)
	}
	w.mustRun(nil, "apply", "-refresh-only", "-auto-approve", "-input=false", "-no-color")
	if n := writes(m); n != 0 {
		t.Errorf("plan and refresh of a version 0 state sent %d writes, want none", n)
	}
	var withBlock fixtureState
	if err := json.Unmarshal([]byte(w.read("terraform.tfstate")), &withBlock); err != nil || len(withBlock.Resources) != 1 {
		t.Fatalf("the upgraded state: %v", err)
	}
	if block, ok := withBlock.Resources[0].Instances[0].Attributes[timeoutsAttribute]; !ok || block != nil {
		t.Errorf("the upgraded state's timeouts block is %v (present: %t), want null", block, ok)
	}
	upgraded := readV0State(t, []byte(w.read("terraform.tfstate"))).Resources[0].Instances[0]
	want := slices.Sorted(maps.Keys(accountEntryAttributes()))
	if upgraded.SchemaVersion != accountSchemaVersion {
		t.Errorf("schema version %d after the refresh, want %d", upgraded.SchemaVersion, accountSchemaVersion)
	}
	for key, e := range upgraded.Attributes.Subscriptions {
		got := slices.Sorted(func(yield func(string) bool) {
			for k := range e {
				if !yield(k) {
					return
				}
			}
		})
		if !slices.Equal(got, want) {
			t.Errorf("entry %s holds %v after the upgrade, want %v", key, got, want)
		}
		if id := inst.Attributes.Subscriptions[key]["id"]; e["id"] != id {
			t.Errorf("entry %s holds id %v after the upgrade, want %v", key, e["id"], id)
		}
	}
}
