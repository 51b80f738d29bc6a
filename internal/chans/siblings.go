package chans

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// A Sibling is another send on the same field channel that gives up when
// its object shuts down: a select case next to a receive on a stop
// channel of the same struct, or on the Done channel of its context.
type Sibling struct {
	Select *ssa.Select
	Stop   *types.Var  // the stop channel's or the context's field
	Ctx    bool        // Stop holds a context: the select gives up on its Done
	Closes []*ssa.Call // where the package closes it (outside tests, for a shipped send)
}

// SiblingGivesUp returns a select of the package that also sends on a
// channel kept where kept says (field f, or an element of the map, slice
// or array in field f) and gives up on the stop signal of the struct that
// holds f: a stop channel in another of its fields (one the package
// closes and never sends on: stopField), or the Done channel of its
// context.
//
//	func (t *conn) handleRecv(pkt packet) {
//		select {
//		case t.recvChan <- pkt:
//		case <-t.closedChan: // the package's word: readers may be gone
//		}
//	}
//	go func() {
//		t.recvChan <- first // reported: no such case
//		t.startReading(c)
//	}()
//
// The package's own code then says that once the stop channel is closed
// no receiver of such a channel can be counted on, so a send on f without that case
// can wait for good once the buffer is full. A hub's subscribers, each a
// channel in the hub's map, are such channels when the hub's broadcast
// gives up on the hub's done channel. ok is false for a send made
// by a function that closes the stop channel itself (a last value on its
// way out), for a send in shipped code whose only such sibling is in a
// test file or whose stop channel only tests close, for a counting semaphore (every receive gives back a token
// its function took: a send there waits for a holder, not for a
// receiver that can be gone), and when no sibling gives up.
func (x *Index) SiblingGivesUp(instr ssa.Instruction, kept Origin) (Sibling, bool) {
	f := kept.Field
	switch {
	case f == nil || kept.Kind != Field && kept.Kind != Element:
		return Sibling{}, false
	case kept.Kind == Field && x.holdersRelease(f):
		return Sibling{}, false
	}
	shipped := !InTestFile(instr)
	for _, sel := range x.sendSels {
		if sel == instr || shipped && InTestFile(sel) || !x.selectSends(sel, kept) {
			continue
		}
		for _, st := range sel.States {
			if st.Dir != types.RecvOnly {
				continue
			}
			g, ok := x.objectStop(st.Chan, f)
			if !ok || x.closesIn(g, instr.Parent()) {
				continue
			}
			closes := x.fieldCloses[g]
			if shipped {
				closes = slices.DeleteFunc(slices.Clone(closes), func(c *ssa.Call) bool { return InTestFile(c) })
				if len(closes) == 0 && !isContext(g.Type()) {
					continue // only tests close it: the shipped code never gives up
				}
			}
			return Sibling{Select: sel, Stop: g, Ctx: isContext(g.Type()), Closes: closes}, true
		}
	}
	return Sibling{}, false
}

// objectStop returns the field of ch, a channel a select receives from,
// when it is the stop signal of the struct that holds f: a stop channel
// kept in another of its fields, or the Done channel of a context kept
// in one (s.ctx.Done()), which stays closed once the object's life ends.
func (x *Index) objectStop(ch ssa.Value, f *types.Var) (*types.Var, bool) {
	load := ch
	if done, ok := ch.(*ssa.Call); ok && isContextDone(done) {
		load = done.Call.Value
	}
	g := LoadedField(load)
	if g == nil || g == f || !sameStruct(load, f) {
		return nil, false
	}
	return g, load != ch || x.stopField(g)
}

// holdersRelease reports whether every receive on f gives back a token:
// it runs only after its function, or the one that made its closure,
// sent on f.
//
//	case p.sema <- struct{}{}: // acquire
//		go func() {
//			defer func() { <-p.sema }() // release
func (x *Index) holdersRelease(f *types.Var) bool {
	recvs := x.fieldRecvs()[f]
	for _, r := range recvs {
		if !x.tokenHeld(r.Instr, f) {
			return false
		}
	}
	return len(recvs) > 0
}

// tokenHeld reports whether instr runs only after a send on f by its
// function, or by a function that made the closure it runs in.
func (x *Index) tokenHeld(instr ssa.Instruction, f *types.Var) bool {
	for instr != nil {
		if x.acquiredBefore(instr, f) {
			return true
		}
		instr = madeAt(instr.Parent())
	}
	return false
}

// acquiredBefore reports whether a send on f, plain or a select case,
// runs on every path to instr in its function.
func (x *Index) acquiredBefore(instr ssa.Instruction, f *types.Var) bool {
	if flow.Before(instr, func(in ssa.Instruction) bool {
		s, ok := in.(*ssa.Send)
		return ok && x.fromField(s.Chan, f)
	}) {
		return true
	}
	for _, sel := range x.sendSels {
		if sel.Parent() != instr.Parent() {
			continue
		}
		for k, st := range sel.States {
			if st.Dir != types.SendOnly || !x.fromField(st.Chan, f) {
				continue
			}
			if e, ok := CaseEdge(sel, k); ok && e.To.Dominates(instr.Block()) {
				return true
			}
		}
	}
	return false
}

