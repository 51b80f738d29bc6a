package verdict

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/flow"
)

// answersRequest reports whether the send answers a request its receiver
// made and waits for: the send follows a receive on a channel q, and the
// receiver's plain receive follows its own send on q. Each answer meets
// the receive of the request it answers, as io.Pipe's writer waits for the
// reader's count after each write; the receiver's other ways out come
// before it asks.
//
//	case bw := <-p.wrCh:          // the sender takes the request
//		p.rdCh <- copy(b, bw)     // and answers it
//	case p.wrCh <- b:             // the receiver asks
//		nw := <-p.rdCh            // and waits for the answer
func answersRequest(send ssa.Instruction, r chans.Site) bool {
	recv, ok := r.Instr.(*ssa.UnOp)
	if !ok {
		return false
	}
	var asked []*types.Var
	flow.Before(send, func(x ssa.Instruction) bool {
		asked = append(asked, receivedFields(x, send.Block())...)
		return false
	})
	for _, q := range asked {
		if flow.Before(recv, func(x ssa.Instruction) bool { return sendsOn(x, q, recv.Block()) }) {
			return true
		}
	}
	return false
}

// receivedFields returns the fields x receives from on its way to block b:
// a plain receive, or the select case that leads to b.
func receivedFields(x ssa.Instruction, b *ssa.BasicBlock) []*types.Var {
	var out []*types.Var
	switch x := x.(type) {
	case *ssa.UnOp:
		if x.Op == token.ARROW {
			if f := chans.LoadedField(x.X); f != nil {
				out = append(out, f)
			}
		}
	case *ssa.Select:
		for i, st := range x.States {
			if e, ok := chans.CaseEdge(x, i); ok && st.Dir == types.RecvOnly && e.To.Dominates(b) {
				if f := chans.LoadedField(st.Chan); f != nil {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// sendsOn reports whether x sends on field q on its way to block b.
func sendsOn(x ssa.Instruction, q *types.Var, b *ssa.BasicBlock) bool {
	switch x := x.(type) {
	case *ssa.Send:
		return chans.LoadedField(x.Chan) == q
	case *ssa.Select:
		for i, st := range x.States {
			if e, ok := chans.CaseEdge(x, i); ok && st.Dir == types.SendOnly && e.To.Dominates(b) && chans.LoadedField(st.Chan) == q {
				return true
			}
		}
	}
	return false
}
