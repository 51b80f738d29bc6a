package ownership

import (
	"go/types"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/implementers"
)

// maxCHA bounds the work of resolving interface calls: invoke sites times
// the package's named types. Above it, interface calls get no edges, which
// only makes more functions entry points.
const maxCHA = 2_000_000

// buildGraph builds the package's call graph over its own functions:
//
//   - static calls, go and defer statements, and calls of closures;
//   - interface method calls, to the methods of the package's types that
//     implement the interface;
//   - a closure or function value handed to a function, to the function
//     handed over, when the callee is known to call it (or, by policy, not
//     known at all). The edge is asynchronous when the callee starts it on a
//     new goroutine; when the callee stores it, the function is taken: its
//     callers are unknown.
//
// Go statements are asynchronous edges. Calls between other packages'
// functions are not in the graph.
func (u *unit) buildGraph() {
	u.graph = callgraph.New(nil)
	u.asyncEdge = make(map[*callgraph.Edge]bool)
	u.taken = make(map[*ssa.Function]bool)
	u.byObj = make(map[*types.Func]*ssa.Function)
	u.impls = make(map[*types.Func][]*ssa.Function)
	for _, fn := range u.funcs {
		u.graph.CreateNode(fn)
		if obj, ok := fn.Object().(*types.Func); ok {
			u.byObj[obj.Origin()] = fn
		}
	}
	u.named = namedTypes(u.pass.Pkg)
	for _, fn := range u.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if site, ok := instr.(ssa.CallInstruction); ok {
					u.addCalls(fn, site)
				}
				u.addValues(fn, instr)
			}
		}
	}
}

func (u *unit) edge(caller *ssa.Function, site ssa.CallInstruction, callee *ssa.Function, async bool) {
	from := u.graph.CreateNode(caller)
	callgraph.AddEdge(from, site, u.graph.CreateNode(callee))
	if async {
		u.asyncEdge[from.Out[len(from.Out)-1]] = true
	}
}

func (u *unit) addCalls(fn *ssa.Function, site ssa.CallInstruction) {
	cc := site.Common()
	_, isGo := site.(*ssa.Go)
	if callee := u.local(cc.StaticCallee()); callee != nil {
		u.edge(fn, site, callee, isGo)
		return
	}
	if cc.IsInvoke() {
		for _, m := range u.implementations(cc.Method) {
			u.edge(fn, site, m, isGo)
		}
	}
}

// addValues finds the package's functions used as values by instr, other
// than as the callee of a call, and decides who calls them.
func (u *unit) addValues(fn *ssa.Function, instr ssa.Instruction) {
	if _, ok := instr.(*ssa.MakeClosure); ok {
		// Its operands are the function being closed over and the
		// captured values; the closure's uses are classified where the
		// closure itself is an operand.
		return
	}
	u.ops = instr.Operands(u.ops[:0])
	for _, op := range u.ops {
		if op == nil || *op == nil {
			continue
		}
		target := u.funcValue(*op)
		if target == nil {
			continue
		}
		call, isCall := instr.(ssa.CallInstruction)
		if isCall && op == &call.Common().Value {
			continue // a call of the value: addCalls made the edge
		}
		if !isCall {
			u.taken[target] = true
			continue
		}
		u.handedTo(fn, call, argIndex(call.Common(), *op), target)
	}
}

// handedTo adds the edge for target handed as argument j of call.
func (u *unit) handedTo(fn *ssa.Function, call ssa.CallInstruction, j int, target *ssa.Function) {
	_, isGo := call.(*ssa.Go)
	cc := call.Common()
	var use paramBits
	known := false
	if callee := cc.StaticCallee(); callee != nil {
		if l := u.local(callee); l != nil {
			use, known = u.paramUse(l, j), true
		} else {
			use, known = u.external(callee, j)
		}
	}
	switch {
	case use.async || use.sender:
		u.edge(fn, call, target, true)
	case use.shared:
		u.taken[target] = true
	case use.sync || !known:
		// Policy: a function handed to a callee that is not known to start
		// or store it is called on the caller's goroutine.
		u.edge(fn, call, target, isGo)
	}
}

// argIndex returns the first position of v in cc.Args, or -1.
func argIndex(cc *ssa.CallCommon, v ssa.Value) int {
	for j, a := range cc.Args {
		if a == v {
			return j
		}
	}
	return -1
}

// funcValue returns the package function that v is, closes over, or binds
// as a method value or expression, or nil.
func (u *unit) funcValue(v ssa.Value) *ssa.Function {
	var f *ssa.Function
	switch v := v.(type) {
	case *ssa.Function:
		f = v
	case *ssa.MakeClosure:
		f, _ = v.Fn.(*ssa.Function)
	}
	if f == nil {
		return nil
	}
	if l := u.local(f); l != nil {
		return l
	}
	if obj, ok := f.Object().(*types.Func); ok && f.Synthetic != "" {
		return u.byObj[obj.Origin()]
	}
	return nil
}

// implementations returns the methods of the package's own types that an
// interface method call may reach.
func (u *unit) implementations(method *types.Func) []*ssa.Function {
	if fns, ok := u.impls[method]; ok {
		return fns
	}
	var out []*ssa.Function
	iface, _ := method.Signature().Recv().Type().Underlying().(*types.Interface)
	if iface != nil && u.chaWork < maxCHA {
		u.chaWork += len(u.named)
		if u.cha == nil {
			u.cha = implementers.New(u.named)
		}
		for _, recv := range u.cha.Of(iface) {
			obj, _, _ := types.LookupFieldOrMethod(recv, true, method.Pkg(), method.Name())
			if f, ok := obj.(*types.Func); ok {
				if fn := u.byObj[f.Origin()]; fn != nil {
					out = append(out, fn)
				}
			}
		}
	}
	u.impls[method] = out
	return out
}

// namedTypes lists the package's named non-interface, non-generic types,
// in scope order.
func namedTypes(pkg *types.Package) []types.Type {
	var out []types.Type
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		n, ok := tn.Type().(*types.Named)
		if !ok || n.TypeParams().Len() > 0 || types.IsInterface(n) {
			continue
		}
		out = append(out, n)
	}
	return out
}
