package chans

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// A CountedDrain is the loop a receiver runs on its way out once it has
// given up: it takes one value from the channel on every trip, and leaves
// only when it has walked, or emptied, the collection it keeps its
// senders in.
//
//	case <-srv.quit:
//		break running
//	}
//	...
//	for len(peers) > 0 { // one entry per peer goroutine started
//		p := <-srv.delpeer
//		delete(peers, p.ID())
//	}
//	return
//
// The pass cannot tell that every sender is in the collection; the code
// says that is what it is for.
type CountedDrain struct {
	Recv *ssa.UnOp
	Of   string // the collection, as the source names it ("" when it cannot)
}

// DrainsCounted returns the counted drain that r's function runs on every
// way out after r's select gave up, if there is one.
func (x *Index) DrainsCounted(r Site) (CountedDrain, bool) {
	sel, ok := r.Instr.(*ssa.Select)
	if !ok {
		return CountedDrain{}, false
	}
	ch := sel.States[r.State].Chan
	loops := x.Loops(r.Func)
	for _, b := range r.Func.Blocks {
		for _, instr := range b.Instrs {
			recv, ok := instr.(*ssa.UnOp)
			if !ok || recv.Op != token.ARROW || !SameValue(recv.X, ch) {
				continue
			}
			l := loops.Innermost(b)
			if l == nil || l.Blocks[sel.Block()] || !walksOnce(l, b) {
				continue
			}
			coll, ok := walked(l)
			if !ok || !x.passesOnWayOut(r, sel, l.Header) {
				continue
			}
			return CountedDrain{Recv: recv, Of: x.exprName(coll)}, true
		}
	}
	return CountedDrain{}, false
}

// walksOnce reports whether the loop's only exit is its header's test and
// b runs on every trip.
func walksOnce(l *flow.Loop, b *ssa.BasicBlock) bool {
	edges, returns := l.Exits()
	if len(returns) > 0 || len(edges) != 1 || edges[0][0] != l.Header {
		return false
	}
	for _, p := range l.Header.Preds {
		if l.Blocks[p] && !b.Dominates(p) {
			return false
		}
	}
	return true
}

// walked returns the position of the collection whose size ends loop l:
// a range over a map or slice, or a test of len(c) against zero.
func walked(l *flow.Loop) (token.Pos, bool) {
	instrs := l.Header.Instrs
	cond, ok := instrs[len(instrs)-1].(*ssa.If)
	if !ok {
		return token.NoPos, false
	}
	switch c := cond.Cond.(type) {
	case *ssa.Extract: // range over a map: ok of next
		if next, ok := c.Tuple.(*ssa.Next); ok && c.Index == 0 && !next.IsString {
			return next.Iter.(*ssa.Range).Pos(), true
		}
	case *ssa.BinOp:
		switch {
		case c.Op == token.LSS && lenOf(c.Y) != nil: // range over a slice
			return lenOf(c.Y).Pos(), true
		case (c.Op == token.GTR || c.Op == token.NEQ) && lenOf(c.X) != nil && isZero(c.Y):
			return lenOf(c.X).Pos(), true
		}
	}
	return token.NoPos, false
}

// lenOf returns v when it is a call of the builtin len on a map or slice.
func lenOf(v ssa.Value) *ssa.Call {
	call, ok := v.(*ssa.Call)
	if !ok || !IsLen(call) {
		return nil
	}
	switch call.Call.Args[0].Type().Underlying().(type) {
	case *types.Map, *types.Slice:
		return call
	}
	return nil
}

// passesOnWayOut reports whether every path on which r's function leaves
// the select for good, once another case than r's is taken, enters the
// drain's header before it returns.
func (x *Index) passesOnWayOut(r Site, sel *ssa.Select, header *ssa.BasicBlock) bool {
	ours, _ := CaseEdge(sel, r.State)
	drained := drainedEdges(r.Func, sel.States[r.State].Chan)
	out := flow.Path{
		Stop:     func(i ssa.Instruction) bool { return i == sel || i.Block() == header },
		StopEdge: func(e flow.Edge) bool { return e == ours || drained[e] || e.To == header },
	}
	return !out.ReturnReachable(sel.Block(), flow.IndexOf(sel))
}

// exprName returns the source of the collection a drain walks: the
// operand of the len call whose parenthesis is at pos, or of the range
// statement at pos.
func (x *Index) exprName(pos token.Pos) string {
	var name string
	for _, f := range x.files {
		if pos < f.Pos() || pos > f.End() {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if n.Lparen == pos && len(n.Args) == 1 {
					name = types.ExprString(n.Args[0])
				}
			case *ast.RangeStmt:
				if n.For == pos || n.Range == pos {
					name = types.ExprString(n.X)
				}
			}
			return name == ""
		})
	}
	return name
}
