package streams

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// addrNode returns the place an address points to: a struct field, a
// local variable (an Alloc that escaped, or a captured FreeVar), or a
// package-level variable. Other addresses (slice elements, pointers passed
// in) are not followed.
//
//	t0 = &r.send [#0]                  field send
//	t0 = local func(*M) error (send)   variable send
//	send (a FreeVar of type *func)     variable send, shared with its binding
//	pkg.hook (a Global)                package-level variable hook
func addrNode(addr ssa.Value) (node, bool) {
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		if v := fieldOf(a.X.Type(), a.Field); v != nil {
			return node{kind: fieldNode, obj: v}, true
		}
	case *ssa.Alloc, *ssa.FreeVar:
		return node{kind: cellNode, v: a}, true
	case *ssa.Global:
		if v, ok := a.Object().(*types.Var); ok {
			return node{kind: globalNode, obj: v}, true
		}
	}
	return node{}, false
}

// fieldOf returns field i of the struct that t is or points to, as its
// generic origin, or nil. A type parameter's struct core type is not looked
// through.
func fieldOf(t types.Type, i int) *types.Var {
	t = t.Underlying()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem().Underlying()
	}
	s, ok := t.(*types.Struct)
	if !ok || i < 0 || i >= s.NumFields() {
		return nil
	}
	return s.Field(i).Origin()
}

// funcKey names a function the same way at its declaration and at every
// call: by its *types.Func origin when it has one, else (anonymous
// functions, $bound and $thunk wrappers, whose parameters differ from the
// method's) by the ssa.Function itself. Instances of generic functions map
// to their origin.
func funcKey(fn *ssa.Function) (types.Object, *ssa.Function) {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if obj, ok := fn.Object().(*types.Func); ok && !isMethodWrapper(fn) {
		return obj.Origin(), nil
	}
	return nil, fn
}

// paramOf is parameter i of fn by SSA index, where a method's receiver is 0.
func paramOf(fn *ssa.Function, i int) node {
	obj, anon := funcKey(fn)
	return node{kind: paramNode, obj: obj, fn: anon, idx: i}
}

func resultOf(fn *ssa.Function, i int) node {
	obj, anon := funcKey(fn)
	return node{kind: resultNode, obj: obj, fn: anon, idx: i}
}

func staticCallee(v ssa.Value) *ssa.Function {
	if call, ok := v.(*ssa.Call); ok {
		return call.Call.StaticCallee()
	}
	return nil
}

// mayHoldFunc reports whether n can hold a func value at all. Param and
// result nodes are only ever linked to values, which are checked.
func mayHoldFunc(n node) bool {
	switch n.kind {
	case valueNode:
		return isFunc(n.v.Type())
	case cellNode:
		p, ok := n.v.Type().Underlying().(*types.Pointer)
		return ok && isFunc(p.Elem())
	case fieldNode, globalNode:
		return isFunc(n.obj.Type())
	}
	return true
}

func isFunc(t types.Type) bool {
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// placeNode is the node of a seeded place, or false when the place is not
// one a fact can name.
func placeNode(p Place) (node, bool) {
	switch p.Kind {
	case Field, Global:
		v, ok := p.Obj.(*types.Var)
		if !ok {
			return node{}, false
		}
		if p.Kind == Field {
			return node{kind: fieldNode, obj: v.Origin()}, true
		}
		return node{kind: globalNode, obj: v}, true
	case Param, Result:
		fn, ok := p.Obj.(*types.Func)
		if !ok {
			return node{}, false
		}
		if p.Kind == Result {
			return node{kind: resultNode, obj: fn.Origin(), idx: p.Index}, true
		}
		return node{kind: paramNode, obj: fn.Origin(), idx: p.Index + recvOffset(fn)}, true
	}
	return node{}, false
}

// placeOf is the inverse of placeNode: the Place of a node that a fact can
// name, or false for values, variables and anonymous functions.
func placeOf(n node) (Place, bool) {
	switch n.kind {
	case fieldNode:
		return Place{Kind: Field, Obj: n.obj}, true
	case globalNode:
		return Place{Kind: Global, Obj: n.obj}, true
	case paramNode, resultNode:
		fn, ok := n.obj.(*types.Func)
		if !ok {
			return Place{}, false
		}
		if n.kind == resultNode {
			return Place{Kind: Result, Obj: fn, Index: n.idx}, true
		}
		return Place{Kind: Param, Obj: fn, Index: n.idx - recvOffset(fn)}, true
	}
	return Place{}, false
}

// recvOffset is 1 for methods, whose SSA parameters start with the
// receiver, and 0 for functions.
func recvOffset(fn *types.Func) int {
	if fn.Signature().Recv() != nil {
		return 1
	}
	return 0
}
