package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestModuleTestMinimumStatedOnce: the Terraform version the module tests need has one source,
// the check of the GNUmakefile's test target (`printf 'X.Y.Z\n%s\n' ... | sort -VC`), and every
// page or script that states it for the module tests states that version.
func TestModuleTestMinimumStatedOnce(t *testing.T) {
	makefile := readRepoFile(t, "GNUmakefile")
	m := regexp.MustCompile(`printf '(\d+)\.(\d+)\.0\\n%s\\n'`).FindStringSubmatch(makefile)
	if m == nil {
		t.Fatal("GNUmakefile: the test target's check of the module tests' Terraform version (printf ... | sort -VC) is gone")
	}
	minimum := m[1] + "." + m[2]
	stated := regexp.MustCompile(`(?:Terraform|terraform)[^.]*?\(?(\d+\.\d+) or later`)
	for _, file := range []string{"CONTRIBUTING.md", "GNUmakefile", "scripts/module-test.sh"} {
		found := 0
		for i, line := range strings.Split(readRepoFile(t, file), "\n") {
			if file == "CONTRIBUTING.md" && !strings.Contains(line, "module test") {
				continue
			}
			for _, s := range stated.FindAllStringSubmatch(line, -1) {
				found++
				if s[1] != minimum {
					t.Errorf("%s:%d states Terraform %s or later for the module tests; the GNUmakefile's check needs %s: %q", file, i+1, s[1], minimum, line)
				}
			}
		}
		if found == 0 {
			t.Errorf("%s no longer states the module tests' Terraform minimum: drop it from this test or state it", file)
		}
	}
}

// readRepoFile reads a file of the repository.
func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
