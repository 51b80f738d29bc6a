package verdict

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/flow"
)

// countdown proves "receives once per sender started" for a join that
// counts its senders down: the owner starts one sender per trip of a loop,
// sets a counter to that loop's bound, takes one from it on each receive,
// and leaves its receive loop only when the counter is zero.
//
//	active := len(workers)
//	for {
//		select {
//		case err := <-errc:
//			active--
//			if active == 0 {
//				return err
//			}
//		case <-ctx.Done():
//			stop() // the workers see it and send their last error
//		}
//	}
//
// The counter may instead start from a count of the senders started, one
// added beside each go statement (created++; go create(host)), and the
// loop may leave when the counter is no longer above zero (for created >
// 0). A counter that starts from any other value (one too few, as a drain
// that forgets its own sender) proves nothing.
func (j *Judge) countdown(u *chans.Uses, s chans.Site) bool {
	owner := u.Owner()
	loops := j.idx.Loops(owner)
	senderLoop := loops.Innermost(s.Start.Block())
	if senderLoop == nil || j.idx.Loops(s.Func).InLoop(s.Instr.Block()) {
		return false
	}
	bound := flow.LoopBound(senderLoop)
	starts := startBlocks(u, senderLoop)
	initial := func(v ssa.Value) bool {
		return bound != nil && chans.SameValue(v, bound) || startedCount(v, senderLoop, starts)
	}
	for _, r := range u.Recvs {
		if r.Func != owner {
			continue
		}
		l := loops.Innermost(r.Instr.Block())
		if l == nil {
			continue
		}
		after := receivedBlock(r)
		if k := counter(l, initial, after); k != nil && exitsAtZero(l, k) {
			return true
		}
	}
	return false
}

// receivedBlock returns the first block that runs only after r received.
func receivedBlock(r chans.Site) *ssa.BasicBlock {
	if sel, ok := r.Instr.(*ssa.Select); ok {
		if e, ok := chans.CaseEdge(sel, r.State); ok {
			return e.To
		}
		return nil
	}
	return r.Instr.Block()
}

// counter returns the phi at the head of l that starts at a value initial
// accepts and is only kept or decremented by one, each decrement after a
// receive (in a block that after dominates).
func counter(l *flow.Loop, initial func(ssa.Value) bool, after *ssa.BasicBlock) *ssa.Phi {
	if after == nil {
		return nil
	}
	for _, instr := range l.Header.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			continue
		}
		if countsDown(phi, phi, l, initial, after, nil, make(map[*ssa.Phi]bool)) {
			return phi
		}
	}
	return nil
}

// countsDown reports whether phi, within the counter k of loop l, is made
// only of k's start (a value initial accepts), k itself and k - 1 in a
// block that runs only after a receive (after dominates it). With incs
// set, k + 1 is allowed too, and the block of each increment recorded.
func countsDown(phi, k *ssa.Phi, l *flow.Loop, initial func(ssa.Value) bool, after *ssa.BasicBlock, incs map[*ssa.BasicBlock]bool, seen map[*ssa.Phi]bool) bool {
	if seen[phi] {
		return true
	}
	seen[phi] = true
	started := false
	for i, e := range phi.Edges {
		pred := phi.Block().Preds[i]
		switch {
		case !l.Blocks[pred]:
			if phi != k || !initial(e) {
				return false
			}
			started = true
		case e == k:
		case isDecrement(e, k):
			if !after.Dominates(e.(*ssa.BinOp).Block()) {
				return false
			}
		case incs != nil && isIncrement(e, k):
			incs[e.(*ssa.BinOp).Block()] = true
		default:
			inner, ok := e.(*ssa.Phi)
			if !ok || !countsDown(inner, k, l, initial, after, incs, seen) {
				return false
			}
		}
	}
	return phi != k || started
}

// startBlocks returns the blocks of loop l that start a sender of u's
// channel, with how many each starts.
func startBlocks(u *chans.Uses, l *flow.Loop) map[*ssa.BasicBlock]int {
	starts := make(map[*ssa.BasicBlock]int)
	seen := make(map[ssa.Instruction]bool)
	for _, s := range u.Sends {
		if s.Start != nil && l.Blocks[s.Start.Block()] && !seen[s.Start] {
			seen[s.Start] = true
			starts[s.Start.Block()]++
		}
	}
	return starts
}

