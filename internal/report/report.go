// Package report is the one place where a pass's findings become
// diagnostics. It applies what every pass shares: //sendlint:ignore
// suppression (a directive that suppresses nothing is itself reported),
// the audit tier kept out of generated files, and containment of a panic
// to the function that caused it.
package report

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/analysis/facts/generated"

	"github.com/sendlint/sendlint/internal/directive"
)

// Requires lists the analyzers a pass must require to use a Reporter.
var Requires = []*analysis.Analyzer{directive.Analyzer, generated.Analyzer}

// Reporter filters and forwards one pass's diagnostics.
type Reporter struct {
	pass      *analysis.Pass
	ignores   []*directive.Ignore // those naming this pass
	used      map[*directive.Ignore]bool
	generated map[string]generated.Generator
	tests     bool // report in test code too
	audit     bool // report the audit tier too
}

// New returns the Reporter for pass. It fails when the package holds a
// malformed directive, so that a bad directive stops the run with one clear
// error instead of quietly changing what is reported.
func New(pass *analysis.Pass) (*Reporter, error) {
	idx := pass.ResultOf[directive.Analyzer].(*directive.Index)
	if len(idx.Errors) > 0 {
		return nil, idx.Errors[0]
	}
	r := &Reporter{
		pass:      pass,
		used:      make(map[*directive.Ignore]bool),
		generated: pass.ResultOf[generated.Analyzer].(map[string]generated.Generator),
		tests:     boolFlag(&pass.Analyzer.Flags, "tests"),
		audit:     boolFlag(&pass.Analyzer.Flags, "audit"),
	}
	for _, ig := range idx.Ignores {
		if ig.Names(pass.Analyzer.Name) {
			r.ignores = append(r.ignores, ig)
		}
	}
	return r, nil
}

// Tests reports whether the pass reports in test code too (its tests
// flag), for a pass that tells test code by what the code does rather
// than where it lies (a function that only tests call).
func (r *Reporter) Tests() bool { return r.tests }

// Report forwards d, a finding that carries its proof, unless it lies in
// test code (see IsTestCode, and inTestHook for a test's helper in a
// shipped file) when the pass's tests flag is off, or under an ignore
// directive on its line or the line above.
//
// A generated file is reported on like any other. A send that can be shown
// to block forever is a bug of the program, whoever wrote the line, and
// its fix goes into the generator or the template the file is made from.
// The audit tier, which asks a reader to weigh what the pass cannot prove,
// stays out of generated files (see Audit).
func (r *Reporter) Report(d analysis.Diagnostic) {
	pos := r.pass.Fset.Position(d.Pos)
	if !r.tests && IsTestCode(pos.Filename, r.pass.Pkg) || r.ignored(pos) || !r.tests && r.inTestHook(d.Pos) {
		return
	}
	if !IsTestCode(pos.Filename, r.pass.Pkg) {
		d.Related = r.outsideTests(d.Related)
	}
	d.Related = CapMakes(d.Related)
	r.pass.Report(d)
}

// MadeHere begins the related message at each make of the channel a
// finding is about.
const MadeHere = "channel made here"

// maxMakes is how many make sites a finding names.
const maxMakes = 3

// CapMakes keeps the first maxMakes make sites among related (those whose
// message begins with MadeHere) and says on the last one kept how many
// more there are: a channel field filled in a dozen constructors is one
// channel to the reader, not a dozen places to visit.
func CapMakes(related []analysis.RelatedInformation) []analysis.RelatedInformation {
	out := related[:0:0]
	kept, dropped, last := 0, 0, -1
	for _, ri := range related {
		if strings.HasPrefix(ri.Message, MadeHere) {
			if kept == maxMakes {
				dropped++
				continue
			}
			kept++
			last = len(out)
		}
		out = append(out, ri)
	}
	if dropped > 0 {
		out[last].Message += fmt.Sprintf(" (and %d more)", dropped)
	}
	return out
}

// inTestHook reports whether pos lies in a function declared as a hook for
// tests (IsTestHook), which only test code calls, or in one that calls a
// method of the testing package's types (usesTestingT).
func (r *Reporter) inTestHook(pos token.Pos) bool {
	for _, f := range r.pass.Files {
		if pos < f.Pos() || pos > f.End() {
			continue
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Pos() <= pos && pos <= fn.End() {
				return IsTestHook(fn.Name.Name) || r.usesTestingT(fn)
			}
		}
	}
	return false
}

