package lockedsend

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/summary"
)

// wakeDepth bounds how many calls down closedFirst follows the way to a
// lock: a shutdown helper, or one more below it.
const wakeDepth = 3

// closedFirst reports whether the receiver s, on its way to the
// acquisition a, always closes a channel field the blocked select at op
// also waits on. The sender then leaves by that case, releasing the lock,
// before the receiver waits for it: no cycle forms.
//
//	select {                        // the sender, holding p.writeMu
//	case p.pending <- reply:
//	case <-p.exitCh:                // fires once the reader is shutting down
//	}
//
//	close(p.exitCh)                 // the reader's shutdown...
//	p.writeMu.Lock()                // ...then waits for the sender
func (c *checker) closedFirst(op ssa.Instruction, s chans.Site, a summary.Acquisition) bool {
	sel, ok := op.(*ssa.Select)
	if !ok {
		return false
	}
	wakes := make(map[*types.Var]bool)
	for _, st := range sel.States {
		if f := chans.LoadedField(st.Chan); st.Dir == types.RecvOnly && f != nil {
			wakes[f] = true
		}
	}
	if len(wakes) == 0 {
		return false
	}
	return c.closesOnTheWay(s.Func, s.Instr, a, wakes, wakeDepth)
}

// closesOnTheWay reports whether every path in fn from just after from to
// the acquisition a closes one of the wakes fields first, in fn itself or,
// when a is a call, in the callee on its way to the lock.
func (c *checker) closesOnTheWay(fn *ssa.Function, from ssa.Instruction, a summary.Acquisition, wakes map[*types.Var]bool, depth int) bool {
	target := callAt(fn, a.Pos)
	if target == nil || depth == 0 {
		return false
	}
	closes := func(i ssa.Instruction) bool {
		call, ok := i.(*ssa.Call)
		if !ok || len(call.Call.Args) != 1 {
			return false
		}
		b, ok := call.Call.Value.(*ssa.Builtin)
		return ok && b.Name() == "close" && wakes[chans.LoadedField(call.Call.Args[0])]
	}
	if !reachesAvoiding(from, target, closes) {
		return true
	}
	if a.Via == "" {
		return false
	}
	callee := target.(ssa.CallInstruction).Common().StaticCallee()
	if callee == nil || len(callee.Blocks) == 0 {
		return false
	}
	found := false
	for _, b := range c.sum.Acquires(callee) {
		if b.Class != a.Class || b.Write != a.Write {
			continue
		}
		found = true
		if !c.closesOnTheWay(callee, nil, b, wakes, depth-1) {
			return false
		}
	}
	return found
}

// reachesAvoiding reports whether target can run after from (from the
// entry of target's function when from is nil) on a path that meets no
// instruction for which stop holds.
func reachesAvoiding(from, target ssa.Instruction, stop func(ssa.Instruction) bool) bool {
	fn := target.Parent()
	seen := make(map[*ssa.BasicBlock]bool)
	var walk func(b *ssa.BasicBlock, start int) bool
	walk = func(b *ssa.BasicBlock, start int) bool {
		for _, instr := range b.Instrs[start:] {
			if instr == target {
				return true
			}
			if stop(instr) {
				return false
			}
		}
		for _, s := range b.Succs {
			if !seen[s] {
				seen[s] = true
				if walk(s, 0) {
					return true
				}
			}
		}
		return false
	}
	if from == nil {
		return walk(fn.Blocks[0], 0)
	}
	b := from.Block()
	for i, instr := range b.Instrs {
		if instr == from {
			return walk(b, i+1)
		}
	}
	return true
}
