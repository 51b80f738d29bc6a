package flow

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// AtMostOnce reports whether instr runs at most once in a run of its
// function because a flag lets it through once: instr lies on the arm of
// a test of a flag (a boolean variable only ever assigned constants, see
// flags) on which the flag has one value, and every path on from instr
// that comes back to that test finds the flag with the other value.
//
//	isFirst := true
//	for {
//		rsp, err := stream.Recv()
//		...
//		if isFirst {
//			ids <- rsp.ID // the first response's id, and no other
//			isFirst = false
//		}
//	}
//
// A flag set back to its first value anywhere on the way round, or a
// test the walk cannot decide, proves nothing.
func AtMostOnce(instr ssa.Instruction) bool {
	return findFlags(instr.Parent()).atMostOnce(instr)
}

// atMostOnce is AtMostOnce with the flags of instr's function found.
func (f *flags) atMostOnce(instr ssa.Instruction) bool {
	b := instr.Block()
	if f == nil || b == nil {
		return false
	}
	for d := b.Idom(); d != nil; d = d.Idom() {
		br, ok := lastIf(d)
		if !ok || d.Succs[0] == d.Succs[1] || !f.decides(br.Cond) {
			continue
		}
		var arm *ssa.BasicBlock
		switch {
		case EdgeDominates(d, d.Succs[0], b):
			arm = d.Succs[0]
		case EdgeDominates(d, d.Succs[1], b):
			arm = d.Succs[1]
		default:
			continue
		}
		if !f.reachesArmAgain(b, d, arm) {
			return true
		}
	}
	return false
}

// decides reports whether cond is a followed flag, or its negation.
func (f *flags) decides(cond ssa.Value) bool {
	for {
		switch v := cond.(type) {
		case *ssa.Phi:
			_, ok := f.bit[v]
			return ok
		case *ssa.UnOp:
			if v.Op != token.NOT {
				return false
			}
			cond = v.X
		default:
			return false
		}
	}
}

// reachesArmAgain reports whether a path that leaves b, knowing nothing of
// the flags, can come back to d and take its branch to arm, or come back
// to b by a loop inside that arm.
func (f *flags) reachesArmAgain(b, d, arm *ssa.BasicBlock) bool {
	type state struct {
		b *ssa.BasicBlock
		e env
	}
	seen := make(map[state]bool)
	work := []state{{b, env{}}}
	for len(work) > 0 {
		st := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range f.succs(st.e, st.b) {
			if st.b == d && s == arm || s == b {
				return true // through the test's arm, or round a loop inside it
			}
			next := state{s, f.enter(st.e, st.b, s)}
			if !seen[next] {
				seen[next] = true
				work = append(work, next)
			}
		}
	}
	return false
}

// EdgeDominates reports whether every path to b takes the edge from d to
// succ. succ dominating b is not enough when succ has other
// predecessors: in if a || b { ... } the body is the true branch of the
// first test and of the second, and runs when either holds.
func EdgeDominates(d, succ, b *ssa.BasicBlock) bool {
	if !succ.Dominates(b) {
		return false
	}
	for _, p := range succ.Preds {
		if p != d && !succ.Dominates(p) { // a back edge from inside stays in
			return false
		}
	}
	return true
}
