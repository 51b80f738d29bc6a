package silentdrop

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/analyzerdoc"
	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/flow"
	"github.com/sendlint/sendlint/internal/report"
	"github.com/sendlint/sendlint/internal/summary"
)

//go:embed doc.go
var doc string

// Analyzer reports non-blocking sends whose default branch loses the value
// without a trace.
var Analyzer = &analysis.Analyzer{
	Name:     "silentdrop",
	Doc:      analyzerdoc.MustExtract(doc, "silentdrop"),
	URL:      "https://pkg.go.dev/github.com/sendlint/sendlint/passes/silentdrop",
	Requires: append([]*analysis.Analyzer{summary.Analyzer}, report.Requires...),
	Run:      run,
}

func init() { report.Flags(&Analyzer.Flags) }

// checker holds what one run needs.
type checker struct {
	pass    *analysis.Pass
	pkg     *ssa.Package
	rep     *report.Reporter
	sum     *summary.Result
	idx     *chans.Index
	selects map[token.Pos]*ast.SelectStmt // by the position of the select keyword
	funcs   []*ssa.Function               // every function of the package, closures included
	typed   *typedRecvs                   // receives by named channel type, built when first asked
}

func run(pass *analysis.Pass) (any, error) {
	rep, err := report.New(pass)
	if err != nil {
		return nil, err
	}
	sum := pass.ResultOf[summary.Analyzer].(*summary.Result)
	input := sum.SSA() // shared with every pass, as is the channel index
	sum.Chans(func(idx *chans.Index) {
		c := &checker{
			pass:    pass,
			pkg:     input.Pkg,
			rep:     rep,
			sum:     sum,
			idx:     idx,
			selects: selectStmts(pass.Files),
			funcs:   input.SrcFuncs,
		}
		for _, fn := range input.SrcFuncs {
			rep.Guard(fn.String(), fn.Pos(), func() { c.checkFunc(fn) })
		}
	})
	rep.Finish()
	return nil, nil
}

func selectStmts(files []*ast.File) map[token.Pos]*ast.SelectStmt {
	m := make(map[token.Pos]*ast.SelectStmt)
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectStmt); ok {
				m[s.Select] = s
			}
			return true
		})
	}
	return m
}

func (c *checker) checkFunc(fn *ssa.Function) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if sel, ok := instr.(*ssa.Select); ok && !sel.Blocking {
				c.checkSelect(sel)
			}
		}
	}
}

// checkSelect judges a select with a default and at least one send case
// that carries a value:
//
//	t3 = select nonblocking [t0<-t1] (index int, ok bool)
//	t4 = extract t3 #0
//	t5 = t4 == 0:int
//	if t5 goto 1 else 2          // 2 is the default branch
func (c *checker) checkSelect(sel *ssa.Select) {
	if s, ok := c.ownReceiverSend(sel); ok {
		c.reportSelf(sel, s) // nothing coalesces where nothing is waiting
		return
	}
	var sends []int
	for i, st := range sel.States {
		if st.Dir == types.SendOnly && !c.signal(st.Chan) && !isError(st.Chan) && !isConstant(st.Send) && !c.unread(st.Chan) &&
			!c.idx.OneShotChan(st.Chan) {
			sends = append(sends, i)
		}
	}
	if len(sends) == 0 {
		return
	}
	d, ok := defaultBranch(sel)
	if !ok {
		return // the dispatch chain is not the shape the builder emits: say nothing
	}
	if d.keepsAll(sends) || c.retries(d, sends) {
		return
	}
	if waiter, ok := c.earlyWaiter(sel, sends); ok {
		c.reportWaiter(sel, sends, waiter)
		return
	}
	if c.leavesTrace(d) {
		return
	}
	c.report(sel, sends, c.missing(d, sends))
}

// retries reports whether the default goes round to the same select with
// the same value: a loop that tries again (after making room, or after a
// pause) until the send succeeds. The value is computed before the loop,
// so the next try sends it, not a new one.
//
//	for {
//		select {
//		case n.leadc <- lc:
//			return
//		default:
//			select { // drop the stale pending value and try again
//			case <-n.leadc:
//			default:
//			}
//		}
//	}
func (c *checker) retries(d *branch, sends []int) bool {
	loop := c.idx.Loops(d.sel.Parent()).Innermost(d.sel.Block())
	if loop == nil {
		return false
	}
	again := map[*ssa.BasicBlock]bool{}
	reach(d.entry, nil, again)
	if !again[d.sel.Block()] {
		return false
	}
	for _, i := range sends {
		st := d.sel.States[i]
		if varies(st.Send, loop, 0) || varies(st.Chan, loop, 0) {
			return false
		}
	}
	return true
}

// varies reports whether v can differ between iterations of the loop: it
// is computed in the loop from anything but loads of the same fields of
// values from outside it (n.leadc loaded on every iteration is one
// channel; sub ranging over subscribers is not).
//
// It is stricter than flow.Varies, which baresend uses: an element or a
// map entry read anew on each trip counts as varying here, because the
// question is whether the value dropped is the same one each time.
func varies(v ssa.Value, loop *flow.Loop, depth int) bool {
	x, ok := v.(ssa.Instruction)
	if !ok || !loop.Blocks[x.Block()] {
		return false
	}
	if depth > 8 {
		return true
	}
	switch v := v.(type) {
	case *ssa.UnOp:
		return v.Op != token.MUL || varies(v.X, loop, depth+1)
	case *ssa.FieldAddr:
		return varies(v.X, loop, depth+1)
	case *ssa.Field:
		return varies(v.X, loop, depth+1)
	case *ssa.ChangeType:
		return varies(v.X, loop, depth+1)
	case *ssa.MakeInterface:
		return varies(v.X, loop, depth+1)
	case *ssa.Convert:
		return varies(v.X, loop, depth+1)
	}
	return true
}

// keepsAll reports whether every value the send cases carry stays where
// it was when the default runs.
func (d *branch) keepsAll(sends []int) bool {
	for _, i := range sends {
		if !d.kept(d.sel.States[i].Send) {
			return false
		}
	}
	return true
}

// isError reports whether ch carries errors. An error channel is a
// failure signal: when its buffer is full, a pending error already tells
// the receiver that something failed, and the first error wins
// (reportCriticalError, errgroup's first error). The detail of the later
// failure is lost, not the fact of it.
func isError(ch ssa.Value) bool {
	t, ok := ch.Type().Underlying().(*types.Chan)
	return ok && types.Identical(t.Elem(), types.Universe.Lookup("error").Type())
}

// isConstant reports whether the sent value is a constant (true, 0, nil):
// the send says only that something happened, and a value already
// buffered says the same.
func isConstant(v ssa.Value) bool {
	for {
		switch x := v.(type) {
		case *ssa.Const:
			return true
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.Convert:
			v = x.X
		default:
			return false
		}
	}
}

// signal reports whether a send on ch carries no data: its element type has
// size zero (struct{}, [0]T), so a value already buffered, or a wake-up
// already pending, stands for the one that is dropped.
func (c *checker) signal(ch ssa.Value) bool {
	t, ok := ch.Type().Underlying().(*types.Chan)
	if !ok {
		return false // a type parameter constrained to channels: its element may carry data
	}
	if _, isParam := t.Elem().(*types.TypeParam); isParam {
		return false // chan T: T may carry data
	}
	return c.pass.TypesSizes.Sizeof(t.Elem()) == 0
}
