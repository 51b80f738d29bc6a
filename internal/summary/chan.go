package summary

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
)

// chanBlocks reports whether the send at instr (select state, or -1) on ch
// can block. It cannot when it puts back a token its function took from
// the same channel, when it follows a non-blocking receive from the same
// channel that made room for it (keep-the-latest-value), when it puts a
// token back into a semaphore filled where it was made, when its channel
// is sent on once and closed (chans.OneShot), or when every channel it may send on was made in this
// package with room for every send (the capacity rule baresend uses). A
// nil channel is not counted: code guards such sends.
func (r *Result) chanBlocks(instr ssa.Instruction, state int, ch ssa.Value) bool {
	if chans.Refills(instr, ch) || chans.MadeRoom(instr, ch) {
		return false
	}
	idx := r.chanIndex()
	origins := idx.Origins(ch)
	if len(origins) == 0 {
		return true
	}
	for _, o := range origins {
		switch o.Kind {
		case chans.Nil:
		case chans.Field:
			if !idx.TokenPool(o.Field) && !idx.OneShot(o.Field) {
				return true
			}
		case chans.Made:
			if !r.covered(idx, o.Make, instr, state) {
				return true
			}
		default:
			return true
		}
	}
	return false
}

func (r *Result) covered(idx *chans.Index, mk *ssa.MakeChan, instr ssa.Instruction, state int) bool {
	u := idx.Uses(mk)
	for _, s := range u.Sends {
		if s.Instr == instr && s.State == state {
			return idx.Covered(u, s)
		}
	}
	return false
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
	}
}