// madeAt returns the one instruction that makes the closure fn, or nil.
func madeAt(fn *ssa.Function) ssa.Instruction {
	parent := fn.Parent()
	if parent == nil {
		return nil
	}
	var at ssa.Instruction
	for _, b := range parent.Blocks {
		for _, in := range b.Instrs {
			if mc, ok := in.(*ssa.MakeClosure); ok && mc.Fn == fn {
				if at != nil {
					return nil
				}
				at = mc
			}
		}
	}
	return at
}

// selectSends reports whether sel has a send case on a channel kept
// where kept is: the same field, or an element of the same container.
func (x *Index) selectSends(sel *ssa.Select, kept Origin) bool {
	for _, st := range sel.States {
		if st.Dir != types.SendOnly {
			continue
		}
		for _, o := range x.Origins(st.Chan) {
			if o.Kind == kept.Kind && o.Field == kept.Field {
				return true
			}
		}
	}
	return false
}

// closesIn reports whether fn closes the channels of field f.
func (x *Index) closesIn(f *types.Var, fn *ssa.Function) bool {
	for _, c := range x.fieldCloses[f] {
		if c.Parent() == fn {
			return true
		}
	}
	return false
}

// sameStruct reports whether v, a value loaded from a field, is loaded
// from a struct that declares f as well: the stop signal belongs to the
// object whose channel is sent on.
func sameStruct(v ssa.Value, f *types.Var) bool {
	addr := loadedAddr(v)
	if addr == nil {
		return false
	}
	p, ok := addr.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	s, ok := p.Elem().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range s.NumFields() {
		if s.Field(i).Origin() == f {
			return true
		}
	}
	return false
}

// OwnObject reports whether a send on ch, a channel kept in a field of
// an object (or in a container there), is made for an object whose life
// spans many sends: unless the object comes from a value the sending
// function is handed (a parameter other than a method's receiver, or a
// value taken from a channel), as a request does, with a reply channel
// in it. A send on such a channel counts as its object's own only in the
// run that makes the sibling select too (the same function, or a closure
// written in it), or when a loop sends on what one parameter hands it:
// that run shows it sends on one value again and again. Elsewhere how
// many values one handed value gets is its handler's business, and a
// sibling's give-up on the value's context says its requester may
// leave, not that its buffer fills. root is the value the channel is
// reached through, when it is known.
func OwnObject(instr ssa.Instruction, ch ssa.Value, sib Sibling) (root ssa.Value, own bool) {
	root = rootOf(ch)
	if !handed(root) {
		return root, true
	}
	if _, param := root.(*ssa.Parameter); param && flow.Reaches(instr, instr) {
		return root, true // a loop sends on the one value it was handed
	}
	return root, nestedIn(sib.Select.Parent(), instr.Parent()) || nestedIn(instr.Parent(), sib.Select.Parent())
}

// handed reports whether v is a value its function is given: a parameter
// other than a method's receiver, or a value received from a channel.
func handed(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Parameter:
		return !isReceiver(v, v.Parent())
	case *ssa.UnOp:
		return v.Op == token.ARROW
	}
	return false
}

// rootOf follows a channel to the value it is reached through: the object
// a field is loaded from, the receiver of a method that returns it, the
// one value a variable is assigned, and a value a closure captures to the
// one its maker holds. t for t.recvChan and for t.lookup(id).ch, the
// receive for (<-reqs).Err. An element of a container ends the walk: a
// map of subscribers is kept, not handed over.
func rootOf(v ssa.Value) ssa.Value {
	for range 16 {
		if v = outermost(v); v == nil {
			return nil
		}
		switch u := v.(type) {
		case *ssa.UnOp:
			if u.Op != token.MUL {
				return v
			}
			v = u.X
		case *ssa.FieldAddr:
			v = u.X
		case *ssa.Extract:
			v = u.Tuple
		case *ssa.Alloc:
			w := StoredOnce(u) // a variable assigned once
			if w == nil {
				return v
			}
			v = w
		case *ssa.Call:
			c := u.Common()
			callee := c.StaticCallee()
			if callee == nil || callee.Signature.Recv() == nil || len(c.Args) == 0 {
				return v
			}
			v = c.Args[0] // the receiver of a method that returns it
		default:
			return v
		}
	}
	return nil
}

// outermost follows a value a closure captures to the value the function
// that made the closure holds, through each enclosing function; nil when
// that is not one value.
func outermost(v ssa.Value) ssa.Value {
	for v != nil {
		switch u := v.(type) {
		case *ssa.FreeVar:
			v = boundValue(u)
		case *ssa.UnOp:
			fv, ok := u.X.(*ssa.FreeVar)
			if u.Op != token.MUL || !ok {
				return v
			}
			if storedThrough(fv) {
				return nil // the closure assigns it
			}
			cell, ok := boundValue(fv).(*ssa.Alloc)
			if !ok {
				return nil
			}
			v = StoredOnce(cell)
		default:
			return v
		}
	}
	return nil
}

// nestedIn reports whether fn is outer or an anonymous function written
// inside it.
func nestedIn(fn, outer *ssa.Function) bool {
	for ; fn != nil; fn = fn.Parent() {
		if fn == outer {
			return true
		}
	}
	return false
}
