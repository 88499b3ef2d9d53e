package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// citedFile matches a file that a comment or a developer page cites: a Go file or a Markdown
// page, with or without its folder.
var citedFile = regexp.MustCompile("(^|[\\s(`'\"])([A-Za-z0-9][A-Za-z0-9_./-]*\\.(?:go|md))\\b")

// developerPages are the pages written for whoever changes the code; their citations in
// backticks are checked like the comments' (the user pages under docs/ are checked by
// internal/docscheck).
var developerPages = []string{"BENCHMARKS.md", "CONTRIBUTING.md", "DESIGN.md", "README.md", "SECURITY.md", "SERVICE.md"}

// repoFiles lists the repository's files (paths from the root, with /) and their base names,
// outside hidden folders and build outputs.
func repoFiles(t *testing.T) (paths, names map[string]bool) {
	t.Helper()
	paths, names = map[string]bool{}, map[string]bool{}
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		// Hidden folders (.git, and the tools, demo and benchmark scratch space that
		// .gitignore lists) and build outputs are not the repository's.
		if d.IsDir() && p != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "bin" || d.Name() == "dist") {
			return filepath.SkipDir
		}
		paths[filepath.ToSlash(p)] = true
		names[d.Name()] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths, names
}

// citationsIn returns the files a text cites; with quoted, only those in backticks. A citation
// right after a possessive (another project's file, as in "Terraform's" followed by the file)
// is left out, and so is a name that only starts like a cited file (index.md.tmpl).
func citationsIn(text string, quoted bool) []string {
	var out []string
	for _, m := range citedFile.FindAllStringSubmatchIndex(text, -1) {
		if quoted && text[m[2]:m[3]] != "`" {
			continue
		}
		if rest := text[m[5]:]; len(rest) > 1 && rest[0] == '.' && isLetter(rest[1]) {
			continue
		}
		before := strings.TrimSuffix(text[:m[4]], "`")
		if strings.HasSuffix(before, "'s ") {
			continue
		}
		out = append(out, text[m[4]:m[5]])
	}
	return out
}

// isLetter reports whether b is an ASCII letter.
func isLetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

// citationExists reports whether a file cited from the file at from is in the repository: a
// bare name anywhere in it; a path from the root or from the citing file's folder. A path whose
// first folder is not one of the repository's names another project's file (terraform-plugin-
// testing's helper/resource/...) and is not checked.
func citationExists(cited, from string, paths, names map[string]bool) bool {
	if !strings.Contains(cited, "/") {
		return names[cited]
	}
	if !paths[strings.SplitN(cited, "/", 2)[0]] {
		return true
	}
	return paths[cited] || paths[filepath.ToSlash(filepath.Join(filepath.Dir(from), cited))]
}

// TestCitedFilesExist checks that every Go file or Markdown page cited in a Go comment, or in
// backticks on a developer page, exists: a file renamed, moved or deleted fails here, naming
// where it is cited, instead of leaving a comment that sends the reader nowhere.
func TestCitedFilesExist(t *testing.T) {
	paths, names := repoFiles(t)
	check := func(from string, line int, text string, quoted bool) {
		for _, c := range citationsIn(text, quoted) {
			if !citationExists(c, from, paths, names) {
				t.Errorf("%s:%d cites %s, which is not in the repository", from, line, c)
			}
		}
	}
	fset := token.NewFileSet()
	for p := range paths {
		if !strings.HasSuffix(p, ".go") || strings.Contains(p, "/testdata/") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range f.Comments {
			for _, c := range g.List {
				for i, line := range strings.Split(c.Text, "\n") {
					check(p, fset.Position(c.Pos()).Line+i, line, false)
				}
			}
		}
	}
	for _, page := range developerPages {
		body, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(body), "\n") {
			check(page, i+1, line, true)
		}
	}
}

// TestCitationsIn pins what counts as a citation.
func TestCitationsIn(t *testing.T) {
	tests := []struct {
		text   string
		quoted bool
		want   []string
	}{
		{"// see holders.go and DESIGN.md", false, []string{"holders.go", "DESIGN.md"}},
		{"// (internal/client/batch.go)", false, []string{"internal/client/batch.go"}},
		{"read in Terraform's `provider_source.go`", true, nil},
		{"// the mockserver_*_test.go files, _test.go", false, nil},
		{"// eventnotify_account_subscriptions, go.mod", false, nil},
		{"// (templates/index.md.tmpl)", false, nil},
		{"see DESIGN.md and `holders.go`", true, []string{"holders.go"}},
	}
	for _, tc := range tests {
		if got := citationsIn(tc.text, tc.quoted); strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("citationsIn(%q, %t) = %v, want %v", tc.text, tc.quoted, got, tc.want)
		}
	}
}
