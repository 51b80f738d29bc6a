package streams

import (
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"
)

// A PlaceKind says what kind of named object holds a func value.
type PlaceKind int

const (
	Field  PlaceKind = iota + 1 // a struct field; every value of the struct type shares it
	Global                      // a package-level variable
	Param                       // a parameter of a function
	Result                      // a result of a function
)

func (k PlaceKind) String() string {
	switch k {
	case Field:
		return "field"
	case Global:
		return "global"
	case Param:
		return "param"
	case Result:
		return "result"
	}
	return "place?"
}

// A Place is a named object that may hold a func value and that analysis
// facts can name: facts on field *types.Var and on *types.Func objects
// survive go vet's modular driver.
type Place struct {
	Kind PlaceKind
	// Obj is the *types.Var of a Field or Global, or the *types.Func of a
	// Param or Result; always the generic origin.
	Obj types.Object
	// Index is the position of a Param in Signature().Params(), -1 for the
	// receiver, or the position of a Result in Signature().Results().
	Index int
}

// A Carrier is a place that may hold a stream send, with one place where
// such a send was taken. "May": one store or call site that passes a send
// is enough, whatever the others pass.
type Carrier struct {
	Place  Place
	Origin Origin
}

// A Flow knows which func values of one package may hold a stream send. It
// is built once per package by Matcher.Flow and then only read.
//
// The flow is a graph over the package's func-typed values and the places
// they pass through, closed by a breadth-first walk from the method values
// (and the seeds). Every instruction adds at most a few edges, so building
// and walking it is linear in the size of the package.
//
// What it does not follow, and so never reports: func values converted to
// interfaces, kept in maps, slices, channels or behind pointers other than
// variables and fields, and arguments of calls whose callee is not static
// (an interface method or a func value).
type Flow struct {
	m     *Matcher
	pkg   *types.Package
	fset  *token.FileSet
	edges map[node][]node
	roots []root
	held  map[node]Origin
}

type nodeKind uint8

const (
	valueNode  nodeKind = iota // an SSA value
	cellNode                   // the variable an Alloc or a captured FreeVar points to
	fieldNode                  // a struct field (obj)
	globalNode                 // a package-level variable (obj)
	paramNode                  // a parameter by SSA index: obj is the function, or fn when anonymous
	resultNode                 // a result, keyed like paramNode
)

type node struct {
	kind nodeKind
	v    ssa.Value
	obj  types.Object
	fn   *ssa.Function
	idx  int
}

type root struct {
	n node
	o Origin
}

func value(v ssa.Value) node { return node{kind: valueNode, v: v} }

// Flow computes which func values of pkg may hold a stream send. funcs are
// the package's functions (buildssa's SrcFuncs); their anonymous functions
// are included whether listed or not. seeds are carriers imported from
// dependencies; pass nil when there are none.
func (m *Matcher) Flow(pkg *types.Package, funcs []*ssa.Function, seeds []Carrier) *Flow {
	f := &Flow{m: m, pkg: pkg, edges: make(map[node][]node), held: make(map[node]Origin)}
	for _, fn := range withAnon(funcs) {
		if f.fset == nil && fn.Prog != nil {
			f.fset = fn.Prog.Fset
		}
		f.scanFunc(fn)
	}
	for _, s := range seeds {
		if n, ok := placeNode(s.Place); ok {
			f.roots = append(f.roots, root{n, s.Origin})
		}
	}
	f.propagate()
	return f
}

// withAnon returns funcs and their anonymous functions, in a stable order
// and without repeats.
func withAnon(funcs []*ssa.Function) []*ssa.Function {
	seen := make(map[*ssa.Function]bool)
	var out []*ssa.Function
	var visit func(fn *ssa.Function)
	visit = func(fn *ssa.Function) {
		if fn == nil || seen[fn] {
			return
		}
		seen[fn] = true
		out = append(out, fn)
		for _, anon := range fn.AnonFuncs {
			visit(anon)
		}
	}
	for _, fn := range funcs {
		visit(fn)
	}
	return out
}

func (f *Flow) scanFunc(fn *ssa.Function) {
	for i, p := range fn.Params {
		f.edge(paramOf(fn, i), value(p))
	}
	var ops []*ssa.Value
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			f.scanInstr(instr)
			if call, ok := instr.(ssa.CallInstruction); ok {
				f.scanCall(call)
			}
			ops = f.scanThunks(instr, ops[:0])
		}
	}
}

// scanInstr adds the edges of the instructions that move func values:
//
//	t1 = φ [0: t0, 1: nil]    t0 → t1
//	t1 = changetype F <- t0   t0 → t1
//	*t0 = t1                  t1 → the field, variable or global t0 addresses
//	t2 = *t1                  the field, variable or global t1 addresses → t2
//	t2 = t1.send [#0]         the field → t2
//	return t1                 t1 → the function's result
//	t3 = extract t2 #1        the callee's result 1 → t3
func (f *Flow) scanInstr(instr ssa.Instruction) {
	switch in := instr.(type) {
	case *ssa.MakeClosure:
		f.scanClosure(in)
	case *ssa.Phi:
		for _, e := range in.Edges {
			f.edge(value(e), value(in))
		}
	case *ssa.ChangeType:
		f.edge(value(in.X), value(in))
	case *ssa.Store:
		if n, ok := addrNode(in.Addr); ok {
			f.edge(value(in.Val), n)
		}
	case *ssa.UnOp:
		if n, ok := addrNode(in.X); ok && in.Op == token.MUL {
			f.edge(n, value(in))
		}
	case *ssa.Field:
		if v := fieldOf(in.X.Type(), in.Field); v != nil {
			f.edge(node{kind: fieldNode, obj: v}, value(in))
		}
	case *ssa.Return:
		for i, r := range in.Results {
			f.edge(value(r), resultOf(in.Parent(), i))
		}
	case *ssa.Extract:
		if callee := staticCallee(in.Tuple); callee != nil {
			f.edge(resultOf(callee, in.Index), value(in))
		}
	}
}

