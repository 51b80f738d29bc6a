package chans

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// FreshField reports whether send puts a value into the channel of a
// struct the same function just made with room for it: the channel was made
// and stored into the new struct's field, neither the struct nor the
// channel has been handed to anyone before the send, and either the
// capacity is a constant n and the function's sends on that field up to
// this one number at most n, none in a loop, or the send follows a test
// that the channel holds fewer values than its capacity (lenGuarded).
//
//	w := &watcher{eventChan: make(chan *Event, 100)}  // t0 = new watcher (complit)
//	w.eventChan <- first                              // cannot block
//	hub.add(w)                                        // others see w from here on
func (x *Index) FreshField(send *ssa.Send) bool {
	base, field, ok := FieldLoad(send.Chan)
	if !ok {
		return false
	}
	alloc, cell := freshStruct(base)
	if alloc == nil || alloc.Parent() != send.Parent() {
		return false
	}
	var c freshCount
	for _, ref := range *alloc.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.FieldAddr:
			if !x.freshFieldUse(r, field, send, &c) {
				return false
			}
		case *ssa.Store:
			if r.Addr != cell && flow.Reaches(r, send) {
				return false // stored elsewhere before the send
			}
		default:
			if flow.Reaches(r, send) && !x.keptToItself(r, alloc, field, keepDepth) {
				return false // the struct escaped before the send
			}
		}
	}
	if cell != nil && !x.freshCell(cell, alloc, field, send, &c) {
		return false
	}
	if c.stores != 1 {
		return false
	}
	if lenGuarded(send, c.make) {
		return true // it finds room: nobody else can have filled it
	}
	k := 0 // the sends that can come before this one, and this one
	for _, s := range c.sends {
		if s == send || flow.Reaches(s, send) {
			if c.looped[s] {
				return false // a loop's sends cannot be counted
			}
			k++
		}
	}
	return k > 0 && k <= c.capacity
}

// keepDepth bounds how deep keptToItself follows the struct through
// calls: a constructor's helpers, and theirs.
const keepDepth = 3

// keptToItself reports whether the use instr of the new struct v is a
// call that cannot reach its channel field: a call of a function of this
// package that touches only other fields of its parameter and hands it on
// only to such calls. A constructor's t.resetThresholds() before the
// first send leaves the channel to the send alone.
func (x *Index) keptToItself(instr ssa.Instruction, v ssa.Value, field, depth int) bool {
	call, ok := instr.(*ssa.Call)
	if !ok || depth == 0 {
		return false
	}
	callee := call.Call.StaticCallee()
	if callee == nil || callee.Pkg != x.pkg || len(callee.Blocks) == 0 {
		return false
	}
	for i, arg := range call.Call.Args {
		if arg == v && !x.paramKept(callee.Params[i], field, depth) {
			return false
		}
	}
	return call.Call.Value != v
}

// paramKept reports whether fn's parameter p, a pointer to the new
// struct, is used only to reach fields other than field, and is handed
// only to calls that keep it so too.
func (x *Index) paramKept(p *ssa.Parameter, field, depth int) bool {
	for _, ref := range *p.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.FieldAddr:
			if r.Field == field {
				return false
			}
		default:
			if !x.keptToItself(r, p, field, depth-1) {
				return false
			}
		}
	}
	return true
}

// freshStruct returns the new struct a field is loaded from: the
// composite literal itself, or the literal kept in a variable that a
// closure captures, which the IR spells as a load of the variable:
//
//	t16 = new *watcher (w)          // the variable w, captured later
//	t17 = new watcher (complit)
//	*t16 = t17
//	t40 = *t16; t41 = &t40.eventChan [#0]
func freshStruct(base ssa.Value) (alloc, cell *ssa.Alloc) {
	if a, ok := base.(*ssa.Alloc); ok {
		return a, nil
	}
	load, ok := base.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, nil
	}
	cell, ok = load.X.(*ssa.Alloc)
	if !ok {
		return nil, nil
	}
	for _, ref := range *cell.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == cell {
			if a, ok := st.Val.(*ssa.Alloc); ok && alloc == nil {
				alloc = a
				continue
			}
			return nil, nil // the variable is assigned more than once
		}
	}
	return alloc, cell
}

