package provider

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// The CI flow at the CLI, for both authoritative resources: `plan -out=tfplan`, an approver
// reads `terraform show tfplan`, `apply tfplan`. A saved plan keeps no warning, so what the
// apply deletes and takes over must be a value of the plan (the takeover attribute); and the
// apply must do what that plan showed, whatever the service did in between.

// savedPlanTopic is the topic of the tests' subscriptions (in topicTestEnv).
const savedPlanTopic = "orders"

// savedPlanEntry is one entry of a test configuration, for either resource.
type savedPlanEntry struct {
	key, event, level string
}

// savedPlanScope is one of the two resources under test: its address and how to configure it.
type savedPlanScope struct {
	name, addr string
	config     func(entries ...savedPlanEntry) string
}

// savedPlanScopes are the account resource and the topic resource, each configured on
// savedPlanTopic.
var savedPlanScopes = []savedPlanScope{
	{name: "account", addr: acctAddr, config: func(entries ...savedPlanEntry) string {
		out := make([]acctEntry, len(entries))
		for i, e := range entries {
			out[i] = acctEntry{key: e.key, event: e.event, level: e.level, topic: savedPlanTopic, environment: topicTestEnv}
		}
		return acctConfig(out...)
	}},
	{name: "topic", addr: "eventnotify_topic_subscriptions.all", config: func(entries ...savedPlanEntry) string {
		out := make([]topicEntry, len(entries))
		for i, e := range entries {
			out[i] = topicEntry{key: e.key, event: e.event, level: e.level}
		}
		return topicResourceConfig("all", savedPlanTopic, out...)
	}},
}

// seedSavedPlan puts n subscriptions on savedPlanTopic into the mock, none like the entries
// the tests configure (event ATOM.STATUS, INFO), and returns their ids, sorted.
func seedSavedPlan(m *testMock, n int) []string {
	ids := make([]string, n)
	for i := range ids {
		s := onTopic(savedPlanTopic, fmt.Sprintf("queue.depth.%d", i), "INFO")
		s.SubscriptionID = fmt.Sprintf("00000000-0000-4000-8000-%012d", 100+i)
		ids[i] = m.PutSubscription(testAccount, s).SubscriptionID
	}
	slices.Sort(ids)
	return ids
}

// savedPlanTakeover is the takeover attribute of the resource at addr in a plan's JSON
// (`terraform show -json tfplan`): its deletes and takes_over, and false when the plan does
// not know it.
func savedPlanTakeover(t *testing.T, planJSON, addr string) (deletes []string, takesOver map[string]string, known bool) {
	t.Helper()
	var plan tfjson.Plan
	if err := json.Unmarshal([]byte(planJSON), &plan); err != nil {
		t.Fatalf("decoding the plan: %v\n%s", err, planJSON)
	}
	for _, rc := range plan.ResourceChanges {
		if rc.Address != addr || rc.Change == nil {
			continue
		}
		if unknown, ok := rc.Change.AfterUnknown.(map[string]any); ok && unknown[takeoverAttribute] == true {
			return nil, nil, false
		}
		after, _ := rc.Change.After.(map[string]any)
		return takeoverMembers(t, after[takeoverAttribute])
	}
	t.Fatalf("the plan has no change of %s:\n%s", addr, planJSON)
	return nil, nil, false
}

// takeoverMembers decodes a takeover attribute's JSON value; false when it is null.
func takeoverMembers(t *testing.T, v any) (deletes []string, takesOver map[string]string, known bool) {
	t.Helper()
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, nil, false
	}
	list, _ := obj["deletes"].([]any)
	for _, id := range list {
		s, _ := id.(string)
		deletes = append(deletes, s)
	}
	takesOver = map[string]string{}
	byKey, _ := obj["takes_over"].(map[string]any)
	for key, id := range byKey {
		takesOver[key], _ = id.(string)
	}
	return deletes, takesOver, true
}

