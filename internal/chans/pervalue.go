package chans

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// OncePerValue reports whether field f of an unexported struct type holds a
// slot that travels inside the struct value and is sent on at most as many
// times per value as it has room for, so that no send on it can block:
//
//	first := make(chan *RPC, 1)               // one slot per stream
//	go w.writer(first)
//	p.streams <- stream{s: s, first: first}   // handed on once
//	...
//	st := <-p.streams                         // each value received once
//	st.first <- hello                         // cannot block
//
// Every channel stored into f is made with a constant capacity k >= 1 by
// the function that builds the struct value, in the same iteration, stored
// into f once and into nothing else, with no send of its own and no use the
// package cannot follow. Every struct value is built in a local variable
// whose only use as a whole is one channel send (once per build), and
// every value of the type the package sends is such a build. Every send on
// f loads it from a value just received, used only to read its fields, and
// the sends on one received value are at most k instructions, none of
// which can repeat without the receive: each channel then gets at most k
// values.
//
// A struct value kept anywhere (a map, a field, a slice), passed to a call
// or copied into another value, a send through a pointer to the struct, a
// send in a loop over the same value, or a make in another function keeps
// f an ordinary channel: the count per channel is unknown there.
func (x *Index) OncePerValue(f *types.Var) bool {
	if v, ok := x.perValue[f]; ok {
		return v
	}
	if x.perValue == nil {
		x.perValue = make(map[*types.Var]bool)
	}
	v := x.oncePerValue(f)
	x.perValue[f] = v
	return v
}

func (x *Index) oncePerValue(f *types.Var) bool {
	st := carrier(f)
	if st == nil {
		return false
	}
	room, ok := x.freshCarriers(f, st)
	if !ok {
		return false
	}
	return x.carriersHandedOnce(st) && x.sentPerValue(f, st, room)
}

// carrier returns the unexported named struct type that declares f: only
// this package builds its values.
func carrier(f *types.Var) *types.Named {
	if f == nil || !f.IsField() || f.Pkg() == nil {
		return nil
	}
	scope := f.Pkg().Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.Exported() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 {
			continue
		}
		s, ok := named.Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for i := 0; i < s.NumFields(); i++ {
			if s.Field(i) == f {
				return named
			}
		}
	}
	return nil
}

// freshCarriers checks every store into f: a channel made for it, into a
// struct built in a local variable handed on once. It returns the least
// capacity of those channels.
func (x *Index) freshCarriers(f *types.Var, st *types.Named) (int, bool) {
	stores := x.fieldSts[f]
	room := 0
	for _, s := range stores {
		fa := s.Addr.(*ssa.FieldAddr)
		alloc, ok := fa.X.(*ssa.Alloc)
		if !ok || !x.builtOnce(alloc) {
			return 0, false
		}
		mk, ok := s.Val.(*ssa.MakeChan)
		if !ok || mk.Parent() != s.Parent() {
			return 0, false
		}
		if x.Loops(s.Parent()).RepeatsWithout(s.Block(), mk.Block()) && !sendsOnceThenNil(alloc) {
			return 0, false
		}
		n, ok := constCap(mk)
		if !ok || n < 1 {
			return 0, false
		}
		if room == 0 || n < room {
			room = n
		}
		u := x.Uses(mk)
		if len(u.Sends) > 0 || len(u.Escapes) > 0 || len(u.Stores) != 1 || u.Stores[0] != s || len(u.Globals) > 0 {
			return 0, false
		}
	}
	return room, len(stores) > 0
}

// sendsOnceThenNil reports whether the struct value built in alloc is
// handed on by a select case that its loop disables once it fires: the
// case's channel is a variable the loop sets to nil on every way back to
// the select, so however often the loop builds the value again, at most
// one build is sent per run of the function.
//
//	for {
//		select {
//		case ch <- request{reply: reply}: // t5 = phi [0: ch, 2: nil]
//			ch = nil
//		case err := <-reply:
//			return err
//		}
//	}
func sendsOnceThenNil(alloc *ssa.Alloc) bool {
	var sel *ssa.Select
	var k int
	for _, ref := range *alloc.Referrers() {
		load, ok := ref.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			continue
		}
		for _, r := range nonDebug(load) {
			if s, ok := r.(*ssa.Select); ok {
				for i, st := range s.States {
					if st.Send == load {
						sel, k = s, i
					}
				}
			}
		}
	}
	if sel == nil {
		return false
	}
	phi, ok := sel.States[k].Chan.(*ssa.Phi)
	if !ok {
		return false
	}
	l := flow.FindLoops(alloc.Parent()).Innermost(sel.Block())
	if l == nil || phi.Block() != l.Header {
		return false
	}
	fired, found := CaseEdge(sel, k)
	if !found {
		return false
	}
	for i, e := range phi.Edges {
		pred := phi.Block().Preds[i]
		if !l.Blocks[pred] {
			continue // the value the loop starts with
		}
		isNil := false
		if c, ok := e.(*ssa.Const); ok && c.IsNil() {
			isNil = true
		}
		// Back from the case that sent: nil. Back from any other: nil, or
		// the channel unchanged.
		if !isNil && (e != phi || fired.To.Dominates(pred)) {
			return false
		}
	}
	return true
}

