// Package analyzerdoc turns a pass's doc.go package comment into the
// Analyzer.Doc string, so one text serves go doc, `sendlint help <pass>`,
// SARIF rules and the golangci-lint description.
package analyzerdoc

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// Extract returns the documentation of the analyzer called name from the
// source of a doc.go file. The package comment must contain a heading
// "# Analyzer <name>" followed by a paragraph "<name>: <title>"; everything
// after the heading is the documentation, with the "<name>: " prefix
// removed so that the title is the first line, as go/analysis expects.
func Extract(src, name string) (string, error) {
	doc, err := packageDoc(src)
	if err != nil {
		return "", err
	}
	if doc == nil {
		return "", fmt.Errorf("doc.go of %s has no package comment", name)
	}
	text := doc.Text()
	heading := "# Analyzer " + name + "\n"
	i := strings.Index(text, heading)
	if i < 0 {
		return "", fmt.Errorf("doc.go of %s lacks the heading %q", name, strings.TrimSpace(heading))
	}
	body := strings.TrimLeft(text[i+len(heading):], "\n")
	prefix := name + ": "
	if !strings.HasPrefix(body, prefix) {
		return "", fmt.Errorf("doc.go of %s: the paragraph after the heading must start with %q", name, prefix)
	}
	return strings.TrimSpace(body[len(prefix):]) + "\n", nil
}

// packageDoc returns the package comment of src. Every process go vet
// starts initialises the passes, so their doc.go files are read on every
// start: a doc.go is lines of // comments, then the package clause, and
// those lines are taken as they are. Anything else goes to the parser.
func packageDoc(src string) (*ast.CommentGroup, error) {
	if doc, ok := commentLines(src); ok {
		return doc, nil
	}
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		return nil, err
	}
	return f.Doc, nil
}

// commentLines returns the group of // lines right above the package
// clause, as the parser would, when src holds only // lines and blank
// lines before that clause; ok is false otherwise. A blank line ends a
// group, so a group that does not touch the clause is not its comment.
func commentLines(src string) (doc *ast.CommentGroup, ok bool) {
	if strings.Contains(src, "\r") {
		return nil, false
	}
	var group []*ast.Comment
	for line := range strings.Lines(src) {
		line = strings.TrimSuffix(line, "\n")
		switch {
		case strings.HasPrefix(line, "//"):
			group = append(group, &ast.Comment{Text: line})
		case line == "":
			group = nil
		case strings.HasPrefix(line, "package "):
			if len(group) == 0 {
				return nil, true
			}
			return &ast.CommentGroup{List: group}, true
		default:
			return nil, false
		}
	}
	return nil, false
}

// MustExtract is Extract for package initialisation: a malformed doc.go is a
// programming error caught by every test of the pass.
func MustExtract(src, name string) string {
	doc, err := Extract(src, name)
	if err != nil {
		panic(err)
	}
	return doc
}

// Title returns the first line of an analyzer's documentation.
func Title(doc string) string {
	title, _, _ := strings.Cut(doc, "\n")
	return title
}

// Markdown renders an analyzer's documentation as Markdown, for SARIF rule
// help: the title in bold, tab-indented code as fenced Go blocks, "  - "
// list items as Markdown items, and the rest as paragraphs.
func Markdown(doc string) string {
	lines := strings.Split(strings.TrimRight(doc, "\n"), "\n")
	var b strings.Builder
	if len(lines) > 0 && lines[0] != "" {
		b.WriteString("**" + lines[0] + "**\n")
		lines = lines[1:]
	}
	inCode := false
	for i, line := range lines {
		code := strings.HasPrefix(line, "\t")
		// A blank line between two code lines stays in the block.
		if line == "" && inCode && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\t") {
			b.WriteString("\n")
			continue
		}
		if code != inCode {
			if code {
				b.WriteString("```go\n")
			} else {
				b.WriteString("```\n")
			}
			inCode = code
		}
		switch {
		case code:
			b.WriteString(strings.TrimPrefix(line, "\t") + "\n")
		case strings.HasPrefix(line, "  - "):
			b.WriteString("- " + strings.TrimPrefix(line, "  - ") + "\n")
		case strings.HasPrefix(line, "    "):
			b.WriteString("  " + strings.TrimPrefix(line, "    ") + "\n")
		default:
			b.WriteString(line + "\n")
		}
	}
	if inCode {
		b.WriteString("```\n")
	}
	return b.String()
}
