package provider

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// States that an earlier provider wrote (testdata/*.tfstate), and the check that this
// provider takes them over: the upgrade tests of the schema (account_subscriptions_upgrade_test.go,
// operation_timeouts_upgrade_test.go).

// recordedState is a state file of one resource that an earlier provider wrote.
type recordedState struct {
	// file is the state file, under testdata.
	file string
	// config is the configuration it was written with, and is planned with.
	config string
	// recordWith is the environment variable that records the file anew: set to the directory
	// of the earlier provider's binary (`go build -o DIR/terraform-provider-eventnotify .` in a
	// checkout of its commit), the test first applies config with that binary and writes the
	// state to file.
	recordWith string
}

// fixtureState is the part of a state file the tests read.
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

// readFixtureState decodes a state file of one resource instance.
func readFixtureState(t *testing.T, body []byte) fixtureState {
	t.Helper()
	var s fixtureState
	if err := json.Unmarshal(body, &s); err != nil || len(s.Resources) != 1 || len(s.Resources[0].Instances) != 1 {
		t.Fatalf("the state is not one of one resource: %v\n%s", err, body)
	}
	return s
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

// instance is the state's one resource instance.
func (s fixtureState) instance() (schemaVersion int, attributes map[string]any) {
	i := s.Resources[0].Instances[0]
	return i.SchemaVersion, i.Attributes
}

// entries returns the entries of an eventnotify_account_subscriptions state by key, and false
// for a state of another resource.
func (s fixtureState) entries() (map[string]map[string]any, bool) {
	_, attrs := s.instance()
	raw, ok := attrs["subscriptions"].(map[string]any)
	if !ok {
		return nil, false
	}
	entries := make(map[string]map[string]any, len(raw))
	for key, e := range raw {
		entries[key], _ = e.(map[string]any)
	}
	return entries, true
}

// plansCleanAndRefreshes plans with this provider against the recorded state, the service
// holding what it holds: the plan is empty, and it and a refresh-only apply send no write. It
// returns the recorded state and the state the refresh wrote, for the caller's checks of
// what the refresh made of it.
func (r recordedState) plansCleanAndRefreshes(t *testing.T) (recorded, refreshed fixtureState) {
	t.Helper()
	m, w := r.workspace(t)
	if dir := os.Getenv(r.recordWith); dir != "" {
		w.mustRun([]string{"TF_CLI_CONFIG_FILE=" + writeDevOverrides(t, t.TempDir(), dir)}, "apply", "-auto-approve", "-input=false", "-no-color")
		if err := os.WriteFile(r.file, []byte(w.read("terraform.tfstate")), 0o644); err != nil {
			t.Fatal(err)
		}
		m, w = r.workspace(t)
	}
	body, err := os.ReadFile(r.file)
	if err != nil {
		t.Fatal(err)
	}
	recorded = readFixtureState(t, body)
	// The service holds what the recorded state holds.
	if entries, ok := recorded.entries(); ok {
		_, top := recorded.instance()
		for _, e := range entries {
			sub := fixtureSubscription(e)
			if topic, ok := top["event_streams_topic"].(string); ok { // a topic resource's entry: the scope is the resource's
				sub.DestinationType, sub.EventStreamsTopic = destinationEventStreams, topic
				sub.EventStreamsEnvironment, _ = top["event_streams_environment_id"].(string)
				sub.EventStreamsEnvironmentName, _ = top["event_streams_environment_name"].(string)
			}
			m.PutSubscription(testAccount, sub)
		}
	} else {
		_, attrs := recorded.instance()
		m.PutSubscription(testAccount, fixtureSubscription(attrs))
	}
	// The CLI under test names the provider by its own registry, and refuses a state written
	// by a newer CLI than itself (Terraform 1.5.7 one of 1.11.4): the state takes the CLI's own
	// address and version, as if that CLI had written it. The provider's part is untouched.
	state := strings.ReplaceAll(string(body), recorded.Resources[0].Provider, `provider["`+acceptanceCLI.providerAddress()+`"]`)
	state = regexp.MustCompile(`"terraform_version": "[^"]*"`).ReplaceAllString(state, `"terraform_version": "`+acceptanceCLI.Version.String()+`"`)
	w.write("terraform.tfstate", state)

	m.ResetCounters()
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("the plan of the recorded state %s is not empty (exit %d):\n%s", r.file, code, out)
	}
	w.mustRun(nil, "apply", "-refresh-only", "-auto-approve", "-input=false", "-no-color")
	if n := writes(m); n != 0 {
		t.Errorf("plan and refresh of the recorded state %s sent %d writes, want none", r.file, n)
	}
	return recorded, readFixtureState(t, []byte(w.read("terraform.tfstate")))
}

// workspace is a fresh mock and a CLI workspace holding r's configuration.
func (r recordedState) workspace(t *testing.T) (*testMock, *cliWorkspace) {
	t.Helper()
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	w.write("versions.tf", requiredProviders)
	w.write("main.tf", r.config)
	return m, w
}
