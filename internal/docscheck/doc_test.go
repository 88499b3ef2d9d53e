package docscheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocs checks every page under docs/ the way the Terraform Registry renders
// it; make test runs it, so a page that renders wrong fails CI.
func TestDocs(t *testing.T) {
	var pages []string
	err := filepath.WalkDir("../../docs", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			pages = append(pages, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 5 {
		t.Fatalf("found only %d pages under docs/: %v", len(pages), pages)
	}
	for _, page := range pages {
		name, _ := filepath.Rel("../..", page)
		src, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range Check(src) {
			t.Errorf("%s: %s (fix it in templates/ or examples/, then run make docs)", name, p)
		}
	}
}

// TestCheck shows what the checker accepts and what it reports.
func TestCheck(t *testing.T) {
	cases := []struct {
		name string
		page string
		want []string // one substring per problem, in order
	}{
		{
			name: "clean page with front matter",
			page: "---\npage_title: \"x\"\ndescription: |-\n  y\n---\n\n# Title\n\n## Part\n\n```hcl\n# a comment\nx = 1\n```\n\n" +
				"1. Step:\n\n   ```sh\n   terraform plan\n   ```\n\n[guide](https://registry.terraform.io/providers/a/b/latest/docs/guides/ci) " +
				"[anchor](#part) [README](https://github.com/a/b/blob/main/README.md)\n\n    indented code\n",
		},
		{
			name: "fence in a list item cut short by unindented lines",
			page: "# Title\n\n1. Render:\n\n   ```terraform\n# Step 1 of something\ndata \"x\" \"y\" {}\n```\n",
			want: []string{
				"line 5: empty fenced code block (terraform)",
				`line 6: second top-level heading "Step 1 of something"`,
				"after line 7: empty fenced code block (without a language)", // the stray closing fence opens a block
			},
		},
		{
			name: "empty blocks",
			page: "# Title\n\n```\n```\n\n~~~sh\n\n~~~\n",
			want: []string{"after line 1: empty fenced code block (without a language)", "line 6: empty fenced code block (sh)"},
		},
		{
			name: "relative links to .md files",
			page: "# Title\n\nSee the [CI guide](guides/ci.md), [this](../index.md#auth) and [that](./x.MD?a=b).\n",
			want: []string{"line 3: relative link to a .md file (guides/ci.md)", "(../index.md#auth)", "(./x.MD?a=b)"},
		},
		{
			name: "front matter counts in line numbers",
			page: "---\npage_title: x\n---\n# A\n\n# B\n",
			want: []string{`line 6: second top-level heading "B"`},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Check([]byte(tc.page))
			if len(got) != len(tc.want) {
				t.Fatalf("got %d problems, want %d: %v", len(got), len(tc.want), got)
			}
			for i, p := range got {
				if !strings.Contains(p.String(), tc.want[i]) {
					t.Errorf("problem %d = %q, want it to contain %q", i, p, tc.want[i])
				}
			}
		})
	}
}
