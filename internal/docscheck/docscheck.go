// Package docscheck parses documentation pages as CommonMark, the way the
// Terraform Registry renders them, and reports what renders wrong there: a code
// block with nothing in it (a fence that a list item or an unindented line cut
// short), a second top-level heading (such as an HCL or shell comment that
// escaped its code block), and a relative link to a .md file (the Registry
// serves pages without the extension, so such a link answers 404).
package docscheck

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Problem is one thing on a page that renders wrong.
type Problem struct {
	Line    int  // 1-based line in the page, front matter included; 0 when unknown
	After   bool // the problem is somewhere after Line (a block with no lines of its own)
	Message string
}

// String renders the problem as "line N: message" or "after line N: message".
func (p Problem) String() string {
	switch {
	case p.Line == 0:
		return p.Message
	case p.After:
		return fmt.Sprintf("after line %d: %s", p.Line, p.Message)
	}
	return fmt.Sprintf("line %d: %s", p.Line, p.Message)
}

// Check parses one page and returns its problems, in page order.
func Check(page []byte) []Problem {
	body, offset := stripFrontMatter(page)
	doc := goldmark.New().Parser().Parse(text.NewReader(body))

	var problems []Problem

	line := func(offsetInBody int) int {
		return offset + bytes.Count(body[:offsetInBody], []byte("\n")) + 1
	}
	// at is where n starts: its first line; for a block with no lines of its
	// own (an empty code block), its info string's line, or else somewhere
	// after its previous sibling's last line.
	at := func(n ast.Node) (int, bool) {
		if f, ok := n.(*ast.FencedCodeBlock); ok && f.Info != nil {
			return line(f.Info.Segment.Start), false
		}
		for ; n != nil; n = n.Parent() {
			if n.Type() != ast.TypeBlock {
				continue
			}
			if n.Lines().Len() > 0 {
				return line(n.Lines().At(0).Start), false
			}
			if prev := n.PreviousSibling(); prev != nil {
				if l := lastLine(prev, body); l > 0 {
					return offset + l, true
				}
			}
		}
		return 0, false
	}
	report := func(n ast.Node, format string, args ...any) {
		l, after := at(n)
		problems = append(problems, Problem{Line: l, After: after, Message: fmt.Sprintf(format, args...)})
	}
	topLevel := 0
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock:
			if blank(n.Lines(), body) {
				lang := string(n.Language(body))
				if lang == "" {
					lang = "without a language"
				}
				report(n, "empty fenced code block (%s): its lines escaped the fence, typically because the block "+
					"sits in a list item and its lines are not indented to the item's content", lang)
			}
		case *ast.CodeBlock:
			if blank(n.Lines(), body) {
				report(n, "empty indented code block")
			}
		case *ast.Heading:
			if n.Level == 1 {
				topLevel++
				if topLevel > 1 {
					report(n, "second top-level heading %q: a page has one; a '#' comment outside its code block "+
						"renders as one", headingText(n, body))
				}
			}
		case *ast.Link:
			if dest := string(n.Destination); relativeMarkdownLink(dest) {
				report(n, "relative link to a .md file (%s): the Registry serves pages without the extension, so it "+
					"answers 404; link to the page's Registry address", dest)
			}
		}
		return ast.WalkContinue, nil
	})
	return problems
}

// stripFrontMatter removes a leading YAML front matter block, which the
// Registry reads as page metadata and does not render, and returns how many
// lines it held.
func stripFrontMatter(page []byte) ([]byte, int) {
	if !bytes.HasPrefix(page, []byte("---\n")) {
		return page, 0
	}
	end := bytes.Index(page[4:], []byte("\n---\n"))
	if end < 0 {
		return page, 0
	}
	cut := 4 + end + len("\n---\n")
	return page[cut:], bytes.Count(page[:cut], []byte("\n"))
}

// blank reports whether lines hold nothing but white space.
func blank(lines *text.Segments, src []byte) bool {
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		if len(bytes.TrimSpace(seg.Value(src))) > 0 {
			return false
		}
	}
	return true
}

// lastLine is the 1-based line of the last line that n or its descendants hold, or 0.
func lastLine(n ast.Node, src []byte) int {
	line := 0
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering && c.Type() == ast.TypeBlock && c.Lines().Len() > 0 {
			seg := c.Lines().At(c.Lines().Len() - 1)
			line = bytes.Count(src[:seg.Start], []byte("\n")) + 1
		}
		return ast.WalkContinue, nil
	})
	return line
}

// headingText is the plain text of a heading.
func headingText(h *ast.Heading, src []byte) string {
	var b strings.Builder
	for i := 0; i < h.Lines().Len(); i++ {
		seg := h.Lines().At(i)
		b.Write(seg.Value(src))
	}
	return strings.TrimSpace(b.String())
}

// relativeMarkdownLink reports a link without scheme or host whose path ends in .md.
func relativeMarkdownLink(dest string) bool {
	u, err := url.Parse(dest)
	if err != nil || u.Scheme != "" || u.Host != "" {
		return false
	}
	return strings.HasSuffix(strings.ToLower(u.Path), ".md")
}