// savedPlanState is what the state holds of the resource at addr (`terraform show -json`):
// the subscription ids of its entries by key, sorted, and its takeover attribute's value as
// JSON; false when the state has no such resource.
func savedPlanState(t *testing.T, w *cliWorkspace, addr string) (ids map[string]string, takeover any, ok bool) {
	t.Helper()
	out := w.mustRun(nil, "show", "-json", "-no-color")
	var state tfjson.State
	if err := json.Unmarshal([]byte(out), &state); err != nil {
		t.Fatalf("decoding the state: %v\n%s", err, out)
	}
	if state.Values == nil || state.Values.RootModule == nil {
		return nil, nil, false
	}
	for _, r := range state.Values.RootModule.Resources {
		if r.Address != addr {
			continue
		}
		ids = map[string]string{}
		subs, _ := r.AttributeValues["subscriptions"].(map[string]any)
		for key, e := range subs {
			entry, _ := e.(map[string]any)
			ids[key], _ = entry["id"].(string)
		}
		return ids, r.AttributeValues[takeoverAttribute], true
	}
	return nil, nil, false
}

// savedPlanMockIDs are the ids of the mock's subscriptions on savedPlanTopic, sorted.
func savedPlanMockIDs(m *testMock) []string { return m.topicIDs(savedPlanTopic) }

// sortedValues returns a map's values, sorted.
func sortedValues(m map[string]string) []string { return slices.Sorted(maps.Values(m)) }

// TestAccSavedPlan_takeoverShown (issue 37, item 3): a saved plan that creates the resource
// on a topic holding 4 subscriptions, one of them like an entry. `terraform show tfplan` names
// the 3 the apply deletes, and `show -json` holds them in takeover.deletes, with the one taken
// over in takeover.takes_over; the plan writes nothing. `apply tfplan` deletes exactly those 3,
// the entry holds the one taken over, the state keeps the plan's takeover, the mock holds
// exactly what the state holds, the next plan is empty, and nothing is left after destroy
// (the topic resource leaves a subscription of another topic alone throughout).
func TestAccSavedPlan_takeoverShown(t *testing.T) {
	for _, scope := range savedPlanScopes {
		t.Run(scope.name, func(t *testing.T) {
			m := newTestMock(t)
			w := newCLIWorkspace(t, m)
			deleted := seedSavedPlan(m, 3)
			kept := m.PutSubscription(testAccount, onTopic(savedPlanTopic, "ATOM.STATUS", "ERROR")).SubscriptionID
			var outsider string
			if scope.name == "topic" {
				outsider = m.PutSubscription(testAccount, onTopic("elsewhere", "ATOM.STATUS", "ERROR")).SubscriptionID
			}
			w.write("versions.tf", requiredProviders)
			w.write("main.tf", scope.config(savedPlanEntry{key: "errors", event: "ATOM.STATUS", level: "ERROR"},
				savedPlanEntry{key: "new", event: "ATOM.STATUS", level: "INFO"}))

			w.mustRun(nil, "plan", "-out=tfplan", "-input=false", "-no-color")
			if wr := m.writes(); wr.total() != 0 {
				t.Fatalf("the plan made %s, want none", wr)
			}
			shown := w.mustRun(nil, "show", "-no-color", "tfplan")
			expectOutput(t, "terraform show tfplan", shown, true, append(quoted(deleted), "takeover", "deletes", "takes_over",
				fmt.Sprintf("%q = %q", "errors", kept))...)
			gotDeletes, gotTaken, known := savedPlanTakeover(t, w.mustRun(nil, "show", "-json", "-no-color", "tfplan"), scope.addr)
			if !known || !slices.Equal(gotDeletes, deleted) || fmt.Sprint(gotTaken) != fmt.Sprint(map[string]string{"errors": kept}) {
				t.Fatalf("the saved plan's takeover: known %t, deletes %v, takes_over %v; want deletes %v, takes_over errors=%s",
					known, gotDeletes, gotTaken, deleted, kept)
			}

			// The CI guide's check, as it is: it fails naming the 3 until they are approved.
			if out, code := w.checkDeletions(); code != 1 || !strings.Contains(out, strings.Join(deleted, "\n")) {
				t.Fatalf("the guide's check-deletions.sh exits %d, want 1 naming %v:\n%s", code, deleted, out)
			}
			w.write("approved-deletions.txt", strings.Join(deleted, "\n")+"\n")
			if out, code := w.checkDeletions(); code != 0 {
				t.Fatalf("the guide's check-deletions.sh exits %d with the 3 approved:\n%s", code, out)
			}

			w.mustRun(nil, "apply", "-input=false", "-no-color", "tfplan")
			ids, takeover, ok := savedPlanState(t, w, scope.addr)
			if !ok || ids["errors"] != kept {
				t.Fatalf("after the apply, state holds %v (present %t), want entry errors holding %s", ids, ok, kept)
			}
			if got := savedPlanMockIDs(m); !slices.Equal(got, sortedValues(ids)) {
				t.Fatalf("after the apply the mock holds %v on the topic, state %v", got, ids)
			}
			if stateDeletes, stateTaken, _ := takeoverMembers(t, takeover); !slices.Equal(stateDeletes, deleted) ||
				fmt.Sprint(stateTaken) != fmt.Sprint(gotTaken) {
				t.Fatalf("the state's takeover is %v, want the plan's", takeover)
			}
			if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
				t.Fatalf("the plan after the apply is not empty (exit %d):\n%s", code, out)
			}
			w.mustRun(nil, "destroy", "-auto-approve", "-input=false", "-no-color")
			if got := m.mockIDs(testAccount); outsider == "" && len(got) != 0 || outsider != "" && !slices.Equal(got, []string{outsider}) {
				t.Fatalf("after destroy the account holds %v, want %q at most", got, outsider)
			}
		})
	}
}

