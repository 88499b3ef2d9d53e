package provider

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"
)

// compatibilityRows are the rows of the docs' version tables that a cliFeature states: the file,
// how the row's first cell starts, and the feature whose versions its Terraform and OpenTofu
// cells must give. The acceptance tests skip by these features, so a row that says otherwise
// would promise what no test ran.
var compatibilityRows = []struct {
	file, row string
	feature   cliFeature
}{
	{"index.md.tmpl", "`import` blocks with `for_each`", featureForEachImport},
	{"index.md.tmpl", "Functions `provider::eventnotify::notifies`", featureProviderFunctions},
	{"index.md.tmpl", "Ephemeral resource `eventnotify_jwt`", featureEphemeralResources},
	{"index.md.tmpl", "Ephemeral input variables", featureEphemeralVariables},
	{"index.md.tmpl", "Resource identity", featureResourceIdentity},
	{"index.md.tmpl", "List resources", featureListResources},
	{"index.md.tmpl", "`for_each` on provider blocks", featureProviderForEach},
	{"index.md.tmpl", "`moved` from the REST provider's `restapi_object`", featureMoveAcrossTypes},
	{"guides/testing-modules.md.tmpl", "the provider's functions", featureProviderFunctions},
}

// TestCompatibilityTables holds each row of compatibilityRows to its feature: "1.8 and later"
// for a feature since 1.8.0, "not available" for a CLI without it.
func TestCompatibilityTables(t *testing.T) {
	pages := map[string]string{}
	for _, r := range compatibilityRows {
		if _, ok := pages[r.file]; !ok {
			b, err := os.ReadFile("../../templates/" + r.file)
			if err != nil {
				t.Fatal(err)
			}
			pages[r.file] = string(b)
		}
		cells := tableRow(pages[r.file], r.row)
		if cells == nil {
			t.Errorf("templates/%s: no table row starts with %q", r.file, r.row)
			continue
		}
		if len(cells) != 3 {
			t.Errorf("templates/%s, row %q: %d cells, want 3 (feature, Terraform, OpenTofu)", r.file, r.row, len(cells))
			continue
		}
		for i, want := range []string{versionCell(r.feature.terraform), versionCell(r.feature.opentofu)} {
			if cells[i+1] != want {
				t.Errorf("templates/%s, row %q: %s cell %q, want %q (%s)", r.file, r.row, []string{"Terraform", "OpenTofu"}[i], cells[i+1], want, r.feature.what)
			}
		}
	}
}

// tableRow returns the cells of the first Markdown table row of page whose first cell starts
// with prefix, or nil.
func tableRow(page, prefix string) []string {
	for _, line := range strings.Split(page, "\n") {
		if !strings.HasPrefix(line, "| "+prefix) {
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), " | ")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		return cells
	}
	return nil
}

// versionCell is how a version table states a feature's first version: "1.8 and later" for
// 1.8.0, "1.9.8 and later" for 1.9.8, "not available" for none.
func versionCell(since string) string {
	if since == "" {
		return "not available"
	}
	v := version.Must(version.NewVersion(since))
	s := v.Segments()
	if s[2] == 0 {
		return fmt.Sprintf("%d.%d and later", s[0], s[1])
	}
	return since + " and later"
}
