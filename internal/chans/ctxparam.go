package chans

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// CtxIgnored returns where the function that holds the channel parameter
// p gives up on the context its caller hands it, when the send at instr on
// p does not:
//
//	func (d *Discovery) Run(ctx context.Context, ch chan<- []*Group) {
//		for {
//			ch <- d.refresh() // reported: the caller stops reading once ctx is done
//			select {
//			case <-ctx.Done(): // returned
//				return
//			case <-ticker.C:
//			}
//		}
//	}
//
// The caller hands in both the channel and the context, and the function
// shows it takes the context's end as its own (it receives ctx.Done(),
// or the Done of a context made from ctx). A caller that cancels stops
// reading, so a send that keeps coming, in a loop of the function or of a
// literal in it, waits for good. A function that closes the channel tells
// its caller to read until then, and is not reported.
func (x *Index) CtxIgnored(p *ssa.Parameter, instr ssa.Instruction) ssa.Instruction {
	fn := p.Parent()
	if fn == nil || !nestedIn(instr.Parent(), fn) {
		return nil
	}
	if x.Loops(instr.Parent()).Innermost(instr.Block()) == nil {
		return nil
	}
	var ctxs []*ssa.Parameter
	for _, q := range fn.Params {
		if isContext(q.Type()) {
			ctxs = append(ctxs, q)
		}
	}
	if len(ctxs) == 0 {
		return nil
	}
	var watch ssa.Instruction
	for _, g := range withLiterals(fn) {
		for _, b := range g.Blocks {
			for _, in := range b.Instrs {
				if closes(in, p) {
					return nil
				}
				if watch == nil && receivesWhere(in, func(ch ssa.Value) bool { return doneOfAny(ch, ctxs) }) {
					watch = in
				}
			}
		}
	}
	return watch
}

// withLiterals returns fn and the function literals written in it, at any
// depth.
func withLiterals(fn *ssa.Function) []*ssa.Function {
	out := []*ssa.Function{fn}
	for i := 0; i < len(out); i++ {
		out = append(out, out[i].AnonFuncs...)
	}
	return out
}

// receivesWhere reports whether instr receives, alone or as a case of a
// select, from a channel ok accepts.
func receivesWhere(instr ssa.Instruction, ok func(ch ssa.Value) bool) bool {
	switch in := instr.(type) {
	case *ssa.UnOp:
		return in.Op == arrow && ok(in.X)
	case *ssa.Select:
		for _, st := range in.States {
			if st.Dir == types.RecvOnly && ok(st.Chan) {
				return true
			}
		}
	}
	return false
}

// doneOfAny reports whether ch is the Done of one of ctxs or of a context
// derived from one (context.WithCancel(ctx) and the like).
func doneOfAny(ch ssa.Value, ctxs []*ssa.Parameter) bool {
	ctx := DoneOf(ch)
	for range maxDepth {
		if ctx == nil {
			return false
		}
		for _, q := range ctxs {
			if SameValue(ctx, q) {
				return true
			}
		}
		ctx = parentContext(ctx)
	}
	return false
}

// parentContext returns the context v was derived from by one of the
// context package's With functions, or nil.
func parentContext(v ssa.Value) ssa.Value {
	if e, ok := v.(*ssa.Extract); ok {
		v = e.Tuple
	}
	c, ok := v.(*ssa.Call)
	if !ok || len(c.Call.Args) == 0 ||
		!isContextFunc(c.Call.StaticCallee(), "WithCancel", "WithCancelCause", "WithTimeout", "WithTimeoutCause", "WithDeadline", "WithDeadlineCause", "WithValue") {
		return nil
	}
	return c.Call.Args[0]
}

// closes reports whether instr closes ch, now or, deferred, on the way out.
func closes(instr ssa.Instruction, ch ssa.Value) bool {
	call, ok := instr.(ssa.CallInstruction)
	if !ok {
		return false
	}
	return isClose(call) && len(call.Common().Args) == 1 && SameValue(call.Common().Args[0], ch)
}

// ObjectCtxIgnored returns where the function that sends on the channel
// kept in field f of an object gives up on the context kept in another
// field of that same object, when the send at instr, in a loop of that
// function, does not:
//
//	func (c *controller) loop() {
//		for {
//			select {
//			case <-c.ctx.Done(): // returned
//				return
//			case <-c.timer.C:
//				c.next <- struct{}{} // reported: Next's callers stop at c.Done()
//			}
//		}
//	}
//
// The loop takes the context's end as its own end, and whoever reads the
// channel outside the package can stop reading at that end too, so a send
// that keeps coming waits for good. A channel the package closes is read
// until it is closed, and is not reported.
func (x *Index) ObjectCtxIgnored(instr ssa.Instruction, ch ssa.Value, f *types.Var) ssa.Instruction {
	base, _, ok := FieldLoad(ch)
	if !ok || f == nil || len(x.allCloses(f)) > 0 {
		return nil
	}
	fn := instr.Parent()
	if x.Loops(fn).Innermost(instr.Block()) == nil {
		return nil
	}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if receivesWhere(in, func(ch ssa.Value) bool { return objectDone(ch, base) }) {
				return in
			}
		}
	}
	return nil
}

// objectDone reports whether ch is the Done of a context kept in a field
// of base.
func objectDone(ch, base ssa.Value) bool {
	ctx := DoneOf(ch)
	if ctx == nil {
		return false
	}
	b, _, ok := FieldLoad(ctx)
	return ok && SameValue(b, base)
}
