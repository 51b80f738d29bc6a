package verdict

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/flow"
	"github.com/sendlint/sendlint/internal/report"
)

// A maker can hand its caller both ends of a goroutine's answer: the
// channel, and the func that sends on it, for the caller to start.
//
//	stop := func(exp Exporter) (<-chan error, func()) {
//		done := make(chan error)
//		return done, func() { done <- exp.Shutdown(ctx) }
//	}
//	done, shutdown := stop(p.exporter)
//	go shutdown()
//	select {
//	case err = <-done:
//	case <-ctx.Done(): // returns; the shutdown goroutine waits on its send for good
//	}
//
// The caller is then the owner in all but name: it starts the sender and
// is the only one that receives. The channel's walk stops at the maker's
// return, so the send has no site there; handedBack judges it from the
// caller's side.

// handedBack judges a send in a closure that the function making its
// channel returns, with the channel, to its one caller, which starts the
// closure with a go statement and receives from the channel itself. The
// send blocks for good when the channel is unbuffered, the closure sends
// once, and the caller can return, after starting it, without receiving.
func (j *Judge) handedBack(mk *ssa.MakeChan, instr ssa.Instruction) Verdict {
	send, ok := instr.(*ssa.Send)
	if n, known := chans.ConstCapOK(mk); !ok || !known || n != 0 {
		return Verdict{}
	}
	maker := mk.Parent()
	k := send.Parent()
	if k.Parent() != maker || j.idx.Loops(k).InLoop(send.Block()) || sendsIn(k) != 1 {
		return Verdict{}
	}
	chIdx, fnIdx, ok := returnsBoth(maker, mk, k)
	if !ok {
		return Verdict{}
	}
	calls, ok := j.idx.Callers(maker)
	if !ok || len(calls) != 1 {
		return Verdict{}
	}
	call, ok := calls[0].(*ssa.Call)
	if !ok {
		return Verdict{}
	}
	ch, fn := extracted(call, chIdx), extracted(call, fnIdx)
	if ch == nil || fn == nil {
		return Verdict{}
	}
	start, ok := startedOnly(fn)
	if !ok {
		return Verdict{}
	}
	recvs, edges, ok := receivedOnly(ch)
	if !ok || len(recvs)+len(edges) == 0 {
		return Verdict{}
	}
	received := flow.Path{
		Stop:     func(i ssa.Instruction) bool { return recvs[i] },
		StopEdge: func(e flow.Edge) bool { return edges[e] },
	}
	if !received.ReturnReachable(start.Block(), flow.IndexOf(start)) {
		return Verdict{}
	}
	owner := call.Parent()
	return Verdict{
		Blocks: true,
		Reason: OwnerName(owner) + " can return without receiving it",
		Makes:  []*ssa.MakeChan{mk},
		Related: []analysis.RelatedInformation{
			related(start.Pos(), "sender started here; "+OwnerName(maker)+" made it with the channel"),
			related(mk.Pos(), report.MadeHere+capSuffix(mk)),
		},
	}
}

// sendsIn counts the sends, and select send cases, of fn.
func sendsIn(fn *ssa.Function) int {
	n := 0
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Send:
				n++
			case *ssa.Select:
				for _, st := range x.States {
					if st.Dir == types.SendOnly {
						n++
					}
				}
			}
		}
	}
	return n
}

// returnsBoth reports the result indexes at which every return of maker
// hands back mk and a closure of k, and that these are the only places
// the channel and the closure go: the channel (or the variable that holds
// it, when the closure captures it) is bound only into one closure of k,
// which is only returned.
func returnsBoth(maker *ssa.Function, mk *ssa.MakeChan, k *ssa.Function) (chIdx, fnIdx int, ok bool) {
	vals, mc, ok := handedValues(mk, k)
	if !ok {
		return 0, 0, false
	}
	for _, ref := range *mc.Referrers() {
		switch ref.(type) {
		case *ssa.Return, *ssa.DebugRef:
		default:
			return 0, 0, false
		}
	}
	chIdx, fnIdx = -1, -1
	for _, b := range maker.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		c, f := -1, -1
		for i, r := range ret.Results {
			switch r := chans.Unconverted(r); {
			case vals[r]:
				c = i
			case r == mc:
				f = i
			}
		}
		if c < 0 || f < 0 || chIdx >= 0 && (c != chIdx || f != fnIdx) {
			return 0, 0, false
		}
		chIdx, fnIdx = c, f
	}
	return chIdx, fnIdx, chIdx >= 0
}

