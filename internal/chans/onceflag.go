package chans

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// flagGuardedRun returns how many values one run of the functions a start
// runs can send when a boolean variable of the started function lets
// only the first of them through: fns are the started function f and
// closures made in f, keyed by their sends, and every send a closure
// makes, or f makes after making one, is guarded by that variable being
// false and sets it to true before anything else can send:
//
//	found := false
//	devs.Visit(func(d *Device) {
//		if found {
//			return
//		}
//		if d.Match() {
//			out <- d   // the first match only
//			found = true
//		}
//	})
//	if !found {
//		out <- nil // only when no match was sent
//	}
//
// The closures may run many times, but each send needs the variable false
// and leaves it true, and nothing sets it back: the sends made after the
// closure exists add one value at most to what f sends on paths without
// it. The closure must not outlive the calls it is handed to (it is not
// stored, returned or started), and the variable is a plain bool, so the
// sends are not concurrent: a closure run on two goroutines at once would
// race on it.
func (x *Index) flagGuardedRun(fns map[*ssa.Function]map[ssa.Instruction]int) (int, bool) {
	f, closures := splitClosures(fns)
	if f == nil || len(closures) == 0 {
		return 0, false
	}
	sends := make(map[ssa.Instruction]bool)
	for _, ws := range fns {
		for instr := range ws {
			sends[instr] = true
		}
	}
	for _, cell := range heapBools(f) {
		if guardsRun(f, closures, cell, sends) {
			return max(x.runCount(f, fns[f]), 1), true
		}
	}
	return 0, false
}

// splitClosures returns the one function of fns that is not a closure of
// another, and the closures, when every closure is made directly in it.
func splitClosures(fns map[*ssa.Function]map[ssa.Instruction]int) (*ssa.Function, []*ssa.Function) {
	var f *ssa.Function
	var closures []*ssa.Function
	for fn := range fns {
		if fn.Parent() != nil && fns[fn.Parent()] != nil {
			closures = append(closures, fn)
			continue
		}
		if f != nil {
			return nil, nil
		}
		f = fn
	}
	for _, c := range closures {
		if c.Parent() != f {
			return nil, nil
		}
	}
	return f, closures
}

// heapBools returns f's bool variables that closures capture.
func heapBools(f *ssa.Function) []*ssa.Alloc {
	var out []*ssa.Alloc
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			if a, ok := instr.(*ssa.Alloc); ok && a.Heap && isBool(derefType(a.Type())) {
				out = append(out, a)
			}
		}
	}
	return out
}

// guardsRun checks the variable cell against the rule of flagGuardedRun:
// f sets it false once, before making any closure, and every other store,
// in f or a closure, sets it true; every closure captures it, is handed
// only to calls, and guards each of its sends with it; and f guards each
// send it can make once a closure exists.
func guardsRun(f *ssa.Function, closures []*ssa.Function, cell *ssa.Alloc, sends map[ssa.Instruction]bool) bool {
	addrs := map[ssa.Value]bool{cell: true}
	var makes []*ssa.MakeClosure
	for _, ref := range *cell.Referrers() {
		switch r := ref.(type) {
		case *ssa.MakeClosure:
			makes = append(makes, r)
			for i, b := range r.Bindings {
				if b == cell {
					addrs[r.Fn.(*ssa.Function).FreeVars[i]] = true
				}
			}
		case *ssa.Store:
			if r.Addr != cell || !isConstBool(r.Val, true) && !initialFalse(r, cell) {
				return false
			}
		case *ssa.UnOp, *ssa.DebugRef:
		default:
			return false
		}
	}
	for _, c := range closures {
		mc := makeOf(makes, c)
		if mc == nil || !calledInPlace(mc) || !storesOnlyTrue(c, addrs) {
			return false
		}
		for _, b := range c.Blocks {
			for _, instr := range b.Instrs {
				if sends[instr] && (!guardedBy(instr, addrs) || !setsBeforeNext(instr, addrs, sends, false)) {
					return false
				}
			}
		}
	}
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			switch {
			case !sends[instr]:
			case afterAnyOf(makes, instr):
				if !guardedBy(instr, addrs) || !setsBeforeNext(instr, addrs, sends, true) {
					return false
				}
			case beforeAnyOf(makes, instr):
				return false // its value and the closures' one can add up
			}
		}
	}
	return true
}

