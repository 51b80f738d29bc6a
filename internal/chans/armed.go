package chans

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// ArmedFirst reports whether send puts the first value ever sent into the
// buffered channel that field f of its object holds, so that it finds the
// buffer empty:
//
//	t := &transport{readNext: make(chan struct{}, 1)}  // newTransport
//	go t.dispatch()                                    // Listen, once per t
//
//	func (t *transport) dispatch() {
//		t.readNext <- struct{}{}                       // arm the first read
//		for { ... }
//	}
//
// Every store into f (unexported, so no other package sends on it) puts a
// channel made with a constant capacity of at least one into a struct
// just allocated. Every send on f is in one unexported function, on its
// receiver's f, and no other send of it can run before this one, which
// does not repeat. That function runs once per object: its one way to run
// is a go statement or call, outside any loop, on an object its caller has
// just made or got from a function that returns one it just allocated.
// So no value reaches the channel before this send.
func (x *Index) ArmedFirst(send *ssa.Send, f *types.Var) bool {
	if f.Exported() || !x.filledFresh(f) || !x.buffered(f) {
		return false
	}
	sender, _, ok := x.oneSender(f)
	if !ok || sender != send.Parent() || sender.Object() != nil && sender.Object().Exported() {
		return false
	}
	base, _, ok := FieldLoad(send.Chan)
	if !ok || len(sender.Params) == 0 || base != sender.Params[0] {
		return false
	}
	return x.firstOnField(f, send) && x.oncePerObject(sender)
}

// buffered reports whether every make stored into f has a constant room
// of at least one.
func (x *Index) buffered(f *types.Var) bool {
	for _, st := range x.fieldSts[f] {
		mk, ok := st.Val.(*ssa.MakeChan)
		if n, isConst := ConstCapOK(mk); !ok || !isConst || n < 1 {
			return false
		}
	}
	return true
}

// firstOnField reports whether no send on f can run before send in its
// function, send included: it is not in a loop.
func (x *Index) firstOnField(f *types.Var, send *ssa.Send) bool {
	first := !flow.Reaches(send, send)
	x.sendsOnField(f, func(instr ssa.Instruction, _ ssa.Value) {
		if instr != send && flow.Reaches(instr, send) {
			first = false
		}
	})
	return first
}

// oncePerObject reports whether the method or function fn runs at most
// once for each object it gets as its first parameter: its one entry is
// outside any loop and hands it a fresh object.
func (x *Index) oncePerObject(fn *ssa.Function) bool {
	if len(x.invokes[fn.Name()]) > 0 {
		return false
	}
	entries, ok := x.entries(fn)
	if !ok || len(entries) != 1 {
		return false
	}
	call, ok := entries[0].(ssa.CallInstruction)
	if !ok || call.Common().IsInvoke() || len(call.Common().Args) == 0 {
		return false
	}
	if x.Loops(call.Parent()).InLoop(call.Block()) {
		return false
	}
	return freshObject(call.Common().Args[0])
}

// freshObject reports whether v is a struct just allocated, or the result
// of a call to a function that returns one it just allocated (or nil).
func freshObject(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Alloc:
		return isStructAlloc(v)
	case *ssa.Call:
		return freshResult(v.Call.StaticCallee(), 0)
	case *ssa.Extract:
		call, ok := v.Tuple.(*ssa.Call)
		return ok && freshResult(call.Call.StaticCallee(), v.Index)
	}
	return false
}

// freshResult reports whether result i of fn is, on every return, a
// struct fn has just allocated or nil.
func freshResult(fn *ssa.Function, i int) bool {
	if fn == nil || len(fn.Blocks) == 0 || i >= fn.Signature.Results().Len() {
		return false
	}
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		switch r := ret.Results[i].(type) {
		case *ssa.Alloc:
			if !isStructAlloc(r) {
				return false
			}
		case *ssa.Const:
			if !r.IsNil() {
				return false
			}
		default:
			return false
		}
	}
	return true
}
