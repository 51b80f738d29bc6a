package report_test

import (
	"go/ast"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/sendlint/sendlint/internal/fixturetest"
	"github.com/sendlint/sendlint/internal/report"
)

// namer reports every function declaration by name through a Reporter, and
// panics on the one named explode.
var namer = &analysis.Analyzer{
	Name:     "baresend", // a name directives may use
	Doc:      "report every function",
	Requires: report.Requires,
	Run: func(pass *analysis.Pass) (any, error) {
		rep, err := report.New(pass)
		if err != nil {
			return nil, err
		}
		for _, f := range pass.Files {
			for _, decl := range f.Decls {
				fn, ok := decl.(*ast.FuncDecl)
				if !ok {
					continue
				}
				rep.Guard(pass.Pkg.Name()+"."+fn.Name.Name, fn.Pos(), func() {
					if fn.Name.Name == "explode" {
						panic("boom")
					}
					d := analysis.Diagnostic{Pos: fn.Pos(), Message: "function " + fn.Name.Name}
					if strings.HasPrefix(fn.Name.Name, "maybe") {
						rep.Audit(d, "nothing is proven")
						return
					}
					rep.Report(d)
				})
			}
		}
		rep.Finish()
		return nil, nil
	},
}

func TestReporter(t *testing.T) {
	analysistest.Run(t, fixturetest.Testdata(t, 2), namer, "reporting", "reporting/gen")
}

func init() { report.Flags(&namer.Flags) }

// TestTestCode checks that test code is analysed but not reported, unless
// the pass's tests flag asks for it.
func TestTestCode(t *testing.T) {
	testdata := fixturetest.Testdata(t, 2)
	analysistest.Run(t, testdata, namer, "reporting/helpertest", "reporting/mocks", "reporting/examples/demo", "reporting/test/main", "reporting/integrationtests/tools/proxy", "reporting/internal/testing/cmd/demo", "reporting/internal/testhelper", "reporting/testsuite")
	if err := namer.Flags.Set("tests", "true"); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = namer.Flags.Set("tests", "false") }()
	var unexpected errorCount // the helper's function has no want comment
	results := analysistest.Run(&unexpected, testdata, namer, "reporting/helpertest")
	if n := len(results[0].Diagnostics); n != 1 || unexpected != 1 {
		t.Errorf("with -tests, %d diagnostics in the helper package (%d unexpected), want 1", n, unexpected)
	}
}

// errorCount counts the errors analysistest reports.
type errorCount int

func (c *errorCount) Errorf(string, ...any) { *c++ }

// TestAudit checks the audit tier: reported, labelled and categorised only
// with the pass's audit flag, never in a generated file, and a directive
// written for an audit finding still counts as used without it.
func TestAudit(t *testing.T) {
	testdata := fixturetest.Testdata(t, 2)
	analysistest.Run(t, testdata, namer, "reporting/auditoff")
	if err := namer.Flags.Set("audit", "true"); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = namer.Flags.Set("audit", "false") }()
	results := analysistest.Run(t, testdata, namer, "reporting/audit", "reporting/gen")
	var categories []string
	for _, d := range results[0].Diagnostics {
		categories = append(categories, d.Category)
	}
	if want := []string{report.AuditCategory, ""}; !slices.Equal(categories, want) {
		t.Errorf("categories %q, want %q", categories, want)
	}
}

// TestCapMakes checks that a finding names at most three make sites, says
// how many it left out on the last one it keeps, and leaves every other
// related position where it was.
func TestCapMakes(t *testing.T) {
	made := func(n int) analysis.RelatedInformation {
		return analysis.RelatedInformation{Message: report.MadeHere + " (cap " + strings.Repeat("1", n) + ")"}
	}
	recv := analysis.RelatedInformation{Message: "its receiver loop can stop waiting here"}
	in := []analysis.RelatedInformation{made(1), made(2), recv, made(3), made(4), made(5)}
	got := report.CapMakes(in)
	var msgs []string
	for _, ri := range got {
		msgs = append(msgs, ri.Message)
	}
	want := []string{in[0].Message, in[1].Message, recv.Message, in[3].Message + " (and 2 more)"}
	if !slices.Equal(msgs, want) {
		t.Errorf("CapMakes:\n got %q\nwant %q", msgs, want)
	}
	if few := report.CapMakes(in[:3]); len(few) != 3 || few[1].Message != in[1].Message {
		t.Errorf("CapMakes changed a finding with two make sites: %d positions, %q", len(few), few[1].Message)
	}
	if in[3].Message != made(3).Message {
		t.Errorf("CapMakes changed its argument: %q", in[3].Message)
	}
}
