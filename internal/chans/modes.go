package chans

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A worker may run in one of two modes, chosen by the same question asked
// of the object that holds the channel: its dispatcher, in one mode,
// drains the channel until it is closed, and in the other gives up on a
// stop; its senders, in the first mode, send bare, and in the other
// select on the same stop.
//
//	func (w *worker) dispatch() {
//		if w.draining() {
//			for t := range w.tasks { ... }   // stops only at the close
//			return
//		}
//		for {
//			select {
//			case <-w.stop:                    // the receiver that gives up
//				return
//			case t := <-w.tasks: ...
//			}
//		}
//	}
//	func (w *worker) poll(t task) {
//		if w.draining() {
//			w.tasks <- t                      // runs only in the other mode
//		} else { ... }
//	}
//
// The receiver that gives up is not the one the bare send waits for,
// unless the answer changes between the two questions, which the pass
// cannot see.

// OtherMode says why the receiver r need not be running when the send on
// ch is made, or returns "": the send runs only on one outcome of a
// question asked of the object whose field ch is (a method called on it
// alone, or a boolean field of it), and r only on the other outcome of
// the same question asked of the object r receives from.
func (x *Index) OtherMode(r Site, send ssa.Instruction, ch ssa.Value) string {
	base, field, ok := fieldBase(ch)
	if !ok {
		return ""
	}
	rbase, rfield, ok := fieldBase(RecvChan(r))
	if !ok || rfield != field {
		return ""
	}
	for _, q := range questions(send.Block(), base) {
		for _, rq := range questions(r.Instr.Block(), rbase) {
			if rq.key == q.key && rq.outcome != q.outcome {
				return "the send runs only when " + q.name + " is " + bool2s(q.outcome) +
					", and its receiver gives up here only when it is " + bool2s(rq.outcome) +
					"; that the answer cannot change in between is not shown"
			}
		}
	}
	return ""
}

// fieldBase returns the object whose field ch is loaded from, and the
// field's index.
func fieldBase(ch ssa.Value) (ssa.Value, *types.Var, bool) {
	load, ok := ch.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, nil, false
	}
	addr, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil, nil, false
	}
	f := FieldOf(addr.X.Type(), addr.Field, true)
	return addr.X, f, f != nil
}

// question is one condition, asked of an object, that decides whether a
// block runs: its key (the method called or the field loaded), its name
// and the outcome on which the block runs.
type question struct {
	key     any
	name    string
	outcome bool
}

// questions returns the conditions on base that decide whether b runs:
// the branches of the blocks that dominate b, on a call of a method
// whose only argument is base, or on a load of a boolean field of base.
func questions(b *ssa.BasicBlock, base ssa.Value) []question {
	var out []question
	for d := b.Idom(); d != nil; d = d.Idom() {
		cond, ok := branch(d)
		if !ok {
			continue
		}
		v, negated := unNot(cond.Cond)
		outcome := !negated
		switch {
		case d.Succs[0].Dominates(b):
		case d.Succs[1].Dominates(b):
			outcome = !outcome
		default:
			continue
		}
		if key, name, ok := askedOf(v, base); ok {
			out = append(out, question{key: key, name: name, outcome: outcome})
		}
	}
	return out
}

// askedOf reports whether v is a question asked of base: a static call
// whose one argument is base, or a load of a field of base.
func askedOf(v ssa.Value, base ssa.Value) (key any, name string, ok bool) {
	switch v := v.(type) {
	case *ssa.Call:
		callee := v.Call.StaticCallee()
		if callee == nil || len(v.Call.Args) != 1 || !SameValue(v.Call.Args[0], base) {
			return nil, "", false
		}
		return callee, funcName(callee), true
	case *ssa.UnOp:
		addr, isAddr := v.X.(*ssa.FieldAddr)
		if v.Op != token.MUL || !isAddr || !SameValue(addr.X, base) {
			return nil, "", false
		}
		f := FieldOf(addr.X.Type(), addr.Field, true)
		return f, pathName(addr), f != nil
	}
	return nil, "", false
}

func bool2s(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
