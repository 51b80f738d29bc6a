package chans

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// OncePerCall reports whether the send at instr runs at most once for each
// call a user of the package makes: it is not in a loop of its function,
// and every chain of calls in this package that reaches that function
// starts at an exported function or method, through call sites that are
// neither go statements nor in loops. A send that a goroutine of the
// package makes, or that a loop repeats, can fill any buffer by itself
// once the receiver is gone; one made once per call fills it only as fast
// as users keep calling.
//
//	func (w *Mark) Done(i uint64) { w.marks <- mark{i, true} }  // once per call
//	func (s *stream) recvLoop() { for { ...; s.out <- resp } }  // not
//
// The count is per channel instance: a send on a field of the method's
// receiver, called in a loop on a new receiver each trip (a consumer that
// seeks each of its partitions), makes one send into each instance. In
// code that ships, calls from test files are not users' calls.
func (x *Index) OncePerCall(instr ssa.Instruction) bool {
	if flow.Reaches(instr, instr) {
		return false
	}
	send, ok := instr.(*ssa.Send)
	perInstance := ok && onReceiverField(send.Chan, instr.Parent())
	return x.calledPerCall(instr.Parent(), perInstance, !InTestFile(instr), 0)
}

// calledPerCall reports whether fn runs at most once per call of the
// package's users (see OncePerCall); perInstance is set while the
// channel is a field of fn's receiver.
func (x *Index) calledPerCall(fn *ssa.Function, perInstance, shipped bool, depth int) bool {
	if depth > maxDepth {
		return false
	}
	sites, ok := x.callSites(fn)
	if !ok {
		return false
	}
	for _, s := range sites {
		if shipped && InTestFile(s) {
			continue
		}
		if _, isGo := s.(*ssa.Go); isGo {
			return false
		}
		next := perInstance && passesReceiver(s)
		if flow.Reaches(s, s) {
			if !perInstance || !x.newReceiverEachTrip(s) {
				return false
			}
			next = false // a loop above may come back to the same receivers
		}
		if !x.calledPerCall(s.Parent(), next, shipped, depth+1) {
			return false
		}
	}
	return true
}

// onReceiverField reports whether ch is loaded from a field of fn's
// receiver: pc.eventsCh in a method of pc.
func onReceiverField(ch ssa.Value, fn *ssa.Function) bool {
	fa := loadedAddr(ch)
	return fa != nil && isReceiver(fa.X, fn)
}

// isReceiver reports whether v is the receiver of the method fn.
func isReceiver(v ssa.Value, fn *ssa.Function) bool {
	return fn.Signature.Recv() != nil && len(fn.Params) > 0 && v == fn.Params[0]
}

// receiverOf returns the receiver a static method call passes, or nil.
func receiverOf(s ssa.CallInstruction) ssa.Value {
	c := s.Common()
	if callee := c.StaticCallee(); callee == nil || callee.Signature.Recv() == nil || len(c.Args) == 0 {
		return nil
	}
	return c.Args[0]
}

// passesReceiver reports whether the method call s hands on the caller's
// own receiver: the channel stays a field of the caller's receiver.
func passesReceiver(s ssa.CallInstruction) bool {
	r := receiverOf(s)
	return r != nil && isReceiver(r, s.Parent())
}

// newReceiverEachTrip reports whether the method call s, in a loop, is
// made on a receiver that the loop takes anew on each trip.
func (x *Index) newReceiverEachTrip(s ssa.CallInstruction) bool {
	r := receiverOf(s)
	l := x.Loops(s.Parent()).Innermost(s.Block())
	return r != nil && l != nil && flow.Varies(r, l)
}

// callSites returns the calls of fn in this package, direct or through an
// interface, when they are all in sight; for an exported function or
// method, the package's own calls, its users' being out of sight and each
// one call. A method value or expression (go s.loop, T.m) hides its
// calls.
func (x *Index) callSites(fn *ssa.Function) ([]ssa.CallInstruction, bool) {
	obj := fn.Object()
	if fn.Parent() != nil || obj == nil {
		sites, ok := x.callers(fn) // a closure: only called, never handed on
		return sites, ok && len(sites) > 0
	}
	if fn.Pkg != x.pkg || x.escaped[fn] || x.bound[obj] || x.thunked[obj] ||
		fn.TypeParams().Len() > 0 || fn.Signature.Recv() != nil && isGenericRecv(fn) {
		return nil, false
	}
	sites := append(x.invokesOf(fn), x.calls[fn]...)
	if len(sites) == 0 && obj.Exported() && internalCallback(fn) {
		return nil, false // called back by another package's code, not by users
	}
	return sites, obj.Exported() || len(sites) > 0
}

