package summary

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// chanBlocks reports whether the send at instr (select state, or -1) on ch
// can block: it can unless the channel knowledge shared with baresend
// proves otherwise (chans.NeverBlocks: the capacity rule, tokens, reply
// slots, one-shot channels).
func (r *Result) chanBlocks(instr ssa.Instruction, state int, ch ssa.Value) bool {
	return !r.chanIndex().NeverBlocks(instr, state, ch)
}

// selectBlocks reports a select that waits while it cannot send: it has no
// default, and none of its send cases has room. A receive case, a liveness
// case such as <-ctx.Done() included, bounds the wait but does not end it.
//
//	t3 = select blocking [t0<-t1, <-t2] (index int, ok bool)
func (r *Result) selectBlocks(sel *ssa.Select) *Blocking {
	if !sel.Blocking {
		return nil
	}
	first := -1
	for i, st := range sel.States {
		if st.Dir != types.SendOnly {
			continue
		}
		if !r.chanBlocks(sel, i, st.Chan) {
			return nil
		}
		if first < 0 {
			first = i
		}
	}
	if first < 0 {
		return nil
	}
	pos := sel.States[first].Pos
	return &Blocking{
		Kind:  SelectSend,
		Op:    "send on " + r.source().chanAt(pos) + " in a select without default",
		At:    pos,
		OpPos: pos,
		Param: r.paramChan(sel.States[first].Chan, sel.Parent()),
		OpPkg: r.pkg.Path(),

		OpInstr: sel,
		OpState: first,
	}
}
