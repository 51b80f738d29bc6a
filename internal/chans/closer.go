package chans

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A CloseAbandon is the proof that a send is left behind by Close: the
// channel's receivers are methods a caller calls to take a value (a Read,
// a Next), and once it has called Close it owes no more calls to them.
type CloseAbandon struct {
	Close *ssa.Function // the type's Close, which neither takes from the channel nor closes it
	Recv  Site          // one of the methods that receive
	// Ended is where the package closes the channel, when Close does
	// nothing (doesNothing): the receivers end on that close, and the
	// proof is not made.
	Ended *ssa.Call
}

// AbandonedAtClose returns the Close that strands the plain send s on an
// unexported field of a named type T, which no exported function hands
// out, when
//   - every receiver of the channel (outside tests) runs inside a
//     caller's call of an exported method of T other than Close (the
//     method, or a helper only such methods call): the channel is how T
//     hands values to its caller, one call at a time;
//   - T has a Close method in the shape of io.Closer (no parameters, no
//     result or one error), and nothing Close runs receives from the
//     field or closes it;
//   - s runs only on a goroutine the package starts (a read loop), not on
//     a caller's.
//
// A Close that only returns, beside a close of the channel elsewhere in
// the package, leaves the end of the receivers to that close: Ended names
// it, and the proof is not made (doesNothing).
//
// io.Closer's contract is that a caller done with T calls Close and then
// nothing else: a value the loop is sending when the caller closes T is
// never taken, and with the buffer full the loop waits for good.
//
//	func (c *Conn) readLoop() {
//		for {
//			...
//			c.decrypted <- data // reported: nothing Close does releases it
//		}
//	}
//	func (c *Conn) Read(p []byte) (int, error) { data := <-c.decrypted; ... }
//	func (c *Conn) Close() error { return c.next.Close() }
func (x *Index) AbandonedAtClose(s *ssa.Send, recvs []Site) (CloseAbandon, bool) {
	addr := loadedAddr(s.Chan)
	if addr == nil || len(recvs) == 0 {
		return CloseAbandon{}, false
	}
	t := derefNamed(addr.X.Type())
	if t == nil || t.Obj().Pkg() != x.pkg.Pkg {
		return CloseAbandon{}, false
	}
	closeFn := x.closeMethod(t)
	if closeFn == nil {
		return CloseAbandon{}, false
	}
	for _, r := range recvs {
		if !x.forCaller(r.Func, t, closeFn, 0) {
			return CloseAbandon{}, false
		}
	}
	f := FieldOf(addr.X.Type(), addr.Field, true)
	if f == nil || f.Exported() || x.HandedOutBy(f) != nil {
		return CloseAbandon{}, false // callers may receive from it too, out of sight
	}
	if x.touchedBy(closeFn, f) || !x.onOwnGoroutine(s.Parent(), 0) {
		return CloseAbandon{}, false
	}
	a := CloseAbandon{Close: closeFn, Recv: recvs[0]}
	if closes := x.fieldCloses[f]; len(closes) > 0 && doesNothing(closeFn) {
		a.Ended = closes[0]
	}
	return a, true
}

// doesNothing reports whether fn has no effect: it only returns
// constants. A Close like that documents that closing the value ends
// nothing; when the package closes the channel elsewhere, that close is
// what ends the receivers, and a caller of a receiving method (an Accept
// called until it fails) stops on it, not on Close.
//
//	func (l *listener) Close() error { return nil } // the mux closes l.c
func doesNothing(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.DebugRef:
			case *ssa.Return:
				for _, r := range instr.Results {
					if _, ok := r.(*ssa.Const); !ok {
						return false
					}
				}
			default:
				return false
			}
		}
	}
	return true
}

