package releasecheck

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// The release's signing key lives in a protected GitHub environment, not in repository secrets:
// a repository secret reaches any job of any workflow run, so any pushed v* tag, from any
// commit, would make a signed release. An environment's secrets reach only a job that names
// the environment, and only when its deployment rules admit the run's ref (CONTRIBUTING's
// Release section says what to configure: a workflow file cannot create those rules).

// signingEnvironment is the environment that holds the signing secrets.
const signingEnvironment = "release"

// signingSecrets are the secrets that sign the release (the GPG key GoReleaser signs
// SHA256SUMS with).
var signingSecrets = []string{"GPG_PRIVATE_KEY", "PASSPHRASE"}

// signingSecretRef matches a reference to a signing secret in an expression; contexts are
// case-insensitive in GitHub Actions. wholeSecrets matches what hands a job every secret at
// once: an index into the context (secrets[...]) or the context itself as a value
// (toJSON(secrets)).
var (
	signingSecretRef = regexp.MustCompile(`(?i)\bsecrets\s*\.\s*(` + strings.Join(signingSecrets, "|") + `)\b`)
	wholeSecrets     = regexp.MustCompile(`(?i)\bsecrets\s*(\[|\))`)
)

// checkSigning returns the problems of a workflow's use of the signing secrets: in the release
// workflow exactly one job uses them, and it declares environment: release; in any other
// workflow no job uses them.
func checkSigning(name string, src []byte, release bool) []string {
	var wf struct {
		Jobs map[string]yaml.Node `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(src, &wf); err != nil {
		return []string{fmt.Sprintf("%s: %v", name, err)}
	}
	ids := make([]string, 0, len(wf.Jobs))
	for id := range wf.Jobs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var problems, signers []string
	for _, id := range ids {
		node := wf.Jobs[id]
		refs := secretReferences(&node)
		if len(refs) == 0 {
			continue
		}
		where := fmt.Sprintf("%s: job %s: uses %s", name, id, strings.Join(refs, ", "))
		if !release {
			problems = append(problems, where+": only the release workflow's signing job may use the signing secrets")
			continue
		}
		signers = append(signers, id)
		if env := jobEnvironment(&node); env != signingEnvironment {
			shown := "declares none"
			if env != "" {
				shown = fmt.Sprintf("declares %q", env)
			}
			problems = append(problems, fmt.Sprintf("%s but %s: declare environment: %s, whose secrets hold the signing "+
				"key and whose rules admit only v* tags (repository secrets reach any job of any run, so any pushed tag "+
				"would make a signed release)", where, shown, signingEnvironment))
		}
	}
	switch {
	case release && len(signers) == 0:
		problems = append(problems, fmt.Sprintf("%s: no job uses secrets.%s: the release is signed by one job, "+
			"in environment %s", name, strings.Join(signingSecrets, " and secrets."), signingEnvironment))
	case len(signers) > 1:
		problems = append(problems, fmt.Sprintf("%s: jobs %s use the signing secrets: only the one job that signs "+
			"may reference them", name, strings.Join(signers, ", ")))
	}
	return problems
}

// secretReferences returns what in a job (any scalar of it, or `secrets: inherit`) reaches
// the signing secrets, each once, in order.
func secretReferences(n *yaml.Node) []string {
	var refs []string
	add := func(r string) {
		for _, have := range refs {
			if have == r {
				return
			}
		}
		refs = append(refs, r)
	}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		switch n.Kind {
		case yaml.ScalarNode:
			for _, m := range signingSecretRef.FindAllStringSubmatch(n.Value, -1) {
				add("secrets." + strings.ToUpper(m[1]))
			}
			if wholeSecrets.MatchString(n.Value) {
				add("the whole secrets context")
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if k, v := n.Content[i], n.Content[i+1]; k.Value == "secrets" && v.Kind == yaml.ScalarNode && v.Value == "inherit" {
					add("secrets: inherit")
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return refs
}

// jobEnvironment returns the environment a job declares (`environment: release` or
// `environment: {name: release}`), and "" when it declares none.
func jobEnvironment(job *yaml.Node) string {
	if job.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(job.Content); i += 2 {
		if job.Content[i].Value != "environment" {
			continue
		}
		switch env := job.Content[i+1]; env.Kind {
		case yaml.ScalarNode:
			return env.Value
		case yaml.MappingNode:
			for j := 0; j+1 < len(env.Content); j += 2 {
				if env.Content[j].Value == "name" {
					return env.Content[j+1].Value
				}
			}
		}
	}
	return ""
}
