package summary

import (
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/implementers"
)

// maxInvoked bounds the interface methods one function's answer and fact
// carry.
const maxInvoked = 64

// Invoked names a method of an interface that a function calls, itself or
// through its static calls: a callback into whatever implements it. Only
// interfaces of the function's own module count (a framework's Reactor or
// Handler, implemented by its users); the standard library's and other
// modules' interfaces (io.Writer, fmt.Stringer) are implemented everywhere
// and would tie every type with a String method to every call of Printf.
type Invoked struct {
	Pkg    string // the interface's package path
	Iface  string // its type name
	Method string
}

func (i Invoked) String() string { return i.Pkg + "." + i.Iface + "." + i.Method }

// invokes returns the interface methods fn calls on some path, directly or
// through the static calls it makes (goroutines it starts do not count),
// in this package by their bodies and in others by their Acquires facts.
func (r *Result) invokes(fn *ssa.Function) []Invoked {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if r.invoked == nil {
		r.invoked = make(map[*ssa.Function][]Invoked)
	}
	if v, ok := r.invoked[fn]; ok {
		return v
	}
	r.invoked[fn] = nil
	var out []Invoked
	add := func(v Invoked) {
		for _, o := range out {
			if o == v {
				return
			}
		}
		if len(out) < maxInvoked {
			out = append(out, v)
		}
	}
	waitedCalls(fn, func(call ssa.CallInstruction) {
		for _, v := range r.callInvokes(call) {
			add(v)
		}
	})
	r.invoked[fn] = out
	return out
}

// callInvokes returns the interface methods one call reaches: the method
// it invokes, or those its static callee does.
func (r *Result) callInvokes(call ssa.CallInstruction) []Invoked {
	cc := call.Common()
	if cc.IsInvoke() {
		if v, ok := r.ownInterface(cc); ok {
			return []Invoked{v}
		}
		return nil
	}
	callee := cc.StaticCallee()
	if callee == nil {
		return nil
	}
	if len(callee.Blocks) > 0 && callee.Pkg == r.build().Pkg {
		return r.invokes(callee)
	}
	if obj := funcObject(callee); obj != nil && r.importedLock(obj) != nil {
		return r.importedLock(obj).Invokes
	}
	return nil
}

// ownInterface names the interface method an invoke calls when the
// interface is declared in this package or, in module mode, in its module.
func (r *Result) ownInterface(cc *ssa.CallCommon) (Invoked, bool) {
	named, ok := types.Unalias(cc.Value.Type()).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return Invoked{}, false
	}
	path := named.Obj().Pkg().Path()
	own := path == r.pkg.Path() || r.ownModule(path)
	if !own {
		return Invoked{}, false
	}
	return Invoked{Pkg: path, Iface: named.Obj().Name(), Method: cc.Method.Name()}, true
}

// implementations returns this package's methods that a call of v can
// run: the method of every named type declared here whose value or
// pointer implements v's interface.
func (r *Result) implementations(v Invoked) []*ssa.Function {
	if r.impls == nil {
		r.impls = make(map[Invoked][]*ssa.Function)
	}
	if fns, ok := r.impls[v]; ok {
		return fns
	}
	var fns []*ssa.Function
	im := r.implementers(Invoked{Pkg: v.Pkg, Iface: v.Iface})
	prog := r.build().Pkg.Prog
	for _, t := range im.types {
		// The interface's package qualifies an unexported name.
		obj, _, _ := types.LookupFieldOrMethod(t, true, im.ifacePkg, v.Method)
		if m, ok := obj.(*types.Func); ok {
			if fn := prog.FuncValue(m); fn != nil && fn.Pkg == r.build().Pkg {
				fns = append(fns, fn)
			}
		}
	}
	r.impls[v] = fns
	return fns
}

// implementing is an interface, the package that declares it, and the
// types declared here that implement it: T, or *T when only the pointer
// does.
type implementing struct {
	ifacePkg *types.Package
	types    []types.Type
}

// implementers returns the named types declared here, generic ones left
// out, that implement the interface iface names (its Method is not
// looked at), memoised per interface: each of its methods asks.
func (r *Result) implementers(iface Invoked) implementing {
	if im, ok := r.implementedBy[iface]; ok {
		return im
	}
	var im implementing
	if it, ifacePkg := r.lookupInterface(iface); it != nil {
		if r.local == nil {
			r.local = implementers.New(declaredTypes(r.pkg, false))
		}
		im = implementing{ifacePkg: ifacePkg, types: r.local.Of(it)}
	}
	if r.implementedBy == nil {
		r.implementedBy = make(map[Invoked]implementing)
	}
	r.implementedBy[iface] = im
	return im
}

// declaredTypes lists the named types pkg declares, in scope order,
// interfaces and aliases left out, and generic types too unless asked.
func declaredTypes(pkg *types.Package, generic bool) []types.Type {
	var out []types.Type
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		if n, ok := tn.Type().(*types.Named); ok && n.TypeParams().Len() > 0 && !generic {
			continue
		}
		out = append(out, tn.Type())
	}
	return out
}

