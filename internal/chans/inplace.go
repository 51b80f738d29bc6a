package chans

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// CallsInPlace reports whether fn uses its parameter i (receiver first), a
// func value, only by calling it with plain calls of its own: each run of
// the value happens on fn's caller's goroutine before fn returns, and fn
// keeps it nowhere. A retry helper is one:
//
//	func Retry(ctx context.Context, op func() error) error {
//		for {
//			if err := op(); err == nil { ... }
//
// A function that defers it, starts it, captures it in a closure, stores it
// or hands it on is not.
func CallsInPlace(fn *ssa.Function, i int) bool {
	if i >= len(fn.Params) || fn.Blocks == nil {
		return false
	}
	p := fn.Params[i]
	if _, ok := p.Type().Underlying().(*types.Signature); !ok {
		return false
	}
	for _, ref := range *p.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Call:
			if r.Call.Value != p || slices.Contains(r.Call.Args, ssa.Value(p)) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// SetInPlace tells the index which functions of other packages call a
// func parameter only in place: imported(fn, i) reports CallsInPlace of
// fn's parameter i in fn's package.
func (x *Index) SetInPlace(imported func(fn *types.Func, param int) bool) {
	x.inPlaceImported = imported
}

// callsInPlace answers CallsInPlace for a static callee of this package
// or, through the facts SetInPlace gave, of another.
func (x *Index) callsInPlace(callee *ssa.Function, i int) bool {
	if o := callee.Origin(); o != nil {
		callee = o
	}
	if callee.Pkg == x.pkg {
		return CallsInPlace(callee, i)
	}
	obj, ok := callee.Object().(*types.Func)
	return ok && x.inPlaceImported != nil && x.inPlaceImported(obj.Origin(), i)
}

// syncCallers returns the instructions during which fn runs, on the
// goroutine that makes them, when they are all in sight: its call sites
// (callers), and for a function literal also each call that takes it as
// an argument and calls it only in place (a retry helper), which stands
// for the calls the helper makes.
func (x *Index) syncCallers(fn *ssa.Function) ([]ssa.CallInstruction, bool) {
	if sites, ok := x.callers(fn); ok || fn.Parent() == nil || x.escaped[fn] {
		return sites, ok
	}
	var sites []ssa.CallInstruction
	for _, mc := range x.closures[fn] {
		if !x.runInPlace(mc, &sites, 0) {
			return nil, false
		}
	}
	return append(sites, x.calls[fn]...), true
}

// runInPlace adds to sites the calls that run the func value v in place,
// and reports whether those are all its uses.
func (x *Index) runInPlace(v ssa.Value, sites *[]ssa.CallInstruction, depth int) bool {
	for _, ref := range *v.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.ChangeType: // to a named func type: OpFn[T]
			if depth > 2 || !x.runInPlace(r, sites, depth+1) {
				return false
			}
		case ssa.CallInstruction:
			cc := r.Common()
			callee := cc.StaticCallee()
			if cc.Value == v {
				callee = nil // called itself: only its arguments are in question
			} else if callee == nil {
				return false
			}
			for i, a := range cc.Args {
				if a == v && (callee == nil || !x.callsInPlace(callee, i)) {
					return false
				}
			}
			*sites = append(*sites, r)
		default:
			return false
		}
	}
	return true
}
