package releasecheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReleasePath checks the repository's own files: every workflow under .github/workflows
// (release.yml as the release job) and .goreleaser.yml have no problem.
func TestReleasePath(t *testing.T) {
	workflows, err := filepath.Glob("../../.github/workflows/*.yml")
	if err != nil {
		t.Fatal(err)
	}
	if len(workflows) < 2 {
		t.Fatalf("found %d workflows, want test.yml and release.yml at least", len(workflows))
	}
	sawRelease := false
	for _, path := range workflows {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		release := filepath.Base(path) == "release.yml"
		sawRelease = sawRelease || release
		for _, p := range checkWorkflow(filepath.Base(path), src, release) {
			t.Error(p)
		}
	}
	if !sawRelease {
		t.Error("no .github/workflows/release.yml")
	}
	src, err := os.ReadFile("../../.goreleaser.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range checkGoreleaser(src) {
		t.Error(p)
	}
}

// goodRelease is a release workflow that passes; the cases below break it one way at a time.
const goodRelease = `
on:
  push:
    tags: ["v*"]
permissions:
  contents: write
  id-token: write
  attestations: write
jobs:
  release:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
        with:
          persist-credentials: false
      - uses: actions/setup-go@d35c59abb061a4a6fb18e82ac0862c26744d6ab5 # v5.5.0
        with:
          cache: false
      - run: goreleaser release --clean
      - uses: actions/attest-build-provenance@a2bbfa25375fe432b6a289bc6b6cd05ecd0c4c32 # v4.1.0
        with:
          subject-path: |
            dist/*.zip
            dist/*.tar.gz
            dist/*.sbom.json
`

// TestCheckWorkflow shows that each rule fails the workflow that breaks it, naming the problem.
func TestCheckWorkflow(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(string) string
		release bool
		want    string // empty: no problem
	}{
		{name: "good release", edit: func(s string) string { return s }, release: true},
		{name: "tag, not commit",
			edit: func(s string) string {
				return strings.Replace(s, "actions/setup-go@d35c59abb061a4a6fb18e82ac0862c26744d6ab5 # v5.5.0", "actions/setup-go@v5", 1)
			},
			release: true, want: "actions/setup-go@v5: not pinned by commit"},
		{name: "commit without the tag's comment",
			edit: func(s string) string {
				return strings.Replace(s, "a2bbfa25375fe432b6a289bc6b6cd05ecd0c4c32 # v4.1.0", "a2bbfa25375fe432b6a289bc6b6cd05ecd0c4c32", 1)
			},
			release: true, want: "name the tag in a comment"},
		{name: "checkout keeps the token",
			edit:    func(s string) string { return strings.Replace(s, "persist-credentials: false", "fetch-depth: 0", 1) },
			release: true, want: "set persist-credentials: false"},
		{name: "persist-credentials as a string",
			edit: func(s string) string {
				return strings.Replace(s, "persist-credentials: false", `persist-credentials: "false"`, 1)
			},
			release: true},
		{name: "release restores the Go cache",
			edit:    func(s string) string { return strings.Replace(s, "cache: false", "go-version-file: go.mod", 1) },
			release: true, want: "set cache: false"},
		{name: "tests may use the Go cache",
			edit:    func(s string) string { return strings.Replace(s, "cache: false", "cache: true", 1) },
			release: false},
		{name: "release uses actions/cache",
			edit: func(s string) string {
				return strings.Replace(s, "      - run: goreleaser", "      - uses: actions/cache@5a3ec84eff668545956fd18022155c47e93e2684 # v4.2.3\n      - run: goreleaser", 1)
			},
			release: true, want: "must not restore a cache"},
		{name: "no attestation",
			edit: func(s string) string {
				return strings.Replace(s, "actions/attest-build-provenance@", "actions/upload-artifact@", 1)
			},
			release: true, want: "no actions/attest-build-provenance step"},
		{name: "attestation misses the SBOMs",
			edit:    func(s string) string { return strings.Replace(s, "dist/*.sbom.json", "dist/*.txt", 1) },
			release: true, want: "subject-path does not name dist/*.sbom.json"},
		{name: "no id-token permission",
			edit:    func(s string) string { return strings.Replace(s, "id-token: write", "id-token: read", 1) },
			release: true, want: "id-token: write is needed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			problems := checkWorkflow("w.yml", []byte(tt.edit(goodRelease)), tt.release)
			assertProblems(t, problems, tt.want)
		})
	}
}

// goodGoreleaser is a .goreleaser.yml that passes; the cases below break it.
const goodGoreleaser = `
before:
  hooks:
    - go mod tidy -diff
    - go mod verify
archives:
  - id: provider
  - id: mock
sboms:
  - id: sbom
    artifacts: archive
    ids: [provider, mock]
checksum:
  ids: [provider]
`

// TestCheckGoreleaser shows that each rule fails the config that breaks it, naming the problem.
func TestCheckGoreleaser(t *testing.T) {
	tests := []struct {
		name string
		edit func(string) string
		want string // empty: no problem
	}{
		{name: "good", edit: func(s string) string { return s }},
		{name: "tidy rewrites",
			edit: func(s string) string { return strings.Replace(s, "go mod tidy -diff", "go mod tidy", 1) },
			want: "use go mod tidy -diff"},
		{name: "tidy rewrites inside sh -c",
			edit: func(s string) string {
				return strings.Replace(s, "- go mod verify", "- go mod verify\n    - sh -c 'go mod tidy -v && git diff'", 1)
			},
			want: "use go mod tidy -diff"},
		{name: "no verify",
			edit: func(s string) string { return strings.Replace(s, "    - go mod verify\n", "", 1) },
			want: "no hook runs go mod verify"},
		{name: "no sboms",
			edit: func(s string) string { return s[:strings.Index(s, "sboms:")] + "checksum:\n  ids: [provider]\n" },
			want: `archives "provider" has no SBOM`},
		{name: "the mock archive has no SBOM",
			edit: func(s string) string { return strings.Replace(s, "ids: [provider, mock]", "ids: [provider]", 1) },
			want: `archives "mock" has no SBOM`},
		{name: "SBOMs of the binaries, not the archives",
			edit: func(s string) string { return strings.Replace(s, "artifacts: archive", "artifacts: binary", 1) },
			want: `archives "provider" has no SBOM`},
		{name: "every archive, by default",
			edit: func(s string) string { return strings.Replace(s, "    ids: [provider, mock]\n", "", 1) }},
		{name: "SBOMs in SHA256SUMS",
			edit: func(s string) string { return strings.Replace(s, "ids: [provider]\n", "ids: [provider, sbom]\n", 1) },
			want: "the Registry rejects a SHA256SUMS naming the SBOMs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertProblems(t, checkGoreleaser([]byte(tt.edit(goodGoreleaser))), tt.want)
		})
	}
}

// assertProblems fails unless problems is empty (want "") or one of them holds want.
func assertProblems(t *testing.T, problems []string, want string) {
	t.Helper()
	if want == "" {
		if len(problems) > 0 {
			t.Fatalf("want no problem, got:\n%s", strings.Join(problems, "\n"))
		}
		return
	}
	for _, p := range problems {
		if strings.Contains(p, want) {
			return
		}
	}
	t.Fatalf("want a problem holding %q, got:\n%s", want, strings.Join(problems, "\n"))
}
