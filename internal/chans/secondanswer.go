package chans

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// A request that carries its own one-slot reply channel is answered once:
// the requester takes one value and goes on. A handler that answers a
// second time on the same request waits for a reader that never comes:
//
//	func (d *gossiper) handle(nMsg *networkMsg) {
//		d.process(nMsg)       // answers nMsg.err, or not, and returns
//		if err := d.signal(); err != nil {
//			nMsg.err <- err   // the second answer: the slot is taken
//			return
//		}
//	}

// SecondAnswer returns an answer on the same request that can come before
// send, and whether there is one. The request's unexported field holds a
// channel made with one slot for each object (freshPerObject), which no
// receive of this package reads in a loop; send is a plain send on that
// field. The earlier answer is one of two:
//
//   - in send's own run, when the request is a parameter of its function
//     (not a method's receiver: an object's own slot is SingleValue's to
//     judge) and send is outside any loop: another send on the same field
//     of the same value on every path to send, or a call handed the value
//     that answers on that field on some way through it (three calls deep
//     at most), with no branch between the call and send on what the call
//     returned;
//   - before the request was handed over, when send's function took it
//     from a channel: a function of this package that hands it on, as its
//     parameter, on that channel's field can answer it first and still
//     reach the hand-off (HandOff is then that hand-off).
func (x *Index) SecondAnswer(send *ssa.Send) (Answer, bool) {
	addr := loadedAddr(send.Chan)
	if addr == nil {
		return Answer{}, false
	}
	f := FieldOf(addr.X.Type(), addr.Field, true)
	fn := send.Parent()
	if f == nil || f.Exported() || !x.oneSlotPerObject(f) || x.readsMany(f) {
		return Answer{}, false
	}
	if q := receivedFrom(addr.X); q != nil {
		return x.answeredBeforeHandOff(q, f)
	}
	obj, ok := addr.X.(*ssa.Parameter)
	if !ok || isRecvParam(fn, obj) || x.Loops(fn).InLoop(send.Block()) {
		return Answer{}, false
	}
	for _, w := range x.answers(fn, obj, f, 3) {
		if w == ssa.Instruction(send) || !dominates(w, send) {
			continue
		}
		if call, ok := w.(*ssa.Call); ok && testedBetween(call, send) {
			continue
		}
		return Answer{First: w}, true
	}
	return Answer{}, false
}

// Answer is an earlier answer on a request (First), and, when it came
// before the request was handed to another goroutine, that hand-off.
type Answer struct {
	First      ssa.Instruction
	HandOff    ssa.Instruction
	HandOffPos token.Pos // the send's, or its select case's
}

// receivedFrom returns the field a value was received from: a plain
// receive, or a select's receive case, on a channel loaded from a field.
func receivedFrom(v ssa.Value) *types.Var {
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op == token.ARROW {
			return LoadedField(v.X)
		}
	case *ssa.Extract:
		sel, ok := v.Tuple.(*ssa.Select)
		if !ok || v.Index < 2 {
			return nil
		}
		n := v.Index - 2 // the select's results hold one value per receive case
		for _, st := range sel.States {
			if st.Dir != types.RecvOnly {
				continue
			}
			if n == 0 {
				return LoadedField(st.Chan)
			}
			n--
		}
	}
	return nil
}

// answeredBeforeHandOff returns an answer on field f of a request that a
// function of this package makes before it hands the request, its
// parameter, on a channel held in field q, where a path leads from the
// answer to the hand-off.
func (x *Index) answeredBeforeHandOff(q, f *types.Var) (Answer, bool) {
	var out Answer
	found := false
	x.sendsOnField(q, func(instr ssa.Instruction, ch ssa.Value) {
		if found {
			return
		}
		v, pos := handedValue(instr, ch)
		p, ok := v.(*ssa.Parameter)
		fn := instr.Parent()
		if !ok || isRecvParam(fn, p) || InTestFile(instr) {
			return
		}
		for _, w := range x.answers(fn, p, f, 3) {
			if flow.Reaches(w, instr) {
				out, found = Answer{First: w, HandOff: instr, HandOffPos: pos}, true
				return
			}
		}
	})
	return out, found
}

