package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// codeBlock is a fenced code block of a Markdown page.
type codeBlock struct {
	lang  string   // the info string's first word: sh, hcl, yaml, ...
	line  int      // the line of the opening fence, from 1
	lines []string // the block's lines, without the fences and without the fences' indent
}

// text is the block's body as a user copies it.
func (b codeBlock) text() string { return strings.Join(b.lines, "\n") + "\n" }

// fencedBlocks returns the ``` code blocks of a Markdown text, indented ones (in a list) too.
func fencedBlocks(markdown string) []codeBlock {
	var blocks []codeBlock
	var cur *codeBlock
	indent := ""
	for i, line := range strings.Split(markdown, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			info := strings.Fields(strings.TrimPrefix(trimmed, "```"))
			cur = &codeBlock{line: i + 1}
			if len(info) > 0 {
				cur.lang = info[0]
			}
			indent = line[:len(line)-len(strings.TrimLeft(line, " "))]
		case cur != nil && trimmed == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, strings.TrimPrefix(line, indent))
		}
	}
	return blocks
}

// userPages returns the pages that show commands to run: the README, CONTRIBUTING.md and every
// page under docs/, with their text.
func userPages(t *testing.T) map[string]string {
	t.Helper()
	pages := map[string]string{}
	files := []string{"README.md", "CONTRIBUTING.md"}
	err := filepath.WalkDir("docs", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pages[filepath.ToSlash(f)] = string(body)
	}
	return pages
}