// handedValues returns the values of maker that are the channel mk (mk
// itself, or the loads of the one variable it is stored into) and the one
// closure of k that captures it, when nothing else is done with either.
func handedValues(mk *ssa.MakeChan, k *ssa.Function) (map[ssa.Value]bool, *ssa.MakeClosure, bool) {
	vals := map[ssa.Value]bool{mk: true}
	var mc *ssa.MakeClosure
	bind := func(r *ssa.MakeClosure) bool {
		if r.Fn != k || mc != nil {
			return false
		}
		mc = r
		return true
	}
	uses := func(v ssa.Value) bool {
		for _, ref := range *v.Referrers() {
			switch r := ref.(type) {
			case *ssa.MakeClosure:
				if !bind(r) {
					return false
				}
			case *ssa.Return, *ssa.ChangeType, *ssa.DebugRef:
			default:
				return false
			}
		}
		return true
	}
	refs := *mk.Referrers()
	if st, ok := onlyStore(refs, mk); ok {
		cell, ok := st.Addr.(*ssa.Alloc)
		if !ok {
			return nil, nil, false
		}
		for _, ref := range *cell.Referrers() {
			switch r := ref.(type) {
			case *ssa.Store:
				if r != st {
					return nil, nil, false // the variable is set again
				}
			case *ssa.UnOp:
				if r.Op != token.MUL || !uses(r) {
					return nil, nil, false
				}
				vals[r] = true
			case *ssa.MakeClosure:
				if !bind(r) {
					return nil, nil, false
				}
			case *ssa.DebugRef:
			default:
				return nil, nil, false
			}
		}
	} else if !uses(mk) {
		return nil, nil, false
	}
	return vals, mc, mc != nil
}

// onlyStore returns the store of v when it is v's one use besides debug
// information.
func onlyStore(refs []ssa.Instruction, v ssa.Value) (*ssa.Store, bool) {
	var st *ssa.Store
	for _, ref := range refs {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Val != v || st != nil {
				return nil, false
			}
			st = r
		case *ssa.DebugRef:
		default:
			return nil, false
		}
	}
	return st, st != nil
}

// extracted returns result i of call, as the caller unpacks it.
func extracted(call *ssa.Call, i int) ssa.Value {
	for _, ref := range *call.Referrers() {
		if e, ok := ref.(*ssa.Extract); ok && e.Index == i {
			return e
		}
	}
	return nil
}

// startedOnly returns the one go statement that runs fn, when that is
// all the caller does with it.
func startedOnly(fn ssa.Value) (*ssa.Go, bool) {
	var start *ssa.Go
	for _, ref := range *fn.Referrers() {
		switch r := ref.(type) {
		case *ssa.Go:
			if r.Call.Value != fn || start != nil {
				return nil, false
			}
			start = r
		case *ssa.DebugRef:
		default:
			return nil, false
		}
	}
	return start, start != nil
}

// receivedOnly returns the receives of ch and the edges into the select
// cases that receive from it, when the caller does nothing else with it.
func receivedOnly(ch ssa.Value) (map[ssa.Instruction]bool, map[flow.Edge]bool, bool) {
	recvs := make(map[ssa.Instruction]bool)
	edges := make(map[flow.Edge]bool)
	for _, ref := range *ch.Referrers() {
		switch r := ref.(type) {
		case *ssa.UnOp:
			if r.Op != token.ARROW {
				return nil, nil, false
			}
			recvs[r] = true
		case *ssa.Select:
			for k, st := range r.States {
				if st.Chan != ch {
					continue
				}
				if st.Dir != types.RecvOnly {
					return nil, nil, false
				}
				e, ok := chans.CaseEdge(r, k)
				if !ok {
					return nil, nil, false
				}
				edges[e] = true
			}
		case *ssa.DebugRef:
		default:
			return nil, nil, false
		}
	}
	return recvs, edges, true
}
