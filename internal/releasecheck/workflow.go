package releasecheck

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// workflow is the part of a GitHub Actions workflow the checks read.
type workflow struct {
	On          yaml.Node         `yaml:"on"`
	Permissions map[string]string `yaml:"permissions"`
	Jobs        map[string]job    `yaml:"jobs"`
}

type job struct {
	Permissions map[string]string `yaml:"permissions"`
	Steps       []step            `yaml:"steps"`
}

type step struct {
	Name string         `yaml:"name"`
	Uses string         `yaml:"uses"`
	With map[string]any `yaml:"with"`
}

// pinned is an action reference by full commit; the line must name the tag in a comment.
var (
	pinned      = regexp.MustCompile(`^[^@\s]+@[0-9a-f]{40}$`)
	pinnedLine  = regexp.MustCompile(`uses:\s*\S+@[0-9a-f]{40}\s+#\s*v\d`)
	usesLine    = regexp.MustCompile(`^\s*(-\s*)?uses:`)
	attestation = "actions/attest-build-provenance"
)

// checkWorkflow returns the problems of one workflow file (name for the messages). release
// says whether it builds the release: then it must restore no cache, attest the archives and
// sign in environment release (checkSigning); any other workflow must not use the signing
// secrets.
func checkWorkflow(name string, src []byte, release bool) []string {
	var wf workflow
	if err := yaml.Unmarshal(src, &wf); err != nil {
		return []string{fmt.Sprintf("%s: %v", name, err)}
	}
	var problems []string
	for i, line := range strings.Split(string(src), "\n") {
		if usesLine.MatchString(line) && !strings.Contains(line, "uses: ./") && !pinnedLine.MatchString(line) {
			problems = append(problems, fmt.Sprintf("%s:%d: %q: pin the action by its 40-hex commit and name the tag in a comment (# vX.Y.Z)", name, i+1, strings.TrimSpace(line)))
		}
	}
	jobs := make([]string, 0, len(wf.Jobs))
	for id := range wf.Jobs {
		jobs = append(jobs, id)
	}
	sort.Strings(jobs)
	attested := false
	for _, id := range jobs {
		for _, s := range wf.Jobs[id].Steps {
			where := fmt.Sprintf("%s: job %s: %s", name, id, s.Uses)
			action, _, _ := strings.Cut(s.Uses, "@")
			if s.Uses != "" && !strings.HasPrefix(s.Uses, "./") && !pinned.MatchString(s.Uses) {
				problems = append(problems, where+": not pinned by commit")
			}
			switch action {
			case "actions/checkout":
				if !isFalse(s.With["persist-credentials"]) {
					problems = append(problems, where+": set persist-credentials: false (the token stays in .git/config for every later step otherwise)")
				}
			case "actions/setup-go":
				// setup-go restores the cache by default.
				if release && !isFalse(s.With["cache"]) {
					problems = append(problems, where+": set cache: false (the release job must not restore a cache another branch wrote)")
				}
			case "actions/cache", "actions/cache/restore":
				if release {
					problems = append(problems, where+": the release job must not restore a cache")
				}
			case attestation:
				attested = true
				subjects := fmt.Sprint(s.With["subject-path"])
				for _, want := range []string{"dist/*.zip", "dist/*.tar.gz", "dist/*.sbom.json"} {
					if !strings.Contains(subjects, want) {
						problems = append(problems, fmt.Sprintf("%s: subject-path does not name %s", where, want))
					}
				}
			}
		}
	}
	problems = append(problems, checkSigning(name, src, release)...)
	if release {
		if !attested {
			problems = append(problems, fmt.Sprintf("%s: no %s step: the release archives need a build-provenance attestation", name, attestation))
		}
		for _, p := range []string{"id-token", "attestations"} {
			if wf.Permissions[p] != "write" {
				problems = append(problems, fmt.Sprintf("%s: permissions: %s: write is needed to attest", name, p))
			}
		}
	}
	return problems
}

// isFalse reports whether a `with:` value is false, written as a boolean or a string.
func isFalse(v any) bool {
	switch v := v.(type) {
	case bool:
		return !v
	case string:
		return v == "false"
	}
	return false
}
