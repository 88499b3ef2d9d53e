package provider

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestDocsActionPages checks the actions' pages, which are written by hand (templates/actions)
// because only Terraform 1.14 and later render actions: each carries the schema's description,
// shows its examples as they are, and lists every argument of the schema with its type and
// description under Optional, and nothing else.
func TestDocsActionPages(t *testing.T) {
	schemas := providerSchemas(t)
	if len(schemas.ActionSchemas) != 2 {
		t.Errorf("the provider serves %d actions, want 2 (a page each)", len(schemas.ActionSchemas))
	}
	deployment := "../../examples/actions/eventnotify_disable_subscriptions/deployment.tf"
	deploymentFailure := "../../examples/actions/eventnotify_disable_subscriptions/deployment-failure.tf"
	for _, name := range []string{disableActionType, enableActionType} {
		t.Run(name, func(t *testing.T) {
			page := "../../docs/actions/" + strings.TrimPrefix(name, "eventnotify_") + ".md"
			text := readPage(t, page)
			as := schemas.ActionSchemas[name]
			if as == nil {
				t.Fatalf("the provider serves no %s action", name)
			}
			desc := strings.TrimSpace(as.Schema.Block.Description)
			if !strings.Contains(text, "\n\n"+desc+"\n\n") {
				t.Errorf("%s does not carry the action's description as a paragraph:\n%s", page, desc)
			}
			if got, want := frontMatterDescription(text), strings.ReplaceAll(desc, "`", ""); got != want {
				t.Errorf("%s: the front matter's description is\n%s\nwant the description in plain text\n%s", page, got, want)
			}
			for _, example := range []string{"../../examples/actions/" + name + "/action.tf", deployment, deploymentFailure} {
				body, err := os.ReadFile(example)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(text, "```terraform\n"+strings.TrimSpace(string(body))+"\n```") {
					t.Errorf("%s does not show %s as it is", page, example)
				}
			}
			var want []string
			for _, a := range as.Schema.Block.Attributes {
				want = append(want, fmt.Sprintf("- `%s` (%s) %s", a.Name, actionArgumentType(t, a.Type), a.Description))
			}
			slices.Sort(want)
			got := bulletLines(pageSection(pageSection(text, "## Schema"), "### Optional"))
			if !slices.Equal(got, want) {
				t.Errorf("%s: the arguments under ## Schema, ### Optional are\n%s\nwant, from the schema,\n%s", page,
					strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			for _, must := range []string{"OpenTofu has no actions", "-invoke=action." + name + ".", "ignore_changes = [enabled]",
				"| `events`: `before_destroy`, `after_destroy` | 1.16 and later |", "Terraform 1.14 and 1.15 skip the actions"} {
				if !strings.Contains(text, must) {
					t.Errorf("%s does not say %q", page, must)
				}
			}
		})
	}
}

// actionArgumentType is the type of an argument as tfplugindocs writes it.
func actionArgumentType(t *testing.T, typ tftypes.Type) string {
	t.Helper()
	if typ.Is(tftypes.List{ElementType: tftypes.String}) {
		return "List of String"
	}
	return tfplugindocsType(t, typ)
}
