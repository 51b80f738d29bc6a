package chans

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// staysHome reports whether obj, a *t that fn makes, is handed to no one
// but the package itself: whatever holds it is a field of it or of
// another object fn makes, a variable, a closure, or a parameter of a
// function of this package that keeps it the same way (a method it calls,
// a goroutine it starts, a method of t called through an interface). A
// function that returns it hands it back to the call that gave it. Once fn
// has returned without obj, only the goroutines that hold it can reach it.
// holding is what holds the object in fn: obj, the structs and variables
// it is stored in, the closures that capture it; a return of none of them
// drops it.
//
// Calls of function values are followed to the functions of the package
// whose values are taken and whose signature matches; a value handed to
// anything else (another package, a map, a channel, a global) leaves home.
func (x *Index) staysHome(fn *ssa.Function, obj ssa.Value, t *types.Named) (holding map[ssa.Value]bool, ok bool) {
	w := homeWalk{x: x, t: t, maker: fn, seen: make(map[homeVisit]bool), held: make(map[ssa.Value]bool)}
	if !w.value(obj, nil) || w.over {
		return nil, false
	}
	holding = make(map[ssa.Value]bool)
	for v := range w.held {
		if v.Parent() == fn {
			holding[v] = true
		}
	}
	return holding, true
}

type homeVisit struct {
	v    ssa.Value
	site ssa.CallInstruction
}

type homeWalk struct {
	x     *Index
	t     *types.Named
	maker *ssa.Function
	seen  map[homeVisit]bool
	held  map[ssa.Value]bool // the values of seen, whatever the site
	over  bool               // the walk grew past maxHome
}

// maxHome bounds the values homeWalk follows.
const maxHome = 512

// value reports whether v, a value that holds the object, stays home;
// site is the call through which the walk entered v's function, whose
// result a return of v gives the object to.
func (w *homeWalk) value(v ssa.Value, site ssa.CallInstruction) bool {
	key := homeVisit{v, site}
	if w.seen[key] {
		return true
	}
	if len(w.seen) > maxHome {
		w.over = true
		return false
	}
	w.seen[key] = true
	w.held[v] = true
	refs := v.Referrers()
	if refs == nil {
		return true
	}
	for _, ref := range *refs {
		if !w.use(v, ref, site) {
			return false
		}
	}
	return true
}

// use reports whether the use ref of v keeps the object home.
func (w *homeWalk) use(v ssa.Value, ref ssa.Instruction, site ssa.CallInstruction) bool {
	switch ref := ref.(type) {
	case *ssa.DebugRef, *ssa.FieldAddr, *ssa.Field, *ssa.BinOp:
		return true
	case *ssa.Store:
		return ref.Addr == v || w.storedInto(ref.Addr, site)
	case *ssa.UnOp:
		return ref.Op == token.MUL && w.value(ref, site)
	case *ssa.MakeInterface, *ssa.ChangeType, *ssa.ChangeInterface, *ssa.Phi, *ssa.Extract:
		return w.value(ref.(ssa.Value), site)
	case *ssa.TypeAssert:
		return w.value(ref, site)
	case *ssa.MakeClosure:
		fn := ref.Fn.(*ssa.Function)
		for i, b := range ref.Bindings {
			if b == v && !w.value(fn.FreeVars[i], nil) {
				return false
			}
		}
		return w.value(ref, site)
	case *ssa.Return:
		if ref.Parent() == w.maker && site == nil {
			return true // the drop is judged apart; other returns hand it to the maker's caller
		}
		call, ok := site.(*ssa.Call)
		return ok && w.value(call, nil)
	case ssa.CallInstruction:
		return w.call(v, ref)
	}
	return false
}

// storedInto reports whether storing the object at addr keeps it home:
// into a field of something that holds it, of a struct or variable the
// same function makes, or of a parameter whose argument, at the call the
// walk came through, then holds it.
func (w *homeWalk) storedInto(addr ssa.Value, site ssa.CallInstruction) bool {
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		if w.held[a.X] {
			return true
		}
		switch base := a.X.(type) {
		case *ssa.Alloc:
			return w.value(base, site)
		case *ssa.Parameter:
			i := paramIndex(base)
			if site == nil || site.Parent() == nil || i < 0 || i >= len(site.Common().Args) {
				return false
			}
			return w.value(site.Common().Args[i], nil)
		}
	case *ssa.Alloc:
		return w.value(a, site)
	}
	return false
}

// call reports whether handing v to the call c keeps the object home.
func (w *homeWalk) call(v ssa.Value, c ssa.CallInstruction) bool {
	common := c.Common()
	if common.Value == v {
		if !common.IsInvoke() {
			return true // running a closure that holds it
		}
		m := w.x.methodOf(w.t, common.Method.Name())
		if m == nil || !w.value(m.Params[0], c) {
			return false
		}
	}
	for i, a := range common.Args {
		if a != v {
			continue
		}
		if !w.arg(c, i) {
			return false
		}
	}
	return true
}

// arg reports whether the callees of c keep their i-th argument home.
func (w *homeWalk) arg(c ssa.CallInstruction, i int) bool {
	common := c.Common()
	if b, ok := common.Value.(*ssa.Builtin); ok {
		return b.Name() == "ssa:wrapnilchk" && w.value(c.Value(), nil)
	}
	var callees []*ssa.Function
	switch {
	case common.IsInvoke():
		m := w.x.methodOf(w.t, common.Method.Name())
		if m == nil || !w.held[common.Value] {
			return false
		}
		callees, i = []*ssa.Function{m}, i+1
	case common.StaticCallee() != nil:
		callees = []*ssa.Function{common.StaticCallee()}
	default:
		if f := LoadedField(common.Value); f != nil && f.Exported() {
			return false // a callback the package's users may set
		}
		callees = w.x.funcValues(common.Signature())
		if len(callees) == 0 {
			return false
		}
	}
	for _, fn := range callees {
		if fn.Pkg != w.x.pkg || len(fn.Blocks) == 0 || i >= len(fn.Params) || !w.value(fn.Params[i], c) {
			return false
		}
	}
	return true
}

// funcValues returns the functions of the package whose values are taken
// and whose signature is sig: what a call of a value of that type may run
// when the value is the package's own.
func (x *Index) funcValues(sig *types.Signature) []*ssa.Function {
	var out []*ssa.Function
	for _, fn := range x.funcs {
		if x.escaped[fn] && fn.Signature.Recv() == nil && types.Identical(fn.Signature, sig) {
			out = append(out, fn)
		}
	}
	return out
}
