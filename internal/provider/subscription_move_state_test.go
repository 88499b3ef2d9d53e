package provider

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The move from restapi_object (mastercard/restapi) to eventnotify_subscription, from the
// states that the REST provider wrote (testdata/restapi/), under the acceptance CLI. Each
// recorded state is tried under each CLI: its provider address (registry.terraform.io or
// registry.opentofu.org) is the one the CLI passes to MoveState, which a mirror offers.

// restapiMoveWorkspace is a workspace whose mirror offers this provider and, under both
// registry hosts, the stand-in for the REST provider (restapi_stub_test.go).
func restapiMoveWorkspace(t *testing.T, m *testMock) *cliWorkspace {
	t.Helper()
	w := newCLIWorkspace(t, m)
	stub := restapiStubBinary(t)
	w.useMirror(mirroredProvider{"registry.terraform.io/mastercard/restapi", restapiStubVersion, stub},
		mirroredProvider{"registry.opentofu.org/mastercard/restapi", restapiStubVersion, stub})
	w.env = append(w.env, restapiStubEnv+"=1")
	return w
}

// restapiStubBinary is a script that runs this test binary as the stand-in, in the package's
// directory (the package's variables read files relative to it when the binary starts).
func restapiStubBinary(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "restapi-stub")
	body := fmt.Sprintf("#!/bin/sh\ncd %q && exec %q\n", dir, self)
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script
}

// seedRecordedRestapiState writes a recorded REST provider state into the workspace for the
// test account, with edit applied to its attributes, re-creates its subscription in the mock
// under the recorded id unless seed is false, and returns the id and the state's provider
// address.
func seedRecordedRestapiState(t *testing.T, w *cliWorkspace, m *testMock, file string, seed bool, edit func(map[string]any)) (id, provider string) {
	t.Helper()
	body, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	body = []byte(strings.ReplaceAll(string(body), "demo-account", testAccount))
	var state map[string]any
	if err := json.Unmarshal(body, &state); err != nil {
		t.Fatal(err)
	}
	res := state["resources"].([]any)[0].(map[string]any)
	attrs := res["instances"].([]any)[0].(map[string]any)["attributes"].(map[string]any)
	id, _ = attrs["id"].(string)
	provider = strings.TrimSuffix(strings.TrimPrefix(res["provider"].(string), `provider["`), `"]`)
	if seed {
		var data struct {
			Subscriptions []map[string]any `json:"subscriptions"`
		}
		if err := json.Unmarshal([]byte(attrs["data"].(string)), &data); err != nil || len(data.Subscriptions) != 1 {
			t.Fatalf("the recorded data is not one subscription: %v", err)
		}
		data.Subscriptions[0]["subscriptionId"] = id
		seedBody, _ := json.Marshal(data)
		if _, err := m.SeedSubscriptions(testAccount, testUser, seedBody); err != nil {
			t.Fatal(err)
		}
	}
	if edit != nil {
		edit(attrs)
	}
	out, _ := json.MarshalIndent(state, "", "  ")
	w.write("terraform.tfstate", string(out))
	return id, provider
}

// restapiMoveConfig is a configuration that moves restapi_object.atom_status to
// eventnotify_subscription.atom_status, the recorded subscription with logLevel.
func restapiMoveConfig(m *testMock, logLevel string) string {
	return fmt.Sprintf(`terraform {
  required_providers {
    eventnotify = {
      source  = "eventnotify/eventnotify"
      version = %q
    }
    restapi = {
      source = "Mastercard/restapi"
    }
  }
}
%s
moved {
  from = restapi_object.atom_status
  to   = eventnotify_subscription.atom_status
}

resource "eventnotify_subscription" "atom_status" {
  event_name                     = "ATOM.STATUS"
  destination_type               = "EVENT_STREAMS"
  log_level                      = %q
  event_streams_environment_id   = "env-1"
  event_streams_environment_name = "production"
  event_streams_topic            = "atom-status"
  enabled                        = true
}
`, guideProviderVersion, m.providerBlock(), logLevel)
}

// sourceAddressLogged returns the source provider address that MoveState logged.
func sourceAddressLogged(t *testing.T, logFile string) string {
	t.Helper()
	body, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	found := regexp.MustCompile(`source_provider_address=(\S+)`).FindSubmatch(body)
	if found == nil {
		t.Fatalf("MoveState logged no source_provider_address:\n%s", body)
	}
	return string(found[1])
}

