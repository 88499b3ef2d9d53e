package provider

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// seedExistingSubscriptions gives the mock subscriptions made outside Terraform.
func seedExistingSubscriptions(m *testMock) []mockserver.Subscription {
	var subs []mockserver.Subscription
	for i, e := range []string{"ATOM.STATUS", "PROCESS.EXECUTION", "ENVIRONMENT.ALERT", "ATOM.STATUS"} {
		subs = append(subs, m.PutSubscription(testAccount, mockserver.Subscription{
			EventName: e, DestinationType: "EVENT_STREAMS", LogLevel: []string{"INFO", "WARNING", "ERROR"}[i%3],
			EventStreamsEnvironment: "env-1", EventStreamsTopic: "topic-" + e, Enabled: i != 3,
		}))
	}
	return subs
}

// checkAdopted asserts the mock still holds exactly the seeded subscriptions,
// unchanged: adoption must neither create, replace nor update anything.
func checkAdopted(t *testing.T, m *testMock, seeded []mockserver.Subscription) {
	t.Helper()
	got := map[string]mockserver.Subscription{}
	for _, s := range m.Subscriptions(testAccount) {
		got[s.SubscriptionID] = s
	}
	if len(got) != len(seeded) {
		t.Fatalf("mock holds %d subscriptions after adoption, want %d", len(got), len(seeded))
	}
	for _, s := range seeded {
		if g, ok := got[s.SubscriptionID]; !ok || g != s {
			t.Errorf("subscription %s changed during adoption:\nbefore %+v\nafter  %+v", s.SubscriptionID, s, g)
		}
	}
}

// TestAccGuideAdoptForEach runs the adoption guide's one-step way: import
// blocks with for_each over the eventnotify_subscriptions data source.
func TestAccGuideAdoptForEach(t *testing.T) {
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	if v := terraformVersion(t, w.tf); v.LessThan(version.Must(version.NewVersion("1.7.0"))) {
		t.Skipf("import blocks with for_each need Terraform 1.7 or later; this is %s (the generate-config guide test covers older versions)", v)
	}
	seeded := seedExistingSubscriptions(m)
	w.copyFile("../../examples/guides/adopt-for-each/main.tf", "main.tf")

	out := w.mustRun(nil, "plan", "-input=false", "-no-color")
	if !strings.Contains(out, "Plan: 4 to import, 0 to add, 0 to change, 0 to destroy.") {
		t.Fatalf("the plan does not import the 4 subscriptions without changes:\n%s", out)
	}
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("plan after adoption is not empty (exit %d):\n%s", code, out)
	}
	checkAdopted(t, m, seeded)
}

// TestAccGuideAdoptGenerateConfig runs the adoption guide's generated
// configuration way, which works from Terraform 1.5 on.
func TestAccGuideAdoptGenerateConfig(t *testing.T) {
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	seeded := seedExistingSubscriptions(m)
	w.copyFile("../../examples/guides/adopt-generate-config/main.tf", "main.tf")

	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	w.write("imports.tf", w.mustRun(nil, "output", "-raw", "import_blocks"))
	out := w.mustRun(nil, "plan", "-generate-config-out=generated.tf", "-input=false", "-no-color")
	if !strings.Contains(out, "Plan: 4 to import, 0 to add, 0 to change, 0 to destroy.") {
		t.Fatalf("the plan does not import the 4 subscriptions without changes:\n%s", out)
	}
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("plan after adoption is not empty (exit %d):\n%s", code, out)
	}
	checkAdopted(t, m, seeded)
}

// terraformVersion asks the terraform binary for its version.
func terraformVersion(t *testing.T, tf string) *version.Version {
	t.Helper()
	out, err := exec.Command(tf, "version", "-json").Output()
	if err != nil {
		t.Fatalf("terraform version: %v", err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("terraform version -json: %v", err)
	}
	return version.Must(version.NewVersion(v.Version))
}
