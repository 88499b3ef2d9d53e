package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// exampleSubscriptionID is the id the data source example reads.
const exampleSubscriptionID = "3fa85f64-5717-4562-b3fc-2c963f66afa6"

// TestAccExamples applies every resource, data source and function example
// that the docs show, and the quick start, with the Terraform CLI against the mock:
// each applies, plans empty a second time, and destroys what it created.
func TestAccExamples(t *testing.T) {
	files, err := filepath.Glob("../../examples/*/*/*.tf")
	if err != nil {
		t.Fatal(err)
	}
	var examples []string
	for _, f := range files {
		if base := filepath.Base(f); base == "resource.tf" || base == "data-source.tf" || base == "function.tf" {
			examples = append(examples, f)
		}
	}
	examples = append(examples, "../../examples/quickstart/main.tf")
	if len(examples) < 7 {
		t.Fatalf("found only %d examples under examples/: %v", len(examples), examples)
	}
	for _, file := range examples {
		name, _ := filepath.Rel("../../examples", file)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			m := newTestMock(t)
			seed := m.PutSubscription(testAccount, mockserver.Subscription{
				SubscriptionID: exampleSubscriptionID, EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS",
				LogLevel: "ERROR", EventStreamsTopic: "alerts", Enabled: true,
			})
			w := newCLIWorkspace(t, m)
			if filepath.Base(file) == "function.tf" {
				w.require(featureProviderFunctions)
			}
			w.copyFile(file, "main.tf")
			w.applyPlanDestroy([]string{"TF_VAR_audit_account_id=acc-audit"}, nil)
			for _, account := range []string{testAccount, "acc-audit"} {
				for _, s := range m.Subscriptions(account) {
					if s.SubscriptionID != seed.SubscriptionID {
						t.Errorf("after destroy, account %s still holds subscription %s (%s)", account, s.SubscriptionID, s.EventName)
					}
				}
			}
		})
	}
}

// TestExamplesLookReal checks what a newcomer copies from the examples, the
// guides, the docs and the README: every EVENT_STREAMS subscription names its
// environment and its topic, and every required_providers block uses the
// compatibility policy's version constraint.
func TestExamplesLookReal(t *testing.T) {
	files, err := filepath.Glob("../../examples/*/*/*.tf")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../../examples/*/*.tf")
	files = append(files, more...)
	sources := map[string][]byte{}
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sources[f] = body
	}
	pages, _ := filepath.Glob("../../docs/*.md")
	more, _ = filepath.Glob("../../docs/*/*.md")
	for _, page := range append(pages, more...) {
		body, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for i, block := range hclCodeBlocks(string(body)) {
			sources[fmt.Sprintf("%s (HCL block %d)", page, i+1)] = []byte(block)
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for i, block := range hclCodeBlocks(string(readme)) {
		sources[fmt.Sprintf("README.md (HCL block %d)", i+1)] = []byte(block)
	}
	if len(sources) < 10 {
		t.Fatalf("found only %d examples: %v", len(sources), files)
	}
	var subscriptions, pins int
	for name, src := range sources {
		file, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
		if diags.HasErrors() {
			t.Errorf("%s: %s", name, diags.Error())
			continue
		}
		for _, block := range file.Body.(*hclsyntax.Body).Blocks {
			switch {
			case block.Type == "resource" && len(block.Labels) == 2 && block.Labels[0] == "eventnotify_subscription":
				attrs := block.Body.Attributes
				if literalString(attrs["destination_type"]) != "EVENT_STREAMS" {
					continue
				}
				subscriptions++
				if attrs["event_streams_topic"] == nil {
					t.Errorf("%s: EVENT_STREAMS subscription %q names no event_streams_topic", name, block.Labels[1])
				}
				if attrs["event_streams_environment_id"] == nil && attrs["event_streams_environment_name"] == nil {
					t.Errorf("%s: EVENT_STREAMS subscription %q names no event streams environment", name, block.Labels[1])
				}
			case block.Type == "terraform":
				for _, inner := range block.Body.Blocks {
					if inner.Type != "required_providers" || inner.Body.Attributes["eventnotify"] == nil {
						continue
					}
					pins++
					v, diags := inner.Body.Attributes["eventnotify"].Expr.Value(nil)
					if diags.HasErrors() || !v.Type().IsObjectType() || !v.Type().HasAttribute("version") {
						t.Errorf("%s: required_providers does not pin the eventnotify provider's version (version = %q)", name, compatibleVersions)
						continue
					}
					// The README is the lead's to edit: it is held to the policy once it states it.
					if got := v.GetAttr("version"); got.Type() == cty.String && got.AsString() != compatibleVersions &&
						(!strings.HasPrefix(name, "README.md") || strings.Contains(string(readme), compatibleVersions)) {
						t.Errorf("%s: required_providers has version = %q; the compatibility policy asks for %q", name, got.AsString(), compatibleVersions)
					}
				}
			}
		}
	}
	if subscriptions < 5 || pins < 3 {
		t.Errorf("checked only %d EVENT_STREAMS subscriptions and %d required_providers blocks: did the examples move?", subscriptions, pins)
	}
}

// literalString is the value of an attribute that is a literal string, else "".
func literalString(attr *hclsyntax.Attribute) string {
	if attr == nil {
		return ""
	}
	v, diags := attr.Expr.Value(nil)
	if diags.HasErrors() || v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return ""
	}
	return v.AsString()
}

// hclCodeBlocks returns the bodies of the ```hcl and ```terraform blocks of a
// Markdown text.
func hclCodeBlocks(markdown string) []string {
	var blocks []string
	var cur []string
	in := false
	for _, line := range strings.Split(markdown, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case !in && (trimmed == "```hcl" || trimmed == "```terraform"):
			in, cur = true, nil
		case in && trimmed == "```":
			in = false
			blocks = append(blocks, strings.Join(cur, "\n"))
		case in:
			cur = append(cur, line)
		}
	}
	return blocks
}
