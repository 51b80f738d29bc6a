package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// These tests cover the case file and the matching of findings to lines;
// they never download. The benchmark itself runs only through go run.

const sample = `
# a comment
[one]
module  = example.com/m
package = example.com/m/sub
pass    = baresend
bug     = v1.0.0 sub/a.go:10
fix     = v1.1.0 sub/a.go:12 sub/b.go:3
commit  = https://example.com/commit/1
about   = a send that blocks

[two]
module  = example.com/n
package = example.com/n
pass    = lockedsend
bug     = v0.1.0 n.go:5
fix     = v0.2.0 n.go:7
require = example.com/dep@v1.2.0 example.com/other@v0.3.0
commit  = https://example.com/commit/2
about   = a send under a lock
`

func TestParseCases(t *testing.T) {
	cases, err := parseCases(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 2 {
		t.Fatalf("got %d cases, want 2", len(cases))
	}
	c := cases[0]
	if c.Name != "one" || c.Package != "example.com/m/sub" || c.Pass != "baresend" {
		t.Errorf("case one = %+v", c)
	}
	if c.Bug.Version != "v1.0.0" || len(c.Bug.Lines) != 1 || c.Bug.Lines[0] != (fileLine{"sub/a.go", 10}) {
		t.Errorf("bug side = %+v", c.Bug)
	}
	if c.Fix.Version != "v1.1.0" || len(c.Fix.Lines) != 2 || c.Fix.Lines[1] != (fileLine{"sub/b.go", 3}) {
		t.Errorf("fix side = %+v", c.Fix)
	}
	if len(c.Require) != 0 {
		t.Errorf("case one requires %q, want nothing", c.Require)
	}
	if got := cases[1].Require; len(got) != 2 || got[0] != "example.com/dep@v1.2.0" || got[1] != "example.com/other@v0.3.0" {
		t.Errorf("case two requires %q", got)
	}
}

func TestParseCasesErrors(t *testing.T) {
	full := "module = m\npackage = m\npass = baresend\nbug = v1 a.go:1\nfix = v2 a.go:2\ncommit = u\nabout = x\n"
	for _, tc := range []struct{ name, text, want string }{
		{"before case", "module = m\n", "before the first"},
		{"no equals", "[a]\nmodule m\n", "key = value"},
		{"unknown key", "[a]\ncolour = red\n", "unknown key"},
		{"duplicate", "[a]\n" + full + "[a]\n" + full, "given twice"},
		{"no line", "[a]\n" + strings.Replace(full, "a.go:1", "a.go", 1), "not file:line"},
		{"no position", "[a]\n" + strings.Replace(full, "v1 a.go:1", "v1", 1), "want a version"},
		{"package outside module", "[a]\n" + strings.Replace(full, "package = m", "package = other", 1), "not in module"},
		{"missing about", "[a]\n" + strings.Replace(full, "about = x\n", "", 1), "no about"},
	} {
		_, err := parseCases(strings.NewReader(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// The case file that ships must parse, name each case once, and point at
// the module the package is in.
func TestShippedCases(t *testing.T) {
	f, err := os.Open("cases.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	cases, err := parseCases(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 15 {
		t.Errorf("cases.txt has %d cases, want at least 15", len(cases))
	}
	commits := map[string]bool{}
	for _, c := range cases {
		if !strings.HasPrefix(c.Commit, "https://github.com/") || !strings.Contains(c.Commit, "/commit/") {
			t.Errorf("%s: commit %q is not a GitHub commit URL", c.Name, c.Commit)
		}
		commits[c.Commit] = true
	}
	// Cases that share a fix are not independent evidence.
	if len(commits) < 15 {
		t.Errorf("cases.txt has %d distinct fix commits, want at least 15", len(commits))
	}
}

func TestSelectCases(t *testing.T) {
	cases, err := parseCases(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	got, err := selectCases(cases, "two")
	if err != nil || len(got) != 1 || got[0].Name != "two" {
		t.Errorf("selectCases(two) = %v, %v", got, err)
	}
	if _, err := selectCases(cases, "three"); err == nil {
		t.Error("selectCases(three) did not fail")
	}
	if got, _ := selectCases(cases, ""); len(got) != 2 {
		t.Errorf("selectCases(\"\") kept %d cases, want 2", len(got))
	}
}

func TestParseFindings(t *testing.T) {
	mod := filepath.FromSlash("/cache/example.com/m@v1.0.0")
	stream := `{"example.com/m/sub": {"baresend": [{"posn": "` + filepath.ToSlash(filepath.Join(mod, "sub", "a.go")) + `:10:5", "message": "send on c can block forever"}],
 "lockedsend": [{"posn": "/elsewhere/x.go:3:1", "message": "held", "related": [{"posn": "` + filepath.ToSlash(filepath.Join(mod, "sub", "b.go")) + `:7:2", "message": "also reached here, in f"}, {"posn": "` + filepath.ToSlash(filepath.Join(mod, "sub", "b.go")) + `:9:2", "message": "locked here"}]}]}}
{"example.com/m/other": {"silentdrop": {"error": "does not type-check"}}}`
	diags, errs, err := parseFindings(strings.NewReader(stream), mod)
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != 1 || !strings.Contains(errs[0], "does not type-check") {
		t.Errorf("errors = %q", errs)
	}
	if len(diags) != 2 {
		t.Fatalf("got %d findings, want 2", len(diags))
	}
	want := fileLine{"sub/a.go", 10}
	hits := at(diags, []fileLine{want}, "baresend")
	if len(hits) != 1 || hits[0].Col != 5 {
		t.Errorf("at(%v, baresend) = %+v", want, hits)
	}
	if hits := at(diags, []fileLine{want}, "lockedsend"); len(hits) != 0 {
		t.Errorf("at(%v, lockedsend) = %+v, want none", want, hits)
	}
	if hits := at(diags, []fileLine{{"sub/a.go", 11}}, ""); len(hits) != 0 {
		t.Errorf("a finding matched the wrong line: %+v", hits)
	}
	// Another path to a lockedsend finding's operation reports its line;
	// other related positions do not.
	if hits := at(diags, []fileLine{{"sub/b.go", 7}}, "lockedsend"); len(hits) != 1 {
		t.Errorf("at(sub/b.go:7, lockedsend) = %+v, want the finding reached there too", hits)
	}
	if hits := at(diags, []fileLine{{"sub/b.go", 9}}, ""); len(hits) != 0 {
		t.Errorf("at(sub/b.go:9) = %+v, want none: a Lock is not another path", hits)
	}
	// A file outside the module keeps its own name.
	if got := diags[0].At.File + diags[1].At.File; !strings.Contains(got, "/elsewhere/x.go") {
		t.Errorf("files = %q, want /elsewhere/x.go kept", got)
	}
	if near := inFiles(diags, []fileLine{{"sub/a.go", 1}}); len(near) != 1 {
		t.Errorf("inFiles = %+v, want the one finding in sub/a.go", near)
	}
}

func TestParsePosn(t *testing.T) {
	for _, tc := range []struct {
		posn string
		want fileLine
		col  int
	}{
		{"/m/a.go:3:4", fileLine{"a.go", 3}, 4},
		{"/m/a.go:3", fileLine{"a.go", 3}, 0},
		{"/m/dir/b.go:12:1", fileLine{"dir/b.go", 12}, 1},
	} {
		got, col, err := parsePosn(tc.posn, "/m")
		if err != nil || got != tc.want || col != tc.col {
			t.Errorf("parsePosn(%q) = %v, %d, %v; want %v, %d", tc.posn, got, col, err, tc.want, tc.col)
		}
	}
	if _, _, err := parsePosn("nofile", "/m"); err == nil {
		t.Error("parsePosn(nofile) did not fail")
	}
}

func TestTally(t *testing.T) {
	rs := []result{
		{bug: sideResult{verdict: found}, fix: sideResult{verdict: quiet}},
		{bug: sideResult{verdict: missed}, fix: sideResult{verdict: noisy}},
		{bug: sideResult{verdict: failed}, fix: sideResult{verdict: quiet}},
	}
	tt := tally(rs)
	if tt.found != 1 || tt.missed != 1 || tt.quiet != 2 || tt.noisy != 1 || tt.failed != 1 || tt.ok() {
		t.Errorf("tally = %+v", tt)
	}
	if !(totals{cases: 1, found: 1, quiet: 1}).ok() {
		t.Error("one found and quiet case is not ok")
	}
}

// A sendlint run that exits with errors, as it does when a package or its
// test files do not build, is an error of the case, not a run without
// findings, even though it printed {} on standard output.
func TestCommandFailedRun(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	dir := t.TempDir()
	fake := filepath.Join(dir, "fake-sendlint")
	script := "#!/bin/sh\necho '{}'\necho 'sendlint: package example.com/dep: does not build' >&2\nexit 1\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := command(config{timeout: time.Minute}, dir, fake, "-json", "example.com/m")
	if err == nil || !strings.Contains(err.Error(), "does not build") {
		t.Errorf("command = %q, %v; want an error carrying the standard error", out, err)
	}
}
