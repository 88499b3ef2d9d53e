package provider

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// guideInputs are the attributes a guide's resource must carry: every input of a subscription
// (those of an entry of eventnotify_account_subscriptions but its id), in table order.
func guideInputs() []string {
	var names []string
	for _, s := range inputSamples() {
		names = append(names, s.attr.name)
	}
	return names
}

// guidesCreatingSubscriptions are the guides' examples whose eventnotify_subscription
// resources create new subscriptions with values the guide chooses, by path, with the reason.
// Such a resource sets every required input, and the optional ones the guide's point needs:
// one that a user writes from scratch loses nothing it leaves unset, so a new optional input
// takes no edit there. A guide that takes existing subscriptions over (an import or removed
// block in its directory) is never one of them: it must carry every input, or a user who
// follows it loses a field.
var guidesCreatingSubscriptions = map[string]string{
	"examples/guides/who-is-notified/main.tf": "creates the on-call team's two subscriptions from chosen values",
}

// guideFile is one HCL file of the guides' examples, parsed.
type guideFile struct {
	path string
	body *hclsyntax.Body
}

// parseGuides parses every .tf file under examples/guides.
func parseGuides(t *testing.T) []guideFile {
	t.Helper()
	paths, err := filepath.Glob("../../examples/guides/*/*.tf")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no guide examples found: %v", err)
	}
	var out []guideFile
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, diags := hclsyntax.ParseConfig(src, p, hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", p, diags.Error())
		}
		out = append(out, guideFile{path: filepath.ToSlash(p[len("../../"):]), body: f.Body.(*hclsyntax.Body)})
	}
	return out
}

// TestGuidesCarryEveryInput reads the guides' examples (examples/guides/*/*.tf) as HCL: every
// eventnotify_subscription resource they declare sets every input of a subscription, one that
// copies a value from each.value copies the attribute of its own name, and a list of argument
// names in a locals block (the adoption guide's, from which step 2's literal map is written)
// names every input. A guide that leaves an input out would lose it for a user who follows it,
// and the guide tests' plans do not see that while their seed carries only some fields; the
// failure names the guide file and the input. A guide that creates new subscriptions from
// chosen values (guidesCreatingSubscriptions) sets the required inputs only, and may not
// import or forget resources.
func TestGuidesCarryEveryInput(t *testing.T) {
	inputs := guideInputs()
	guides := parseGuides(t)
	moving := guidesMovingSubscriptions(guides)
	for path, reason := range guidesCreatingSubscriptions {
		if !slices.ContainsFunc(guides, func(g guideFile) bool { return g.path == path }) {
			t.Errorf("guidesCreatingSubscriptions names %s (%s), which is no guide example: remove it", path, reason)
		}
		if moving[filepath.Dir(path)] {
			t.Errorf("guidesCreatingSubscriptions names %s (%s), but its directory imports or forgets resources: a guide that "+
				"takes existing subscriptions over must set every input", path, reason)
		}
	}
	var resources, lists int
	for _, g := range guides {
		_, creating := guidesCreatingSubscriptions[g.path]
		for _, block := range g.body.Blocks {
			switch {
			case block.Type == "resource" && len(block.Labels) == 2 && block.Labels[0] == "eventnotify_subscription":
				addr := block.Labels[0] + "." + block.Labels[1]
				if !creating {
					resources++
				}
				for _, name := range inputs {
					a, ok := block.Body.Attributes[name]
					if !ok && creating && !isRequiredInput(name) {
						continue
					}
					if !ok {
						t.Errorf("%s: resource %s does not set %s, an input of the subscription: a user who follows the guide loses it",
							g.path, addr, name)
						continue
					}
					if from, ok := eachValueAttribute(a.Expr); ok && from != name {
						t.Errorf("%s: resource %s sets %s from each.value.%s", g.path, addr, name, from)
					}
				}
			case block.Type == "locals":
				for _, a := range block.Body.Attributes {
					names, ok := stringList(a.Expr)
					if !ok || !slices.ContainsFunc(names, func(n string) bool { return slices.Contains(inputs, n) }) {
						continue
					}
					lists++
					for _, name := range inputs {
						if !slices.Contains(names, name) {
							t.Errorf("%s: local.%s lists the subscription's arguments but not %s: the literal map written from it loses it",
								g.path, a.Name, name)
						}
					}
					for _, name := range names {
						if !slices.Contains(inputs, name) {
							t.Errorf("%s: local.%s lists %s, which is no input of the subscription", g.path, a.Name, name)
						}
					}
				}
			}
		}
	}
	// The guides this test is for: adopt-for-each, adopt-for-each-literal (also the main.tf of
	// the move back from the account resource) and topic-subscription-resources (also the
	// main.tf of the move back from the topic resource) declare the resource; adopt-for-each
	// lists the arguments.
	if resources < 3 || lists < 1 {
		t.Errorf("found %d eventnotify_subscription resources that must carry every input and %d argument lists in the guides, want at least 3 and 1",
			resources, lists)
	}
}

// guidesMovingSubscriptions are the directories of the guides' examples that hold an import or
// a removed block: those that take existing subscriptions over or hand them on.
func guidesMovingSubscriptions(guides []guideFile) map[string]bool {
	moving := make(map[string]bool)
	for _, g := range guides {
		for _, block := range g.body.Blocks {
			if block.Type == "import" || block.Type == "removed" {
				moving[filepath.Dir(g.path)] = true
			}
		}
	}
	return moving
}

// isRequiredInput reports whether the input attribute name is required.
func isRequiredInput(name string) bool {
	return slices.ContainsFunc(inputSamples(), func(s inputSample) bool { return s.attr.name == name && s.attr.required })
}

// eachValueAttribute is the attribute name of an expression each.value.<name>.
func eachValueAttribute(expr hclsyntax.Expression) (string, bool) {
	tr, ok := expr.(*hclsyntax.ScopeTraversalExpr)
	if !ok || len(tr.Traversal) != 3 || tr.Traversal.RootName() != "each" {
		return "", false
	}
	v, ok1 := tr.Traversal[1].(hcl.TraverseAttr)
	name, ok2 := tr.Traversal[2].(hcl.TraverseAttr)
	if !ok1 || !ok2 || v.Name != "value" {
		return "", false
	}
	return name.Name, true
}

// stringList is the value of a constant list of strings.
func stringList(expr hclsyntax.Expression) ([]string, bool) {
	if _, ok := expr.(*hclsyntax.TupleConsExpr); !ok {
		return nil, false
	}
	v, diags := expr.Value(nil)
	if diags.HasErrors() || !v.IsWhollyKnown() || v.IsNull() {
		return nil, false
	}
	var out []string
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if e.Type() != cty.String || e.IsNull() {
			return nil, false
		}
		out = append(out, e.AsString())
	}
	return out, true
}
