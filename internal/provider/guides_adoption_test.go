package provider

import (
	"regexp"
	"strings"
	"testing"
)

// adoptionGuide is the adoption guide as the Registry serves it.
const adoptionGuide = "../../docs/guides/adopting-existing-subscriptions.md"

// adoptionWays are the rows of the guide's "Start here" table, in order: for each CLI, the way
// that needs the least hand-written HCL, and the anchor of its section.
var adoptionWays = []struct{ cli, way, anchor string }{
	{"Terraform 1.14 and later", "`terraform query -generate-config-out`", "by-query"},
	{"Terraform 1.7 and later, OpenTofu 1.7 and later", "`for_each`", "by-for-each"},
	{"Terraform 1.5 and 1.6, OpenTofu 1.6", "`-generate-config-out`", "by-generated-configuration"},
}

// inPageLink matches a link to an anchor of the same page.
var inPageLink = regexp.MustCompile(`\]\(#([^)]+)\)`)

// TestDocsAdoptionGuideLeadsWithLeastHCL checks the adoption guide's structure: it opens with
// the table that sends each CLI to the way needing the least hand-written HCL, newest CLI
// first; the ways' sections follow in the table's order; every link within the page reaches an
// anchor of it; and no code block is shown twice (the move recipes share one common part and
// show each file once).
func TestDocsAdoptionGuideLeadsWithLeastHCL(t *testing.T) {
	page := readPage(t, adoptionGuide)
	_, body, _ := strings.Cut(page, "\n# ")
	first := regexp.MustCompile(`(?m)^## .*$`).FindString(body)
	if first != "## Start here: the way for your CLI" {
		t.Fatalf("%s: the first section is %q, want the table of ways by CLI", adoptionGuide, first)
	}
	var rows []string
	for _, l := range strings.Split(pageSection(page, first), "\n") {
		if strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "| Your CLI") && !strings.HasPrefix(l, "| |") {
			rows = append(rows, l)
		}
	}
	if len(rows) < len(adoptionWays) {
		t.Fatalf("%s: the table has %d rows, want at least %d:\n%s", adoptionGuide, len(rows), len(adoptionWays), strings.Join(rows, "\n"))
	}
	last := -1
	for i, w := range adoptionWays {
		if !strings.HasPrefix(rows[i], "| "+w.cli+" |") || !strings.Contains(rows[i], w.way) || !strings.Contains(rows[i], "(#"+w.anchor+")") {
			t.Errorf("%s: row %d of the table is\n%s\nwant %s sent to %s, linked to #%s", adoptionGuide, i+1, rows[i], w.cli, w.way, w.anchor)
		}
		at := strings.Index(page, `<a id="`+w.anchor+`"></a>`)
		if at < last {
			t.Errorf("%s: the section #%s comes before the one of the row above it", adoptionGuide, w.anchor)
		}
		last = at
	}
	for _, m := range inPageLink.FindAllStringSubmatch(page, -1) {
		if !strings.Contains(page, `<a id="`+m[1]+`"></a>`) {
			t.Errorf("%s links to #%s, which no <a id> of the page holds (the Registry's heading anchors differ from GitHub's)", adoptionGuide, m[1])
		}
	}
	seen := map[string]bool{}
	for _, block := range fencedCode.FindAllString(page, -1) {
		if strings.HasPrefix(strings.TrimSpace(block), "```terraform") && seen[block] {
			t.Errorf("%s shows this code block twice: show it once and refer to it\n%s", adoptionGuide, block)
		}
		seen[block] = true
	}
	moves := pageSection(page, "## Moving between per-subscription resources and the account or topic resource")
	for _, shared := range []string{"`removed` block with `lifecycle { destroy = false }`", "Never delete the old resource blocks",
		"Plan: N to import, 0 to add, 0 to change, 0 to destroy"} {
		if strings.Count(moves, shared) != 1 {
			t.Errorf("%s: the moves' common part says %q %d times, want once", adoptionGuide, shared, strings.Count(moves, shared))
		}
	}
}