// initialFalse reports whether st is the declaration's store of false
// into cell, the first instruction to touch it.
func initialFalse(st *ssa.Store, cell *ssa.Alloc) bool {
	if !isConstBool(st.Val, false) || st.Block() != cell.Block() {
		return false
	}
	for _, ref := range *cell.Referrers() {
		if ref != st && ref.Block() == st.Block() && flow.IndexOf(ref) < flow.IndexOf(st) {
			return false
		}
	}
	return true
}

func isConstBool(v ssa.Value, want bool) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Bool && constant.BoolVal(c.Value) == want
}

// makeOf returns the one MakeClosure of c among makes.
func makeOf(makes []*ssa.MakeClosure, c *ssa.Function) *ssa.MakeClosure {
	var out *ssa.MakeClosure
	for _, mc := range makes {
		if mc.Fn == c {
			if out != nil {
				return nil
			}
			out = mc
		}
	}
	return out
}

// calledInPlace reports whether the closure mc makes is only called or
// handed to calls as an argument: not stored, returned, sent or started.
func calledInPlace(mc *ssa.MakeClosure) bool {
	for _, ref := range *mc.Referrers() {
		switch ref.(type) {
		case *ssa.Call, *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// storesOnlyTrue reports whether c uses the variable it captures among
// addrs only to load it and to store true into it.
func storesOnlyTrue(c *ssa.Function, addrs map[ssa.Value]bool) bool {
	for _, fv := range c.FreeVars {
		if !addrs[fv] {
			continue
		}
		for _, ref := range *fv.Referrers() {
			switch r := ref.(type) {
			case *ssa.UnOp, *ssa.DebugRef:
			case *ssa.Store:
				if r.Addr != fv || !isConstBool(r.Val, true) {
					return false
				}
			default:
				return false
			}
		}
	}
	return true
}

// guardedBy reports whether instr runs only on the branch of a test that
// found the variable false: if v { return } or if !v { ... }, with v a
// load through one of addrs.
func guardedBy(instr ssa.Instruction, addrs map[ssa.Value]bool) bool {
	b := instr.Block()
	for d := b.Idom(); d != nil; d = d.Idom() {
		ifi, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		whenFalse := 1
		cond := ifi.Cond
		if not, ok := cond.(*ssa.UnOp); ok && not.Op == token.NOT {
			cond, whenFalse = not.X, 0
		}
		load, ok := cond.(*ssa.UnOp)
		if ok && load.Op == token.MUL && addrs[load.X] && flow.EdgeDominates(d, d.Succs[whenFalse], b) {
			return true
		}
	}
	return false
}

// setsBeforeNext reports whether every path from just after the send
// instr stores true through one of addrs before it meets another send of
// the run, a call, a go or defer statement, or (unless returnOK) a
// return. A panic ends the run.
func setsBeforeNext(instr ssa.Instruction, addrs map[ssa.Value]bool, sends map[ssa.Instruction]bool, returnOK bool) bool {
	seen := make(map[*ssa.BasicBlock]bool)
	var ok func(b *ssa.BasicBlock, from int) bool
	ok = func(b *ssa.BasicBlock, from int) bool {
		for _, in := range b.Instrs[from:] {
			switch in := in.(type) {
			case *ssa.Store:
				if addrs[in.Addr] && isConstBool(in.Val, true) {
					return true
				}
			case *ssa.Return:
				return returnOK
			case *ssa.Panic:
				return true
			case ssa.CallInstruction:
				if _, builtin := in.Common().Value.(*ssa.Builtin); !builtin {
					return false
				}
			}
			if sends[in] {
				return false
			}
		}
		for _, s := range b.Succs {
			if !seen[s] {
				seen[s] = true
				if !ok(s, 0) {
					return false
				}
			}
		}
		return true
	}
	return ok(instr.Block(), flow.IndexOf(instr)+1)
}

// afterAnyOf reports whether instr can run after one of makes.
func afterAnyOf(makes []*ssa.MakeClosure, instr ssa.Instruction) bool {
	for _, mc := range makes {
		if flow.Reaches(mc, instr) {
			return true
		}
	}
	return false
}

// beforeAnyOf reports whether one of makes can run after instr.
func beforeAnyOf(makes []*ssa.MakeClosure, instr ssa.Instruction) bool {
	for _, mc := range makes {
		if flow.Reaches(instr, mc) {
			return true
		}
	}
	return false
}
