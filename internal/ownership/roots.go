package ownership

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A root is a goroutine that may run a function, and the instruction of
// the goroutine's own function that leads to it (nil when that function is
// the one asked about).
type root struct {
	g  Goroutine
	at ssa.Instruction
}

type rootsKey struct {
	target, owner *ssa.Function
	key           Key
	cross         bool
}

// roots walks the call graph backwards from target and returns the
// goroutines that may run it, as seen by a stream owned by owner and
// stored in key. A path ends at the owner (unless cross: the place is
// reached through a collection, which other invocations of the owner fill
// too), at a go statement or another asynchronous edge, at a function
// marked //sendlint:sender, at an entry point, or at an exported method of
// a type that carries the field, which belongs to whoever holds the value.
// An entry point's callers in the package are walked as well.
func (u *unit) roots(target, owner *ssa.Function, key Key, cross bool) []root {
	rk := rootsKey{target, owner, key, cross}
	if rs, ok := u.rootsMemo[rk]; ok {
		return rs
	}
	type item struct {
		fn *ssa.Function
		at ssa.Instruction
	}
	var out []root
	seen := map[*ssa.Function]bool{target: true}
	queue := []item{{target, nil}}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		f := it.fn
		switch {
		case u.marked[f]:
			out = append(out, root{Goroutine{Kind: Marked, Fn: f}, it.at})
			continue
		case f == owner && !cross:
			out = append(out, root{Goroutine{Kind: Owner, Fn: f}, it.at})
			continue
		case u.holderMethod(f, key) && (u.exported(f) || u.taken[f]):
			continue
		}
		if isEntry, multi := u.entry(f); isEntry {
			out = append(out, root{Goroutine{Kind: Entry, Fn: f, Multi: multi}, it.at})
		}
		node := u.graph.Nodes[f]
		if node == nil {
			continue
		}
		for _, e := range node.In {
			caller := e.Caller.Func
			if u.asyncEdge[e] {
				g := Goroutine{Kind: Started, Fn: f, Site: e.Site, Multi: u.repeats(e.Site, nil)}
				if caller == owner && !cross {
					g.Order = e.Site
				}
				out = append(out, root{g, it.at})
				continue
			}
			if !seen[caller] || caller == owner {
				seen[caller] = true
				queue = append(queue, item{caller, e.Site})
			}
		}
	}
	u.rootsMemo[rk] = out
	return out
}

// entry reports whether code the package cannot see may call fn, and
// whether it may do so from many goroutines at once. Entry points are
// exported functions and methods, functions used as values that are not
// handed to a known caller, and functions with no caller in the package;
// the package initializer and main run once.
func (u *unit) entry(fn *ssa.Function) (isEntry, multi bool) {
	if fn.Synthetic == "package initializer" || isInitOrMain(fn) {
		return true, false
	}
	if u.exported(fn) {
		return true, true
	}
	if u.taken[fn] {
		return true, true
	}
	node := u.graph.Nodes[fn]
	return node == nil || len(node.In) == 0, true
}

// isInitOrMain reports whether fn is an init function or the main
// function of a main package.
func isInitOrMain(fn *ssa.Function) bool {
	if fn.Signature.Recv() != nil || fn.Parent() != nil || fn.Pkg == nil {
		return false
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return false
	}
	switch obj.Name() {
	case "init":
		return true
	case "main":
		return fn.Pkg.Pkg.Name() == "main"
	}
	return false
}

func (u *unit) exported(fn *ssa.Function) bool {
	obj, ok := fn.Object().(*types.Func)
	return ok && obj.Exported()
}

// holderMethod reports whether fn is a method of a type that carries the
// field key names: the named struct type that declares it, or one that
// embeds that type.
func (u *unit) holderMethod(fn *ssa.Function, key Key) bool {
	holder := u.holders[key.Obj]
	recv := fn.Signature.Recv()
	if key.Elem || holder == nil || recv == nil {
		return false
	}
	return embeds(recv.Type(), holder, 0)
}

// maxEmbed bounds the search through embedded fields.
const maxEmbed = 3

// embeds reports whether t, or the type t points to, is holder or embeds
// it, directly or through embedded fields.
func embeds(t types.Type, holder *types.Named, depth int) bool {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, ok := t.(*types.Named)
	if !ok {
		return false
	}
	if n.Origin() == holder {
		return true
	}
	s, ok := n.Underlying().(*types.Struct)
	if !ok || depth >= maxEmbed {
		return false
	}
	for i := range s.NumFields() {
		if f := s.Field(i); f.Embedded() && embeds(f.Type(), holder, depth+1) {
			return true
		}
	}
	return false
}

// hasStaticCaller reports whether some call in the package names fn as
// its callee, as opposed to reaching it through an interface.
func (u *unit) hasStaticCaller(fn *ssa.Function) bool {
	node := u.graph.Nodes[fn]
	if node == nil {
		return false
	}
	for _, e := range node.In {
		if e.Site != nil && !e.Site.Common().IsInvoke() {
			return true
		}
	}
	return false
}
