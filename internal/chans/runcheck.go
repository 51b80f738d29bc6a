package chans

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// The checks a runner makes before it calls a loop again (runner.go): that
// the context it passes is not done, and that it is the one context kept
// with the loop.

// fixedFor reports whether the context value ctx is the same on every trip
// of the loops around the call c: a parameter, a captured variable, or a
// value made before them.
func (x *Index) fixedFor(c ssa.Instruction, ctx ssa.Value) bool {
	instr, ok := ctx.(ssa.Instruction)
	if !ok {
		return true // a parameter or free variable
	}
	return !x.Loops(c.Parent()).InSameLoop(instr.Block(), c.Block())
}

// notDone reports whether the instruction c runs only after a check that
// ctx is not done, made on the same trip of any loop around c: the default
// of a select whose one case is <-ctx.Done(), or the branch on which
// ctx.Err() is nil.
//
//	t9 = select nonblocking [<-t8]   // t8 = invoke ctx.Done()
//	t11 = extract t9 #0 == 0:int
//	if t11 goto done else live       // live dominates c
func (x *Index) notDone(c ssa.Instruction, ctx ssa.Value) bool {
	fn := c.Parent()
	l := x.Loops(fn).Innermost(c.Block())
	for _, b := range fn.Blocks {
		live := liveSucc(b, ctx)
		if live != nil && live.Dominates(c.Block()) && (l == nil || l.Blocks[b]) {
			return true
		}
	}
	return false
}

// liveSucc returns the successor of b that is taken only when ctx is not
// done, when b ends in such a check, or nil.
func liveSucc(b *ssa.BasicBlock, ctx ssa.Value) *ssa.BasicBlock {
	if len(b.Instrs) == 0 || len(b.Succs) != 2 || b.Succs[0] == b.Succs[1] {
		return nil
	}
	cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return nil
	}
	cmp, ok := cond.Cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
		return nil
	}
	// ctx.Err() == nil: the true branch is live; != nil, the false one.
	if errCall := ctxCall(cmp.X, "Err", ctx); errCall && isNil(cmp.Y) || ctxCall(cmp.Y, "Err", ctx) && isNil(cmp.X) {
		if cmp.Op == token.EQL {
			return b.Succs[0]
		}
		return b.Succs[1]
	}
	// The index of a select with a default and one case, <-ctx.Done():
	// case 0 is the true branch of index == 0.
	idx, ok := cmp.X.(*ssa.Extract)
	if !ok || idx.Index != 0 || cmp.Op != token.EQL || !isInt(cmp.Y, 0) {
		return nil
	}
	sel, ok := idx.Tuple.(*ssa.Select)
	if !ok || sel.Blocking || len(sel.States) != 1 || sel.States[0].Dir != types.RecvOnly || !ctxCall(sel.States[0].Chan, "Done", ctx) {
		return nil
	}
	return b.Succs[1]
}

// ctxCall reports whether v is the result of calling method on ctx (or on
// the same load of it).
func ctxCall(v ssa.Value, method string, ctx ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	return ok && call.Call.IsInvoke() && call.Call.Method.Name() == method && SameValue(call.Call.Value, ctx)
}

func isNil(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value == nil
}

// fieldRunsUntilDone reports whether every call of a func value loaded from
// the field f is a call with the one context kept beside it, and only while
// that context is not done: f is unexported, its values are loaded only to
// be called, each call passes the context field of the same value, which
// is stored only where that value is made (keptOnce), and runs after a
// check that it is not done.
//
//	t28 = &t27.serve; t29 = *t28
//	t31 = &t30.ctx;   t32 = *t31       // t27, t30: the same s
//	t33 = t29(t32)                     // dominated by notDone(t32)
func (x *Index) fieldRunsUntilDone(f *types.Var) bool {
	k := ctxParam(f.Type())
	if f.Exported() || k < 0 {
		return false
	}
	if ok, seen := x.fieldRuns[f]; seen {
		return ok
	}
	ok := x.scanFieldRuns(f, k)
	x.fieldRuns[f] = ok
	return ok
}

func (x *Index) scanFieldRuns(f *types.Var, k int) bool {
	for _, fn := range x.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch in := instr.(type) {
				case *ssa.Field:
					if FieldOf(in.X.Type(), in.Field, false) == f {
						return false // a copy of the struct: not followed
					}
				case *ssa.FieldAddr:
					if FieldOf(in.X.Type(), in.Field, true) == f && !x.fieldCalledUntilDone(in, k) {
						return false
					}
				}
			}
		}
	}
	return true
}

// fieldCalledUntilDone checks one address of the func field: it is stored
// to, or loaded to be called as fieldRunsUntilDone says.
func (x *Index) fieldCalledUntilDone(addr *ssa.FieldAddr, k int) bool {
	for _, ref := range *addr.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if r.Addr != addr {
				return false
			}
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
			for _, use := range *r.Referrers() {
				if _, ok := use.(*ssa.DebugRef); ok {
					continue
				}
				c, ok := use.(ssa.CallInstruction)
				if !ok || c.Common().Value != r || c.Common().IsInvoke() || k >= len(c.Common().Args) {
					return false
				}
				ctx := c.Common().Args[k]
				if !x.keptCtx(ctx, addr.X) || !x.notDone(c, ctx) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// keptCtx reports whether ctx is loaded from a context field of base that
// is set only where such a value is made (keptOnce).
func (x *Index) keptCtx(ctx ssa.Value, base ssa.Value) bool {
	load, ok := ctx.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	addr, ok := load.X.(*ssa.FieldAddr)
	if !ok || !SameValue(addr.X, base) {
		return false
	}
	c := FieldOf(addr.X.Type(), addr.Field, true)
	return c != nil && !c.Exported() && isContext(c.Type()) && x.keptOnce(c, addr.X.Type())
}

// keptOnce reports whether the field c of the struct *ptr points to is
// stored only as the struct is made: into a new allocation, in the block
// that allocates it, and never renewed by a store of the whole struct.
func (x *Index) keptOnce(c *types.Var, ptr types.Type) bool {
	if ok, seen := x.kept[c]; seen {
		return ok
	}
	ok := x.scanKept(c, ptr)
	x.kept[c] = ok
	return ok
}

func (x *Index) scanKept(c *types.Var, ptr types.Type) bool {
	for _, st := range x.fieldSts[c] {
		addr := st.Addr.(*ssa.FieldAddr)
		alloc, ok := addr.X.(*ssa.Alloc)
		if !ok || alloc.Block() != st.Block() {
			return false
		}
	}
	p, ok := ptr.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	for _, fn := range x.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok || !types.Identical(st.Val.Type(), p.Elem()) {
					continue
				}
				if alloc, ok := st.Addr.(*ssa.Alloc); !ok || alloc.Block() != st.Block() {
					return false // *s = service{...}: a new context for an old value
				}
			}
		}
	}
	return true
}
