package provider

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// renameSample is the account resource page's sample plan of a key rename.
const renameSample = "../../examples/resources/eventnotify_account_subscriptions/rename-plan.txt"

// renameConfig is the configuration of the sample: one entry under key.
func renameConfig(key string) string {
	return `resource "eventnotify_account_subscriptions" "all" {
  subscriptions = {
    ` + key + ` = {
      event_name       = "PROCESS.EXECUTION"
      destination_type = "EVENT_STREAMS"
      log_level        = "ERROR"

      event_streams_environment_id   = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
      event_streams_environment_name = "Production"
      event_streams_topic            = "process-alerts"
    }
  }
}
`
}

// planBody is the part of a plan's output from the first resource line ("  # ...") to the
// "Plan:" line, with the workspace's account and subscription ids replaced by the page's
// placeholders.
func planBody(out, account, id string) string {
	start := strings.Index(out, "  # ")
	end := strings.Index(out, "Plan: ")
	if start < 0 || end < start {
		return ""
	}
	if nl := strings.IndexByte(out[end:], '\n'); nl >= 0 {
		end += nl + 1
	}
	// The page's code block starts at the "#" (tfplugindocs trims the file), so the sample is
	// dedented by the plan's two-space margin.
	body := regexp.MustCompile(`(?m)^  `).ReplaceAllString(out[start:end], "")
	body = strings.ReplaceAll(body, `"`+account+`"`, `"my-account-id"`)
	body = strings.ReplaceAll(body, `"`+testUser+`"`, `"jane.doe@example.com"`)
	body = strings.ReplaceAll(body, id, "3fa85f64-5717-4562-b3fc-2c963f66afa6")
	return unixMillis.ReplaceAllString(body, "1735689600000")
}

// unixMillis matches a time in Unix milliseconds, such as created_date.
var unixMillis = regexp.MustCompile(`\b1[0-9]{12}\b`)

// TestAccDocsAccountKeyRenamePlan renames a key of eventnotify_account_subscriptions as the
// resource page's sample does, and checks that the plan is the page's sample (a removal and
// an addition under the same id, one resource to change) and that the apply sends no request
// that changes the service. REGENERATE_DOCS_SAMPLES=1 writes the sample from the plan.
func TestAccDocsAccountKeyRenamePlan(t *testing.T) {
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	w.write("versions.tf", requiredProviders)
	w.write("main.tf", renameConfig("process_errors"))
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	subs := m.Subscriptions(testAccount)
	if len(subs) != 1 {
		t.Fatalf("the mock holds %d subscriptions, want 1", len(subs))
	}

	w.write("main.tf", renameConfig("process_failures"))
	out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	got := planBody(out, testAccount, subs[0].SubscriptionID)
	if code != 2 || got == "" {
		t.Fatalf("the rename plans no change (exit %d):\n%s", code, out)
	}
	if os.Getenv("REGENERATE_DOCS_SAMPLES") != "" {
		if err := os.WriteFile(renameSample, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(renameSample)
	if err != nil {
		t.Fatal(err)
	}
	// OpenTofu names itself where Terraform does; the plan is otherwise the same.
	norm := regexp.MustCompile(`OpenTofu|Terraform`)
	if norm.ReplaceAllString(got, "CLI") != norm.ReplaceAllString(string(want), "CLI") {
		t.Errorf("the plan of a key rename is not the page's sample (%s):\n--- got\n%s\n--- want\n%s", renameSample, got, want)
	}

	m.ResetCounters()
	w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	if n := writes(m); n != 0 {
		t.Errorf("the apply of a key rename sent %d writes to the service, want none (the page says it writes nothing)", n)
	}
	if after := m.Subscriptions(testAccount); len(after) != 1 || after[0] != subs[0] {
		t.Errorf("the rename changed the subscription on the service:\nbefore %+v\nafter  %+v", subs, after)
	}
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Errorf("plan after the rename is not empty (exit %d):\n%s", code, out)
	}

	// What the page sets a rename apart from: a new entry's id is unknown until the apply.
	w.write("main.tf", strings.Replace(renameConfig("process_failures"), "    process_failures = {",
		"    atom_status = {\n      event_name          = \"ATOM.STATUS\"\n      destination_type    = \"EVENT_STREAMS\"\n"+
			"      log_level           = \"WARNING\"\n      event_streams_topic = \"platform-events\"\n    }\n    process_failures = {", 1))
	out = w.mustRun(nil, "plan", "-input=false", "-no-color")
	if !regexp.MustCompile(`\+ "atom_status" = \{[^}]*\+ id +?= \(known after apply\)`).MatchString(out) {
		t.Errorf("a new entry's id is not unknown in the plan, as the page says:\n%s", out)
	}
}