// usesTestingT reports whether fn calls a method of a type the testing
// package declares (t.Helper(), t.Fatalf, b.ReportMetric): it is written
// to run with the T, B or TB that only go test makes, a test double or
// helper kept in a shipped file (a mock notifier in sweep's
// test_utils.go). A call of a testing function (testing.Testing(), which
// asks whether the binary is a test) is no such sign.
func (r *Reporter) usesTestingT(fn *ast.FuncDecl) bool {
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		se, ok := n.(*ast.SelectorExpr)
		if !ok || found {
			return !found
		}
		if sel := r.pass.TypesInfo.Selections[se]; sel != nil && sel.Kind() == types.MethodVal {
			if pkg := sel.Obj().Pkg(); pkg != nil && pkg.Path() == "testing" {
				found = true
			}
		}
		return true
	})
	return found
}

// outsideTests drops the related positions that lie in _test.go files: a
// finding in the code a user ships points at that code, not at a test
// that made a channel or took a lock.
func (r *Reporter) outsideTests(related []analysis.RelatedInformation) []analysis.RelatedInformation {
	var out []analysis.RelatedInformation
	for _, ri := range related {
		if !strings.HasSuffix(r.pass.Fset.Position(ri.Pos).Filename, "_test.go") {
			out = append(out, ri)
		}
	}
	return out
}

// ignored reports whether an ignore directive covers pos, on its line or
// the line above, and marks the directive used.
func (r *Reporter) ignored(pos token.Position) bool {
	for _, ig := range r.ignores {
		if ig.File == pos.Filename && (ig.Line == pos.Line || ig.Line == pos.Line-1) {
			r.used[ig] = true
			return true
		}
	}
	return false
}

// AuditCategory is the Category of an audit-tier diagnostic: go vet's JSON
// carries it, and the output formats show such findings as notes.
const AuditCategory = "audit"

// Audit forwards d as an audit-tier finding, when the pass's audit flag is
// set and d lies outside generated files: a send the pass can neither
// prove to block nor rule out. missing says what the proof lacks ("no
// receiver of it is visible in this package"), and ends the message in
// brackets, so that a reader, a suppression and a baseline all see which
// tier a finding is in.
func (r *Reporter) Audit(d analysis.Diagnostic, missing string) {
	if !r.audit {
		// A directive written for this finding while auditing is still
		// in use when the audit tier is off.
		r.ignored(r.pass.Fset.Position(d.Pos))
		return
	}
	if r.generatedFile(r.pass.Fset.Position(d.Pos).Filename) {
		return
	}
	d.Category = AuditCategory
	d.Message += " [audit: " + missing + "]"
	r.Report(d)
}

// Auditing reports whether the audit tier is reported, for a pass that
// would otherwise skip the work of explaining a finding it will not show.
func (r *Reporter) Auditing() bool { return r.audit }

// generatedFile reports whether file says it is generated (// Code
// generated ... DO NOT EDIT.).
func (r *Reporter) generatedFile(file string) bool {
	_, ok := r.generated[file]
	return ok
}

// Guard runs check and turns a panic inside it into a diagnostic at pos that
// names the function being analysed, so one odd function costs one finding
// instead of the whole package.
func (r *Reporter) Guard(name string, pos token.Pos, check func()) {
	defer func() {
		if v := recover(); v != nil {
			frame := firstFrame(debug.Stack())
			r.pass.Report(analysis.Diagnostic{
				Pos:     pos,
				Message: fmt.Sprintf("internal error: %s failed on %s: %v (at %s); please report it", r.pass.Analyzer.Name, name, v, frame),
			})
		}
	}()
	check()
}

// Finish reports the ignore directives for this pass that suppressed
// nothing. Call it once, after the last Report.
func (r *Reporter) Finish() {
	for _, ig := range r.ignores {
		if r.used[ig] {
			continue
		}
		// A directive in a generated file is rewritten with the file,
		// and is not its reader's to remove; one in test code is not
		// checked while test code is not reported.
		if r.generatedFile(ig.File) || !r.tests && IsTestCode(ig.File, r.pass.Pkg) {
			continue
		}
		r.pass.Report(analysis.Diagnostic{
			Pos:     ig.Pos,
			Message: fmt.Sprintf("//sendlint:ignore directive suppresses no %s finding; remove it or name the right pass", r.pass.Analyzer.Name),
		})
	}
}

// firstFrame picks the innermost sendlint frame of a panic's stack, which is
// what a bug report needs.
func firstFrame(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	for i, line := range lines {
		if strings.Contains(line, "github.com/sendlint/sendlint/") && !strings.Contains(line, "internal/report.") && i+1 < len(lines) {
			loc, _, _ := strings.Cut(strings.TrimSpace(lines[i+1]), " +0x")
			return filepath.Base(loc)
		}
	}
	return "unknown location"
}
