package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// notForUsers is what the pages users read must not say: the service's API as its
// implementers see it (operation names, wire field names, HTTP paths) and the provider's
// performance figures. Those belong in SERVICE.md, BENCHMARKS.md and CHANGELOG.md.
var notForUsers = []struct {
	what string
	re   *regexp.Regexp
}{
	// Every operation name (createSubscriptions, listSubscribedEventsForAccount, ...) and every
	// wire field name (subscriptionId, eventStreamsEnvironment, createdDate, ...) of the service
	// is camelCase; no word of the provider's own vocabulary is.
	{"an operation or wire field name of the service's API", regexp.MustCompile(`\b[a-z]+[A-Z][A-Za-z0-9]*\b`)},
	{"an HTTP path", regexp.MustCompile(`/rest/v1|/auth/jwt|\b(GET|POST|PUT|PATCH|DELETE) /`)},
	{"an operation number", regexp.MustCompile(`\boperation [0-9]+\b`)},
	{"CPU time", regexp.MustCompile(`\bCPU\b`)},
	{"a request count or rate figure", regexp.MustCompile(`\b[0-9]+ (HTTP )?requests\b|\brequests?/s\b|\breq/s\b|\bops/s\b`)},
}

// userTextProblems lists what text says that notForUsers forbids.
func userTextProblems(text string) []string {
	var problems []string
	for _, p := range notForUsers {
		if found := p.re.FindAllString(text, -1); len(found) > 0 {
			problems = append(problems, fmt.Sprintf("%s: %q", p.what, found))
		}
	}
	return problems
}

// providerSchemas returns every schema the provider serves.
func providerSchemas(t *testing.T) *tfprotov6.GetProviderSchemaResponse {
	t.Helper()
	server, err := ProtocolServer("test")()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.Diagnostics {
		t.Fatalf("GetProviderSchema: %s: %s", d.Summary, d.Detail)
	}
	return resp
}

// schemaDescriptions returns every description of a schema (its own, its attributes', nested
// attributes' and blocks'), keyed by where it is: "resource eventnotify_subscription.event_name".
func schemaDescriptions(where string, block *tfprotov6.SchemaBlock, into map[string]string) {
	into[where] = block.Description
	var attrs func(prefix string, list []*tfprotov6.SchemaAttribute)
	attrs = func(prefix string, list []*tfprotov6.SchemaAttribute) {
		for _, a := range list {
			into[prefix+"."+a.Name] = a.Description
			if a.NestedType != nil {
				attrs(prefix+"."+a.Name, a.NestedType.Attributes)
			}
		}
	}
	attrs(where, block.Attributes)
	for _, nested := range block.BlockTypes {
		schemaDescriptions(where+"."+nested.TypeName, nested.Block, into)
	}
}

// allDescriptions walks every schema of the provider: the provider block, resources, data
// sources, ephemeral resources, list resources and actions.
func allDescriptions(t *testing.T) map[string]string {
	t.Helper()
	resp := providerSchemas(t)
	all := map[string]string{}
	schemaDescriptions("provider", resp.Provider.Block, all)
	kinds := []struct {
		kind    string
		schemas map[string]*tfprotov6.Schema
	}{
		{"resource", resp.ResourceSchemas},
		{"data source", resp.DataSourceSchemas},
		{"ephemeral resource", resp.EphemeralResourceSchemas},
		{"list resource", resp.ListResourceSchemas},
	}
	for _, k := range kinds {
		for name, s := range k.schemas {
			schemaDescriptions(k.kind+" "+name, s.Block, all)
		}
	}
	for name, s := range resp.ActionSchemas {
		schemaDescriptions("action "+name, s.Schema.Block, all)
	}
	return all
}

// TestDocsDescriptionsSpeakToUsers walks every schema of the provider and checks that no
// description names the service's operations, wire fields or HTTP paths, nor CPU time or
// request counts.
func TestDocsDescriptionsSpeakToUsers(t *testing.T) {
	all := allDescriptions(t)
	kinds := map[string]bool{}
	for where := range all {
		kind, _, _ := strings.Cut(where, " eventnotify_")
		kinds[kind] = true
	}
	for _, kind := range []string{"resource", "data source", "ephemeral resource", "list resource"} {
		if !kinds[kind] {
			t.Errorf("found no %s schema: did the walk miss it? (%d descriptions)", kind, len(all))
		}
	}
	if len(all) < 100 {
		t.Errorf("found only %d descriptions", len(all))
	}
	for where, text := range all {
		if strings.TrimSpace(text) == "" && where != "provider" {
			t.Errorf("%s has no description", where)
		}
		for _, p := range userTextProblems(text) {
			t.Errorf("%s: the description names %s; say what it means to the user (the API's details belong in SERVICE.md, figures in BENCHMARKS.md)", where, p)
		}
	}
}

