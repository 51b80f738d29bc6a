package chans

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// RoomCounted reports whether send, in a goroutine's loop, puts no more
// values into a fresh struct's channel than were free when the goroutine's
// maker counted the room:
//
//	b := &batch{msgs: make(chan *Msg, n)}
//	for len(b.msgs) < n { b.msgs <- next() }  // the maker fills some
//	room := n - len(b.msgs)
//	go func() {
//		for sent := 0; sent < room; {
//			...
//			b.msgs <- m
//			sent++
//		}
//	}()
//
// The loop runs while a counter is below the room, and the counter goes up
// in the send's own block, so each trip sends at most one value and the
// loop at most room values. No other code sends into that struct's
// channel after the room is counted: the maker's sends come before it,
// the goroutine's one send is this one, and no load of the field hands
// the channel out for sending (a Messages() <-chan accessor only lets
// callers receive). The buffer then never holds more than its capacity.
func (x *Index) RoomCounted(send *ssa.Send) bool {
	base, field, ok := FieldLoad(send.Chan)
	lit := fieldAlloc(send.Chan)
	if !ok || lit == nil {
		return false
	}
	g, owner := send.Parent(), lit.Parent()
	if g.Parent() != owner {
		return false // the sender is not a literal of the struct's maker
	}
	room, ok := x.countedLoop(send)
	if !ok {
		return false
	}
	counted, ok := roomOf(room, base, field, lit)
	if !ok {
		return false
	}
	return x.onlySender(send, lit, field, counted)
}

// countedLoop returns the bound of the one loop around send when the loop
// runs while a counter is below it and the counter is stepped by one in
// send's block:
//
//	loop: t1 = phi [entry: 0, inc: t5, other: t1]; t2 = t1 < room; if t2 ...
//	inc:  send ...; t5 = t1 + 1
func (x *Index) countedLoop(send *ssa.Send) (ssa.Value, bool) {
	loops := x.Loops(send.Parent())
	l := loops.Innermost(send.Block())
	if l == nil || loops.Depth(send.Block()) != 1 {
		return nil, false
	}
	test := flow.BoundTest(l) // trips that send nothing are checked below
	if test == nil {
		return nil, false
	}
	bound := test.Cond.(*ssa.BinOp).Y
	counter, ok := test.Cond.(*ssa.BinOp).X.(*ssa.Phi)
	if !ok || counter.Block() != l.Header {
		return nil, false
	}
	stepped := false
	for i, in := range counter.Edges {
		pred := l.Header.Preds[i]
		if !l.Blocks[pred] {
			continue // the entry value
		}
		switch {
		case in == counter:
			// a trip that sends nothing
		case isStep(in, counter) && in.(ssa.Instruction).Block() == send.Block():
			stepped = true
		default:
			return nil, false
		}
	}
	_, f, _ := FieldLoad(send.Chan)
	if !stepped || sendsInBlock(send.Block(), f) != 1 {
		return nil, false // one step per trip must mean one value
	}
	return bound, true
}

// sendsInBlock counts the sends in b on loads of field f.
func sendsInBlock(b *ssa.BasicBlock, f int) int {
	n := 0
	for _, instr := range b.Instrs {
		if s, ok := instr.(*ssa.Send); ok {
			if _, sf, ok := FieldLoad(s.Chan); ok && sf == f {
				n++
			}
		}
	}
	return n
}

// isStep reports whether v is counter + 1.
func isStep(v ssa.Value, counter *ssa.Phi) bool {
	add, ok := v.(*ssa.BinOp)
	return ok && add.Op == token.ADD && add.X == counter && isConst(add.Y, 1)
}

func isConst(v ssa.Value, k int64) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Int64() == k
}

