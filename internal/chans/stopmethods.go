package chans

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A stop method hands out its receiver's stop channel, so that code which
// embeds the type, or holds it, can give up on it:
//
//	func (s *Service) Quit() <-chan struct{} { return s.quit }
//
//	select {
//	case m := <-r.queue:
//	case <-r.svc.Quit(): // gives up on svc.quit, for good once it is closed
//		return
//	}
//
// A receiver that gives up on what a stop method returns gives up on the
// field itself. A service base type lives in another package than the
// loops that embed it; the summary carries the answer there as a fact.

// SetStopMethods tells the index which methods of other packages are stop
// methods: imported(fn) returns the name of the receiver's field fn
// returns, or "".
func (x *Index) SetStopMethods(imported func(*types.Func) string) {
	x.importedStops = imported
}

// StopMethod returns the field fn, a method of this package, returns on
// every path when that field is a stop channel (see stopField), or nil.
func (x *Index) StopMethod(fn *ssa.Function) *types.Var {
	f := returnedField(fn)
	if f == nil || !x.stopField(f) {
		return nil
	}
	return f
}

// returnedField returns the field of its receiver that the method fn,
// which takes nothing else, returns on every path, or nil.
func returnedField(fn *ssa.Function) *types.Var {
	if fn.Signature.Recv() == nil || len(fn.Params) != 1 || fn.Signature.Results().Len() != 1 || len(fn.Blocks) == 0 {
		return nil
	}
	var field *types.Var
	for _, b := range fn.Blocks {
		if !isReturnBlock(b) {
			continue
		}
		v := b.Instrs[len(b.Instrs)-1].(*ssa.Return).Results[0]
		if ct, ok := v.(*ssa.ChangeType); ok {
			v = ct.X // chan T returned as <-chan T
		}
		addr := loadedAddr(v)
		if addr == nil || addr.X != fn.Params[0] {
			return nil
		}
		f := FieldOf(addr.X.Type(), addr.Field, true)
		if f == nil || field != nil && f != field {
			return nil
		}
		field = f
	}
	return field
}

// caseField returns the field a select case's channel ch comes from: the
// field it is loaded from, the context field whose Done it is, or the
// field a stop method called on its receiver alone returns. nil when it
// is none of them.
func (x *Index) caseField(ch ssa.Value) *types.Var {
	if f := LoadedField(ch); f != nil {
		return f
	}
	if f := x.contextField(ch); f != nil {
		return f
	}
	call, ok := ch.(*ssa.Call)
	if !ok {
		return nil
	}
	callee := call.Call.StaticCallee()
	if callee == nil || len(call.Call.Args) != 1 {
		return nil
	}
	if callee.Pkg == x.pkg {
		return x.StopMethod(callee)
	}
	return x.importedStop(callee)
}

// importedStop returns the stop field that callee, a stop method of
// another package, returns, and marks it as a stop channel (stopField).
func (x *Index) importedStop(callee *ssa.Function) *types.Var {
	obj, ok := callee.Object().(*types.Func)
	if !ok || x.importedStops == nil {
		return nil
	}
	name := x.importedStops(obj.Origin())
	if name == "" {
		return nil
	}
	recv := obj.Origin().Signature().Recv()
	if recv == nil {
		return nil
	}
	s, ok := derefType(recv.Type()).Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for i := range s.NumFields() {
		if f := s.Field(i); f.Name() == name {
			x.importedFields[f.Origin()] = true
			return f.Origin()
		}
	}
	return nil
}

// A context kept in a field is a stop signal too, when the package sets
// the field only on objects it has just made, from a context someone can
// cancel:
//
//	func NewRouter(ctx context.Context) *Router {
//		r := &Router{in: make(chan msg)}
//		r.ctx, r.cancel = context.WithCancel(ctx)
//		return r
//	}
//
//	case <-r.ctx.Done(): // for good: r.ctx is never replaced
//
// Once done, that context stays done for the object's whole life, as a
// closed stop channel does. A field set again on a live object (a Serve
// that makes a new context for each run) is not, nor is a root context,
// which no one cancels.

// contextField returns the field f when ch is f's Done (ch = x.f.Done())
// and f is such a stop signal (contextStop); otherwise nil.
func (x *Index) contextField(ch ssa.Value) *types.Var {
	ctx := DoneOf(ch)
	if ctx == nil {
		return nil
	}
	if f := LoadedField(ctx); f != nil && x.contextStop(f) {
		return f
	}
	return nil
}

// contextStop reports whether f is an unexported context field that the
// package sets only on new objects, from a context someone can cancel.
func (x *Index) contextStop(f *types.Var) bool {
	return isContext(f.Type()) && !f.Exported() && x.setOnMake(f)
}

// setOnMake reports whether every store into the context field f stores,
// into an object its function has just allocated, a context that can be
// cancelled: a parameter, or one that context.WithCancel, WithTimeout or
// WithDeadline made.
func (x *Index) setOnMake(f *types.Var) bool {
	sts := x.fieldSts[f]
	for _, st := range sts {
		addr, ok := st.Addr.(*ssa.FieldAddr)
		if !ok {
			return false
		}
		if _, fresh := addr.X.(*ssa.Alloc); !fresh || !cancellable(st.Val) {
			return false
		}
	}
	return len(sts) > 0
}

// cancellable reports whether the context v can be cancelled: the
// caller's, or one a context.With function made.
func cancellable(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Parameter:
		return true
	case *ssa.Extract:
		mk, ok := v.Tuple.(*ssa.Call)
		return ok && v.Index == 0 && isContextFunc(mk.Call.StaticCallee(),
			"WithCancel", "WithCancelCause", "WithTimeout", "WithTimeoutCause", "WithDeadline", "WithDeadlineCause")
	}
	return false
}