// handedValue returns the value a send, or a select's send case on ch,
// sends, and the send's position.
func handedValue(instr ssa.Instruction, ch ssa.Value) (ssa.Value, token.Pos) {
	switch i := instr.(type) {
	case *ssa.Send:
		return i.X, i.Pos()
	case *ssa.Select:
		for _, st := range i.States {
			if st.Dir == types.SendOnly && st.Chan == ch {
				return st.Send, st.Pos
			}
		}
	}
	return nil, token.NoPos
}

// oneSlotPerObject reports whether every channel stored into f is made
// with exactly one slot for the object it is stored into.
func (x *Index) oneSlotPerObject(f *types.Var) bool {
	if !x.freshPerObject(f) {
		return false
	}
	for _, mk := range x.FieldMakes(f) {
		if n, ok := constCap(mk); !ok || n != 1 {
			return false
		}
	}
	return len(x.FieldMakes(f)) > 0
}

// readsMany reports whether some receive of f in this package is in a
// loop: a reader that may take more than one answer.
func (x *Index) readsMany(f *types.Var) bool {
	for _, r := range x.FieldReceives(f) {
		if r.Func == nil || x.Loops(r.Func).InLoop(r.Instr.Block()) {
			return true
		}
	}
	return false
}

// answers returns the instructions of fn that answer on field f of obj:
// plain sends on it outside loops, and calls outside loops, handed obj,
// of functions of this package that answer on every way they return.
func (x *Index) answers(fn *ssa.Function, obj ssa.Value, f *types.Var, depth int) []ssa.Instruction {
	var out []ssa.Instruction
	loops := x.Loops(fn)
	for _, b := range fn.Blocks {
		if loops.InLoop(b) {
			continue
		}
		for _, instr := range b.Instrs {
			switch i := instr.(type) {
			case *ssa.Send:
				if addr := loadedAddr(i.Chan); addr != nil && addr.X == obj && FieldOf(addr.X.Type(), addr.Field, true) == f {
					out = append(out, i)
				}
			case *ssa.Call:
				if depth > 0 && x.mayAnswer(i, obj, f, depth-1) {
					out = append(out, i)
				}
			}
		}
	}
	return out
}

// mayAnswer reports whether call hands obj to a function of this package
// that answers on its field f on some way through it.
func (x *Index) mayAnswer(call *ssa.Call, obj ssa.Value, f *types.Var, depth int) bool {
	callee := x.Callee(call.Common())
	if callee == nil || callee.Pkg != x.pkg || len(callee.Blocks) == 0 || callee == call.Parent() {
		return false
	}
	for i, a := range call.Common().Args {
		if a == obj && i < len(callee.Params) && len(x.answers(callee, callee.Params[i], f, depth)) > 0 {
			return true
		}
	}
	return false
}

// testedBetween reports whether a branch on the way from call to instr,
// among the blocks that dominate instr, tests a value computed from the
// call's results: the caller may then reach instr only when the callee
// did not answer (if err := d.reject(m); err != nil { return }).
func testedBetween(call *ssa.Call, instr ssa.Instruction) bool {
	for b := instr.Block(); b != nil && b != call.Block(); b = b.Idom() {
		if iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok && b != instr.Block() && dependsOn(iff.Cond, call, 6) {
			return true
		}
		if b.Idom() == nil {
			return true // not dominated by the call after all
		}
	}
	if b := call.Block(); b != instr.Block() {
		if iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok && dependsOn(iff.Cond, call, 6) {
			return true
		}
	}
	return false
}

// dependsOn reports whether v is computed from call's value, within depth
// operations.
func dependsOn(v ssa.Value, call *ssa.Call, depth int) bool {
	if v == ssa.Value(call) {
		return true
	}
	instr, ok := v.(ssa.Instruction)
	if !ok || depth == 0 {
		return false
	}
	if _, ok := v.(*ssa.Phi); ok {
		return false
	}
	for _, op := range instr.Operands(nil) {
		if *op != nil && dependsOn(*op, call, depth-1) {
			return true
		}
	}
	return false
}

// isRecvParam reports whether p is the receiver of the method fn.
func isRecvParam(fn *ssa.Function, p *ssa.Parameter) bool {
	return fn.Signature.Recv() != nil && len(fn.Params) > 0 && fn.Params[0] == p
}
