package verdict

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
)

// callerCtx proves a send in a loop on a channel the caller hands in
// beside a context that the function gives up on elsewhere, but this send
// does not (chans.CtxIgnored): once the context is done the caller stops
// reading, and the next send waits for good.
func (j *Judge) callerCtx(p *ssa.Parameter, instr ssa.Instruction, v Verdict) Verdict {
	watch := j.idx.CtxIgnored(p, instr)
	if watch == nil {
		return v
	}
	who := OwnerName(p.Parent())
	v.Reason = "its receiver is the caller that hands it to " + who + " with a context, who can stop reading once the context is done, and " +
		v.Reason + ", though " + who + " gives up on that context elsewhere"
	v.Related = append(v.Related, related(ctxCasePos(watch), who+" gives up on the context here"))
	v.Missing = ""
	return v
}

// objectCtx proves a send in a loop on a channel kept in a field, whose
// receivers the package cannot see, when the loop gives up on the context
// kept in another field of the same object and the send does not
// (chans.ObjectCtxIgnored).
func (j *Judge) objectCtx(instr ssa.Instruction, ch ssa.Value, v Verdict, f *types.Var) Verdict {
	watch := j.idx.ObjectCtxIgnored(instr, ch, f)
	if watch == nil {
		return v
	}
	who := OwnerName(instr.Parent())
	v.Reason = "its receivers, outside this package, can stop reading once the context kept beside it is done, and " +
		v.Reason + ", though " + who + " gives up on that context elsewhere"
	v.Related = append(v.Related, related(ctxCasePos(watch), who+" gives up on the context here"))
	v.Missing = ""
	return v
}

// ctxCasePos returns the position of the receive from a context's Done
// at instr: the select's case, or the receive.
func ctxCasePos(instr ssa.Instruction) token.Pos {
	if sel, ok := instr.(*ssa.Select); ok {
		for _, st := range sel.States {
			if st.Dir == types.RecvOnly && chans.DoneOf(st.Chan) != nil && st.Pos.IsValid() {
				return st.Pos
			}
		}
	}
	return instr.Pos()
}
