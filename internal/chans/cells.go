package chans

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// A func variable that another closure captures lives in a cell the IR
// allocates, and every call goes through a load of it. When the variable
// holds one function literal and is used only to be called (cellCalls),
// it is that literal under another name:
//
//	t6 = new func(r Result) bool (send)
//	t7 = make closure f$1 [ctx, out]
//	*t6 = t7
//	t8 = make closure f$2 [t6]       // the callback captures the cell
//	t9 = *t6
//	t10 = t9(r)                      // a call through the cell
//	(in f$2)  t1 = *send; t2 = t1(r) // and one in the callback
//
// A second literal stored there, or any other use of the cell or of a
// value loaded from it (passed on, stored, compared), makes the variable a
// func value like any other.

// Callee returns the function a call runs: its static callee, or the
// function literal held by the cell its func value is loaded from.
func (x *Index) Callee(cc *ssa.CallCommon) *ssa.Function {
	if fn := cc.StaticCallee(); fn != nil {
		return fn
	}
	load, ok := cc.Value.(*ssa.UnOp)
	if !ok || load.Op != token.MUL || cc.IsInvoke() {
		return nil
	}
	cell := load.X
	for depth := 0; depth <= maxDepth; depth++ {
		fv, ok := cell.(*ssa.FreeVar)
		if !ok {
			break
		}
		if cell = x.binding(fv); cell == nil {
			return nil
		}
	}
	alloc, ok := cell.(*ssa.Alloc)
	if !ok {
		return nil
	}
	for _, ref := range *alloc.Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Addr != alloc {
			continue
		}
		fn := literal(st.Val)
		if fn == nil {
			return nil
		}
		if _, ok := cellCalls(alloc, st.Val, 0); !ok {
			return nil
		}
		return fn
	}
	return nil
}

// literal returns the function a func value is, when it is a function or
// a closure made here.
func literal(v ssa.Value) *ssa.Function {
	switch v := v.(type) {
	case *ssa.Function:
		return v
	case *ssa.MakeClosure:
		fn, _ := v.Fn.(*ssa.Function)
		return fn
	}
	return nil
}

// capturedThrough returns the closures through which a call in fn is
// reached from owner, the function that holds the cell: fn's closure made
// in owner, then the one made in that, and so on, outermost first. ok is
// false when fn is not nested in owner, or a closure on the way is made in
// more than one place.
func (x *Index) capturedThrough(fn, owner *ssa.Function) (via []*ssa.MakeClosure, ok bool) {
	for f := fn; f != owner; f = f.Parent() {
		if f == nil || len(via) > maxDepth {
			return nil, false
		}
		sites := x.closures[f]
		if len(sites) != 1 {
			return nil, false
		}
		via = append([]*ssa.MakeClosure{sites[0]}, via...)
	}
	return via, true
}
