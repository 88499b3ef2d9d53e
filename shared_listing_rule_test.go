package main

import (
	"go/ast"
	"go/types"
	"testing"

	"golang.org/x/tools/go/packages"
)

// ownListings are the client's methods that list an account on their own, outside the listing
// every reader of the account shares (DESIGN.md, "Listings"). They serve SDK users and the
// client's own tests.
var ownListings = []string{"ListSubscriptions", "ListSubscriptionsPage"}

// TestProviderReadsAccountsThroughTheSharedListing holds the provider's production code to the
// shared listing: a resource, data source, list resource or action reads an account through
// Client.AccountSubscriptions (or ReadSubscription), never through a listing of its own, so
// that one plan reads an account once however many readers it has (issue 42). A new data source
// that lists the account itself fails here, naming the file and line (CONTRIBUTING.md, "Adding
// a data source").
func TestProviderReadsAccountsThroughTheSharedListing(t *testing.T) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo}
	pkgs, err := packages.Load(cfg, "./internal/provider")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 || len(pkgs[0].Errors) > 0 || len(pkgs[0].Syntax) == 0 {
		t.Fatalf("internal/provider does not load: %v", pkgs)
	}
	for _, call := range ownListingCalls(pkgs[0]) {
		t.Errorf("%s calls Client.%s: read the account through Client.AccountSubscriptions (the listing every reader of the plan shares)", call.at, call.method)
	}
}

// TestOwnListingCallsFound shows that the rule sees a call: the client's own package calls
// ListSubscriptions (from the shared listing itself).
func TestOwnListingCallsFound(t *testing.T) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo}
	pkgs, err := packages.Load(cfg, "./internal/client")
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("internal/client does not load: %v %v", err, pkgs)
	}
	if calls := ownListingCalls(pkgs[0]); len(calls) == 0 {
		t.Error("no call of ListSubscriptions or ListSubscriptionsPage found in internal/client: the rule would not see one in the provider either")
	}
}

// listingCall is one call of an own-listing method.
type listingCall struct{ at, method string }

// ownListingCalls finds the calls in pkg of the client's methods named in ownListings.
func ownListingCalls(pkg *packages.Package) []listingCall {
	var calls []listingCall
	for _, file := range pkg.Syntax {
		ast.Inspect(file, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			fn, ok := pkg.TypesInfo.Uses[sel.Sel].(*types.Func)
			if !ok || fn.Pkg() == nil || fn.Pkg().Path() != module+"/internal/client" {
				return true
			}
			for _, name := range ownListings {
				if fn.Name() == name {
					calls = append(calls, listingCall{at: pkg.Fset.Position(sel.Pos()).String(), method: name})
				}
			}
			return true
		})
	}
	return calls
}