// internalCallback reports whether fn is an exported method of an
// unexported type that implements an interface of an internal package
// this package imports, under that method's name: a handler the internal
// package calls back (a connection telling its consumers it closed).
// Users cannot name the type, so they do not call the method directly;
// the internal package's goroutines do, as often as their own events
// come, whatever the users have stopped.
func internalCallback(fn *ssa.Function) bool {
	recv := fn.Signature.Recv()
	if recv == nil {
		return false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := t.(*types.Named)
	if !ok || named.Obj().Exported() {
		return false
	}
	ptr := types.NewPointer(named)
	for _, imp := range fn.Pkg.Pkg.Imports() {
		if !isInternal(imp.Path()) {
			continue
		}
		scope := imp.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || !tn.Exported() {
				continue
			}
			iface, ok := tn.Type().Underlying().(*types.Interface)
			if !ok || iface.Empty() || !types.Implements(ptr, iface) {
				continue
			}
			for i := 0; i < iface.NumMethods(); i++ {
				if iface.Method(i).Name() == fn.Name() {
					return true
				}
			}
		}
	}
	return false
}

// isInternal reports whether an import path names an internal package,
// which only its parent's tree may import.
func isInternal(path string) bool {
	return path == "internal" || strings.HasPrefix(path, "internal/") ||
		strings.HasSuffix(path, "/internal") || strings.Contains(path, "/internal/")
}

// invokedAs reports whether a call through an interface in this package
// may run the method fn: a call of its name whose method has its
// signature, receivers aside, or one on a value of a type parameter,
// whose method the pass does not resolve. A method of another signature
// is not in the interface's method set under that name, so no such call
// runs it: a stream's read(out chan<- string) is not what codec.read()
// calls.
func (x *Index) invokedAs(fn *ssa.Function) bool {
	for _, call := range x.invokes[fn.Name()] {
		cc := call.Common()
		if isTypeParam(cc.Value.Type()) || types.Identical(cc.Method.Type(), fn.Signature) {
			return true
		}
	}
	return false
}

// invokesOf returns the interface method calls of this package that may
// run the method fn: those of its name whose method has its signature.
// ctx.Done() never runs a Done(uint64).
func (x *Index) invokesOf(fn *ssa.Function) []ssa.CallInstruction {
	if fn.Signature.Recv() == nil {
		return nil
	}
	var out []ssa.CallInstruction
	for _, call := range x.invokes[fn.Object().Name()] {
		if types.Identical(call.Common().Method.Type(), fn.Signature) {
			out = append(out, call)
		}
	}
	return out
}

// StopsOnlyWhenSignalled reports whether the receiver r stops only when
// its owner tells it to: each return of its function that r can reach
// follows a case of a select on a stop channel of another value than r's
// own (a field, a closer's channel), on the Done of a context whose cancel
// the package keeps (cancelStoppers: context.WithCancel from a root
// context), or on a request on r's own channel that it recognises by its
// type (case *closeRequest: return). A receiver that can return on its own
// (an error, a failed write, the end of its input) is not one, nor is one
// that gives up on a context its callers handed in: that context can end
// for reasons of its own, at any time, and the senders cannot know it.
func (x *Index) StopsOnlyWhenSignalled(r Site) bool {
	stops := false
	for _, b := range r.Func.Blocks {
		ret, isRet := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !isRet || !flow.Reaches(r.Instr, ret) {
			continue
		}
		sel, k, to, ok := decidingCase(b)
		if !ok {
			return false
		}
		ch := sel.States[k].Chan
		switch {
		case sel == r.Instr && k == r.State || SameValue(ch, RecvChan(r)):
			if assertedOn(received(sel, k), b, to) == nil {
				return false
			}
		case isContextDone(ch):
			var cancels []ssa.Instruction
			if !x.cancelStoppers(ch, r.Func, &cancels) {
				return false
			}
		}
		stops = true
	}
	return stops
}

// isContextDone reports whether ch is the Done channel of a context.
func isContextDone(ch ssa.Value) bool { return DoneOf(ch) != nil }

// DoneOf returns ctx when ch is ctx.Done() of a context.Context, or nil.
func DoneOf(ch ssa.Value) ssa.Value {
	done, ok := ch.(*ssa.Call)
	if !ok || !done.Call.IsInvoke() || done.Call.Method.Name() != "Done" || !isContext(done.Call.Value.Type()) {
		return nil
	}
	return done.Call.Value
}
