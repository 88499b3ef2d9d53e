package main

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// module is the module path that the import rules name packages under.
const module = "github.com/eventnotify/terraform-provider-eventnotify"

// importRule is one layering rule: no package that rule covers may depend, directly or through
// other packages, on a package under a forbidden prefix.
type importRule struct {
	name   string
	covers func(p *packages.Package) bool // the packages (or test builds of them) held to the rule
	forbid []string                       // module-relative import path prefixes ("internal/client/")
	why    string
}

// TestImportRules holds the module's layering, which the import graph alone would not: each
// rule lists every offending package with the chain of imports that reaches the forbidden one.
// The rules, and what each protects:
//
//   - the HTTP layer (internal/client/httpapi) never depends on the subscription engine
//     (internal/client) or the provider: the dependency runs one way, so the generic layer can
//     serve another object type;
//   - the mock (internal/mockserver and its command), tests included, never depends on the
//     client or the provider: it is a second implementation of the service, and a JSON name the
//     client gets wrong must fail a test rather than be shared;
//   - production code never depends on the mock (only its command and tests may): the provider,
//     the client and the probe talk to a service, whichever it is;
//   - production code never depends on internal/testsupport, which holds the mock's test users
//     and passwords (only _test.go files may import it).
//
// A forbidden import into the mock makes an import cycle (through internal/testsupport), so the
// packages do not load: the rules still read the imports they have, and the load errors follow.
//
// Dependencies are transitive (go list -deps), and test builds count for the first two rules.
func TestImportRules(t *testing.T) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps, Tests: true}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	// A package that does not load (an import cycle, which a forbidden import into the mock
	// always makes through internal/testsupport) still has its imports: the rules are checked on
	// them first, so that the rule it breaks names itself, and the errors are reported after.
	defer reportLoadErrors(t, pkgs)
	rules := []importRule{
		{
			name:   "httpapi_does_not_import_the_engine",
			covers: under("internal/client/httpapi"),
			forbid: []string{"internal/client", "internal/provider"},
			why:    "the HTTP layer is generic: the subscription engine (internal/client) is built on it, never the other way",
		},
		{
			name: "mock_does_not_import_the_client",
			covers: func(p *packages.Package) bool {
				return under("internal/mockserver")(p) || under("cmd/eventnotify-mock")(p)
			},
			forbid: []string{"internal/client", "internal/client/", "internal/provider"},
			why:    "the mock is a second implementation of the service, written from its description",
		},
		{
			name: "production_does_not_import_the_mock",
			covers: func(p *packages.Package) bool {
				return !testBuild(p) && !under("internal/mockserver")(p) && !under("cmd/eventnotify-mock")(p) && !under("internal/testsupport")(p)
			},
			forbid: []string{"internal/mockserver"},
			why:    "the provider, the client and the probe talk to a service, never to the mock's code: only the mock's command and tests may import it",
		},
		{
			name:   "production_does_not_import_testsupport",
			covers: func(p *packages.Package) bool { return !testBuild(p) && !under("internal/testsupport")(p) },
			forbid: []string{"internal/testsupport"},
			why:    "internal/testsupport holds test credentials; only _test.go files may import it",
		},
	}
	for _, r := range rules {
		t.Run(r.name, func(t *testing.T) {
			checked := 0
			for _, p := range pkgs {
				if strings.HasSuffix(p.PkgPath, ".test") || !r.covers(p) {
					continue // a generated test main only imports the test builds, checked themselves
				}
				checked++
				if chain := forbiddenChain(p, r.forbid); chain != nil {
					t.Errorf("%s depends on %s (%s): %s", short(p.ID), short(chain[len(chain)-1]), r.why, short(strings.Join(chain, " -> ")))
				}
			}
			if checked == 0 {
				t.Fatal("the rule covers no package: its package names are out of date")
			}
		})
	}
}

// reportLoadErrors fails the test with every error of the packages' loading, after the rules;
// an import cycle is named as such, since the rules above report the import that closed it.
func reportLoadErrors(t *testing.T, pkgs []*packages.Package) {
	t.Helper()
	seen := map[string]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			msg := e.Error()
			if seen[msg] {
				continue
			}
			seen[msg] = true
			if strings.Contains(msg, "import cycle") {
				t.Errorf("the module's packages do not load: %s (the rule above that fails names the forbidden import that closes the cycle)", short(msg))
			} else {
				t.Errorf("the module's packages do not load: %s", short(msg))
			}
		}
	})
}

// short drops the module path from the package paths in s.
func short(s string) string { return strings.ReplaceAll(s, module+"/", "") }

// under matches the packages at rel (module-relative) and their test builds.
func under(rel string) func(p *packages.Package) bool {
	path := module + "/" + rel
	return func(p *packages.Package) bool {
		pkg := strings.TrimSuffix(p.PkgPath, "_test")
		pkg = strings.TrimSuffix(pkg, ".test")
		return pkg == path || strings.HasPrefix(pkg, path+"/")
	}
}

// testBuild reports whether p is a test build: a package compiled with its _test.go files, its
// external test package, or the generated test main.
func testBuild(p *packages.Package) bool {
	return p.ID != p.PkgPath || strings.HasSuffix(p.PkgPath, "_test") || strings.HasSuffix(p.PkgPath, ".test")
}

// forbiddenChain returns the import chain from p to the first package it depends on under one
// of the prefixes (a prefix ending in "/" matches the packages below it, any other that package
// exactly), or nil.
func forbiddenChain(p *packages.Package, forbid []string) []string {
	forbidden := func(path string) bool {
		rel, ok := strings.CutPrefix(path, module+"/")
		if !ok {
			return false
		}
		return slices.ContainsFunc(forbid, func(f string) bool {
			if strings.HasSuffix(f, "/") {
				return strings.HasPrefix(rel, f)
			}
			return rel == f
		})
	}
	seen := map[string]bool{}
	var walk func(q *packages.Package, chain []string) []string
	walk = func(q *packages.Package, chain []string) []string {
		for _, path := range slices.Sorted(maps.Keys(q.Imports)) {
			dep := q.Imports[path]
			next := append(slices.Clone(chain), dep.PkgPath)
			if forbidden(dep.PkgPath) {
				return next
			}
			if seen[dep.ID] || !strings.HasPrefix(dep.PkgPath, module) {
				continue
			}
			seen[dep.ID] = true
			if found := walk(dep, next); found != nil {
				return found
			}
		}
		return nil
	}
	return walk(p, []string{p.PkgPath})
}