// builtOnce reports whether alloc is a struct value whose only uses are
// stores into its fields and one load, and that load's only use is one
// send that runs once per alloc (no loop repeats the send without the
// alloc):
//
//	t0 = local stream (complit)
//	t1 = &t0.first
//	*t1 = t2
//	t3 = *t0
//	t4 = select blocking [p.streams<-t3, ...]
func (x *Index) builtOnce(alloc *ssa.Alloc) bool {
	var load *ssa.UnOp
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			// *t0 = zero: a partial literal clears the variable first.
			if c, ok := ref.Val.(*ssa.Const); !ok || ref.Addr != alloc || !c.IsNil() && c.Value != nil {
				return false
			}
		case *ssa.FieldAddr:
			for _, r := range *ref.Referrers() {
				if s, ok := r.(*ssa.Store); !ok || s.Addr != ref {
					if _, ok := r.(*ssa.DebugRef); !ok {
						return false
					}
				}
			}
		case *ssa.UnOp:
			if ref.Op != token.MUL || load != nil {
				return false
			}
			load = ref
		default:
			return false
		}
	}
	if load == nil {
		return false
	}
	refs := nonDebug(load)
	if len(refs) != 1 || x.Loops(alloc.Parent()).RepeatsWithout(refs[0].Block(), alloc.Block()) {
		return false
	}
	switch ref := refs[0].(type) {
	case *ssa.Send:
		return ref.X == load
	case *ssa.Select:
		n := 0
		for _, s := range ref.States {
			if s.Send == load {
				n++
			}
		}
		return n == 1
	}
	return false
}

// carriersHandedOnce reports whether every value of st the package sends
// on a channel is a struct built once (builtOnce): no received, stored or
// passed value is sent again.
func (x *Index) carriersHandedOnce(st *types.Named) bool {
	ok := func(v ssa.Value) bool {
		if !types.Identical(v.Type(), st) {
			return true
		}
		load, isLoad := v.(*ssa.UnOp)
		if !isLoad || load.Op != token.MUL {
			return false
		}
		alloc, isAlloc := load.X.(*ssa.Alloc)
		return isAlloc && x.builtOnce(alloc)
	}
	for _, send := range x.sends {
		if !ok(send.X) {
			return false
		}
	}
	for _, sel := range x.sendSels {
		for _, s := range sel.States {
			if s.Dir == types.SendOnly && !ok(s.Send) {
				return false
			}
		}
	}
	return true
}

// sentPerValue reports whether every send on f loads it from a value of st
// just received and read only for its fields, with at most room sends per
// value, none of which repeats without its receive.
func (x *Index) sentPerValue(f *types.Var, st *types.Named, room int) bool {
	perValue := make(map[ssa.Value]int)
	ok := true
	x.sendsOnField(f, func(instr ssa.Instruction, ch ssa.Value) {
		value, recv := receivedCarrier(ch, st)
		if recv == nil || !x.ownChannel(recv, value) || x.Loops(instr.Parent()).RepeatsWithout(instr.Block(), recv.Block()) {
			ok = false
			return
		}
		perValue[value]++
	})
	for _, n := range perValue {
		if n > room {
			return false
		}
	}
	return ok && len(perValue) > 0
}

// ownChannel reports whether the channel recv takes value from is one only
// this package can reach: made here or held in an unexported field. A
// channel of the carrier type that other packages hold could bring a value
// back a second time.
func (x *Index) ownChannel(recv ssa.Instruction, value ssa.Value) bool {
	var ch ssa.Value
	switch recv := recv.(type) {
	case *ssa.UnOp:
		ch = recv.X
	case *ssa.Select:
		ch = recvState(recv, value)
	}
	if ch == nil {
		return false
	}
	origins := x.Origins(ch)
	for _, o := range origins {
		if o.Kind != Made && (o.Kind != Field || o.Field.Exported()) {
			return false
		}
	}
	return len(origins) > 0
}

// recvState returns the channel of the select's receive case whose value
// value is (directly, or stored into the local variable value).
func recvState(sel *ssa.Select, value ssa.Value) ssa.Value {
	if alloc, ok := value.(*ssa.Alloc); ok {
		for _, ref := range nonDebug(alloc) {
			if st, ok := ref.(*ssa.Store); ok {
				value = st.Val
			}
		}
	}
	e, ok := value.(*ssa.Extract)
	if !ok || e.Tuple != sel {
		return nil
	}
	n := 2
	for _, st := range sel.States {
		if st.Dir != types.RecvOnly {
			continue
		}
		if n == e.Index {
			return st.Chan
		}
		n++
	}
	return nil
}