// startedCount reports whether v, at the exit of loop l, counts the
// senders l starts: a phi at l's head that enters as 0 and grows by one
// only in a block that starts one sender, once in every such block.
func startedCount(v ssa.Value, l *flow.Loop, starts map[*ssa.BasicBlock]int) bool {
	k, ok := v.(*ssa.Phi)
	if !ok || k.Block() != l.Header {
		return false
	}
	incs := make(map[*ssa.BasicBlock]int)
	if !countsUp(k, k, l, incs, make(map[*ssa.Phi]bool)) || len(incs) != len(starts) {
		return false
	}
	for b, n := range starts {
		if n != 1 || incs[b] != 1 {
			return false
		}
	}
	return true
}

// countsUp reports whether phi, within the counter k of loop l, is made
// only of k's start at 0, k itself and k + 1, recording each increment's
// block in incs.
func countsUp(phi, k *ssa.Phi, l *flow.Loop, incs map[*ssa.BasicBlock]int, seen map[*ssa.Phi]bool) bool {
	if seen[phi] {
		return true
	}
	seen[phi] = true
	for i, e := range phi.Edges {
		pred := phi.Block().Preds[i]
		switch {
		case !l.Blocks[pred]:
			if phi != k || !isConst(e, 0) {
				return false
			}
		case e == k:
		default:
			if add, ok := e.(*ssa.BinOp); ok && add.Op == token.ADD && isConst(add.Y, 1) {
				inner, ok := add.X.(*ssa.Phi)
				if !ok || (inner != k && !countsUp(inner, k, l, incs, seen)) {
					return false
				}
				incs[add.Block()]++
				continue
			}
			inner, ok := e.(*ssa.Phi)
			if !ok || !countsUp(inner, k, l, incs, seen) {
				return false
			}
		}
	}
	return true
}

// isDecrement reports whether v is k - 1.
func isDecrement(v ssa.Value, k *ssa.Phi) bool {
	sub, ok := v.(*ssa.BinOp)
	return ok && sub.Op == token.SUB && sub.X == k && isConst(sub.Y, 1)
}

func isConst(v ssa.Value, n int64) bool {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return false
	}
	got, exact := constant.Int64Val(c.Value)
	return exact && got == n
}

// exitsAtZero reports whether every way out of l (an edge out of it, or a
// return inside it) lies where the counter k, or k - 1, was just found to
// be zero.
func exitsAtZero(l *flow.Loop, k *ssa.Phi) bool {
	edges, returns := l.Exits()
	if len(edges)+len(returns) == 0 {
		return false
	}
	for _, e := range edges {
		if !panics(e[1]) && !atZero(e[0], k) && !atZero(e[1], k) {
			return false
		}
	}
	for _, b := range returns {
		if !atZero(b, k) {
			return false
		}
	}
	return true
}

// atZero reports whether b is reached only through the true branch of
// k == 0 (or k-1 == 0, or k <= 0), or the false branch of k > 0 or k != 0.
func atZero(b *ssa.BasicBlock, k *ssa.Phi) bool {
	for d := b; d != nil; d = d.Idom() {
		idom := d.Idom()
		if idom == nil || len(idom.Instrs) == 0 || len(idom.Succs) != 2 {
			continue
		}
		cond, ok := idom.Instrs[len(idom.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := cond.Cond.(*ssa.BinOp)
		if !ok || !isConst(cmp.Y, 0) || cmp.X != k && !isDecrement(cmp.X, k) {
			continue
		}
		switch cmp.Op {
		case token.EQL, token.LEQ:
			if idom.Succs[0] == d {
				return true
			}
		case token.GTR, token.NEQ:
			if idom.Succs[1] == d {
				return true
			}
		}
	}
	return false
}

// panics reports whether b ends in a panic: the IR's "blocking select
// matched no case" is no way out of a loop.
func panics(b *ssa.BasicBlock) bool {
	if len(b.Instrs) == 0 {
		return false
	}
	_, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Panic)
	return ok
}
