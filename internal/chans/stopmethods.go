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
// field it is loaded from, or the one a stop method called on its
// receiver alone returns. nil when it is neither.
func (x *Index) caseField(ch ssa.Value) *types.Var {
	if f := LoadedField(ch); f != nil {
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
			x.foreignStops[f.Origin()] = true
			return f.Origin()
		}
	}
	return nil
}