// freshCell checks the uses of the variable that holds the new struct:
// loads whose field addresses are checked like the struct's own, and
// nothing else (a closure capturing it, say) before the send.
func (x *Index) freshCell(cell, alloc *ssa.Alloc, field int, send *ssa.Send, c *freshCount) bool {
	for _, ref := range *cell.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef, *ssa.Store:
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
			for _, use := range *r.Referrers() {
				switch u := use.(type) {
				case *ssa.DebugRef:
				case *ssa.FieldAddr:
					if !x.freshFieldUse(u, field, send, c) {
						return false
					}
				default:
					if flow.Reaches(u, send) {
						return false
					}
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

// freshCount tallies the uses of the new struct's channel field.
type freshCount struct {
	stores, capacity int
	make             *ssa.MakeChan
	sends            []*ssa.Send
	looped           map[*ssa.Send]bool // sends in a loop
}

// freshFieldUse checks one field address of the new struct: the store of
// the made channel before the send, the loads the function sends on, and
// nothing else that reaches the send.
func (x *Index) freshFieldUse(fa *ssa.FieldAddr, field int, send *ssa.Send, c *freshCount) bool {
	if fa.Field != field {
		return true
	}
	loops := x.Loops(send.Parent())
	for _, ref := range *fa.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			mk, ok := r.Val.(*ssa.MakeChan)
			if !ok || r.Addr != fa {
				return false
			}
			if !flow.Reaches(r, send) {
				return false
			}
			c.stores++
			c.make = mk
			c.capacity, _ = constCap(mk)
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
			for _, use := range *r.Referrers() {
				s, ok := use.(*ssa.Send)
				if _, dbg := use.(*ssa.DebugRef); dbg || isLenOrCap(use) {
					continue // len(w.ch) hands the channel to no one
				}
				if !ok || s.Chan != r {
					if flow.Reaches(use, send) {
						return false // the channel escaped before the send
					}
					continue
				}
				if loops.InLoop(s.Block()) {
					if c.looped == nil {
						c.looped = make(map[*ssa.Send]bool)
					}
					c.looped[s] = true
				}
				c.sends = append(c.sends, s)
			}
		default:
			if flow.Reaches(r, send) {
				return false
			}
		}
	}
	return true
}

// FieldLoad matches t2 = *t1 where t1 = &base.field.
func FieldLoad(v ssa.Value) (base ssa.Value, field int, ok bool) {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, 0, false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil, 0, false
	}
	return fa.X, fa.Field, true
}

// JustStored reports whether send is the first send on a buffered channel
// its own block just made and stored into the field it sends on, with
// nothing between the store and the send that could run other code:
//
//	pconn.availch = make(chan struct{}, 1)  // t5 = make chan struct{} 1:int; *t4 = t5
//	pconn.availch <- struct{}{}             // t7 = *t6 (t6 = &t3.availch); send t7 <- {}
//
// The buffer is empty at the store, so the send finds room. A receiver
// that a closure captures is loaded anew from its cell for each use, and
// two loads of one cell with no store to it between are one object:
//
//	t29 = *t0; *(&t29.buffer) = t30   // t0 = new *T (t)
//	t32 = *t0; t34 = *(&t32.buffer); send t34 <- t45
func JustStored(send *ssa.Send) bool {
	base, field, ok := FieldLoad(send.Chan)
	if !ok {
		return false
	}
	cell := loadedFrom(base)
	b := send.Block()
	for i := flow.IndexOf(send) - 1; i >= 0; i-- {
		switch in := b.Instrs[i].(type) {
		case ssa.CallInstruction, *ssa.Send, *ssa.Select:
			return false
		case *ssa.Store:
			if cell != nil && in.Addr == cell {
				return false // the variable now holds another object
			}
			fa, ok := in.Addr.(*ssa.FieldAddr)
			if !ok || fa.Field != field || fa.X != base && (cell == nil || loadedFrom(fa.X) != cell) {
				continue
			}
			mk, ok := in.Val.(*ssa.MakeChan)
			return ok && ConstCap(mk) >= 1
		}
	}
	return false
}

// loadedFrom returns the cell v is loaded from (v = *cell), or nil.
func loadedFrom(v ssa.Value) ssa.Value {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		return load.X
	}
	return nil
}

// isLenOrCap reports whether instr is a call of the builtin len or cap.
func isLenOrCap(instr ssa.Instruction) bool {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return false
	}
	b, ok := call.Call.Value.(*ssa.Builtin)
	return ok && (b.Name() == "len" || b.Name() == "cap")
}

// lenGuarded reports whether send runs only after a test, in its own
// function, that the channel holds fewer values than mk made room for,
// with no other send on it between the test and this one:
//
//	for more && len(b.msgs) < batch {  // b.msgs = make(chan *Msg, batch)
//		b.msgs <- next()
//	}
//
// On a channel nobody else has yet, the send then finds room.
func lenGuarded(send *ssa.Send, mk *ssa.MakeChan) bool {
	if mk == nil {
		return false
	}
	base, field, _ := FieldLoad(send.Chan)
	for _, b := range send.Parent().Blocks {
		iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok || b == send.Block() || !b.Dominates(send.Block()) {
			continue
		}
		lt, ok := iff.Cond.(*ssa.BinOp)
		if !ok || lt.Op != token.LSS || !b.Succs[0].Dominates(send.Block()) || !SameValue(lt.Y, mk.Size) {
			continue
		}
		call, ok := lt.X.(*ssa.Call)
		if !ok || !IsLen(call) {
			continue
		}
		if cb, cf, ok := FieldLoad(call.Call.Args[0]); ok && cf == field && SameValue(cb, base) && !sendsBetween(b, b.Succs[0], send) {
			return true
		}
	}
	return false
}

// sendsBetween reports whether a send on the same field as send can run
// after the test's true edge into from and before send, without the test
// running again: the test made room for one value.
func sendsBetween(test, from *ssa.BasicBlock, send *ssa.Send) bool {
	_, field, _ := FieldLoad(send.Chan)
	seen := map[*ssa.BasicBlock]bool{test: true}
	stack := []*ssa.BasicBlock{from}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		for _, instr := range b.Instrs {
			if instr == send {
				break // the rest of the block comes after the send
			}
			if s, ok := instr.(*ssa.Send); ok {
				if _, f, ok := FieldLoad(s.Chan); ok && f == field {
					return true
				}
			}
		}
		if b != send.Block() {
			stack = append(stack, b.Succs...)
		}
	}
	return false
}
