package main

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	goversion "github.com/hashicorp/go-version"
)

// versionPin matches a version constraint the way users write it in required_providers.
var versionPin = regexp.MustCompile(`\bversion\s*=\s*"(~>[^"]*)"`)

// TestVersionAgrees: the VERSION file is the one source of the provider's version. Every
// `version = "~> ..."` that README.md, examples/, templates/ and docs/ show pins its minor
// release (`~> MAJOR.MINOR.0`, the compatibility policy), and CHANGELOG.md's top section is that
// version. A release bumps VERSION; this test then names every file left behind.
func TestVersionAgrees(t *testing.T) {
	current, err := goversion.NewSemver(strings.TrimSpace(versionFile))
	if err != nil || current.Original() != current.Core().String() {
		t.Fatalf("VERSION holds %q: want a version such as 0.1.0 (no v, no pre-release)", versionFile)
	}
	segments := current.Segments()
	want := fmt.Sprintf("~> %d.%d.0", segments[0], segments[1])

	files := []string{"README.md"}
	for _, dir := range []string{"examples", "templates", "docs"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	pins := 0
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		scanner := bufio.NewScanner(f)
		for line := 1; scanner.Scan(); line++ {
			text := scanner.Text()
			for _, m := range versionPin.FindAllStringSubmatchIndex(text, -1) {
				if m[0] > 0 && text[m[0]-1] == '`' {
					continue // inline code in prose, such as the counter-example `version = "~> 0.1"`
				}
				pins++
				if got := text[m[2]:m[3]]; got != want {
					t.Errorf("%s:%d: version = %q; VERSION is %s, so pins are %q", file, line, got, current, want)
				}
			}
		}
		if err := scanner.Err(); err != nil {
			t.Errorf("%s: %v", file, err)
		}
		_ = f.Close()
	}
	if pins < 10 {
		t.Errorf("found only %d version pins in %d files: did the examples move?", pins, len(files))
	}

	changelog, err := os.ReadFile("CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	top := regexp.MustCompile(`(?m)^## (.*)$`).FindStringSubmatch(string(changelog))
	if top == nil {
		t.Errorf("CHANGELOG.md has no section; VERSION is %s, so its top section is \"## %s\"", current, current)
	} else if !strings.HasPrefix(top[1]+" ", current.String()+" ") {
		t.Errorf("CHANGELOG.md's top section is %q; VERSION is %s, so it is \"## %s\" (a release date follows once it is tagged)", top[1], current, current)
	}
}
