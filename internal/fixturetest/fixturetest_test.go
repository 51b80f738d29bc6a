package fixturetest

import (
	"fmt"
	"go/ast"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// sendsAnalyzer reports every send; countsAnalyzer reports the first one.
var (
	sendsAnalyzer  = newSendReporter("sends", "send on %s", false)
	countsAnalyzer = newSendReporter("counts", "one send", true)
)

func newSendReporter(name, format string, firstOnly bool) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     name,
		Doc:      "report sends",
		Requires: []*analysis.Analyzer{inspect.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
			done := false
			ins.Preorder([]ast.Node{(*ast.SendStmt)(nil)}, func(n ast.Node) {
				if done {
					return
				}
				s := n.(*ast.SendStmt)
				msg := format
				if strings.Contains(format, "%s") {
					msg = fmt.Sprintf(format, s.Chan.(*ast.Ident).Name)
				}
				pass.Reportf(s.Arrow, "%s", msg)
				done = firstOnly
			})
			return nil, nil
		},
	}
}

// recorder collects what Run reports instead of failing the test.
type recorder struct{ errors []string }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }

func TestMatchesPerPass(t *testing.T) {
	Run(t, Testdata(t, 2), []*analysis.Analyzer{sendsAnalyzer, countsAnalyzer}, "fixturetest")
}

func TestReportsMismatches(t *testing.T) {
	rec := new(recorder)
	Run(rec, Testdata(t, 2), []*analysis.Analyzer{sendsAnalyzer}, "fixturetest/mismatch")
	want := []string{
		"mismatch.go:6:4: unexpected diagnostic: sends: send on a",
		"mismatch.go:7:4: unexpected diagnostic: sends: send on b",
		"mismatch.go:6: no diagnostic was reported matching `sends: send on z`",
	}
	if len(rec.errors) != len(want) {
		t.Fatalf("errors = %q, want %d", rec.errors, len(want))
	}
	for i, w := range want {
		if !strings.HasSuffix(rec.errors[i], w) {
			t.Errorf("error %d = %q, want suffix %q", i, rec.errors[i], w)
		}
	}
}

func TestParseWant(t *testing.T) {
	for _, tc := range []struct {
		comment string
		want    []string
	}{
		{"// want \"a\" `b`", []string{"a", "b"}},
		{"//sendlint:ignore baresend why // want `directive`", []string{"directive"}},
		{"// wanted: nothing", nil},
		{"// ok: no want here", nil},
	} {
		got, _ := parseWant(&ast.Comment{Text: tc.comment})
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("parseWant(%q) = %q, want %q", tc.comment, got, tc.want)
		}
	}
}

func TestOtherPassesIgnored(t *testing.T) {
	rec := new(recorder)
	Run(rec, Testdata(t, 2), []*analysis.Analyzer{countsAnalyzer}, "fixturetest")
	if len(rec.errors) != 0 {
		t.Errorf("running counts alone, errors = %q", rec.errors)
	}
}