// TestAccSubscriptionMoveFromRestapi moves each recorded restapi_object: the plan shows the
// move and no create, update or destroy; the apply sends no write; the state holds the same
// subscription, whose identity the next plan keeps clean. MoveState receives the state's
// provider address, which the test logs. A configuration that differs from the service plans
// an in-place update after the move, and applies it with one write.
func TestAccSubscriptionMoveFromRestapi(t *testing.T) {
	for _, file := range recordedRestapiStates {
		for _, logLevel := range []string{"ERROR", "WARNING"} {
			t.Run(filepath.Base(file)+"/"+logLevel, func(t *testing.T) {
				m := newTestMock(t)
				w := restapiMoveWorkspace(t, m)
				w.require(featureMoveAcrossTypes)
				id, provider := seedRecordedRestapiState(t, w, m, file, true, nil)
				w.write("main.tf", restapiMoveConfig(m, logLevel))
				w.mustRun(nil, "init", "-input=false", "-no-color")

				logFile := filepath.Join(t.TempDir(), "provider.log")
				out := w.mustRun([]string{"TF_LOG_PROVIDER=INFO", "TF_LOG_PATH=" + logFile}, "plan", "-input=false", "-no-color")
				if !strings.Contains(out, "restapi_object.atom_status has moved to eventnotify_subscription.atom_status") &&
					!strings.Contains(out, "(moved from restapi_object.atom_status)") {
					t.Fatalf("the plan does not show the move:\n%s", out)
				}
				want, changes := "Plan: 0 to add, 0 to change, 0 to destroy", 0
				if logLevel != "ERROR" {
					want, changes = "Plan: 0 to add, 1 to change, 0 to destroy", 1
				}
				if !strings.Contains(out, want) {
					t.Fatalf("the plan after the move is not %q:\n%s", want, out)
				}
				got := sourceAddressLogged(t, logFile)
				t.Logf("%s passes MoveState the source provider address %q (state: %q)", w.cli, got, provider)
				wantAddr := provider
				if w.cli.OpenTofu() { // OpenTofu reads registry.terraform.io as its own registry
					wantAddr = strings.Replace(wantAddr, "registry.terraform.io/", "registry.opentofu.org/", 1)
				}
				if got != wantAddr {
					t.Errorf("MoveState received %q, want %q (the state names %q)", got, wantAddr, provider)
				}

				m.ResetCounters()
				w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
				if n := writes(m); n != changes {
					t.Errorf("the apply sent %d writes to the service, want %d", n, changes)
				}
				if list := strings.Fields(w.mustRun(nil, "state", "list")); len(list) != 1 || list[0] != "eventnotify_subscription.atom_status" {
					t.Errorf("the state holds %v, want eventnotify_subscription.atom_status alone", list)
				}
				if show := w.mustRun(nil, "state", "show", "-no-color", "eventnotify_subscription.atom_status"); !strings.Contains(show, `"`+id+`"`) ||
					!strings.Contains(show, `"`+testAccount+`"`) || !strings.Contains(show, `"`+logLevel+`"`) {
					t.Errorf("the state does not hold subscription %s of %s at %s:\n%s", id, testAccount, logLevel, show)
				}
				if subs := m.Subscriptions(testAccount); len(subs) != 1 || subs[0].SubscriptionID != id || subs[0].LogLevel != logLevel {
					t.Errorf("the service holds %+v, want subscription %s at %s alone", subs, id, logLevel)
				}
				if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
					t.Fatalf("the plan after the move is not clean (exit %d):\n%s", code, out)
				}
			})
		}
	}
}

// TestAccSubscriptionMoveFromRestapiRefused plans moves of restapi_objects that are not a
// subscription of the service: each fails with what is wrong and what to do, and leaves the
// state and the service as they were.
func TestAccSubscriptionMoveFromRestapiRefused(t *testing.T) {
	tests := []struct {
		name string
		seed bool
		edit func(map[string]any)
		want []string
	}{
		{name: "another path", seed: true, edit: func(a map[string]any) { a["path"] = "/accounts/" + testAccount + "/eventStreams/topic/subscription" },
			want: []string{"Cannot move restapi_object to eventnotify_subscription", "is not an account's subscriptions collection", "import"}},
		{name: "no id", seed: true, edit: func(a map[string]any) {
			a["id"], a["api_response"], a["create_response"], a["api_data"] = "", nil, nil, nil
		},
			want: []string{"Cannot move restapi_object to eventnotify_subscription", "has no id"}},
		{name: "deleted on the service", seed: false,
			want: []string{"Cannot move restapi_object to subscription", "which the service does not", "hold"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newTestMock(t)
			w := restapiMoveWorkspace(t, m)
			w.require(featureMoveAcrossTypes)
			seedRecordedRestapiState(t, w, m, recordedRestapiStates[0], tt.seed, tt.edit)
			before := w.read("terraform.tfstate")
			w.write("main.tf", restapiMoveConfig(m, "ERROR"))
			w.mustRun(nil, "init", "-input=false", "-no-color")
			m.ResetCounters()
			out, code := w.run(nil, "plan", "-input=false", "-no-color")
			if code != 1 {
				t.Fatalf("the plan exits %d, want 1:\n%s", code, out)
			}
			flat := strings.Join(strings.Fields(strings.ReplaceAll(out, "│", "")), " ")
			for _, s := range tt.want {
				if !strings.Contains(flat, s) {
					t.Errorf("the plan's error does not say %q:\n%s", s, out)
				}
			}
			if n := writes(m); n != 0 {
				t.Errorf("the refused move sent %d writes", n)
			}
			if w.read("terraform.tfstate") != before {
				t.Error("the refused move changed the state")
			}
		})
	}
}

// TestAccSubscriptionMoveFromRestapiOlderCLI checks what the guide says of a CLI that cannot
// move between resource types: it refuses the moved block, and changes nothing.
func TestAccSubscriptionMoveFromRestapiOlderCLI(t *testing.T) {
	m := newTestMock(t)
	w := restapiMoveWorkspace(t, m)
	if ok, _ := w.cli.supports(featureMoveAcrossTypes); ok {
		t.Skipf("%s moves between resource types (TestAccSubscriptionMoveFromRestapi)", w.cli)
	}
	seedRecordedRestapiState(t, w, m, recordedRestapiStates[0], true, nil)
	w.write("main.tf", restapiMoveConfig(m, "ERROR"))
	w.mustRun(nil, "init", "-input=false", "-no-color")
	out, code := w.run(nil, "plan", "-input=false", "-no-color")
	if code != 1 || !strings.Contains(out, "Resource type mismatch") {
		t.Fatalf("%s: the plan exits %d, want 1 with \"Resource type mismatch\":\n%s", w.cli, code, out)
	}
}
