package provider

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// proseDefault finds a provider argument's default stated in prose: "`max_retries` (default 5"
// or "default `max_requests_per_second` of `10`".
var proseDefault = []*regexp.Regexp{
	regexp.MustCompile("`([a-z_]+)`\\s+\\(default\\s+`?([^`),;\\s]+)`?"),
	regexp.MustCompile("default\\s+`([a-z_]+)`\\s+of\\s+`?([^`),;\\s]+)`?"),
}

// proseTimeouts finds an operation's default time limit stated in prose ("by default 20
// minutes"), which only the timeouts block's schema states.
var proseTimeouts = regexp.MustCompile(`(?i)default(s)?( of)?\s+\d+\s+minutes`)

// schemaDefault finds the default in a provider argument's description: "Default `10`".
var schemaDefault = regexp.MustCompile("Default `([^`]+)`")

// TestDocsProseDefaultsMatchSchema holds every default the pages, guides and examples state in
// prose to the provider schema's description of the argument, which is written from the
// constant the provider uses: a default changed in code fails here, naming each place that still
// says the old one. Operation time limits are stated only by the timeouts block's schema (the
// pages cite it), so any "by default 20 minutes" fails.
func TestDocsProseDefaultsMatchSchema(t *testing.T) {
	descriptions := map[string]string{}
	schemaDescriptions("provider", providerSchemas(t).Provider.Block, descriptions)
	var files []string
	for _, pattern := range []string{"../../templates/*.tmpl", "../../templates/*/*.tmpl", "../../examples/*/*/*.tf", "../../README.md"} {
		found, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, found...)
	}
	if len(files) < 20 {
		t.Fatalf("found only %d pages and examples", len(files))
	}
	stated := 0
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		name := strings.TrimPrefix(file, "../../")
		for _, m := range proseTimeouts.FindAllString(text, -1) {
			t.Errorf("%s says %q: an operation's default time limit is the timeouts block's schema's to state; cite it", name, m)
		}
		for _, re := range proseDefault {
			for _, m := range re.FindAllStringSubmatch(text, -1) {
				stated++
				desc, ok := descriptions["provider."+m[1]]
				if !ok {
					t.Errorf("%s states a default of `%s`, which is no provider argument", name, m[1])
					continue
				}
				want := schemaDefault.FindStringSubmatch(desc)
				if want == nil {
					t.Errorf("%s states a default of `%s`, whose description states none", name, m[1])
				} else if m[2] != want[1] {
					t.Errorf("%s says the default of `%s` is %s; the provider's is %s", name, m[1], m[2], want[1])
				}
			}
		}
	}
	if stated < 5 {
		t.Errorf("found only %d defaults stated in prose: the patterns no longer match how the pages say them", stated)
	}
}
