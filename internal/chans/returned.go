package chans

import "golang.org/x/tools/go/ssa"

// maxReturnDepth bounds how many unexported functions ReturnedBy follows
// up from the maker to the exported function that returns the channel.
const maxReturnDepth = 4

// ReturnedBy returns the exported function that hands the channel of u to
// its callers by returning it, and its return that does: u's maker itself
// when it is exported, or else an exported function that returns what the
// maker returns, through unexported functions whose callers are all
// visible and do nothing but return the result of the call:
//
//	func (p *pinner) RecursiveKeys(ctx context.Context) <-chan Pin {
//		return p.streamIndex(ctx, p.recursive)
//	}
//
// The channel must go nowhere else: this package neither receives from
// it nor stores it, and the maker's returns are its only escapes. Its
// receiver is then the caller, whom the package cannot see. It returns
// nil otherwise.
func (x *Index) ReturnedBy(u *Uses) (*ssa.Function, *ssa.Return) {
	if len(u.Escapes) == 0 || len(u.Recvs) > 0 || len(u.Stores) > 0 {
		return nil, nil
	}
	for _, e := range u.Escapes {
		if r, ok := e.(*ssa.Return); !ok || r.Parent() != u.Owner() {
			return nil, nil
		}
	}
	return x.exportedReturner(u.Owner(), u.Escapes[0].(*ssa.Return), 0)
}

// exportedReturner returns fn and ret, fn's return of the channel, when fn
// is exported, or else the first exported function found up its callers,
// with its return, when every caller only returns what fn returns; nil
// otherwise.
func (x *Index) exportedReturner(fn *ssa.Function, ret *ssa.Return, depth int) (*ssa.Function, *ssa.Return) {
	if obj := fn.Object(); obj != nil && obj.Exported() {
		return fn, ret
	}
	sites, ok := x.callers(fn)
	if !ok || len(sites) == 0 || depth >= maxReturnDepth {
		return nil, nil
	}
	var found *ssa.Function
	var at *ssa.Return
	for _, site := range sites {
		call, ok := site.(*ssa.Call)
		if !ok {
			return nil, nil
		}
		r := returnOf(call)
		if r == nil {
			return nil, nil
		}
		up, upRet := x.exportedReturner(call.Parent(), r, depth+1)
		if up == nil {
			return nil, nil
		}
		if found == nil {
			found, at = up, upRet
		}
	}
	return found, at
}

// returnOf returns a return of the channel a call returns when it goes
// only into its caller's returns: return f(), or, for a call with several
// results, the channel taken out of the tuple and returned. It returns nil
// when the caller does anything else with it.
//
//	t3 = (*pinner).streamIndex(t0, t1, t2)
//	return t3
func returnOf(call *ssa.Call) *ssa.Return {
	res := call.Call.Signature().Results()
	if res.Len() == 1 {
		return onlyReturned(call)
	}
	var ret *ssa.Return
	for _, ref := range *call.Referrers() {
		ex, ok := ref.(*ssa.Extract)
		if !ok {
			return nil
		}
		if !isChan(res.At(ex.Index).Type()) {
			continue
		}
		r := onlyReturned(ex)
		if r == nil {
			return nil
		}
		ret = r
	}
	return ret
}

// onlyReturned returns a return of v when v is used only by returns.
func onlyReturned(v ssa.Value) *ssa.Return {
	var ret *ssa.Return
	for _, ref := range *v.Referrers() {
		switch r := ref.(type) {
		case *ssa.Return:
			ret = r
		case *ssa.DebugRef:
		default:
			return nil
		}
	}
	return ret
}
