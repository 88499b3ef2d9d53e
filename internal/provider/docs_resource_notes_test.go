package provider

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// maxNoteRunes bounds the note at the top of a resource page: a few sentences. The detail goes
// into a section of the page.
const maxNoteRunes = 600

// resourceNotes is, for every resource, what the note at the top of its page must name: the
// resources it must not be combined with (holders.go and topic_subscriptions_holders.go warn
// about each pair within one configuration), and what else it must say.
var resourceNotes = map[string]struct {
	names []string
	says  []string
}{
	subscriptionResourceTypeName: {names: []string{accountResourceTypeName, topicResourceTypeName}},
	topicResourceTypeName: {names: []string{accountResourceTypeName, subscriptionResourceTypeName, topicResourceTypeName},
		says: []string{"same topic"}},
	accountResourceTypeName: {names: []string{subscriptionResourceTypeName, topicResourceTypeName, accountResourceTypeName},
		says: []string{"same account"}},
	// The topic resource conflicts with no other resource of the provider: its note says what
	// Terraform cannot undo, and that two of them on one topic share it.
	"eventnotify_event_streams_topic": {names: []string{"eventnotify_event_streams_topic"}, says: []string{"cannot undo", "destroying it leaves"}},
}

// pageNote returns the paragraph that follows the first paragraph under a page's title (the
// "# name (Resource)" heading), or "" when the page has no title.
func pageNote(page, title string) (first, note string) {
	_, body, ok := strings.Cut(page, "\n# "+title+"\n\n")
	if !ok {
		return "", ""
	}
	paragraphs := strings.SplitN(body, "\n\n", 3)
	if len(paragraphs) < 2 {
		return paragraphs[0], ""
	}
	return paragraphs[0], paragraphs[1]
}

// backticked matches a name in backticks.
var backticked = regexp.MustCompile("`(eventnotify_[a-z_]+)`")

// TestDocsResourcePagesOpenWithNote checks that the page of every resource the provider serves
// opens, right after its first paragraph, with a short note (`~> **Note:** ...`) that names the
// resources it must not be combined with.
func TestDocsResourcePagesOpenWithNote(t *testing.T) {
	schemas := providerSchemas(t)
	var served []string
	for name := range schemas.ResourceSchemas {
		served = append(served, name)
	}
	slices.Sort(served)
	if len(served) < 4 {
		t.Fatalf("the provider serves only %d resources: %v", len(served), served)
	}
	for _, name := range served {
		t.Run(name, func(t *testing.T) {
			want, ok := resourceNotes[name]
			if !ok {
				t.Fatalf("resourceNotes says nothing of %s: add what the note at the top of its page must name", name)
			}
			page := "../../docs/resources/" + strings.TrimPrefix(name, "eventnotify_") + ".md"
			first, note := pageNote(readPage(t, page), name+" (Resource)")
			if first == "" {
				t.Fatalf("%s has no title %q followed by a paragraph", page, "# "+name+" (Resource)")
			}
			if strings.HasPrefix(first, "~>") || strings.HasPrefix(first, "!>") || strings.HasPrefix(first, "#") {
				t.Errorf("%s: the first paragraph under the title is not the description: %q", page, first)
			}
			if !strings.HasPrefix(note, "~> **Note:** ") {
				t.Fatalf("%s: the paragraph after the first is not a note (~> **Note:** ...): %q", page, note)
			}
			if n := utf8.RuneCountInString(note); n >= maxNoteRunes {
				t.Errorf("%s: the note has %d characters, want fewer than %d (move the detail into a section)", page, n, maxNoteRunes)
			}
			if !strings.Contains(note, "Do not ") {
				t.Errorf("%s: the note does not say what not to do (\"Do not ...\"): %q", page, note)
			}
			named := map[string]bool{}
			for _, m := range backticked.FindAllStringSubmatch(strings.Join(strings.Fields(note), " "), -1) {
				named[m[1]] = true
			}
			for _, other := range want.names {
				if !named[other] {
					t.Errorf("%s: the note does not name `%s`, which the resource must not be combined with: %q", page, other, note)
				}
			}
			for _, s := range want.says {
				if !strings.Contains(strings.Join(strings.Fields(note), " "), s) {
					t.Errorf("%s: the note does not say %q: %q", page, s, note)
				}
			}
		})
	}
}

// TestPageNote checks pageNote on a page whose note follows the first paragraph, and on one
// whose note is missing.
func TestPageNote(t *testing.T) {
	page := "---\nx\n---\n\n# r (Resource)\n\nWhat it is.\n\n~> **Note:** Do not.\n\n## Example\n"
	if first, note := pageNote(page, "r (Resource)"); first != "What it is." || note != "~> **Note:** Do not." {
		t.Errorf("pageNote = %q, %q", first, note)
	}
	if _, note := pageNote("# r (Resource)\n\nWhat it is.\n\n## Example\n", "r (Resource)"); strings.HasPrefix(note, "~>") {
		t.Errorf("pageNote found a note in a page without one: %q", note)
	}
}