// roomOf matches the loop's bound against n - len(b.f), the free room of
// the field f of the literal lit, with n the capacity its channel was
// made with, and returns the len call.
func roomOf(bound, base ssa.Value, f int, lit *ssa.Alloc) (*ssa.Call, bool) {
	if load, ok := bound.(*ssa.UnOp); ok && load.Op == token.MUL {
		fv, ok := load.X.(*ssa.FreeVar)
		if !ok || storedThrough(fv) {
			return nil, false
		}
		cell, ok := boundValue(fv).(*ssa.Alloc)
		if !ok {
			return nil, false
		}
		bound = StoredOnce(cell)
	}
	sub, ok := bound.(*ssa.BinOp)
	if !ok || sub.Op != token.SUB {
		return nil, false
	}
	length, ok := sub.Y.(*ssa.Call)
	if !ok || !IsLen(length) {
		return nil, false
	}
	if fieldAlloc(length.Call.Args[0]) != lit {
		return nil, false
	}
	if _, lf, _ := FieldLoad(length.Call.Args[0]); lf != f {
		return nil, false
	}
	mk := madeInto(lit, f)
	return length, mk != nil && SameValue(mk.Size, sub.X)
}

// StoredOnce returns the value of the one store into the variable cell.
func StoredOnce(cell *ssa.Alloc) ssa.Value {
	var v ssa.Value
	for _, ref := range *cell.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == cell {
			if v != nil {
				return nil
			}
			v = st.Val
		}
	}
	return v
}

// madeInto returns the channel made and stored into field f of the
// literal lit, when there is one store and it is a make.
func madeInto(lit *ssa.Alloc, f int) *ssa.MakeChan {
	var mk *ssa.MakeChan
	for _, ref := range *lit.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.Field != f {
			continue
		}
		for _, use := range *fa.Referrers() {
			if st, ok := use.(*ssa.Store); ok && st.Addr == fa {
				m, ok := st.Val.(*ssa.MakeChan)
				if !ok || mk != nil {
					return nil
				}
				mk = m
			}
		}
	}
	return mk
}

// onlySender reports whether send is the one send into field f of lit
// after counted, the len call that measured the room: every other send on
// the field of that literal is its maker's and comes before counted, and
// no load of the field, of any struct, lets the channel out for sending.
func (x *Index) onlySender(send *ssa.Send, lit *ssa.Alloc, f int, counted *ssa.Call) bool {
	st := structOf(lit)
	for _, fn := range x.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				fa, ok := instr.(*ssa.FieldAddr)
				if !ok || fa.Field != f || structOfPtr(fa.X.Type()) != st {
					continue
				}
				if !fieldLoadsOK(fa, send, lit, counted) {
					return false
				}
			}
		}
	}
	return true
}

// fieldLoadsOK checks the uses of one address of the field: stores of the
// make, and loads that are received from, measured, closed, sent on (the
// counted send, or the maker's before the count) or narrowed to a receive
// only channel.
func fieldLoadsOK(fa *ssa.FieldAddr, send *ssa.Send, lit *ssa.Alloc, counted *ssa.Call) bool {
	for _, ref := range *fa.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef, *ssa.Store:
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
			for _, use := range *r.Referrers() {
				if !loadUseOK(use, r, send, lit, counted) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

func loadUseOK(use ssa.Instruction, load *ssa.UnOp, send *ssa.Send, lit *ssa.Alloc, counted *ssa.Call) bool {
	switch u := use.(type) {
	case *ssa.DebugRef:
		return true
	case *ssa.Send:
		switch a := fieldAlloc(load); {
		case u.Chan != load:
			return false // the channel itself is sent away
		case u == send || a != nil && a != lit:
			return true // the counted send, or another literal's channel
		case a == lit:
			return u.Parent() == counted.Parent() && !flow.Reaches(counted, u)
		}
		return false // a struct the IR does not name may be this one
	case *ssa.UnOp:
		return u.Op == token.ARROW
	case *ssa.Select:
		for _, st := range u.States {
			if st.Chan == load && st.Dir == types.SendOnly {
				return false
			}
		}
		return true
	case ssa.CallInstruction: // a call or a deferred one
		b, ok := u.Common().Value.(*ssa.Builtin)
		return ok && (b.Name() == "len" || b.Name() == "cap" || b.Name() == "close")
	case *ssa.ChangeType:
		ch, ok := u.Type().Underlying().(*types.Chan)
		return ok && ch.Dir() == types.RecvOnly
	}
	return false
}

func structOf(lit *ssa.Alloc) types.Type {
	return lit.Type().Underlying().(*types.Pointer).Elem()
}

func structOfPtr(t types.Type) types.Type {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	return p.Elem()
}
