package chans

import (
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
