package directive

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

func parse(t *testing.T, src string) *Index {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "a.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	idx := new(Index)
	for _, g := range f.Comments {
		for _, c := range g.List {
			idx.add(fset, c)
		}
	}
	return idx
}

func TestIgnore(t *testing.T) {
	idx := parse(t, `package a

func f(ch chan int) {
	//sendlint:ignore baresend,lockedsend the reader never stops: it is the process main loop
	ch <- 1
	ch <- 2 //sendlint:ignore baresend single consumer drains until exit
	// sendlint:ignore baresend a space makes this an ordinary comment
}
`)
	if len(idx.Errors) != 0 {
		t.Fatalf("errors: %v", idx.Errors)
	}
	if len(idx.Ignores) != 2 {
		t.Fatalf("got %d ignores, want 2", len(idx.Ignores))
	}
	first := idx.Ignores[0]
	if first.Line != 4 || !first.Names("baresend") || !first.Names("lockedsend") || first.Names("silentdrop") {
		t.Errorf("first ignore = %+v", first)
	}
	if !strings.HasPrefix(first.Reason, "the reader never stops") {
		t.Errorf("reason = %q", first.Reason)
	}
}

func TestMalformed(t *testing.T) {
	for _, tc := range []struct{ directive, want string }{
		{"//sendlint:ignore", "missing pass name"},
		{"//sendlint:ignore baresend", "missing reason"},
		{"//sendlint:ignore baresend   ", "missing reason"},
		{"//sendlint:ignore basresend reason", `unknown pass "basresend"`},
		{"//sendlint:ignore baresend,, reason", `unknown pass ""`},
		{"//sendlint:sender now", "takes no arguments"},
		{"//sendlint:ignroe baresend reason", "unknown directive //sendlint:ignroe"},
	} {
		idx := parse(t, "package a\n\n"+tc.directive+"\nvar x int\n")
		if len(idx.Errors) != 1 || !strings.Contains(idx.Errors[0].Error(), tc.want) {
			t.Errorf("%s: errors %v, want one containing %q", tc.directive, idx.Errors, tc.want)
			continue
		}
		if got := idx.Errors[0].Error(); !strings.HasPrefix(got, "a.go:3:1: ") {
			t.Errorf("%s: error %q lacks its position", tc.directive, got)
		}
	}
}

func TestSender(t *testing.T) {
	idx := parse(t, "package a\n\n//sendlint:sender\nfunc run() {}\n")
	if len(idx.Senders) != 1 || len(idx.Errors) != 0 {
		t.Fatalf("senders %v errors %v", idx.Senders, idx.Errors)
	}
}
