package chans

import (
	"cmp"
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// A goroutine that reports its result on a channel often reports a panic
// on the same channel, from a deferred closure that recovers:
//
//	go func() {
//		defer func() {
//			if r := recover(); r != nil {
//				errc <- fmt.Errorf("panic: %v", r) // only on a panic
//			}
//		}()
//		errc <- work() // the last thing before the return
//	}()
//
// Counted as two runs, the goroutine sends two values. It sends one: the
// deferred send runs only when the body panicked, and a body that reached
// its last send returns without anything left that can panic, so its
// sends after which nothing can panic (final sends) and the recovering
// send never run in the same execution.

// recoverRun is a closure the goroutine function defers once, whose sends
// on the channel all run only while it recovers from a panic.
type recoverRun struct {
	body, deferred *ssa.Function
}

// recoveringSends finds, among the runs of one start, a deferred closure
// whose every send runs only after recover() returned a panic, and the
// run that defers it once, with no other deferred call that could panic
// after it.
func (x *Index) recoveringSends(runs map[*ssa.Function]map[ssa.Instruction]int) []recoverRun {
	var out []recoverRun
	for d, sends := range runs {
		body := d.Parent()
		if body == nil || runs[body] == nil || !x.deferredOnceLast(body, d) {
			continue
		}
		guarded := true
		for instr := range sends {
			guarded = guarded && recoverGuarded(instr)
		}
		if guarded {
			out = append(out, recoverRun{body: body, deferred: d})
		}
	}
	// In source order, so that a closure both deferred and deferring is
	// paired the same way on every run.
	slices.SortFunc(out, func(a, b recoverRun) int { return cmp.Compare(a.deferred.Pos(), b.deferred.Pos()) })
	return out
}

// deferredOnceLast reports whether body defers the closure d exactly once,
// outside any loop, and defers nothing after it: the calls deferred after
// d run before it, and a panic in one of them would make d send after a
// final send of the body.
func (x *Index) deferredOnceLast(body, d *ssa.Function) bool {
	var at *ssa.Defer
	var others []*ssa.Defer
	for _, b := range body.Blocks {
		for _, instr := range b.Instrs {
			def, ok := instr.(*ssa.Defer)
			if !ok {
				continue
			}
			if literal(def.Call.Value) == d {
				if at != nil {
					return false
				}
				at = def
				continue
			}
			others = append(others, def)
		}
	}
	if at == nil || x.Loops(body).InLoop(at.Block()) {
		return false
	}
	for _, o := range others {
		if flow.Reaches(at, o) {
			return false
		}
	}
	return true
}

// recoverGuarded reports whether instr runs only on the branch where the
// value recover() returned in its function is not nil:
//
//	t0 = recover()
//	t1 = t0 != nil:any
//	if t1 goto 1 else 2     // instr in a block 1 dominates
func recoverGuarded(instr ssa.Instruction) bool {
	for _, b := range instr.Parent().Blocks {
		iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cond, ok := iff.Cond.(*ssa.BinOp)
		if !ok || !isRecovered(cond.X, cond.Y) && !isRecovered(cond.Y, cond.X) {
			continue
		}
		var taken *ssa.BasicBlock
		switch cond.Op {
		case token.NEQ:
			taken = b.Succs[0]
		case token.EQL:
			taken = b.Succs[1]
		default:
			continue
		}
		if len(taken.Preds) == 1 && taken.Dominates(instr.Block()) {
			return true
		}
	}
	return false
}

// isRecovered reports whether v is the result of recover() and other is nil.
func isRecovered(v, other ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	b, ok := call.Call.Value.(*ssa.Builtin)
	c, isConst := other.(*ssa.Const)
	return ok && b.Name() == "recover" && isConst && c.IsNil()
}

// finalSends returns the sends of weights after which their function
// returns with no instruction between that can panic: once one has run,
// the function does not panic, and its recovering closure sends nothing.
func finalSends(weights map[ssa.Instruction]int) map[ssa.Instruction]bool {
	final := make(map[ssa.Instruction]bool)
	for instr := range weights {
		if returnsQuietly(instr) {
			final[instr] = true
		}
	}
	return final
}

// returnsQuietly reports whether every path from instr reaches a return
// through instructions that cannot panic, and no loop.
func returnsQuietly(instr ssa.Instruction) bool {
	const visiting, quiet, loud = 1, 2, 3
	state := make(map[*ssa.BasicBlock]int)
	var walk func(b *ssa.BasicBlock, from int) bool
	walk = func(b *ssa.BasicBlock, from int) bool {
		for _, in := range b.Instrs[from:] {
			if _, ok := in.(*ssa.Return); ok {
				return true
			}
			if mayPanic(in) {
				return false
			}
		}
		if len(b.Succs) == 0 {
			return false // a panic or an exit
		}
		for _, s := range b.Succs {
			switch state[s] {
			case visiting, loud:
				return false // a loop: the function may run on and panic
			case quiet:
				continue
			}
			state[s] = visiting
			if !walk(s, 0) {
				state[s] = loud
				return false
			}
			state[s] = quiet
		}
		return true
	}
	return walk(instr.Block(), flow.IndexOf(instr)+1)
}

// mayPanic reports whether instr can panic. Calls, stores, loads through
// pointers, indexing, conversions and arithmetic that can trap all can;
// a conservative list of those that cannot is kept.
func mayPanic(instr ssa.Instruction) bool {
	switch x := instr.(type) {
	case *ssa.Jump, *ssa.If, *ssa.RunDefers, *ssa.DebugRef, *ssa.Phi, *ssa.Extract,
		*ssa.MakeInterface, *ssa.ChangeType, *ssa.ChangeInterface, *ssa.Field:
		return false
	case *ssa.BinOp:
		switch x.Op {
		case token.QUO, token.REM, token.SHL, token.SHR:
			return true
		}
		return false
	case *ssa.UnOp:
		return x.Op == token.MUL // a nil pointer
	}
	return true
}
