package provider

import (
	"strings"
	"testing"
)

// TestAccGuideFromRestapi runs the guide "Switching from the REST provider" as it is written,
// from the state that the REST provider wrote under the acceptance CLI's kind (the REST
// provider itself is the tests' stand-in, restapi_stub_test.go): the plan of step 3 shows the
// move and no change, the apply of step 4 sends no write, and after step 5 the plan is clean
// and the state holds the same subscription.
func TestAccGuideFromRestapi(t *testing.T) {
	m := newTestMock(t)
	w := restapiMoveWorkspace(t, m)
	w.require(featureMoveAcrossTypes)
	file := recordedRestapiStates[0]
	if w.cli.OpenTofu() {
		file = recordedRestapiStates[1]
	}
	id, _ := seedRecordedRestapiState(t, w, m, file, true, nil)

	w.copyExact("../../examples/guides/from-restapi/providers.tf", "providers.tf")
	w.copyExact("../../examples/guides/from-restapi/main.tf", "main.tf")
	w.mustRun(nil, "init", "-input=false", "-no-color")
	out := w.mustRun(nil, "plan", "-input=false", "-no-color")
	for _, want := range []string{"# restapi_object.atom_status has moved to eventnotify_subscription.atom_status",
		"Plan: 0 to add, 0 to change, 0 to destroy."} {
		if !strings.Contains(out, want) {
			t.Fatalf("the guide says the plan shows %q:\n%s", want, out)
		}
	}
	m.ResetCounters()
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	if n := writes(m); n != 0 {
		t.Errorf("the guide says the apply sends no write; it sent %d", n)
	}

	w.copyExact("../../examples/guides/providers/providers.tf", "providers.tf")
	w.copyExact("../../examples/guides/from-restapi-done/main.tf", "main.tf")
	w.mustRun(nil, "init", "-input=false", "-no-color")
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("the guide says the plan after step 5 shows no changes; it exits %d:\n%s", code, out)
	}
	if show := w.mustRun(nil, "state", "show", "-no-color", "eventnotify_subscription.atom_status"); !strings.Contains(show, `"`+id+`"`) {
		t.Errorf("the state does not hold subscription %s:\n%s", id, show)
	}
}
