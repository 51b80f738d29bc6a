package chans

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// calledClosedEdges adds to edges the branches of fn taken when a call of
// a helper of this package says that the channel ch is closed: the helper
// returns false only after a receive of ch's field, on the value fn hands
// it, reports the close.
//
//	if !p.processWaitingQueue() { // false only on the !ok of <-p.taskQueue
//		break Loop
//	}
//
// A loop that leaves through such a branch leaves only once its channel is
// closed, as one that tests the !ok itself does.
func calledClosedEdges(fn *ssa.Function, ch ssa.Value, edges map[flow.Edge]bool) {
	field, base := fieldAndBase(ch)
	if field == nil {
		return
	}
	for _, b := range fn.Blocks {
		cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		c, negated := unNot(cond.Cond)
		call, ok := c.(*ssa.Call)
		if !ok || !falseOnlyWhenClosed(call, field, base) {
			continue
		}
		if negated {
			edges[flow.Edge{From: b, To: b.Succs[0]}] = true
		} else {
			edges[flow.Edge{From: b, To: b.Succs[1]}] = true
		}
	}
}

// unNot strips a negation from a condition: !done() gives done() and
// true.
func unNot(v ssa.Value) (ssa.Value, bool) {
	if not, ok := v.(*ssa.UnOp); ok && not.Op == token.NOT {
		return not.X, true
	}
	return v, false
}

// fieldAndBase returns the field a channel value is loaded from and the
// value it is loaded through: p.taskQueue gives taskQueue and p.
func fieldAndBase(ch ssa.Value) (*types.Var, ssa.Value) {
	load, ok := ch.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, nil
	}
	addr, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil, nil
	}
	return FieldOf(addr.X.Type(), addr.Field, true), addr.X
}

// falseOnlyWhenClosed reports whether call, of a function of the same
// package with one bool result, returns false only on paths through a
// receive that reports the close of field on the value the caller passes
// as base: every return of a constant false lies beyond such a branch,
// and every other return gives a constant true.
func falseOnlyWhenClosed(call *ssa.Call, field *types.Var, base ssa.Value) bool {
	g := call.Call.StaticCallee()
	if g == nil || len(g.Blocks) == 0 || g.Pkg != call.Parent().Pkg {
		return false
	}
	res := g.Signature.Results()
	if res.Len() != 1 || !isBool(res.At(0).Type()) {
		return false
	}
	closed := make(map[flow.Edge]bool)
	for i, a := range call.Call.Args {
		if i < len(g.Params) && SameValue(a, base) {
			closedReceives(g, field, g.Params[i], closed)
		}
	}
	if len(closed) == 0 {
		return false
	}
	for _, b := range g.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && boolConst(ret.Results[0]) == nil {
			return false // a result the pass cannot read
		}
	}
	trueReturn := func(instr ssa.Instruction) bool {
		ret, ok := instr.(*ssa.Return)
		return ok && constant.BoolVal(boolConst(ret.Results[0]))
	}
	open := flow.Path{Stop: trueReturn, StopEdge: func(e flow.Edge) bool { return closed[e] }}
	return !open.ReturnReachable(g.Blocks[0], -1)
}

// closedReceives adds the branches of g that a receive of field, loaded
// through base, takes when it reports the close: the !ok of a comma-ok
// receive or of a select case.
func closedReceives(g *ssa.Function, field *types.Var, base ssa.Value, closed map[flow.Edge]bool) {
	onField := func(ch ssa.Value) bool {
		f, b := fieldAndBase(ch)
		return f == field && b == base
	}
	for _, b := range g.Blocks {
		for _, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.UnOp:
				if in.Op == token.ARROW && in.CommaOk && onField(in.X) {
					okExtracts(in, 1, closed)
				}
			case *ssa.Select:
				for k, st := range in.States {
					if st.Dir != types.RecvOnly || !onField(st.Chan) {
						continue
					}
					// The ok is that of the case taken: only its tests
					// inside case k's branch speak of this channel.
					e, found := CaseEdge(in, k)
					if !found {
						continue
					}
					all := make(map[flow.Edge]bool)
					okExtracts(in, 1, all)
					for edge := range all {
						if e.To.Dominates(edge.From) {
							closed[edge] = true
						}
					}
				}
			}
		}
	}
}

// okExtracts adds the branches taken when the ok extracted at index i of
// v's tuple is false.
func okExtracts(v ssa.Value, i int, closed map[flow.Edge]bool) {
	for _, ref := range *v.Referrers() {
		if e, ok := ref.(*ssa.Extract); ok && e.Index == i {
			okBranches(e, true, closed)
		}
	}
}

// boolConst returns the value of a bool constant, or nil.
func boolConst(v ssa.Value) constant.Value {
	if c, ok := v.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Bool {
		return c.Value
	}
	return nil
}
