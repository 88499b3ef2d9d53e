package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// readmeMaxBytes is the README's size limit: a page for users, as the peer providers' are
// (AWS 2.0 KB, PagerDuty 6.9 KB), with the details on the provider page and in the guides.
const readmeMaxBytes = 8 * 1024

// providerPage is the one place for versions and features: the README links to it.
const providerPage = "docs/index.md"

var (
	// markdownLink matches a Markdown link; its text is group 1.
	markdownLink = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	// cliVersion matches a version of Terraform or OpenTofu named in prose, and what follows it.
	cliVersion = regexp.MustCompile(`\b(Terraform|OpenTofu)\s+v?([0-9]+\.[0-9]+(?:\.[0-9]+)?)(\s+(?:or|and)\s+later)?`)
	// pageMinimums is the provider page's statement of the oldest versions the provider works with.
	pageMinimums = regexp.MustCompile(`works with Terraform ([0-9.]+) and later and with OpenTofu ([0-9.]+) and later`)
	// versionsTestedRow matches a row of the provider page's "Versions tested" table.
	versionsTestedRow = regexp.MustCompile(`(?m)^\|\s*(Terraform|OpenTofu)\s*\|(.*)$`)
	// anyVersion matches a version number of two or three parts.
	anyVersion = regexp.MustCompile(`\b[0-9]+\.[0-9]+(?:\.[0-9]+)?\b`)
	// releaseNumber matches a three-part version number standing alone (not a part of an address).
	releaseNumber = regexp.MustCompile(`(^|[^0-9.])([0-9]+\.[0-9]+\.[0-9]+)([^0-9.]|\.?$)`)
)

// prose is a Markdown text without its code blocks, with each link replaced by its text and
// lines joined, so that a phrase broken over two lines or by a link reads as one.
func prose(markdown string) string {
	var out []string
	in := false
	for _, line := range strings.Split(markdown, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			in = !in
			continue
		}
		if !in {
			out = append(out, line)
		}
	}
	return strings.Join(strings.Fields(markdownLink.ReplaceAllString(strings.Join(out, "\n"), "$1")), " ")
}

// readmeDisagreements returns what the README states about versions and features that the
// provider page does not state the same way: an oldest Terraform or OpenTofu version other than
// the page's, another CLI version the page does not name, a table row that is not the page's, a
// release number that is neither the VERSION file's nor on the page.
func readmeDisagreements(readme, page, version string) []string {
	var problems []string
	pageText := prose(page)
	minimums := map[string]string{}
	if m := pageMinimums.FindStringSubmatch(pageText); m != nil {
		minimums["Terraform"], minimums["OpenTofu"] = m[1], m[2]
	} else {
		problems = append(problems, "the provider page does not say which Terraform and OpenTofu versions the provider works with (\"works with Terraform X and later and with OpenTofu Y and later\")")
	}
	pageMentions := map[string]bool{}
	for _, m := range cliVersion.FindAllStringSubmatch(pageText, -1) {
		pageMentions[m[1]+" "+m[2]] = true
	}
	for _, m := range versionsTestedRow.FindAllStringSubmatch(page, -1) {
		for _, v := range anyVersion.FindAllString(m[2], -1) {
			pageMentions[m[1]+" "+v] = true
		}
	}
	text := prose(readme)
	for _, m := range cliVersion.FindAllStringSubmatch(text, -1) {
		switch {
		case m[3] != "" && minimums[m[1]] != "" && m[2] != minimums[m[1]]:
			problems = append(problems, "the README says "+strings.TrimSpace(m[0])+"; the provider page says "+m[1]+" "+minimums[m[1]]+" and later")
		case m[3] == "" && !pageMentions[m[1]+" "+m[2]]:
			problems = append(problems, "the README names "+m[1]+" "+m[2]+", which the provider page does not")
		}
	}
	pageLines := map[string]bool{}
	for _, l := range strings.Split(page, "\n") {
		pageLines[strings.TrimSpace(l)] = true
	}
	for _, l := range strings.Split(readme, "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "|") && !pageLines[l] {
			problems = append(problems, "the README's table row "+l+" is not a row of the provider page (versions and features are stated there only)")
		}
	}
	for _, m := range releaseNumber.FindAllStringSubmatch(text, -1) {
		if n := m[2]; n != version && !strings.Contains(pageText, n) {
			problems = append(problems, "the README names version "+n+", which is neither the VERSION file's ("+version+") nor on the provider page")
		}
	}
	return problems
}

