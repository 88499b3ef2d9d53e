package provider

import (
	"testing"
)

// States written before the takeover attribute: fixtures of both authoritative resources,
// written by the provider of main at ce1b771 with Terraform 1.11.4: built with `go build -o
// DIR/terraform-provider-eventnotify .` in a checkout of that commit, then
// `RECORD_TAKEOVER_STATE_WITH=DIR TF_ACC=1 go test -run TestAccTakeover_stateWithoutAttributePlansClean
// ./internal/provider/` writes them.
var takeoverFixtures = []struct {
	name  string
	state recordedState
}{
	{"account", recordedState{file: "testdata/account_subscriptions_before_takeover.tfstate",
		recordWith: "RECORD_TAKEOVER_STATE_WITH", config: upgradeConfig}},
	{"topic", recordedState{file: "testdata/topic_subscriptions_before_takeover.tfstate",
		recordWith: "RECORD_TAKEOVER_STATE_WITH", config: `resource "eventnotify_topic_subscriptions" "orders" {
  event_streams_environment_id   = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
  event_streams_environment_name = "Production"
  event_streams_topic            = "orders"
  subscriptions = {
    errors = {
      event_name = "PROCESS.EXECUTION"
      log_level  = "ERROR"
    }
    quiet = {
      event_name = "ATOM.STATUS"
      log_level  = "INFO"
      enabled    = false
    }
  }
}
`}},
}

// TestAccTakeover_stateWithoutAttributePlansClean plans with this provider against states that
// main's provider wrote before the takeover attribute existed, the service holding what they
// hold: the plan is empty and nothing is written; a refresh-only apply stores a null takeover
// at the same schema version (the attribute records a create's plan, which these states
// never had).
func TestAccTakeover_stateWithoutAttributePlansClean(t *testing.T) {
	for _, fx := range takeoverFixtures {
		t.Run(fx.name, func(t *testing.T) {
			recorded, refreshed := fx.state.plansCleanAndRefreshes(t)
			version, attrs := recorded.instance()
			if _, ok := attrs[takeoverAttribute]; ok {
				t.Fatalf("the fixture has a takeover attribute: %v", attrs)
			}
			afterVersion, after := refreshed.instance()
			if v, ok := after[takeoverAttribute]; !ok || v != nil {
				t.Errorf("the refreshed state's takeover is %v (present: %t), want null", v, ok)
			}
			if afterVersion != version {
				t.Errorf("schema version %d after the refresh, want %d", afterVersion, version)
			}
		})
	}
}
