package lockedsend

import (
	_ "embed"
	"go/token"

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
	pass  *analysis.Pass
	rep   *report.Reporter
	sum   *summary.Result
	found []*finding // in the order the functions are walked
	// order holds the package's lock-order edges by the class of the
	// lock taken: a function that holds one lock while it takes another.
	order map[string][]orderEdge
}

// orderEdge is a function that takes a lock of class acq.Class while it
// holds held.
type orderEdge struct {
	fn   *ssa.Function
	held locks.Lock
	acq  summary.Acquisition
}

// finding is one blocking operation reached with locks held: b from
// instr, an instruction of fn, with held.
type finding struct {
	fn    *ssa.Function
	instr ssa.Instruction
	b     *summary.Blocking
	held  locks.Set
}

func run(pass *analysis.Pass) (any, error) {
	rep, err := report.New(pass)
	if err != nil {
		return nil, err
	}
	c := &checker{pass: pass, rep: rep, sum: pass.ResultOf[summary.Analyzer].(*summary.Result), order: make(map[string][]orderEdge)}
	for _, fn := range c.sum.SSA().SrcFuncs {
		rep.Guard(fn.String(), fn.Pos(), func() { c.checkFunc(fn) })
	}
	rep.Guard(pass.Pkg.Path(), packagePos(pass), func() {
		for _, r := range c.roots() {
			c.judge(r)
			c.report(r)
		}
	})
	rep.Finish()
	return nil, nil
}

// checkFunc reports every operation of fn that may block while fn holds a
// lock. fn starts with none held: a goroutine or a closure is checked as a
// function of its own, and a caller's locks are the caller's to report.
// Go and defer statements block nothing where they stand.
func (c *checker) checkFunc(fn *ssa.Function) {
	c.sum.Locks(fn).Walk(func(instr ssa.Instruction, s locks.State) bool {
		if s.Held.Len() == 0 {
			return true
		}
		switch instr.(type) {
		case *ssa.Go, *ssa.Defer:
			return true
		}
		if call, ok := instr.(*ssa.Call); ok {
			c.noteOrder(fn, call, s.Held)
		}
		if b := c.sum.Instr(instr); b != nil {
			c.found = append(c.found, &finding{fn: fn, instr: instr, b: b, held: s.Held})
		}
		return true
	})
}

// noteOrder records the locks call takes while fn holds held.
func (c *checker) noteOrder(fn *ssa.Function, call *ssa.Call, held locks.Set) {
	for _, a := range c.sum.CallAcquires(call) {
		for _, l := range held.Locks() {
			if locks.Class(l) != "" && locks.Class(l) != a.Class && !locks.OnFresh(l.Call) {
				c.order[a.Class] = append(c.order[a.Class], orderEdge{fn: fn, held: l, acq: a})
			}
		}
	}
}

// packagePos is where an internal error that no one function caused is
// reported: the package clause of the first file.
func packagePos(pass *analysis.Pass) token.Pos {
	if len(pass.Files) == 0 {
		return token.NoPos
	}
	return pass.Files[0].Package
}
