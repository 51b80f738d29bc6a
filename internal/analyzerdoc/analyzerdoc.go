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
