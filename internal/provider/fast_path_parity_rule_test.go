package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// servesWithoutParity are the functions of the tests that may serve the provider without the
// fast path's parity check: the check itself, the twin tests' and the benchmark's servers (which
// compare both answers themselves, or measure them), and readers of the schemas (no resource
// call is made). Every other server the tests start, the acceptance tests' above all, is
// parityServerFor's.
var servesWithoutParity = []string{
	"fast_path_parity_test.go parityServerFor",
	"helpers_test.go newListServer",
	"account_subscriptions_bench_test.go newAccountBench",
	"docs_test.go providerSchemas",
	"docs_test.go TestDocsListResourcePage",
	"docs_description_length_test.go describedSchemas",
}

// TestTestsServeWithParity: no test serves the provider through ProtocolServer or
// protocolServerFor, except the functions servesWithoutParity lists, so that every call the
// acceptance tests' CLIs make to the fast path is compared with the framework's answer.
func TestTestsServeWithParity(t *testing.T) {
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok {
				if servesProtocol(decl) {
					t.Errorf("%s: a declaration outside any function serves the provider without the fast path's parity check: use parityServerFor (fast_path_parity_test.go)", name)
				}
				continue
			}
			if servesProtocol(fn) && !slices.Contains(servesWithoutParity, name+" "+fn.Name.Name) {
				t.Errorf("%s: %s serves the provider through ProtocolServer or protocolServerFor: use parityServerFor or testProviderFactories (fast_path_parity_test.go), which check the fast path's answers", name, fn.Name.Name)
			}
		}
	}
}

// servesProtocol reports whether node calls ProtocolServer or protocolServerFor.
func servesProtocol(node ast.Node) bool {
	found := false
	ast.Inspect(node, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && (id.Name == "ProtocolServer" || id.Name == "protocolServerFor") {
				found = true
			}
		}
		return !found
	})
	return found
}

// TestServesWithoutParityExist: each function servesWithoutParity lists still serves the
// provider that way (a stale entry would let a new function of that name in unchecked).
func TestServesWithoutParityExist(t *testing.T) {
	for _, entry := range servesWithoutParity {
		file, fn, _ := strings.Cut(entry, " ")
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, decl := range f.Decls {
			if d, ok := decl.(*ast.FuncDecl); ok && d.Name.Name == fn && servesProtocol(d) {
				found = true
			}
		}
		if !found {
			t.Errorf("servesWithoutParity lists %s, which does not serve the provider through ProtocolServer or protocolServerFor: drop it", entry)
		}
	}
}
