// Package fixturetest runs several passes together over fixtures that
// reproduce real systems, where one line may carry findings of more than
// one pass. It follows analysistest's conventions, except that each
// expectation in a `// want "re" ...` comment is matched against
// "<pass>: <message>", so a fixture states which pass reports what.
package fixturetest

import (
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// Testdata returns the absolute path of the repository's testdata
// directory, from a package directory dirs levels below the root.
func Testdata(t testing.TB, up int) string {
	t.Helper()
	parts := []string{}
	for range up {
		parts = append(parts, "..")
	}
	dir, err := filepath.Abs(filepath.Join(append(parts, "testdata")...))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// Run analyses the packages matching patterns in the GOPATH tree
// testdata/src with all of analyzers, and checks their diagnostics against
// the fixtures' want comments.
func Run(t T, testdata string, analyzers []*analysis.Analyzer, patterns ...string) {
	t.Helper()
	pkgs := load(t, testdata, patterns)
	graph, err := checker.Analyze(analyzers, pkgs, &checker.Options{SanityCheck: true})
	if err != nil {
		t.Fatalf("analysis failed: %v", err)
	}
	names := make(map[string]bool)
	for _, a := range analyzers {
		names[a.Name] = true
	}
	wants := make(map[key][]*expectation)
	for _, pkg := range pkgs {
		collectWants(t, pkg, names, wants)
	}
	for _, act := range graph.Roots {
		if act.Err != nil {
			t.Errorf("%s failed on %s: %v", act.Analyzer.Name, act.Package.PkgPath, act.Err)
			continue
		}
		for _, d := range act.Diagnostics {
			match(t, act.Package.Fset, act.Analyzer.Name, d, wants)
		}
	}
	for _, k := range sortedKeys(wants) {
		for _, w := range wants[k] {
			if !w.matched {
				t.Errorf("%s:%d: no diagnostic was reported matching `%s`", k.file, k.line, w.re)
			}
		}
	}
}

// T is the part of *testing.T that Run uses.
type T interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

type key struct {
	file string
	line int
}

type expectation struct {
	re      *regexp.Regexp
	matched bool
}

func load(t T, testdata string, patterns []string) []*packages.Package {
	t.Helper()
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  filepath.Join(testdata, "src"),
		Env:  append(os.Environ(), "GOPATH="+testdata, "GO111MODULE=off", "GOPROXY=off", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatalf("loading %v: %v", patterns, err)
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		t.Fatalf("%d errors loading %v", n, patterns)
	}
	return pkgs
}

// collectWants reads the // want comments of pkg's files, keeping those of
// the passes that run: an expectation "lockedsend: ..." is not checked when
// only baresend runs.
func collectWants(t T, pkg *packages.Package, running map[string]bool, wants map[key][]*expectation) {
	for _, f := range pkg.Syntax {
		for _, group := range f.Comments {
			for _, c := range group.List {
				res, ok := parseWant(c)
				if !ok {
					continue
				}
				pos := pkg.Fset.Position(c.Slash)
				k := key{pos.Filename, pos.Line}
				for _, re := range res {
					if pass, _, ok := strings.Cut(re, ": "); ok && !running[pass] && isPassName(pass) {
						continue
					}
					rx, err := regexp.Compile(re)
					if err != nil {
						t.Fatalf("%s: bad want regexp: %v", pos, err)
					}
					wants[k] = append(wants[k], &expectation{re: rx})
				}
			}
		}
	}
}

// isPassName reports whether s looks like a pass name, as opposed to the
// start of a regexp.
func isPassName(s string) bool {
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return s != ""
}

// parseWant parses "// want "re" `re`..." and returns the regexps. As in
// analysistest, the expectation may also follow another comment on the
// same line: "//sendlint:ignore ... // want ...".
func parseWant(c *ast.Comment) ([]string, bool) {
	text := strings.TrimPrefix(c.Text, "//")
	rest, ok := strings.CutPrefix(strings.TrimSpace(text), "want ")
	if !ok {
		i := strings.Index(text, "// want ")
		if i < 0 {
			return nil, false
		}
		rest = text[i+len("// want "):]
	}
	var out []string
	for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
		lit, err := strconv.QuotedPrefix(rest)
		if err != nil {
			break
		}
		s, _ := strconv.Unquote(lit)
		out = append(out, s)
		rest = rest[len(lit):]
	}
	return out, len(out) > 0
}

func match(t T, fset *token.FileSet, pass string, d analysis.Diagnostic, wants map[key][]*expectation) {
	t.Helper()
	pos := fset.Position(d.Pos)
	text := pass + ": " + d.Message
	for _, w := range wants[key{pos.Filename, pos.Line}] {
		if !w.matched && w.re.MatchString(text) {
			w.matched = true
			return
		}
	}
	t.Errorf("%s: unexpected diagnostic: %s", pos, text)
}

func sortedKeys(m map[key][]*expectation) []key {
	keys := make([]key, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int {
		if a.file != b.file {
			return strings.Compare(a.file, b.file)
		}
		return a.line - b.line
	})
	return keys
}

// Tiers checks a fixture in both tiers. check runs once with every
// analyzer's audit flag on, where every want must match, and once with it
// off, where only the wants of audit findings (those whose pattern holds
// `\[audit: `) may go unmatched. A finding in the wrong tier fails one of
// the two runs: a proven finding lacks the label its audit want asks for,
// and an audit finding does not appear in the default run.
func Tiers(t *testing.T, analyzers []*analysis.Analyzer, check func(T)) {
	t.Helper()
	Audit(t, analyzers...)
	check(t)
	setAudit(t, analyzers, "false")
	check(defaultTier{t})
}

// Audit turns on the analyzers' audit tier until the test ends.
func Audit(t *testing.T, analyzers ...*analysis.Analyzer) {
	t.Helper()
	setAudit(t, analyzers, "true")
}

func setAudit(t *testing.T, analyzers []*analysis.Analyzer, value string) {
	t.Helper()
	for _, a := range analyzers {
		if err := a.Flags.Set("audit", value); err != nil {
			t.Fatalf("%s: %v", a.Name, err)
		}
	}
	t.Cleanup(func() {
		for _, a := range analyzers {
			_ = a.Flags.Set("audit", "false")
		}
	})
}

// defaultTier forwards every error but the unmatched wants of audit
// findings.
type defaultTier struct{ *testing.T }

func (d defaultTier) Errorf(format string, args ...any) {
	d.Helper()
	msg := fmt.Sprintf(format, args...)
	if strings.Contains(msg, "no diagnostic was reported matching") && strings.Contains(msg, `\[audit: `) {
		return
	}
	d.T.Errorf("without -audit: %s", msg)
}