// TestReadmeDisagreements: the comparison finds each kind of disagreement.
func TestReadmeDisagreements(t *testing.T) {
	page := "The provider works with Terraform 1.5 and later and with OpenTofu 1.6 and later.\n\n" +
		"| CLI | Versions tested |\n|---|---|\n| Terraform | 1.5.7, 1.11 |\n\n" +
		"Terraform [1.14](x) and later has list resources.\n"
	tests := []struct {
		name   string
		readme string
		want   string // a part of the one problem expected; "" for none
	}{
		{"the same minimums", "Needs [Terraform](https://x) 1.5 or later\nor OpenTofu 1.6 or later; pin `~> 0.1.0`.", ""},
		{"another Terraform minimum", "Needs Terraform 1.6 or later.", "the provider page says Terraform 1.5 and later"},
		{"another OpenTofu minimum", "Needs OpenTofu 1.7 and later.", "the provider page says OpenTofu 1.6 and later"},
		{"a version the page names", "Tested with Terraform v1.5.7.", ""},
		{"a version the page does not name", "Tested with Terraform 1.16.", "names Terraform 1.16"},
		{"a row of the page", "| Terraform | 1.5.7, 1.11 |", ""},
		{"a row the page lacks", "| Terraform | 1.5.7, 1.11, 1.16 |", "is not a row of the provider page"},
		{"a release number elsewhere", "Since 0.2.0 it batches.", "names version 0.2.0"},
		{"an address", "It listens on 127.0.0.1:8080.", ""},
		{"a code block", "```sh\nterraform version # Terraform 1.99\n```", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := readmeDisagreements(tc.readme, page, "0.1.0")
			switch {
			case tc.want == "" && len(got) > 0:
				t.Errorf("problems %q, want none", got)
			case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
				t.Errorf("problems %q, want one that says %q", got, tc.want)
			}
		})
	}
	if got := readmeDisagreements("Terraform 1.5 or later", "No versions here.", "0.1.0"); len(got) == 0 {
		t.Error("a provider page that states no minimum versions passed")
	}
}

// TestReadmeForUsers: the README stays a page for users, under readmeMaxBytes, and whatever it
// still says about versions and features is what the provider page says; it points to the page,
// to the guides and to the troubleshooting guide's section on the lock file warning of `init`.
func TestReadmeForUsers(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(readme) >= readmeMaxBytes {
		t.Errorf("README.md is %d bytes; it stays under %d: details belong on the provider page (templates/index.md.tmpl), in the guides or in CONTRIBUTING.md", len(readme), readmeMaxBytes)
	}
	page, err := os.ReadFile(providerPage)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range readmeDisagreements(string(readme), string(page), strings.TrimSpace(versionFile)) {
		t.Error(p)
	}
	for _, link := range []string{
		"](" + providerPage + ")",
		"](docs/guides/troubleshooting.md#incomplete-lock-file-information)",
		"](CONTRIBUTING.md)",
		"](LICENSE)",
	} {
		if !strings.Contains(string(readme), link) {
			t.Errorf("README.md has no link %q", link)
		}
	}
	// The two commands: the quick start and the tests (.ci/run runs the README's test command).
	for _, command := range []string{"make demo", "make test"} {
		if !strings.Contains(string(readme), "```sh\n"+command) {
			t.Errorf("README.md has no sh block that starts with %q", command)
		}
	}
	ci, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^make test$`).Match(ci) {
		t.Error(".ci/run does not run `make test`, the README's test command")
	}
}