// closeMethod returns T's Close when its signature is io.Closer's, or
// takes nothing and returns nothing.
func (x *Index) closeMethod(t *types.Named) *ssa.Function {
	prog := x.pkg.Prog
	sel := prog.MethodSets.MethodSet(types.NewPointer(t)).Lookup(x.pkg.Pkg, "Close")
	if sel == nil || len(sel.Index()) != 1 {
		return nil // none, or promoted from an embedded field: another type's contract
	}
	sig := sel.Type().(*types.Signature)
	res := sig.Results()
	if sig.Params().Len() != 0 || res.Len() > 1 || res.Len() == 1 && !isError(res.At(0).Type()) {
		return nil
	}
	fn := prog.FuncValue(sel.Obj().(*types.Func))
	if fn == nil || fn.Pkg != x.pkg || len(fn.Blocks) == 0 {
		return nil
	}
	return fn
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// forCaller reports whether fn runs only inside a caller's call of one
// of t's exported methods other than Close: it is one, or a helper of
// this package that only such functions call (not start).
func (x *Index) forCaller(fn *ssa.Function, t *types.Named, closeFn *ssa.Function, depth int) bool {
	if fn == closeFn || depth > maxOnceDepth {
		return false
	}
	if exportedMethodOf(fn, t) {
		return true
	}
	runs, ok := x.directRuns(fn)
	if !ok {
		return false
	}
	for _, c := range runs {
		if _, isGo := c.(*ssa.Go); isGo || !x.forCaller(c.Parent(), t, closeFn, depth+1) {
			return false
		}
	}
	return true
}

// exportedMethodOf reports whether fn is an exported method of t or *t.
func exportedMethodOf(fn *ssa.Function, t *types.Named) bool {
	recv := fn.Signature.Recv()
	obj := fn.Object()
	return recv != nil && obj != nil && obj.Exported() && derefNamed(recv.Type()) == t
}

// touchedBy reports whether fn, or a function of the package it can run
// (a static call, a closure it makes, a goroutine it starts), receives
// from the field f or closes it: such a Close drains the channel, or
// makes a send left behind panic rather than wait.
func (x *Index) touchedBy(fn *ssa.Function, f *types.Var) bool {
	reached := x.reachedFrom(fn)
	for _, r := range x.fieldRecvs()[f] {
		if reached[r.Func] {
			return true
		}
	}
	for _, c := range x.fieldCloses[f] {
		if reached[c.Parent()] {
			return true
		}
	}
	return false
}

// maxReached bounds reachedFrom's walk; a Close that runs more is taken
// to touch everything.
const maxReached = 256

// reachedFrom returns the functions of this package that fn can run.
func (x *Index) reachedFrom(fn *ssa.Function) map[*ssa.Function]bool {
	reached := map[*ssa.Function]bool{fn: true}
	work := []*ssa.Function{fn}
	add := func(g *ssa.Function) {
		if g != nil && g.Pkg == x.pkg && !reached[g] {
			reached[g] = true
			work = append(work, g)
		}
	}
	for len(work) > 0 && len(reached) < maxReached {
		g := work[len(work)-1]
		work = work[:len(work)-1]
		for _, anon := range g.AnonFuncs {
			add(anon)
		}
		for _, b := range g.Blocks {
			for _, instr := range b.Instrs {
				if c, ok := instr.(ssa.CallInstruction); ok {
					add(c.Common().StaticCallee())
				}
			}
		}
	}
	if len(reached) >= maxReached {
		for _, g := range x.funcs {
			reached[g] = true
		}
	}
	return reached
}

// onOwnGoroutine reports whether fn runs only on goroutines this package
// starts: each of its entries is a go statement that starts it, or a call
// from a function that itself runs only there. An exported function, or
// one whose callers are not all known, may run on a caller's goroutine.
func (x *Index) onOwnGoroutine(fn *ssa.Function, depth int) bool {
	if depth > maxOnceDepth {
		return false
	}
	runs, ok := x.directRuns(fn)
	if !ok {
		return false
	}
	for _, c := range runs {
		if _, isGo := c.(*ssa.Go); !isGo && !x.onOwnGoroutine(c.Parent(), depth+1) {
			return false
		}
	}
	return true
}

// directRuns returns the calls and go statements that run fn, when they
// are all the ways it runs and each names fn as its callee: ok is false
// for an exported function, one whose callers are not all known, one
// never run here, or a literal handed to a call that runs it later,
// where the index does not follow.
func (x *Index) directRuns(fn *ssa.Function) ([]ssa.CallInstruction, bool) {
	var entries []ssa.Instruction
	if fn.Parent() == nil {
		sites, ok := x.callers(fn)
		if !ok {
			return nil, false
		}
		for _, s := range sites {
			entries = append(entries, s)
		}
	} else {
		var ok bool
		if entries, ok = x.entries(fn); !ok {
			return nil, false
		}
	}
	runs := make([]ssa.CallInstruction, 0, len(entries))
	for _, e := range entries {
		c, ok := e.(ssa.CallInstruction)
		if !ok || c.Common().StaticCallee() != fn {
			return nil, false
		}
		runs = append(runs, c)
	}
	return runs, len(runs) > 0
}
