package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestDesignNamesEveryPackage holds DESIGN.md's code map to the module: every package that
// `go list ./...` finds has a row in its table of packages, and every row names a package.
func TestDesignNamesEveryPackage(t *testing.T) {
	out, err := exec.Command("go", "list", "./...").Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	design, err := os.ReadFile("DESIGN.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]bool{}
	for _, line := range strings.Split(string(design), "\n") {
		if rest, ok := strings.CutPrefix(line, "| `"); ok {
			if name, _, ok := strings.Cut(rest, "`"); ok && (name == "." || strings.HasPrefix(name, "internal/") || strings.HasPrefix(name, "cmd/")) {
				rows[name] = true
			}
		}
	}
	packages := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p, module), "/")
		if rel == "" {
			rel = "."
		}
		packages[rel] = true
		if !rows[rel] {
			t.Errorf("DESIGN.md's table of packages has no row for %s", rel)
		}
	}
	for name := range rows {
		if !packages[name] {
			t.Errorf("DESIGN.md's table of packages has a row for %s, which is not a package of the module", name)
		}
	}
}