// receivedCarrier returns the struct value of st that a send's channel ch
// is read from, and the receive that gave it, when the value was just
// received and is used only to read its fields, and the channel read from
// it only to be sent on. The value is an SSA value (t1 = <-c; t2 = t1.f) or,
// when its address is taken, a local variable the received value is
// stored into once and never written again:
//
//	t0 = local stream (s)
//	*t0 = t5                  // t5 = extract t4 #2, t4 = select ...
//	t7 = &t0.first
//	t8 = *t7
//	send t8 <- t9
func receivedCarrier(ch ssa.Value, st *types.Named) (ssa.Value, ssa.Instruction) {
	switch ch := ch.(type) {
	case *ssa.Field:
		if !types.Identical(ch.X.Type(), st) {
			return nil, nil
		}
		if load, ok := ch.X.(*ssa.UnOp); ok && load.Op == token.MUL {
			if alloc, ok := load.X.(*ssa.Alloc); ok {
				return receivedVar(alloc, ch.Field)
			}
		}
		recv := receiveOf(ch.X)
		if recv == nil || !onlyFieldsRead(ch.X, ch.Field) {
			return nil, nil
		}
		return ch.X, recv
	case *ssa.UnOp:
		fa, ok := ch.X.(*ssa.FieldAddr)
		if ch.Op != token.MUL || !ok {
			return nil, nil
		}
		alloc, ok := fa.X.(*ssa.Alloc)
		if !ok || !types.Identical(alloc.Type().(*types.Pointer).Elem(), st) {
			return nil, nil
		}
		return receivedVar(alloc, fa.Field)
	}
	return nil, nil
}

// receivedVar returns the local variable alloc and the receive whose value
// is stored into it, when that is its one store and every other use reads
// a field, directly (&t0.f) or from a copy of the whole (t1 = *t0; t1.f),
// and the channel field (index field) is read only to be sent on.
func receivedVar(alloc *ssa.Alloc, field int) (ssa.Value, ssa.Instruction) {
	if alloc.Heap {
		return nil, nil
	}
	var recv ssa.Instruction
	for _, ref := range nonDebug(alloc) {
		switch ref := ref.(type) {
		case *ssa.Store:
			if recv != nil || ref.Addr != alloc {
				return nil, nil
			}
			if recv = receiveOf(ref.Val); recv == nil || len(nonDebug(ref.Val)) != 1 {
				return nil, nil
			}
		case *ssa.FieldAddr:
			for _, r := range nonDebug(ref) {
				load, ok := r.(*ssa.UnOp)
				if !ok || load.Op != token.MUL || ref.Field == field && !onlySentOn(load) {
					return nil, nil
				}
			}
		case *ssa.UnOp:
			if ref.Op != token.MUL || !onlyFieldsRead(ref, field) {
				return nil, nil
			}
		default:
			return nil, nil
		}
	}
	if recv == nil {
		return nil, nil
	}
	return alloc, recv
}

// onlyFieldsRead reports whether the struct value v is used only to read
// its fields, and its channel field (index field) only to be sent on: it
// is not stored, passed, sent or copied as a whole.
func onlyFieldsRead(v ssa.Value, field int) bool {
	for _, ref := range nonDebug(v) {
		f, ok := ref.(*ssa.Field)
		if !ok || f.Field == field && !onlySentOn(f) {
			return false
		}
	}
	return true
}

// receiveOf returns the receive that v is the value of: <-c, v, ok := <-c,
// or a select's receive case.
func receiveOf(v ssa.Value) ssa.Instruction {
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op == arrow && !v.CommaOk {
			return v
		}
	case *ssa.Extract:
		switch t := v.Tuple.(type) {
		case *ssa.UnOp:
			if t.Op == arrow && v.Index == 0 {
				return t
			}
		case *ssa.Select:
			if v.Index >= 2 {
				return t
			}
		}
	}
	return nil
}

// onlySentOn reports whether the channel read from a field is only sent on
// or compared: it goes nowhere else.
func onlySentOn(ch ssa.Value) bool {
	for _, ref := range nonDebug(ch) {
		switch ref := ref.(type) {
		case *ssa.Send:
			if ref.X == ch {
				return false
			}
		case *ssa.Select:
			for _, s := range ref.States {
				if s.Chan != ch && s.Send == ch {
					return false
				}
			}
		case *ssa.BinOp:
			if ref.Op != token.EQL && ref.Op != token.NEQ {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// nonDebug returns v's referrers other than debug references.
func nonDebug(v ssa.Value) []ssa.Instruction {
	var out []ssa.Instruction
	for _, ref := range *v.Referrers() {
		if _, ok := ref.(*ssa.DebugRef); !ok {
			out = append(out, ref)
		}
	}
	return out
}
