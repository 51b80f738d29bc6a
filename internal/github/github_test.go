package github

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/sendlint/sendlint/internal/finding"
)

func TestAnnotations(t *testing.T) {
	root := filepath.FromSlash("/repo")
	at := func(file string, line, col int) finding.Position {
		return finding.Position{File: filepath.Join(root, filepath.FromSlash(file)), Line: line, Col: col}
	}
	var buf bytes.Buffer
	Annotations(&buf, []finding.Finding{
		{
			Pass: "baresend", Message: "send on out (50% full) can block forever",
			Pos:     at("hub/hub.go", 12, 5),
			Related: []finding.Related{{Pos: at("hub/make.go", 3, 9), Message: "channel made here"}},
		},
		{Pass: "lockedsend", Message: "send while mu is held", Pos: at("a,b:c/x.go", 4, 0)},
		{Pass: "baresend", Message: "send on c.out [audit: no receiver]", Pos: at("x.go", 7, 2), Audit: true},
	}, root)
	want := "::warning file=hub/hub.go,line=12,col=5,title=sendlint baresend::send on out (50%25 full) can block forever%0Ahub/make.go:3:9: channel made here\n" +
		"::warning file=a%2Cb%3Ac/x.go,line=4,title=sendlint lockedsend::send while mu is held\n" +
		"::notice file=x.go,line=7,col=2,title=sendlint baresend::send on c.out [audit: no receiver]\n"
	if buf.String() != want {
		t.Errorf("annotations:\n%s\nwant:\n%s", buf.String(), want)
	}
}

func TestError(t *testing.T) {
	var buf bytes.Buffer
	Error(&buf, "package p: line one\nline two")
	if want := "::error title=sendlint::package p: line one%0Aline two\n"; buf.String() != want {
		t.Errorf("Error wrote %q, want %q", buf.String(), want)
	}
}