// checkDeletions runs the CI guide's check-deletions.sh in the working directory, on its
// tfplan, with the CLI under test as `terraform`, and returns its output and exit code.
func (w *cliWorkspace) checkDeletions() (string, int) {
	w.t.Helper()
	if _, err := exec.LookPath("jq"); err != nil {
		// A missing tool fails the run, never skips it: CI must not pass without the check.
		w.t.Fatal("the CI guide's check-deletions.sh needs jq on PATH (Debian: apt-get install jq)")
	}
	script, err := filepath.Abs("../../examples/guides/ci/check-deletions.sh")
	if err != nil {
		w.t.Fatal(err)
	}
	bin := w.t.TempDir()
	if err := os.Symlink(w.tf, filepath.Join(bin, "terraform")); err != nil {
		w.t.Fatal(err)
	}
	cmd := exec.Command("bash", script)
	cmd.Dir = w.dir
	cmd.Env = append(append([]string{}, w.env...), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return string(out), 0
	case errors.As(err, &exit):
		return string(out), exit.ExitCode()
	}
	w.t.Fatalf("running check-deletions.sh: %v", err)
	return "", -1
}

// quoted returns each string in double quotes, as the CLI prints string values.
func quoted(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// mockSubscriptionByID is the mock's subscription of testAccount with id, and false when it
// has none.
func mockSubscriptionByID(m *testMock, id string) (mockserver.Subscription, bool) {
	for _, s := range m.Subscriptions(testAccount) {
		if strings.EqualFold(s.SubscriptionID, id) {
			return s, true
		}
	}
	return mockserver.Subscription{}, false
}

// TestAccSavedPlan_newcomerStopsTheTakeover (issue 37, item 2): a saved plan that creates the
// resource names the 3 subscriptions of the topic it deletes; a 4th is made by hand before
// `apply tfplan`. The apply deletes nothing the plan did not name: Terraform plans the
// resource again, the provider's takeover.deletes now holds 4 ids where the saved plan's held
// 3, and Terraform stops before any write, after the warning that names all 4, the newcomer
// included. Nothing is written and nothing is in state; the next plan's takeover.deletes names
// the 4, and its apply leaves the mock holding exactly what the state holds; nothing is left
// after destroy.
func TestAccSavedPlan_newcomerStopsTheTakeover(t *testing.T) {
	for _, scope := range savedPlanScopes {
		t.Run(scope.name, func(t *testing.T) {
			m := newTestMock(t)
			w := newCLIWorkspace(t, m)
			deleted := seedSavedPlan(m, 3)
			w.write("versions.tf", requiredProviders)
			w.write("main.tf", scope.config(savedPlanEntry{key: "errors", event: "ATOM.STATUS", level: "ERROR"}))
			w.mustRun(nil, "plan", "-out=tfplan", "-input=false", "-no-color")

			newcomer := m.PutSubscription(testAccount, onTopic(savedPlanTopic, "flow.deployed", "WARNING")).SubscriptionID
			before := m.writes()
			out, code := w.run(nil, "apply", "-input=false", "-no-color", "tfplan")
			if code == 0 {
				t.Fatalf("apply tfplan succeeded after a subscription appeared, want it stopped:\n%s", out)
			}
			expectOutput(t, "apply tfplan", out, true, "Provider produced inconsistent final plan", ".takeover",
				newcomer, "The first apply deletes 4 subscriptions")
			if wr := m.writes().minus(before); wr.total() != 0 {
				t.Fatalf("the stopped apply made %s, want none", wr)
			}
			if got, want := savedPlanMockIDs(m), slices.Sorted(slices.Values(append(slices.Clone(deleted), newcomer))); !slices.Equal(got, want) {
				t.Fatalf("after the stopped apply the topic holds %v, want %v", got, want)
			}
			if _, _, ok := savedPlanState(t, w, scope.addr); ok {
				t.Fatal("the stopped apply left the resource in state")
			}

			w.mustRun(nil, "plan", "-out=tfplan", "-input=false", "-no-color")
			gotDeletes, _, known := savedPlanTakeover(t, w.mustRun(nil, "show", "-json", "-no-color", "tfplan"), scope.addr)
			if want := slices.Sorted(slices.Values(append(slices.Clone(deleted), newcomer))); !known || !slices.Equal(gotDeletes, want) {
				t.Fatalf("the next plan's takeover.deletes: %v (known %t), want %v", gotDeletes, known, want)
			}
			w.mustRun(nil, "apply", "-input=false", "-no-color", "tfplan")
			ids, _, _ := savedPlanState(t, w, scope.addr)
			if got := savedPlanMockIDs(m); len(ids) != 1 || !slices.Equal(got, sortedValues(ids)) {
				t.Fatalf("after the apply the topic holds %v, state %v", got, ids)
			}
			w.mustRun(nil, "destroy", "-auto-approve", "-input=false", "-no-color")
			if got := m.mockIDs(testAccount); len(got) != 0 {
				t.Fatalf("after destroy the account holds %v", got)
			}
		})
	}
}

// TestAccSavedPlan_destroyLeavesNewcomer (issue 37, item 2): a saved `plan -destroy` of the
// account resource shows the 2 subscriptions of its state; a 3rd is made by hand before
// `apply tfplan`. The destroy deletes the 2 by id (no deleteSubscriptionForAccount, which would
// take the newcomer too) and warns, naming the newcomer in the summary; the account holds the
// newcomer alone. With nothing made in between, the destroy is the one request of operation 4.
func TestAccSavedPlan_destroyLeavesNewcomer(t *testing.T) {
	for _, newcomer := range []bool{true, false} {
		t.Run(fmt.Sprintf("newcomer=%t", newcomer), func(t *testing.T) {
			m := newTestMock(t)
			w := newCLIWorkspace(t, m)
			scope := savedPlanScopes[0]
			w.write("versions.tf", requiredProviders)
			w.write("main.tf", scope.config(savedPlanEntry{key: "errors", event: "ATOM.STATUS", level: "ERROR"},
				savedPlanEntry{key: "info", event: "ATOM.STATUS", level: "INFO"}))
			w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
			w.mustRun(nil, "plan", "-destroy", "-out=tfplan", "-input=false", "-no-color")
			var extra string
			if newcomer {
				extra = m.PutSubscription(testAccount, onTopic(savedPlanTopic, "flow.deployed", "WARNING")).SubscriptionID
			}
			deleteAll := m.Count("DELETE", mockserver.RouteSubscriptions)
			out := w.mustRun(nil, "apply", "-input=false", "-no-color", "tfplan")
			opFour := m.Count("DELETE", mockserver.RouteSubscriptions) - deleteAll
			switch {
			case newcomer:
				want := "Warning: Subscription " + extra + " was left alone: the plan did not name it"
				if !slices.Contains(providerWarnings(out), strings.TrimPrefix(want, "Warning: ")) {
					t.Errorf("the destroy's warnings %q lack %q:\n%s", providerWarnings(out), want, out)
				}
				if got := m.mockIDs(testAccount); !slices.Equal(got, []string{extra}) || opFour != 0 {
					t.Fatalf("after the destroy the account holds %v (operation 4 sent %d times), want %s alone, by id",
						got, opFour, extra)
				}
			default:
				if got := m.mockIDs(testAccount); len(got) != 0 || opFour != 1 || len(providerWarnings(out)) != 0 {
					t.Fatalf("after the destroy the account holds %v, operation 4 sent %d times, warnings %q; want none, once, none",
						got, opFour, providerWarnings(out))
				}
			}
		})
	}
}

// TestAccSavedPlan_staleState (issue 37, item 4): the resource holds 3 entries; a saved plan
// changes the level of one; before `apply tfplan`, another entry's subscription is deleted by
// hand and the third's disabled by hand. The apply writes the change, writes the disabled one
// as planned (enabled again, with a warning naming it), creates the deleted one again and
// fails naming its old and new ids, which the state then holds: every id in state is the
// service's, the mock holds exactly what the state holds, the next plan is empty, and nothing
// is left after destroy. The apply lists the account once.
func TestAccSavedPlan_staleState(t *testing.T) {
	for _, scope := range savedPlanScopes {
		t.Run(scope.name, func(t *testing.T) {
			m := newTestMock(t)
			w := newCLIWorkspace(t, m)
			w.write("versions.tf", requiredProviders)
			entries := []savedPlanEntry{{key: "changed", event: "ATOM.STATUS", level: "INFO"},
				{key: "deleted", event: "PROCESS.EXECUTION", level: "ERROR"}, {key: "disabled", event: "ATOM.DEPLOYMENT", level: "WARNING"}}
			w.write("main.tf", scope.config(entries...))
			w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
			before, _, _ := savedPlanState(t, w, scope.addr)

			entries[0].level = "ERROR"
			w.write("main.tf", scope.config(entries...))
			w.mustRun(nil, "plan", "-out=tfplan", "-input=false", "-no-color")
			if !m.DeleteSubscriptionDirect(testAccount, before["deleted"]) ||
				!m.ModifySubscription(testAccount, before["disabled"], func(s *mockserver.Subscription) { s.Enabled = false }) {
				t.Fatal("the mock does not hold the applied subscriptions")
			}
			lists := m.listRequests()
			out, code := w.run(nil, "apply", "-input=false", "-no-color", "tfplan")
			if code == 0 {
				t.Fatalf("apply tfplan succeeded although an entry's subscription was deleted since the plan:\n%s", out)
			}
			if n := m.listRequests() - lists; n != 1 {
				t.Errorf("the apply listed the account %d times, want 1", n)
			}
			after, _, _ := savedPlanState(t, w, scope.addr)
			expectOutput(t, "apply tfplan", out, true,
				"Error: Subscription "+before["deleted"]+` of entry "deleted" was deleted since the plan`, after["deleted"],
				"Warning: Subscription "+before["disabled"]+` of entry "disabled" was changed since the plan`)
			if after["deleted"] == before["deleted"] || after["changed"] != before["changed"] || after["disabled"] != before["disabled"] {
				t.Fatalf("state after the apply holds %v (before %v): want the deleted entry's new id, the others' as they were", after, before)
			}
			if got := savedPlanMockIDs(m); !slices.Equal(got, sortedValues(after)) {
				t.Fatalf("after the apply the mock holds %v, state %v", got, after)
			}
			for key, want := range map[string]func(mockserver.Subscription) bool{
				"changed":  func(s mockserver.Subscription) bool { return s.LogLevel == "ERROR" && s.Enabled },
				"disabled": func(s mockserver.Subscription) bool { return s.Enabled },
			} {
				if s, ok := mockSubscriptionByID(m, after[key]); !ok || !want(s) {
					t.Errorf("entry %s's subscription on the mock is %+v, not as planned", key, s)
				}
			}
			if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
				t.Fatalf("the plan after the apply is not empty (exit %d):\n%s", code, out)
			}
			w.mustRun(nil, "destroy", "-auto-approve", "-input=false", "-no-color")
			if got := m.mockIDs(testAccount); len(got) != 0 {
				t.Fatalf("after destroy the account holds %v", got)
			}
		})
	}
}
