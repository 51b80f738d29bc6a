package lockedsend

import (
	_ "embed"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/analyzerdoc"
	"github.com/sendlint/sendlint/internal/locks"
	"github.com/sendlint/sendlint/internal/report"
	"github.com/sendlint/sendlint/internal/summary"
)

//go:embed doc.go
var doc string

// Analyzer reports sends that can block while a mutex is held.
var Analyzer = &analysis.Analyzer{
	Name:     "lockedsend",
	Doc:      analyzerdoc.MustExtract(doc, "lockedsend"),
	URL:      "https://pkg.go.dev/github.com/sendlint/sendlint/passes/lockedsend",
	Requires: append([]*analysis.Analyzer{summary.Analyzer}, report.Requires...),
	Run:      run,
}

func init() {
	// -lockedsend.blocking and -lockedsend.streams set the summary's
	// configuration, which it reads in every package, dependencies too.
	summary.ShareFlags(&Analyzer.Flags)
	report.Flags(&Analyzer.Flags)
}

// checker holds what one run needs.
type checker struct {
	pass *analysis.Pass
	rep  *report.Reporter
	sum  *summary.Result
}

func run(pass *analysis.Pass) (any, error) {
	rep, err := report.New(pass)
	if err != nil {
		return nil, err
	}
	c := &checker{pass: pass, rep: rep, sum: pass.ResultOf[summary.Analyzer].(*summary.Result)}
	for _, fn := range c.sum.SSA().SrcFuncs {
		rep.Guard(fn.String(), fn.Pos(), func() { c.checkFunc(fn) })
	}
	rep.Finish()
	return nil, nil
}

// checkFunc reports every operation of fn that may block while fn holds a
// lock. fn starts with none held: a goroutine or a closure is checked as a
// function of its own, and a caller's locks are the caller's to report.
// Go and defer statements block nothing where they stand.
func (c *checker) checkFunc(fn *ssa.Function) {
	locks.Analyze(fn).Walk(func(instr ssa.Instruction, s locks.State) bool {
		if s.Held.Len() == 0 {
			return true
		}
		switch instr.(type) {
		case *ssa.Go, *ssa.Defer:
			return true
		}
		if b := c.sum.Instr(instr); b != nil {
			c.report(b, s.Held)
		}
		return true
	})
}
