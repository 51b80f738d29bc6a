package baresend

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/analyzerdoc"
	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/report"
	"github.com/sendlint/sendlint/internal/summary"
)

//go:embed doc.go
var doc string

// Analyzer reports channel sends that can block forever.
var Analyzer = &analysis.Analyzer{
	Name:     "baresend",
	Doc:      analyzerdoc.MustExtract(doc, "baresend"),
	URL:      "https://pkg.go.dev/github.com/sendlint/sendlint/passes/baresend",
	Requires: append([]*analysis.Analyzer{summary.Analyzer}, report.Requires...),
	Run:      run,
}

func init() { report.Flags(&Analyzer.Flags) }

// checker holds what one run needs.
type checker struct {
	pass  *analysis.Pass
	rep   *report.Reporter
	idx   *chans.Index
	exprs map[token.Pos]ast.Expr // channel expression of each send, by arrow
}

func run(pass *analysis.Pass) (any, error) {
	rep, err := report.New(pass)
	if err != nil {
		return nil, err
	}
	input := pass.ResultOf[summary.Analyzer].(*summary.Result).SSA() // shared with lockedsend
	c := &checker{
		pass:  pass,
		rep:   rep,
		idx:   chans.NewIndex(input.Pkg, indexed(input)),
		exprs: sendExprs(pass.Files),
	}
	for _, fn := range input.SrcFuncs {
		rep.Guard(fn.String(), fn.Pos(), func() { c.checkFunc(fn) })
	}
	rep.Finish()
	return nil, nil
}

// indexed returns the functions whose stores and calls the index must see:
// the source functions plus the package initializer, which holds the
// initialisers of package-level variables.
func indexed(input *buildssa.SSA) []*ssa.Function {
	funcs := input.SrcFuncs
	if init := input.Pkg.Func("init"); init != nil {
		funcs = append(funcs[:len(funcs):len(funcs)], init)
	}
	return funcs
}

func (c *checker) checkFunc(fn *ssa.Function) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Send:
				c.checkSend(instr)
			case *ssa.Select:
				c.checkSelect(instr)
			}
		}
	}
}

// checkSend reports a plain send, or the single send of a degenerate select,
// which the IR lowers to a plain send:
//
//	send t0 <- t1
func (c *checker) checkSend(send *ssa.Send) {
	if v := c.sendVerdict(send, -1, send.Chan); v.blocks {
		c.report(send.Pos(), c.chanDesc(send.Pos(), send.Chan, v), v)
	}
}

// checkSelect reports a blocking select with no way out: no default and no
// live receive case, where every send case can block.
//
//	t3 = select blocking [a<-1:int, b<-2:int] (index int, ok bool)
func (c *checker) checkSelect(sel *ssa.Select) {
	if !sel.Blocking || c.idx.LiveCase(sel) >= 0 {
		return
	}
	var first *verdict
	var names []string
	missing := noReceiverSeen // proven when any case's receiver is shown to stop
	for i, st := range sel.States {
		if st.Dir != types.SendOnly {
			continue
		}
		v := c.sendVerdict(sel, i, st.Chan)
		if !v.blocks {
			return
		}
		if first == nil || first.missing != "" && v.missing == "" {
			first = &v
		}
		if v.missing == "" {
			missing = ""
		}
		names = append(names, c.exprString(st.Pos, st.Chan))
	}
	if first == nil {
		return
	}
	msg := "select with only send cases (on " + joinNames(names) + ") can block forever: no liveness case (ctx.Done(), a stop channel) lets it give up"
	c.emit(analysis.Diagnostic{Pos: firstSendPos(sel), Message: msg, Related: first.related}, missing)
}

func firstSendPos(sel *ssa.Select) token.Pos {
	for _, st := range sel.States {
		if st.Dir == types.SendOnly {
			return st.Pos
		}
	}
	return sel.Pos()
}

func (c *checker) report(pos token.Pos, desc string, v verdict) {
	c.emit(c.withLivenessFix(analysis.Diagnostic{
		Pos:     pos,
		Message: "send on " + desc + " can block forever: " + v.reason,
		Related: v.related,
	}), v.missing)
}

// emit reports d in the default tier when its verdict carries a proof, and
// in the audit tier, labelled with what is missing, when it does not.
func (c *checker) emit(d analysis.Diagnostic, missing string) {
	if missing == "" {
		c.rep.Report(d)
		return
	}
	c.rep.Audit(d, missing)
}
