package chans

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
	"github.com/sendlint/sendlint/internal/locks"
)

// ListSlot reports whether the send at instr on ch answers a waiter kept
// in a list of reply slots, so that it cannot block:
//
//	wc := make(chan Stats, 1)                 // a fresh slot per waiter
//	s.mu.Lock()
//	s.waiters = append(s.waiters, wc)
//	s.mu.Unlock()
//	...
//	s.mu.Lock()
//	for _, w := range s.waiters {
//		w <- stats                            // cannot block
//	}
//	s.waiters = nil
//	s.mu.Unlock()
//
// Every value put into the list (an unexported field) is a channel made
// for that insertion with room for a value, every store into the field
// is such an append or an emptying (nil), and every send on a slot of the
// list answers a list its function empties after loading it, with a lock
// that every store into the field holds held from the load to the
// emptying (ws := s.waiters; s.waiters = nil, then the answers, under the
// lock or after it). A slot is then in one loaded list only, and answered
// at most once.
func (x *Index) ListSlot(instr ssa.Instruction, ch ssa.Value) bool {
	f, _, ok := listSlot(ch)
	if !ok {
		return false
	}
	class, ok := x.listLock(f)
	if !ok {
		return false
	}
	answered := true
	x.sendsOnSlotsOf(f, func(send ssa.Instruction, ch ssa.Value) {
		answered = answered && x.answeredOnce(send, ch, f, class)
	})
	return answered
}

// listSlot matches a channel loaded from an element of a list held in an
// unexported field, the list's load, and the field:
//
//	t2 = *t1             // t1 = &s.waiters
//	t5 = &t2[t4]
//	t6 = *t5             // ch
func listSlot(ch ssa.Value) (*types.Var, *ssa.UnOp, bool) {
	elem, ok := ch.(*ssa.UnOp)
	if !ok || elem.Op != token.MUL {
		return nil, nil, false
	}
	ia, ok := elem.X.(*ssa.IndexAddr)
	if !ok {
		return nil, nil, false
	}
	list, ok := ia.X.(*ssa.UnOp)
	if !ok || list.Op != token.MUL {
		return nil, nil, false
	}
	fa, ok := list.X.(*ssa.FieldAddr)
	if !ok {
		return nil, nil, false
	}
	f := FieldOf(fa.X.Type(), fa.Field, true)
	if f == nil || f.Exported() {
		return nil, nil, false
	}
	return f, list, true
}

// listLock returns the class of a lock held at every store into field f,
// when each store appends a fresh slot to the list, takes one out, or
// empties it.
func (x *Index) listLock(f *types.Var) (string, bool) {
	var held Held
	appended := false
	for i, st := range x.fieldSts[f] {
		if c, ok := st.Val.(*ssa.Const); (!ok || !c.IsNil()) && !removesSlot(st, f) {
			if !x.appendsSlot(st, f) {
				return "", false
			}
			appended = true
		}
		if i == 0 {
			held = x.HeldAt(st)
		} else {
			held = held.meet(x.HeldAt(st)) // held at this store and every one before
		}
	}
	if !appended || len(held.Classes) == 0 {
		return "", false
	}
	return held.Classes[0], true
}

// appendsSlot reports whether the store st is f = append(f, wc), wc a
// channel its function makes for it with a constant room of at least one,
// which nothing in the package sends on directly:
//
//	t3 = *t2                          // t2 = &s.waiters
//	t6 = new [1]chan Stats (varargs)
//	*(&t6[0]) = t0                    // t0 = make chan Stats 1:int
//	t8 = append(t3, t6[:]...)
//	*t2' = t8
func (x *Index) appendsSlot(st *ssa.Store, f *types.Var) bool {
	call, ok := st.Val.(*ssa.Call)
	if !ok || len(call.Call.Args) != 2 {
		return false
	}
	if b, ok := call.Call.Value.(*ssa.Builtin); !ok || b.Name() != "append" {
		return false
	}
	if load, ok := call.Call.Args[0].(*ssa.UnOp); !ok || load.Op != token.MUL || !loadsField(load.X, f) {
		return false
	}
	sl, ok := call.Call.Args[1].(*ssa.Slice)
	if !ok {
		return false
	}
	arr, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	found := false
	for _, ref := range *arr.Referrers() {
		ia, ok := ref.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		for _, use := range *ia.Referrers() {
			put, ok := use.(*ssa.Store)
			if !ok || put.Addr != ia {
				continue
			}
			mk, ok := put.Val.(*ssa.MakeChan)
			if !ok || mk.Parent() != st.Parent() || ConstCap(mk) < 1 || !x.sentOnlyAsSlot(mk, f) ||
				x.Loops(mk.Parent()).RepeatsWithout(st.Block(), mk.Block()) {
				return false
			}
			found = true
		}
	}
	return found
}

