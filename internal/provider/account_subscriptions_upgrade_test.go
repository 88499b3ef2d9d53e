package provider

import (
	"encoding/json"
	"maps"
	"os"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
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

// TestAccAccountSubscriptions_upgradeFromV0 plans with this provider against a state that the
// provider of main at 2ee82d3 wrote (upgradeFixtureV0, schema version 0, the service holding
// what it holds): the plan is empty and nothing is written; a refresh-only apply stores the
// entries with the inputs and the id only, and a null timeouts block, at schema version 1.
func TestAccAccountSubscriptions_upgradeFromV0(t *testing.T) {
	recorded, refreshed := recordedState{file: upgradeFixtureV0, config: upgradeConfig, recordWith: "RECORD_UPGRADE_STATE_WITH"}.
		plansCleanAndRefreshes(t)
	version, _ := recorded.instance()
	entries, _ := recorded.entries()
	if version != 0 || len(entries) != 3 {
		t.Fatalf("the fixture is not a version 0 state of 3 entries: %v", recorded)
	}
	for _, e := range entries {
		if _, ok := e["created_date"]; !ok {
			t.Fatalf("a fixture entry holds no audit values: %v", e)
		}
	}
	upgradedVersion, upgradedAttrs := refreshed.instance()
	if block, ok := upgradedAttrs[timeoutsAttribute]; !ok || block != nil {
		t.Errorf("the upgraded state's timeouts block is %v (present: %t), want null", block, ok)
	}
	want := slices.Sorted(maps.Keys(accountEntryAttributes()))
	if upgradedVersion != accountSchemaVersion {
		t.Errorf("schema version %d after the refresh, want %d", upgradedVersion, accountSchemaVersion)
	}
	upgraded, _ := refreshed.entries()
	if len(upgraded) != len(entries) {
		t.Errorf("the upgraded state holds %d entries, want %d", len(upgraded), len(entries))
	}
	for key, e := range upgraded {
		got := slices.Sorted(maps.Keys(e))
		if !slices.Equal(got, want) {
			t.Errorf("entry %s holds %v after the upgrade, want %v", key, got, want)
		}
		if id := entries[key]["id"]; e["id"] != id {
			t.Errorf("entry %s holds id %v after the upgrade, want %v", key, e["id"], id)
		}
	}
}

// TestAccountSchemaV0_matchesRecordedState holds the frozen version 0 schema (accountSchemaV0)
// to the state version 0 wrote (upgradeFixtureV0): the same top-level attributes and, in every
// entry, the same attributes. An edit of the frozen schema that a version 0 state would not
// decode with fails here, naming the attribute.
func TestAccountSchemaV0_matchesRecordedState(t *testing.T) {
	body, err := os.ReadFile(upgradeFixtureV0)
	if err != nil {
		t.Fatal(err)
	}
	var recorded fixtureState
	if err := json.Unmarshal(body, &recorded); err != nil || len(recorded.Resources) != 1 {
		t.Fatalf("state file: %v", err)
	}
	v0 := accountSchemaV0()
	if v0.Version != 0 {
		t.Errorf("accountSchemaV0 has version %d, want 0", v0.Version)
	}
	keys := func(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }
	attrNames := func(m map[string]schema.Attribute) []string { return slices.Sorted(maps.Keys(m)) }
	top := recorded.Resources[0].Instances[0].Attributes
	if got, want := attrNames(v0.Attributes), keys(top); !slices.Equal(got, want) {
		t.Errorf("accountSchemaV0's attributes are %v, the recorded state's %v", got, want)
	}
	subs, _ := v0.Attributes["subscriptions"].(schema.MapNestedAttribute)
	entriesOf, _ := top["subscriptions"].(map[string]any)
	if len(entriesOf) == 0 {
		t.Fatalf("the recorded state holds no entries: %s", body)
	}
	for key, e := range entriesOf {
		entry, _ := e.(map[string]any)
		if got, want := attrNames(subs.NestedObject.Attributes), keys(entry); !slices.Equal(got, want) {
			t.Errorf("accountSchemaV0's entry attributes are %v, the recorded entry %s holds %v", got, key, want)
		}
		for name, v := range entry {
			var ok bool
			switch subs.NestedObject.Attributes[name].(type) {
			case schema.StringAttribute:
				_, ok = v.(string)
			case schema.Int64Attribute:
				_, ok = v.(float64)
			case schema.BoolAttribute:
				_, ok = v.(bool)
			}
			if v != nil && !ok {
				t.Errorf("accountSchemaV0's %s is %T, the recorded entry %s holds %v (%T)", name,
					subs.NestedObject.Attributes[name], key, v, v)
			}
		}
	}
}
