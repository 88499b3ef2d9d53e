package provider

import (
	"context"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// maxDescriptionRunes bounds a schema description: a sentence or two. What more there is to say
// goes into the body of the page (templates/), where a section can hold it.
const maxDescriptionRunes = 400

// describedSchemas returns every description the provider serves, keyed by where it is: the
// schemas' own and their attributes' (nested ones and blocks' too, as allDescriptions walks
// them), the identity schemas' attributes, and each function's summary and parameters. A
// function's description is left out: it is the function's page, as a resource's body is.
func describedSchemas(t *testing.T) map[string]string {
	t.Helper()
	all := allDescriptions(t)
	resp := providerSchemas(t)
	for name, f := range resp.Functions {
		all["function "+name+" summary"] = f.Summary
		for _, p := range f.Parameters {
			all["function "+name+"."+p.Name] = p.Description
		}
		if f.VariadicParameter != nil {
			all["function "+name+"."+f.VariadicParameter.Name] = f.VariadicParameter.Description
		}
	}
	server, err := ProtocolServer("test")()
	if err != nil {
		t.Fatal(err)
	}
	ids, err := server.GetResourceIdentitySchemas(context.Background(), &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range ids.IdentitySchemas {
		for _, a := range s.IdentityAttributes {
			all["identity "+name+"."+a.Name] = a.Description
		}
	}
	return all
}

// longDescriptions lists, longest first, the descriptions of all that have limit runes or more.
func longDescriptions(all map[string]string, limit int) []string {
	var long []string
	for where, text := range all {
		if n := utf8.RuneCountInString(strings.TrimSpace(text)); n >= limit {
			long = append(long, where)
		}
	}
	slices.SortFunc(long, func(a, b string) int {
		if d := utf8.RuneCountInString(all[b]) - utf8.RuneCountInString(all[a]); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	return long
}

// TestDocsDescriptionsShort walks every schema the provider serves (the provider block,
// resources, data sources, ephemeral resources, list resources, actions, their attributes and
// nested attributes, identities and functions' parameters) and fails on each description of
// maxDescriptionRunes characters or more, naming it: the detail belongs in the page's body.
func TestDocsDescriptionsShort(t *testing.T) {
	all := describedSchemas(t)
	if len(all) < 150 {
		t.Fatalf("found only %d descriptions: did the walk miss some?", len(all))
	}
	for _, want := range []string{"provider.allow_jwt_export", "resource eventnotify_subscription.event_name",
		"resource eventnotify_account_subscriptions.subscriptions.event_name", "resource eventnotify_topic_subscriptions.takeover",
		"ephemeral resource eventnotify_jwt", "action eventnotify_enable_subscriptions", "list resource eventnotify_subscription",
		"function notifies.subscription", "identity eventnotify_subscription.id"} {
		if _, ok := all[want]; !ok {
			t.Errorf("the walk does not reach %s", want)
		}
	}
	for _, where := range longDescriptions(all, maxDescriptionRunes) {
		t.Errorf("%s: the description has %d characters, want fewer than %d (a sentence or two; move the detail into the page's template)",
			where, utf8.RuneCountInString(strings.TrimSpace(all[where])), maxDescriptionRunes)
	}
}

// TestDocsLongDescriptionsFound checks that longDescriptions finds a description at the limit
// and none below it.
func TestDocsLongDescriptionsFound(t *testing.T) {
	all := map[string]string{"short": strings.Repeat("é", maxDescriptionRunes-1), "limit": strings.Repeat("a", maxDescriptionRunes),
		"long": strings.Repeat("a", maxDescriptionRunes+50)}
	if got := longDescriptions(all, maxDescriptionRunes); !slices.Equal(got, []string{"long", "limit"}) {
		t.Errorf("longDescriptions = %v, want [long limit]", got)
	}
}
