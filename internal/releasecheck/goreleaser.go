package releasecheck

import (
	"fmt"
	"regexp"
	"slices"

	"gopkg.in/yaml.v3"
)

// goreleaserConfig is the part of .goreleaser.yml the checks read.
type goreleaserConfig struct {
	Before struct {
		Hooks []string `yaml:"hooks"`
	} `yaml:"before"`
	Archives []struct {
		ID string `yaml:"id"`
	} `yaml:"archives"`
	SBOMs []struct {
		ID        string   `yaml:"id"`
		Artifacts string   `yaml:"artifacts"`
		IDs       []string `yaml:"ids"`
	} `yaml:"sboms"`
	Checksum struct {
		IDs []string `yaml:"ids"`
	} `yaml:"checksum"`
}

// tidy matches a go mod tidy; tidyDiff the one that only reports.
var (
	tidy     = regexp.MustCompile(`go\s+mod\s+tidy\b([^;&|\n]*)`)
	tidyDiff = regexp.MustCompile(`(^|\s)-diff\b`)
	verify   = regexp.MustCompile(`go\s+mod\s+verify\b`)
)

// checkGoreleaser returns the problems of .goreleaser.yml: hooks that rewrite the module
// graph, no go mod verify, and archives without an SBOM.
func checkGoreleaser(src []byte) []string {
	var cfg goreleaserConfig
	if err := yaml.Unmarshal(src, &cfg); err != nil {
		return []string{fmt.Sprintf(".goreleaser.yml: %v", err)}
	}
	var problems []string
	verified := false
	for _, hook := range cfg.Before.Hooks {
		for _, m := range tidy.FindAllStringSubmatch(hook, -1) {
			if !tidyDiff.MatchString(m[1]) {
				problems = append(problems, fmt.Sprintf(".goreleaser.yml: hook %q rewrites go.mod and go.sum after the clean-tree check: use go mod tidy -diff", hook))
			}
		}
		verified = verified || verify.MatchString(hook)
	}
	if !verified {
		problems = append(problems, ".goreleaser.yml: no hook runs go mod verify")
	}
	covered := map[string]bool{}
	for _, s := range cfg.SBOMs {
		if s.Artifacts != "archive" && s.Artifacts != "" { // GoReleaser's default is archive
			continue
		}
		if slices.Contains(cfg.Checksum.IDs, sbomID(s.ID)) {
			problems = append(problems, fmt.Sprintf(".goreleaser.yml: sboms id %q is one checksum.ids lists: the Registry rejects a SHA256SUMS naming the SBOMs", sbomID(s.ID)))
		}
		for _, a := range cfg.Archives {
			if len(s.IDs) == 0 || slices.Contains(s.IDs, a.ID) {
				covered[a.ID] = true
			}
		}
	}
	for _, a := range cfg.Archives {
		if !covered[a.ID] {
			problems = append(problems, fmt.Sprintf(".goreleaser.yml: archives %q has no SBOM (sboms with artifacts: archive)", a.ID))
		}
	}
	return problems
}

// sbomID is an sboms entry's id, GoReleaser's "default" when unset.
func sbomID(id string) string {
	if id == "" {
		return "default"
	}
	return id
}