// TestDocsPagesSpeakToUsers applies the same rule to the prose of the provider, resource,
// data source, ephemeral resource and list resource pages (code blocks aside). The guides
// may quote the provider's errors, which name operations.
func TestDocsPagesSpeakToUsers(t *testing.T) {
	pages := docsPages(t)
	checked := 0
	for _, page := range pages {
		if strings.Contains(page, "/guides/") {
			continue
		}
		checked++
		body := fencedCode.ReplaceAllString(readPage(t, page), "")
		for _, p := range userTextProblems(body) {
			t.Errorf("%s names %s (fix it in templates/ or the schema, then run make docs)", page, p)
		}
	}
	if checked < 10 {
		t.Errorf("checked only %d pages", checked)
	}
}

// fencedCode matches a fenced code block of a Markdown page.
var fencedCode = regexp.MustCompile("(?ms)^ *```.*?^ *```")

// docsPages lists every page under docs/.
func docsPages(t *testing.T) []string {
	t.Helper()
	var pages []string
	err := filepath.WalkDir("../../docs", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			pages = append(pages, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

// readPage returns a page's text.
func readPage(t *testing.T, path string) string {
	t.Helper()
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}

// runTogether matches two sentences run together, as a Markdown list rendered as plain text
// gives them ("at creation.Changing any"): a lower-case word, or a closing bracket or quote,
// then a full stop and a capitalised word with no space between. An event name such as
// Atom.Status starts with a capital, and ATOM.STATUS has no lower-case letter after the dot.
var runTogether = regexp.MustCompile("(\\b[a-z]+|[)\\]\"'`])[.!?:][A-Z][a-z]")

// frontMatterDescription returns the description of a page's front matter, or "".
func frontMatterDescription(page string) string {
	if !strings.HasPrefix(page, "---\n") {
		return ""
	}
	front, _, ok := strings.Cut(page[4:], "\n---")
	if !ok {
		return ""
	}
	_, desc, ok := strings.Cut(front, "\ndescription:")
	if !ok && strings.HasPrefix(front, "description:") {
		desc, ok = strings.TrimPrefix(front, "description:"), true
	}
	if !ok {
		return ""
	}
	// The value runs until the next key at the start of a line.
	if next := regexp.MustCompile(`\n[a-z_]+:`).FindStringIndex(desc); next != nil {
		desc = desc[:next[0]]
	}
	// A block scalar ("|-" and indented lines) is its lines without the indentation.
	desc = strings.TrimSpace(desc)
	for _, indicator := range []string{"|-", "|", ">-", ">"} {
		if rest, ok := strings.CutPrefix(desc, indicator+"\n"); ok {
			lines := strings.Split(rest, "\n")
			for i, l := range lines {
				lines[i] = strings.TrimSpace(l)
			}
			return strings.Join(lines, "\n")
		}
	}
	return desc
}

// TestDocsFrontMatterSentences checks that no page's front-matter description (the plain-text
// summary the Registry shows in lists and search) runs sentences together.
func TestDocsFrontMatterSentences(t *testing.T) {
	if !runTogether.MatchString("refresh keeps the values recorded at creation.Changing any argument") ||
		runTogether.MatchString("the service's own spellings (Atom.Status, ATOM.STATUS) cause no diff. Next") {
		t.Fatal("runTogether does not tell sentences run together from event names")
	}
	described := 0
	for _, page := range docsPages(t) {
		desc := frontMatterDescription(readPage(t, page))
		if desc == "" {
			continue
		}
		described++
		for _, m := range runTogether.FindAllString(desc, -1) {
			t.Errorf("%s: the front matter's description runs sentences together (%q): write the schema's description "+
				"or the template so that its plain text keeps a space between sentences", page, m)
		}
	}
	if described < 10 {
		t.Errorf("found only %d pages with a front-matter description", described)
	}
}

// pageSection returns the part of a page under a heading (the heading's whole line, such as
// "## Versions and compatibility"), up to the next heading of the same or a higher level.
func pageSection(page, heading string) string {
	start := strings.Index(page, "\n"+heading+"\n")
	if start < 0 {
		return ""
	}
	level := strings.Count(strings.Fields(heading)[0], "#")
	rest := page[start+len(heading)+2:]
	end := regexp.MustCompile(`(?m)^#{1,` + fmt.Sprint(level) + `} `).FindStringIndex(rest)
	if end != nil {
		rest = rest[:end[0]]
	}
	return rest
}

// TestDocsCompatibilityPolicy checks that the provider page states the compatibility policy
// and the version constraint that the examples use (TestExamplesLookReal), and that the
// constraint takes the current minor's patch releases but not the next minor release.
func TestDocsCompatibilityPolicy(t *testing.T) {
	policy := pageSection(readPage(t, "../../docs/index.md"), "## Versions and compatibility")
	if policy == "" {
		t.Fatal("docs/index.md has no \"## Versions and compatibility\" section")
	}
	for _, want := range []string{`version = "` + compatibleVersions + `"`, "patch release", "minor release", "Breaking changes"} {
		if !strings.Contains(policy, want) {
			t.Errorf("the compatibility policy does not say %q:\n%s", want, policy)
		}
	}
	constraint, err := version.NewConstraint(compatibleVersions)
	if err != nil {
		t.Fatal(err)
	}
	current := version.Must(version.NewVersion(guideProviderVersion))
	patch := version.Must(version.NewVersion(fmt.Sprintf("%d.%d.%d", current.Segments()[0], current.Segments()[1], current.Segments()[2]+1)))
	minor := version.Must(version.NewVersion(fmt.Sprintf("%d.%d.0", current.Segments()[0], current.Segments()[1]+1)))
	if !constraint.Check(current) || !constraint.Check(patch) || constraint.Check(minor) {
		t.Errorf("%q should accept %s and %s and refuse %s, the next minor release, which the policy lets break",
			compatibleVersions, current, patch, minor)
	}
}

// TestDocsTermsExplained checks that the provider page explains the terms a user meets, and
// that what it says about regions is what internal/client knows: while no region has
// addresses, the page and the region argument say that region alone does not reach the
// service; once one has, they must say otherwise.
func TestDocsTermsExplained(t *testing.T) {
	page := readPage(t, "../../docs/index.md")
	for _, heading := range []string{"### The platform", "### Event streams environments", "### EMAIL destinations",
		"### Finding base_url and auth_url", "### What region does today"} {
		if strings.TrimSpace(pageSection(page, heading)) == "" {
			t.Errorf("docs/index.md does not explain %q", strings.TrimPrefix(heading, "### "))
		}
	}
	envs := pageSection(page, "### Event streams environments")
	for _, attr := range []string{"event_streams_environment_id", "event_streams_environment_name", "event_streams_topic"} {
		if !strings.Contains(envs, "`"+attr+"`") {
			t.Errorf("the event streams environments section does not say where %s comes from", attr)
		}
	}
	if !strings.Contains(pageSection(page, "### EMAIL destinations"), "read-only") {
		t.Error("the EMAIL destinations section does not say why destination_email is read-only")
	}

	known := 0
	for _, r := range httpapi.Regions() {
		if !strings.Contains(pageSection(page, "### What region does today"), "`"+r.Name+"`") {
			t.Errorf("the region section does not name region %q", r.Name)
		}
		if r.BaseURL != "" || r.AuthURL != "" {
			known++
		}
	}
	regionDoc := allDescriptions(t)["provider.region"]
	claims := map[string]string{
		"docs/index.md, What region does today": pageSection(page, "### What region does today"),
		"the region argument's description":     regionDoc,
	}
	for where, text := range claims {
		saysNone := strings.Contains(text, "knows none") || strings.Contains(text, "alone does not reach the service")
		if saysNone != (known == 0) {
			t.Errorf("%s says region alone does not reach the service: %v, but internal/client knows the addresses of %d regions",
				where, saysNone, known)
		}
	}
}

// TestDocsMaxBatchSizeRange checks that max_batch_size's description states the range that
// its validator and the environment variable's check enforce.
func TestDocsMaxBatchSizeRange(t *testing.T) {
	desc := allDescriptions(t)["provider.max_batch_size"]
	if want := fmt.Sprintf("from `1` to `%d`", maxBatchSize); !strings.Contains(desc, want) {
		t.Errorf("max_batch_size's description does not state its range %q: %s", want, desc)
	}
	for value, ok := range map[string]bool{"0": false, "1": true, fmt.Sprint(maxBatchSize): true, fmt.Sprint(maxBatchSize + 1): false} {
		_, diags := resolveSettings(baseModel(), envOf(map[string]string{envMaxBatchSize: value}))
		if diags.HasError() == ok {
			t.Errorf("%s=%s: accepted %v, want %v (%v)", envMaxBatchSize, value, !diags.HasError(), ok, diags)
		}
	}
}

// tfplugindocsType is how tfplugindocs names an attribute's type on a page.
func tfplugindocsType(t *testing.T, typ tftypes.Type) string {
	t.Helper()
	switch {
	case typ.Is(tftypes.String):
		return "String"
	case typ.Is(tftypes.Bool):
		return "Boolean"
	case typ.Is(tftypes.Number):
		return "Number"
	}
	t.Fatalf("no page type for %s", typ)
	return ""
}

// checkNestedSchemaSection checks the "### Nested Schema for `NAME`" section of a hand-written
// page as tfplugindocs writes it: an anchor, and the nested attributes, all required, under
// "Required:".
func checkNestedSchemaSection(t *testing.T, page, text string, a *tfprotov6.SchemaAttribute) {
	t.Helper()
	heading := "### Nested Schema for `" + a.Name + "`"
	if !strings.Contains(text, `<a id="nestedatt--`+a.Name+`"></a>`+"\n"+heading+"\n") {
		t.Errorf("%s has no anchored section %q", page, heading)
	}
	var want []string
	for _, n := range a.NestedType.Attributes {
		if !n.Required {
			t.Errorf("%s.%s is not required; the page lists it under Required:", a.Name, n.Name)
		}
		want = append(want, fmt.Sprintf("- `%s` (%s) %s", n.Name, tfplugindocsType(t, n.Type), n.Description))
	}
	slices.Sort(want)
	section := pageSection(text, heading)
	if got := bulletLines(section); !strings.Contains(section, "\nRequired:\n") || !slices.Equal(got, want) {
		t.Errorf("%s: the section %s lists\n%s\nwant, under Required:, from the schema,\n%s", page, heading,
			strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// bulletLines returns the "- `name` ..." lines of a page section.
func bulletLines(section string) []string {
	var lines []string
	for _, l := range strings.Split(section, "\n") {
		if strings.HasPrefix(l, "- `") {
			lines = append(lines, l)
		}
	}
	return lines
}

// TestDocsListResourcePage checks the list resource's page, which is written by hand because
// only Terraform 1.14 and later render list resources: its description is the schema's, its
// example is the example file, its Schema section lists every filter of the schema with its
// type and description and nothing else, and its Results section the identity's attributes.
func TestDocsListResourcePage(t *testing.T) {
	const page = "../../docs/list-resources/subscription.md"
	text := readPage(t, page)
	schemas := providerSchemas(t)
	list := schemas.ListResourceSchemas["eventnotify_subscription"]
	if list == nil {
		t.Fatal("the provider serves no eventnotify_subscription list resource")
	}

	desc := strings.TrimSpace(list.Block.Description)
	if !strings.Contains(text, "\n\n"+desc+"\n\n") {
		t.Errorf("%s does not carry the list resource's description as a paragraph:\n%s", page, desc)
	}
	if got, want := frontMatterDescription(text), strings.ReplaceAll(desc, "`", ""); got != want {
		t.Errorf("%s: the front matter's description is\n%s\nwant the description in plain text\n%s", page, got, want)
	}

	example, err := os.ReadFile(listResourceExample)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "```terraform\n"+strings.TrimSpace(string(example))+"\n```") {
		t.Errorf("%s does not show examples/list-resources/eventnotify_subscription/list-resource.tfquery.hcl as it is", page)
	}

	var want []string
	for _, a := range list.Block.Attributes {
		if !a.Optional || a.Required || a.Computed {
			t.Errorf("filter %s is not optional-only; the page lists every filter under Optional", a.Name)
		}
		if a.NestedType != nil {
			want = append(want, fmt.Sprintf("- `%s` (Attributes) %s (see [below for nested schema](#nestedatt--%s))", a.Name, a.Description, a.Name))
			checkNestedSchemaSection(t, page, text, a)
			continue
		}
		want = append(want, fmt.Sprintf("- `%s` (%s) %s", a.Name, tfplugindocsType(t, a.Type), a.Description))
	}
	slices.Sort(want)
	got := bulletLines(pageSection(pageSection(text, "## Schema"), "### Optional"))
	if !slices.Equal(got, want) {
		t.Errorf("%s: the filters under ## Schema, ### Optional are\n%s\nwant, from the schema,\n%s", page,
			strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(want) < 5 {
		t.Errorf("the list resource has only %d filters: %v", len(want), want)
	}

	server, err := ProtocolServer("test")()
	if err != nil {
		t.Fatal(err)
	}
	ids, err := server.GetResourceIdentitySchemas(context.Background(), &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		t.Fatal(err)
	}
	identity := ids.IdentitySchemas["eventnotify_subscription"]
	if identity == nil {
		t.Fatal("eventnotify_subscription has no identity schema")
	}
	want = nil
	for _, a := range identity.IdentityAttributes {
		want = append(want, fmt.Sprintf("- `%s` (%s) %s", a.Name, tfplugindocsType(t, a.Type), a.Description))
	}
	slices.Sort(want)
	if got := bulletLines(pageSection(text, "## Results")); !slices.Equal(got, want) {
		t.Errorf("%s: the identity under ## Results is\n%s\nwant, from the identity schema,\n%s", page,
			strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
