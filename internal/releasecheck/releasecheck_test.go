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
    environment: release
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
        with:
          persist-credentials: false
      - uses: actions/setup-go@d35c59abb061a4a6fb18e82ac0862c26744d6ab5 # v5.5.0
        with:
          cache: false
      - uses: crazy-max/ghaction-import-gpg@01dd5d3ca463c7f10f7f4f7b4f177225ac661ee4 # v6.1.0
        with:
          gpg_private_key: ${{ secrets.GPG_PRIVATE_KEY }}
          passphrase: ${{ secrets.PASSPHRASE }}
      - run: goreleaser release --clean
        env:
          GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}
      - uses: actions/attest-build-provenance@a2bbfa25375fe432b6a289bc6b6cd05ecd0c4c32 # v4.1.0
        with:
          subject-path: |
            dist/*.zip
            dist/*.tar.gz
            dist/*.sbom.json
`

// withoutSigning is goodRelease without the step that takes the signing secrets.
func withoutSigning(s string) string {
	step := s[strings.Index(s, "      - uses: crazy-max/ghaction-import-gpg@"):strings.Index(s, "      - run: goreleaser")]
	return strings.Replace(s, step, "", 1)
}

// otherJob is a second job, notes, for goodRelease, whose one step has the given lines.
func otherJob(lines string) string {
	return "  notes:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo notes\n" + lines
}

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
			edit:    func(s string) string { return withoutSigning(strings.Replace(s, "cache: false", "cache: true", 1)) },
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
		// The signing secrets (signing.go).
		{name: "signing job without its environment (the workflow before issue 38)",
			edit:    func(s string) string { return strings.Replace(s, "    environment: release\n", "", 1) },
			release: true, want: "job release: uses secrets.GPG_PRIVATE_KEY, secrets.PASSPHRASE but declares none: declare environment: release"},
		{name: "signing job in another environment",
			edit:    func(s string) string { return strings.Replace(s, "environment: release", "environment: production", 1) },
			release: true, want: `declares "production": declare environment: release`},
		{name: "environment with a name and url",
			edit: func(s string) string {
				return strings.Replace(s, "environment: release", "environment:\n      name: release\n      url: https://github.com/releases", 1)
			},
			release: true},
		{name: "secret names in another case",
			edit:    func(s string) string { return strings.Replace(s, "secrets.PASSPHRASE", "secrets.passphrase", 1) },
			release: true},
		{name: "another job uses a signing secret",
			edit:    func(s string) string { return s + otherJob("        env:\n          KEY: ${{ secrets.PASSPHRASE }}\n") },
			release: true, want: "job notes: uses secrets.PASSPHRASE but declares none"},
		{name: "another job in the environment uses a signing secret",
			edit: func(s string) string {
				return s + strings.Replace(otherJob("        env:\n          KEY: ${{ secrets.GPG_PRIVATE_KEY }}\n"),
					"    runs-on:", "    environment: release\n    runs-on:", 1)
			},
			release: true, want: "jobs notes, release use the signing secrets: only the one job that signs may reference them"},
		{name: "another job takes the whole secrets context",
			edit:    func(s string) string { return s + otherJob("        env:\n          ALL: ${{ toJSON(secrets) }}\n") },
			release: true, want: "job notes: uses the whole secrets context but declares none"},
		{name: "another job indexes the secrets context",
			edit: func(s string) string {
				return s + otherJob("        env:\n          KEY: ${{ secrets[format('GPG_{0}', 'PRIVATE_KEY')] }}\n")
			},
			release: true, want: "job notes: uses the whole secrets context"},
		{name: "a reusable workflow inherits the secrets",
			edit: func(s string) string {
				return s + "  notes:\n    uses: ./.github/workflows/notes.yml\n    secrets: inherit\n"
			},
			release: true, want: "job notes: uses secrets: inherit"},
		{name: "another job uses only GITHUB_TOKEN",
			edit: func(s string) string {
				return s + otherJob("        env:\n          GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}\n")
			},
			release: true},
		{name: "release without the signing secrets",
			edit: func(s string) string {
				return strings.NewReplacer("${{ secrets.GPG_PRIVATE_KEY }}", "x", "${{ secrets.PASSPHRASE }}", "y").Replace(s)
			},
			release: true, want: "no job uses secrets.GPG_PRIVATE_KEY and secrets.PASSPHRASE"},
		{name: "the tests workflow uses a signing secret",
			edit:    func(s string) string { return s },
			release: false, want: "job release: uses secrets.GPG_PRIVATE_KEY, secrets.PASSPHRASE: only the release workflow's signing job may use the signing secrets"},
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
