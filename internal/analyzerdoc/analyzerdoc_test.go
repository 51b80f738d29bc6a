package analyzerdoc

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"testing"
)

const good = `// Package demo does things.
//
// # Analyzer demo
//
// demo: report demonstrations
//
// More text.
package demo
`

func TestExtract(t *testing.T) {
	doc, err := Extract(good, "demo")
	if err != nil {
		t.Fatal(err)
	}
	if want := "report demonstrations\n\nMore text.\n"; doc != want {
		t.Errorf("Extract = %q, want %q", doc, want)
	}
	if got := Title(doc); got != "report demonstrations" {
		t.Errorf("Title = %q", got)
	}
}

func TestExtractErrors(t *testing.T) {
	for _, src := range []string{
		"package demo\n",
		"// Package demo.\npackage demo\n",
		"// # Analyzer demo\n//\n// other: title\npackage demo\n",
	} {
		if _, err := Extract(src, "demo"); err == nil {
			t.Errorf("Extract(%q) succeeded, want an error", src)
		}
	}
}

func TestMarkdown(t *testing.T) {
	doc := "report demonstrations\n\nWRONG:\n\n\tfunc f() {\n\n\t\tch <- v // reported\n\t}\n\nIt reports:\n\n  - a send on a field whose\n    receiver may exit;\n  - nothing else.\n"
	want := "**report demonstrations**\n\nWRONG:\n\n```go\nfunc f() {\n\n\tch <- v // reported\n}\n```\n\nIt reports:\n\n- a send on a field whose\n  receiver may exit;\n- nothing else.\n"
	if got := Markdown(doc); got != want {
		t.Errorf("Markdown =\n%s\nwant\n%s", got, want)
	}
}

// TestCommentLines checks the line reader against the parser on the
// passes' doc.go files and on files it must leave to the parser.
func TestCommentLines(t *testing.T) {
	files, err := filepath.Glob("../../passes/*/doc.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no doc.go files: %v", err)
	}
	var srcs []string
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, string(data))
	}
	srcs = append(srcs, good,
		"// Detached.\n\npackage demo\n",
		"//go:build linux\n\n// Package demo.\n//go:generate x\npackage demo\n",
		"/* Package demo. */\npackage demo\n",
		"// Package demo.\r\npackage demo\r\n",
		"\t// Package demo.\npackage demo\n",
	)
	for _, src := range srcs {
		f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := packageDoc(src)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := doc.Text(), f.Doc.Text(); got != want {
			t.Errorf("package comment of %.40q:\n%q\nwant\n%q", src, got, want)
		}
	}
}
