package provider

import (
	"testing"
)

// States written before the timeouts block: fixtures of both resources, written by the
// provider of main at 650ffda (eventnotify_account_subscriptions at schema version 1) with
// Terraform 1.11.4: built with `go build -o DIR/terraform-provider-eventnotify .` in a
// checkout of that commit, then `RECORD_TIMEOUTS_STATE_WITH=DIR TF_ACC=1 go test -run
// TestAccTimeouts_stateWithoutBlockPlansClean ./internal/provider/` writes them.
var timeoutsFixtures = []struct {
	name  string
	state recordedState
}{
	{"subscription", recordedState{file: "testdata/subscription_before_timeouts.tfstate", recordWith: "RECORD_TIMEOUTS_STATE_WITH",
		config: `resource "eventnotify_subscription" "test" {
  event_name                     = "PROCESS.EXECUTION"
  destination_type               = "EVENT_STREAMS"
  log_level                      = "ERROR"
  event_streams_environment_id   = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
  event_streams_environment_name = "Production"
  event_streams_topic            = "process-alerts"
}
`}},
	{"account", recordedState{file: "testdata/account_subscriptions_v1.tfstate", recordWith: "RECORD_TIMEOUTS_STATE_WITH",
		config: upgradeConfig}},
}

// TestAccTimeouts_stateWithoutBlockPlansClean plans with this provider against states that
// main's provider wrote before the timeouts block existed, the service holding what they
// hold: the plan is empty and nothing is written; a refresh-only apply stores a null timeouts
// block at the same schema version.
func TestAccTimeouts_stateWithoutBlockPlansClean(t *testing.T) {
	for _, fx := range timeoutsFixtures {
		t.Run(fx.name, func(t *testing.T) {
			recorded, refreshed := fx.state.plansCleanAndRefreshes(t)
			version, attrs := recorded.instance()
			if _, ok := attrs[timeoutsAttribute]; ok {
				t.Fatalf("the fixture has a timeouts block: %v", attrs)
			}
			afterVersion, after := refreshed.instance()
			if block, ok := after[timeoutsAttribute]; !ok || block != nil {
				t.Errorf("the refreshed state's timeouts block is %v (present: %t), want null", block, ok)
			}
			if afterVersion != version {
				t.Errorf("schema version %d after the refresh, want %d", afterVersion, version)
			}
		})
	}
}
