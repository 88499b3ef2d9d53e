package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestCIGuidePinsGo: the CI guide's GitLab job builds the provider in the golang image of exactly
// the Go release that go.mod's toolchain line names (the images build with their own release,
// GOTOOLCHAIN=local, so a floating tag would change the provider's checksum with each Go patch
// release), and its GitHub Actions job uses a setup-go that reads the toolchain line (v6 and
// later; v5 reads only the go line).
func TestCIGuidePinsGo(t *testing.T) {
	goMod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	toolchain := regexp.MustCompile(`(?m)^toolchain go(\S+)$`).FindSubmatch(goMod)
	if toolchain == nil {
		t.Fatal("go.mod has no toolchain line: the CI guide's image pin follows it")
	}
	guide, err := os.ReadFile("docs/guides/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	images := regexp.MustCompile(`(?m)^\s*image:\s*(\S+)\s*$`).FindAllSubmatch(guide, -1)
	if len(images) == 0 {
		t.Fatal("docs/guides/ci.md shows no GitLab image: line")
	}
	want := "golang:" + string(toolchain[1]) + "-"
	for _, m := range images {
		if image := string(m[1]); !strings.HasPrefix(image, want) {
			t.Errorf("docs/guides/ci.md: image %s; go.mod's toolchain line is go%s, so the image is %s<variant> (templates/guides/ci.md.tmpl, then make docs)", image, toolchain[1], want)
		}
	}
	if strings.Contains(string(guide), "actions/setup-go@v5") || !strings.Contains(string(guide), "actions/setup-go@v6") {
		t.Error("docs/guides/ci.md: the jobs use actions/setup-go@v6, the first version that reads go.mod's toolchain line")
	}
}
