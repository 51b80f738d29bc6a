// Package analyzerdoc turns a pass's doc.go package comment into the
// Analyzer.Doc string, so one text serves go doc, `sendlint help <pass>`,
// SARIF rules and the golangci-lint description.
package analyzerdoc

import (
	"fmt"
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
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		return "", err
	}
	if f.Doc == nil {
		return "", fmt.Errorf("doc.go of %s has no package comment", name)
	}
	text := f.Doc.Text()
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
