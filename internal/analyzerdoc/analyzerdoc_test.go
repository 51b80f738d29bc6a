package analyzerdoc

import "testing"

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
