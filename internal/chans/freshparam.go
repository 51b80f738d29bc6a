package chans

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// FreshParam reports whether send is the one send on a buffered channel
// that its function made into a field of a struct every caller has just
// made and shown to nobody: the function is called only from this
// package, each call passes a composite literal whose only uses before
// the call fill its fields, and between the make and the send the
// function hands the struct to no one (on the branch of a select case
// that would have handed it, it is not there to be sent). No other
// goroutine can hold the struct, so none can have filled the buffer:
//
//	func (t *UDP) callTo(id ID) *call { c := &call{id: id}; t.initCall(c); return c }
//	func (t *UDP) initCall(c *call) {
//		c.err = make(chan error, 1)
//		select {
//		case t.callCh <- c:       // the dispatcher has it from here on
//		case <-t.closing:
//			c.err <- errClosed    // only this goroutine has seen c.err
//		}
//	}
func (x *Index) FreshParam(send *ssa.Send) bool {
	base, field, ok := FieldLoad(send.Chan)
	if !ok {
		return false
	}
	p, ok := base.(*ssa.Parameter)
	if !ok {
		return false
	}
	store := storedMake(p, field, send)
	if store == nil || sendsAgain(send, store) || !x.freshFromCallers(p) {
		return false
	}
	sendAddr := send.Chan.(*ssa.UnOp).X
	for _, ref := range *p.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.FieldAddr:
			if r.Field == field && r != store.Addr && r != sendAddr && !onlyMeasured(r, send) {
				return false
			}
		case *ssa.Select:
			if handedBy(r, p, send) {
				return false
			}
		default:
			if flow.Reaches(r, send) {
				return false // handed on before the send
			}
		}
	}
	return true
}

// storedMake returns the store of a buffered make into field of p that
// comes before send on every path to it, or nil.
//
//	t3 = &c.err [#2]; t4 = make chan error 1:int; *t3 = t4
func storedMake(p *ssa.Parameter, field int, send *ssa.Send) *ssa.Store {
	var found *ssa.Store
	flow.Before(send, func(instr ssa.Instruction) bool {
		st, ok := instr.(*ssa.Store)
		if !ok {
			return false
		}
		fa, ok := st.Addr.(*ssa.FieldAddr)
		if !ok || fa.X != p || fa.Field != field {
			return false
		}
		if mk, ok := st.Val.(*ssa.MakeChan); ok && ConstCap(mk) >= 1 {
			found = st
			return true
		}
		return false
	})
	return found
}

// sendsAgain reports whether a path leads from send back to itself
// without passing the store that makes the channel anew: a loop that
// sends twice into one buffer.
func sendsAgain(send *ssa.Send, store *ssa.Store) bool {
	from, to := send.Block(), store.Block()
	if from == to && flow.IndexOf(store) > flow.IndexOf(send) {
		return false // the make runs again before the next send
	}
	seen := map[*ssa.BasicBlock]bool{}
	stack := append([]*ssa.BasicBlock(nil), from.Succs...)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] || b == to && b != from {
			continue
		}
		if b == from {
			return true
		}
		seen[b] = true
		stack = append(stack, b.Succs...)
	}
	return false
}

// onlyMeasured reports whether the field address fa of the channel is
// only loaded for len or cap, or not before send: such a look neither
// fills the buffer nor hands the channel on.
func onlyMeasured(fa *ssa.FieldAddr, send *ssa.Send) bool {
	for _, ref := range *fa.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
			for _, use := range *r.Referrers() {
				if _, dbg := use.(*ssa.DebugRef); !dbg && !isLenOrCap(use) && flow.Reaches(use, send) {
					return false
				}
			}
		default:
			if flow.Reaches(r, send) {
				return false
			}
		}
	}
	return true
}

// handedBy reports whether sel may hand p to another goroutine before
// send: p is the value of one of its send cases, and send lies on that
// case's branch, or the case's branch cannot be told apart.
func handedBy(sel *ssa.Select, p ssa.Value, send *ssa.Send) bool {
	if !flow.Reaches(sel, send) {
		return false
	}
	for k, st := range sel.States {
		if st.Chan == p {
			return true
		}
		if st.Send != p {
			continue
		}
		e, ok := CaseEdge(sel, k)
		if !ok || e.To == send.Block() || flow.Reaches(e.To.Instrs[0], send) {
			return true
		}
	}
	return false
}

// freshFromCallers reports whether every call of p's function passes, as
// p, a composite literal its caller has not yet shown to anyone: its uses
// that can come before the call only address its fields.
//
//	c := &call{id: id}   // t1 = new call (complit); *(&t1.id) = id
//	t.initCall(c)
func (x *Index) freshFromCallers(p *ssa.Parameter) bool {
	fn := p.Parent()
	sites, ok := x.callers(fn)
	if !ok || len(sites) == 0 {
		return false
	}
	i := paramIndex(p)
	for _, site := range sites {
		common := site.Common()
		if _, isCall := site.(*ssa.Call); !isCall || common.IsInvoke() || common.StaticCallee() != fn {
			return false
		}
		alloc, ok := common.Args[i].(*ssa.Alloc)
		if !ok || !alloc.Heap || !filledOnlyBefore(alloc, site) {
			return false
		}
	}
	return true
}

// filledOnlyBefore reports whether every use of alloc that can come before
// call addresses one of its fields.
func filledOnlyBefore(alloc *ssa.Alloc, call ssa.CallInstruction) bool {
	for _, ref := range *alloc.Referrers() {
		switch ref.(type) {
		case *ssa.DebugRef, *ssa.FieldAddr:
		default:
			if ref != call && flow.Reaches(ref, call) {
				return false
			}
		}
	}
	return true
}