// scanClosure roots a method value, or ties a closure's free variables to
// the variables it captures. Captured variables are shared, so the edges go
// both ways: a store inside the closure is seen outside and vice versa.
//
//	t0 = local func(*M) error (send)
//	t3 = make closure d$1 [t0]        // d$1: t0 = *send; t1 = t0(m)
func (f *Flow) scanClosure(mc *ssa.MakeClosure) {
	if method := f.m.MethodValue(mc); method != nil {
		f.roots = append(f.roots, root{value(mc), newOrigin(method, mc.Bindings[0], mc.Pos())})
		return
	}
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return
	}
	for i, b := range mc.Bindings {
		if i >= len(fn.FreeVars) {
			break
		}
		fv := fn.FreeVars[i]
		f.edge(value(b), value(fv))
		if outer, ok := addrNode(b); ok && outer.kind == cellNode {
			inner := node{kind: cellNode, v: fv}
			f.edge(outer, inner)
			f.edge(inner, outer)
		}
	}
}

// scanCall passes arguments to the parameters of a static callee, and its
// single result back to the call. Calls through interfaces and func values
// pass nothing: their callee is unknown here, and guessing would put sends
// where there are none.
func (f *Flow) scanCall(call ssa.CallInstruction) {
	cc := call.Common()
	callee := cc.StaticCallee()
	if callee == nil {
		return
	}
	for i, a := range cc.Args {
		f.edge(value(a), paramOf(callee, i))
	}
	if v := call.Value(); v != nil && callee.Signature.Results().Len() == 1 {
		f.edge(resultOf(callee, 0), value(v))
	}
}

// scanThunks roots method expressions used as values, such as
// `f := (*connect.BidiStream[M, M]).Send`, which appear only as operands.
func (f *Flow) scanThunks(instr ssa.Instruction, ops []*ssa.Value) []*ssa.Value {
	ops = instr.Operands(ops)
	for _, op := range ops {
		if op == nil {
			continue
		}
		if fn, ok := (*op).(*ssa.Function); ok {
			if method := f.m.MethodValue(fn); method != nil {
				f.roots = append(f.roots, root{value(fn), newOrigin(method, nil, instr.Pos())})
			}
		}
	}
	return ops
}

// edge records that whatever from holds, to may hold. Edges between nodes
// that cannot hold a func are dropped, which keeps the graph to the few
// values that matter.
func (f *Flow) edge(from, to node) {
	if !mayHoldFunc(from) || !mayHoldFunc(to) {
		return
	}
	f.edges[from] = append(f.edges[from], to)
}

// propagate walks the graph breadth first from the roots. The first origin
// to reach a node is the one it keeps, so a node that may hold several
// sends reports the nearest, ties going to the one met first in the order
// of funcs; local roots come before seeds.
func (f *Flow) propagate() {
	var queue []node
	for _, r := range f.roots {
		if _, ok := f.held[r.n]; !ok {
			f.held[r.n] = r.o
			queue = append(queue, r.n)
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, s := range f.edges[n] {
			if _, ok := f.held[s]; !ok {
				f.held[s] = f.held[n]
				queue = append(queue, s)
			}
		}
	}
}

// Holds reports whether the func value v may hold a stream send, and where
// the send was taken.
func (f *Flow) Holds(v ssa.Value) (Origin, bool) {
	o, ok := f.held[value(v)]
	return o, ok
}

// Send reports whether call sends on a stream, directly or through a func
// value that may hold a stream send.
func (f *Flow) Send(call ssa.CallInstruction) (Send, bool) {
	cc := call.Common()
	if _, static := cc.Value.(*ssa.Function); !static && !cc.IsInvoke() {
		if o, ok := f.held[value(cc.Value)]; ok {
			return Send{Call: call, Via: describe(cc.Value, 0), Origin: o}, true
		}
	}
	method := f.m.Direct(cc)
	if method == nil {
		return Send{}, false
	}
	var recv ssa.Value
	if cc.IsInvoke() {
		recv = cc.Value
	} else if callee := cc.StaticCallee(); callee != nil && !isMethodWrapper(callee) && len(cc.Args) > 0 {
		recv = cc.Args[0]
	}
	return Send{Call: call, Direct: true, Origin: newOrigin(method, recv, call.Pos())}, true
}

// Carriers returns the fields, package-level variables, parameters and
// results of the Flow's own package that may hold a stream send, sorted by
// file name and offset (not by token.Pos: drivers may add files to the
// file set in any order). A summary analyzer exports them as facts; a dependent package
// passes them back to Matcher.Flow as seeds.
func (f *Flow) Carriers() []Carrier {
	var out []Carrier
	for n, o := range f.held {
		if p, ok := placeOf(n); ok && p.Obj.Pkg() == f.pkg {
			out = append(out, Carrier{Place: p, Origin: o})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Place, out[j].Place
		if pa, pb := f.position(a.Obj), f.position(b.Obj); pa != pb {
			if pa.Filename != pb.Filename {
				return pa.Filename < pb.Filename
			}
			return pa.Offset < pb.Offset
		}
		if a.Obj.Name() != b.Obj.Name() {
			return a.Obj.Name() < b.Obj.Name()
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Index < b.Index
	})
	return out
}

// position of obj in the program's file set, or its bare offset when the
// Flow saw no function to take the file set from.
func (f *Flow) position(obj types.Object) token.Position {
	if f.fset == nil {
		return token.Position{Offset: int(obj.Pos())}
	}
	return f.fset.Position(obj.Pos())
}
