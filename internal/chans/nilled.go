package chans

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// A loop that serves several channels often sets each to nil once it is
// closed, so that its select stops choosing it, and returns when all are
// nil:
//
//	for {
//		if in == nil && acks == nil { // t2 = t0 == nil:<-chan T; if t2 goto 4 else 3
//			return
//		}
//		select {
//		case v, ok := <-in:           // t0 = phi [0: in, 7: nil:<-chan T, ...]
//			if !ok {
//				in = nil              // block 7, entered only from the !ok branch
//				continue
//			}
//			...
//
// The branch on which such a variable tests nil is taken only after one of
// its channel's closed branches, so a path that avoids those branches
// avoids it too: the loop does not return before the close.

// nilChecks adds to edges the branches on which ch, the channel operand of
// a receive in fn, is known to be nil, when every nil the variable it is
// read from can hold was set on one of closed, that receive's closed
// branches.
func nilChecks(fn *ssa.Function, ch ssa.Value, closed map[flow.Edge]bool, edges map[flow.Edge]bool) {
	if len(closed) == 0 {
		return
	}
	var reads []ssa.Value
	switch ch := ch.(type) {
	case *ssa.Phi:
		web, ok := nilOnlyAfter(ch, closed)
		if !ok {
			return
		}
		for p := range web {
			reads = append(reads, p)
		}
	case *ssa.UnOp:
		var ok bool
		if reads, ok = capturedNilOnlyAfter(fn, ch, closed); !ok {
			return
		}
	}
	for _, v := range reads {
		for _, ref := range *v.Referrers() {
			cmp, ok := ref.(*ssa.BinOp)
			if !ok || (cmp.Op != token.EQL && cmp.Op != token.NEQ) || !isNilConst(cmp.X) && !isNilConst(cmp.Y) {
				continue
			}
			for _, use := range *cmp.Referrers() {
				cond, ok := use.(*ssa.If)
				if !ok {
					continue
				}
				b := cond.Block()
				if cmp.Op == token.EQL {
					edges[flow.Edge{From: b, To: b.Succs[0]}] = true
				} else {
					edges[flow.Edge{From: b, To: b.Succs[1]}] = true
				}
			}
		}
	}
}

// nilOnlyAfter returns the phis that carry the variable phi belongs to,
// when each of their values is another of them, nil set on a block
// entered only through one of closed, or the one channel the variable
// starts with (a parameter, a captured variable, a make), which receiving
// through it shows to be the channel received from. ok is false
// otherwise: a variable that can be nil on entry, or is set to nil on a
// branch that has not seen the close (a last message, an error), or holds
// one of several channels.
func nilOnlyAfter(phi *ssa.Phi, closed map[flow.Edge]bool) (web map[*ssa.Phi]bool, ok bool) {
	web = map[*ssa.Phi]bool{phi: true}
	var start ssa.Value
	for work := []*ssa.Phi{phi}; len(work) > 0; {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		for i, v := range p.Edges {
			switch v := v.(type) {
			case *ssa.Phi:
				if !web[v] {
					if len(web) >= 16 {
						return nil, false
					}
					web[v] = true
					work = append(work, v)
				}
			case *ssa.Const:
				if !v.IsNil() || !enteredThrough(p.Block().Preds[i], closed) {
					return nil, false
				}
			default:
				v = Unconverted(v)
				if !isChannelStart(v) || start != nil && start != v {
					return nil, false
				}
				start = v
			}
		}
	}
	return web, start != nil
}

// enteredThrough reports whether every path to b takes one of edges: the
// edge's target has that edge as its only way in and dominates b.
func enteredThrough(b *ssa.BasicBlock, edges map[flow.Edge]bool) bool {
	for e := range edges {
		if len(e.To.Preds) == 1 && e.To.Dominates(b) {
			return true
		}
	}
	return false
}

// Unconverted strips the conversions of a channel to a narrower direction.
func Unconverted(v ssa.Value) ssa.Value {
	for {
		ct, ok := v.(*ssa.ChangeType)
		if !ok {
			return v
		}
		v = ct.X
	}
}

func isNilConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}

// capturedNilOnlyAfter returns the loads through which fn, a function
// literal, reads the variable it shares with its parent that ch is loaded
// from, when the parent sets that variable once, before it makes the
// literal, to the one channel it starts with, nothing else stores to it
// but fn, and fn stores only nil, on blocks entered through one of closed.
//
//	t1 = new <-chan T (in)          // the parent
//	*t1 = in
//	t4 = make closure f$1 [t1, ...]
//
//	t0 = *in                        // f$1: in is free variable 0
//	...
//	*in = nil:<-chan T              // after the !ok branch
func capturedNilOnlyAfter(fn *ssa.Function, ch *ssa.UnOp, closed map[flow.Edge]bool) (reads []ssa.Value, ok bool) {
	fv, isFree := ch.X.(*ssa.FreeVar)
	if ch.Op != token.MUL || !isFree || fn.Parent() == nil {
		return nil, false
	}
	mc, alloc := closureBinding(fn, fv)
	if alloc == nil || !setOnceBefore(alloc, mc) {
		return nil, false
	}
	for _, ref := range *fv.Referrers() {
		switch ref := ref.(type) {
		case *ssa.UnOp:
			if ref.Op != token.MUL {
				return nil, false
			}
			reads = append(reads, ref)
		case *ssa.Store:
			if ref.Addr != fv || !isNilConst(ref.Val) || !enteredThrough(ref.Block(), closed) {
				return nil, false
			}
		case *ssa.DebugRef:
		default:
			return nil, false // a closure of its own, a call: stores the pass does not see
		}
	}
	return reads, true
}

// closureBinding returns the one make closure of fn in its parent and the
// variable it binds to fv, when that is a variable of the parent.
func closureBinding(fn *ssa.Function, fv *ssa.FreeVar) (*ssa.MakeClosure, *ssa.Alloc) {
	i := -1
	for k, v := range fn.FreeVars {
		if v == fv {
			i = k
		}
	}
	var found *ssa.MakeClosure
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn {
				if found != nil {
					return nil, nil
				}
				found = mc
			}
		}
	}
	if found == nil || i < 0 || i >= len(found.Bindings) {
		return nil, nil
	}
	alloc, _ := found.Bindings[i].(*ssa.Alloc)
	return found, alloc
}

// setOnceBefore reports whether the parent only reads alloc, but for
// stores of one channel it starts with, the first of them before mc, and
// binds it in no other closure.
func setOnceBefore(alloc *ssa.Alloc, mc *ssa.MakeClosure) bool {
	var start ssa.Value
	before := false
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.UnOp:
			if ref.Op != token.MUL {
				return false
			}
		case *ssa.Store:
			v := Unconverted(ref.Val)
			if ref.Addr != alloc || !isChannelStart(v) || start != nil && start != v {
				return false
			}
			start = v
			before = before || precedes(ref, mc)
		case *ssa.MakeClosure:
			if ref != mc {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return before
}

// precedes reports whether a runs before b on every path to b.
func precedes(a, b ssa.Instruction) bool {
	if a.Block() != b.Block() {
		return a.Block().Dominates(b.Block())
	}
	return flow.IndexOf(a) < flow.IndexOf(b)
}

// isChannelStart reports whether v is a channel a variable can start with
// and that a receive through it shows to be the one received from: the
// function's parameter or captured variable, or a channel it makes.
func isChannelStart(v ssa.Value) bool {
	switch v.(type) {
	case *ssa.Parameter, *ssa.FreeVar, *ssa.MakeChan:
		return true
	}
	return false
}