// lookupInterface finds v's interface, and the package that declares it,
// among the packages this package imports, directly or not.
func (r *Result) lookupInterface(v Invoked) (*types.Interface, *types.Package) {
	seen := map[*types.Package]bool{}
	var find func(p *types.Package) (*types.Interface, *types.Package)
	find = func(p *types.Package) (*types.Interface, *types.Package) {
		if seen[p] {
			return nil, nil
		}
		seen[p] = true
		if p.Path() == v.Pkg {
			if tn, ok := p.Scope().Lookup(v.Iface).(*types.TypeName); ok {
				if iface, ok := tn.Type().Underlying().(*types.Interface); ok {
					return iface, p
				}
			}
			return nil, nil
		}
		for _, imp := range p.Imports() {
			if iface, pkg := find(imp); iface != nil {
				return iface, pkg
			}
		}
		return nil, nil
	}
	return find(r.pkg)
}

// callbackAcquires returns the locks a call into another package takes by
// calling back into this one: the callee's fact lists the interface
// methods it invokes, and this package's implementations of them take
// these locks.
func (r *Result) callbackAcquires(call ssa.CallInstruction, callee *ssa.Function, fact *Acquires) []Acquisition {
	var out []Acquisition
	for _, v := range fact.Invokes {
		for _, impl := range r.implementations(v) {
			for _, a := range r.acquires(impl) {
				out = append(out, Acquisition{Acquired: a.Acquired, Pos: call.Pos(),
					Via: chain(displayName(callee)+", which calls back "+displayName(impl), a.Via)})
			}
		}
	}
	return out
}

// sortInvoked orders a fact's interface methods by their names, each
// spelled once rather than at every comparison.
func sortInvoked(vs []Invoked) {
	keys := make([]string, len(vs))
	for i, v := range vs {
		keys[i] = v.String()
	}
	sort.Sort(byName{vs, keys})
}

// byName sorts vs by keys, their names.
type byName struct {
	vs   []Invoked
	keys []string
}

func (b byName) Len() int           { return len(b.vs) }
func (b byName) Less(i, j int) bool { return b.keys[i] < b.keys[j] }
func (b byName) Swap(i, j int) {
	b.vs[i], b.vs[j] = b.vs[j], b.vs[i]
	b.keys[i], b.keys[j] = b.keys[j], b.keys[i]
}

// invokeAcquires returns the locks a call through another package's
// interface takes when it runs one of the implementations that package
// declares (a reactor's Switcher is its package's *Switch): their facts'
// locks, and the locks of this package's methods they call back. An
// interface of this package is not followed: which of its implementations
// here runs is the caller's business.
func (r *Result) invokeAcquires(call ssa.CallInstruction) []Acquisition {
	cc := call.Common()
	named, ok := types.Unalias(cc.Value.Type()).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg() == r.pkg {
		return nil
	}
	var out []Acquisition
	for _, m := range r.declaredMethods(named, cc.Method.Name()) {
		fact := r.importedLock(m)
		if fact == nil {
			continue
		}
		via := FuncName(m)
		for _, a := range fact.Locks {
			out = append(out, Acquisition{Acquired: a, Pos: call.Pos(), Via: via})
		}
		for _, v := range fact.Invokes {
			for _, impl := range r.implementations(v) {
				for _, a := range r.acquires(impl) {
					out = append(out, Acquisition{Acquired: a.Acquired, Pos: call.Pos(),
						Via: chain(via+", which calls back "+displayName(impl), a.Via)})
				}
			}
		}
	}
	return out
}

// ownModule reports whether path is a package of the module under
// analysis.
func (r *Result) ownModule(path string) bool {
	return r.module != "" && (path == r.module || strings.HasPrefix(path, r.module+"/"))
}

// declaredMethods returns the methods named name of the types declared
// beside the interface named whose value or pointer implements it.
func (r *Result) declaredMethods(named *types.Named, name string) []*types.Func {
	key := named.Obj().Pkg().Path() + "." + named.Obj().Name() + "." + name
	if r.declared == nil {
		r.declared = make(map[string][]*types.Func)
	}
	if fns, ok := r.declared[key]; ok {
		return fns
	}
	iface, ok := named.Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	pkg := named.Obj().Pkg()
	var out []*types.Func
	for _, t := range r.declaredImplementers(named, iface) {
		if obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, name); obj != nil {
			if fn, ok := obj.(*types.Func); ok {
				out = append(out, fn)
			}
		}
	}
	r.declared[key] = out
	return out
}

// declaredImplementers returns the named types declared beside the
// interface named that implement it, T or else *T.
func (r *Result) declaredImplementers(named *types.Named, iface *types.Interface) []types.Type {
	pkg := named.Obj().Pkg()
	f := r.declaredBy[pkg]
	if f == nil {
		if r.declaredBy == nil {
			r.declaredBy = make(map[*types.Package]*implementers.Finder)
		}
		f = implementers.New(declaredTypes(pkg, true))
		r.declaredBy[pkg] = f
	}
	return f.Of(iface)
}