// removesSlot reports whether the store st is f = append(f[:i], f[j:]...):
// a waiter that gave up taking its slot out, which puts no new slot in.
func removesSlot(st *ssa.Store, f *types.Var) bool {
	call, ok := st.Val.(*ssa.Call)
	if !ok || len(call.Call.Args) != 2 {
		return false
	}
	if b, ok := call.Call.Value.(*ssa.Builtin); !ok || b.Name() != "append" {
		return false
	}
	for _, a := range call.Call.Args {
		sl, ok := a.(*ssa.Slice)
		if !ok {
			return false
		}
		load, ok := sl.X.(*ssa.UnOp)
		if !ok || load.Op != token.MUL || !loadsField(load.X, f) {
			return false
		}
	}
	return true
}

// sentOnlyAsSlot reports whether every send on the channel mk makes is a
// send on a slot of the list in f: none is sent on before it is put in.
func (x *Index) sentOnlyAsSlot(mk *ssa.MakeChan, f *types.Var) bool {
	for _, s := range x.Uses(mk).Sends {
		if g, _, ok := listSlot(sentOn(s)); !ok || g != f {
			return false
		}
	}
	return true
}

// loadsField reports whether addr is &v.f.
func loadsField(addr ssa.Value, f *types.Var) bool {
	fa, ok := addr.(*ssa.FieldAddr)
	return ok && FieldOf(fa.X.Type(), fa.Field, true) == f
}

// sendsOnSlotsOf calls do for every send and select send case of the
// package on a slot of the list held in field f.
func (x *Index) sendsOnSlotsOf(f *types.Var, do func(instr ssa.Instruction, ch ssa.Value)) {
	for _, send := range x.sends {
		if g, _, ok := listSlot(send.Chan); ok && g == f {
			do(send, send.Chan)
		}
	}
	for _, sel := range x.sendSels {
		for _, st := range sel.States {
			if g, _, ok := listSlot(st.Chan); ok && st.Dir == types.SendOnly && g == f {
				do(sel, st.Chan)
			}
		}
	}
}

// answeredOnce reports whether the send at instr, on a slot of the list in
// f, answers a list that its function empties on every path after it
// loads it, with the lock of class held from the load to the emptying:
// the slots it answers are taken out of the list in one critical section,
// whether it answers them before the emptying or after, from its copy.
func (x *Index) answeredOnce(instr ssa.Instruction, ch ssa.Value, f *types.Var, class string) bool {
	_, list, _ := listSlot(ch)
	fn := instr.Parent()
	var resets []ssa.Instruction
	for _, st := range x.fieldSts[f] {
		if c, ok := st.Val.(*ssa.Const); ok && c.IsNil() && st.Parent() == fn {
			resets = append(resets, st)
		}
	}
	if len(resets) == 0 {
		return false
	}
	isReset := func(in ssa.Instruction) bool {
		for _, r := range resets {
			if in == r {
				return true
			}
		}
		return false
	}
	if (flow.Path{Stop: isReset}).ReturnReachable(list.Block(), flow.IndexOf(list)) {
		return false // a path out that keeps the answered slots in the list
	}
	for _, r := range firstMet(list, isReset) {
		if !x.heldAlong(list, r, class) {
			return false
		}
	}
	return true
}

// firstMet returns the instructions stop accepts that a path from instr
// meets first.
func firstMet(instr ssa.Instruction, stop func(ssa.Instruction) bool) []ssa.Instruction {
	var out []ssa.Instruction
	seen := make(map[*ssa.BasicBlock]bool)
	var walk func(b *ssa.BasicBlock, from int)
	walk = func(b *ssa.BasicBlock, from int) {
		for _, in := range b.Instrs[from:] {
			if stop(in) {
				out = append(out, in)
				return
			}
		}
		for _, s := range b.Succs {
			if !seen[s] {
				seen[s] = true
				walk(s, 0)
			}
		}
	}
	walk(instr.Block(), flow.IndexOf(instr)+1)
	return out
}

// heldAlong reports whether a lock of class is held at every instruction
// on the paths from a to b that meet b only at their end.
func (x *Index) heldAlong(a, b ssa.Instruction, class string) bool {
	ab, bb := a.Block(), b.Block()
	fwd := reachableFrom([]*ssa.BasicBlock{ab}, func(blk *ssa.BasicBlock) []*ssa.BasicBlock {
		if blk == bb && blk != ab {
			return nil
		}
		return blk.Succs
	})
	back := reachableFrom([]*ssa.BasicBlock{bb}, func(blk *ssa.BasicBlock) []*ssa.BasicBlock {
		if blk == ab && blk != bb {
			return nil
		}
		return blk.Preds
	})
	ok := true
	x.lockState(a.Parent()).Walk(func(in ssa.Instruction, s locks.State) bool {
		blk := in.Block()
		switch {
		case !fwd[blk] || !back[blk]:
			return true
		case blk == ab && flow.IndexOf(in) < flow.IndexOf(a):
			return true // before a: on a path to a, not from it
		case blk == bb && flow.IndexOf(in) > flow.IndexOf(b):
			return true
		}
		if !HeldOf(s.Held.Locks()).Has(class) {
			ok = false
		}
		return ok
	})
	return ok
}
