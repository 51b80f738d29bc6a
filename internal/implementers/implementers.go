// Package implementers answers which of a set of named types implement an
// interface, for the interface calls that the summary and the ownership
// graph resolve by class hierarchy.
package implementers

import "go/types"

// A Finder answers for a fixed list of named types. For each it gives T
// when T implements the interface, else *T when that does, else nothing,
// in the order of the list. Answers are memoised per interface.
//
// types.Implements costs a method lookup through every embedded field of
// a type, and most types of a package implement none of the interfaces
// asked about. A Finder first looks the interface's method names up in
// the names of the methods a type declares or embeds, gathered once per
// type: a type that lacks one cannot implement the interface as T nor as
// *T. The names ignore what shadows or collides, so they may hold more
// than the method set, never less.
type Finder struct {
	named []types.Type
	names []map[string]bool // see methodNames, by index into named; nil until needed
	memo  map[*types.Interface][]types.Type
}

// New returns a Finder over named, which it keeps.
func New(named []types.Type) *Finder {
	return &Finder{named: named, memo: make(map[*types.Interface][]types.Type)}
}

// Of returns the types that implement iface: T, or else *T, for each type
// of the list that does.
func (f *Finder) Of(iface *types.Interface) []types.Type {
	if out, ok := f.memo[iface]; ok {
		return out
	}
	var out []types.Type
	for i, t := range f.named {
		if !f.mayImplement(i, iface) {
			continue
		}
		for _, recv := range []types.Type{t, types.NewPointer(t)} {
			if types.Implements(recv, iface) {
				out = append(out, recv)
				break
			}
		}
	}
	f.memo[iface] = out
	return out
}

// mayImplement reports whether the i-th type has a method by every name
// iface has.
func (f *Finder) mayImplement(i int, iface *types.Interface) bool {
	if iface.NumMethods() == 0 {
		return true
	}
	if f.names == nil {
		f.names = make([]map[string]bool, len(f.named))
	}
	if f.names[i] == nil {
		f.names[i] = make(map[string]bool)
		methodNames(f.named[i], f.names[i], make(map[types.Type]bool))
	}
	for j := range iface.NumMethods() {
		if !f.names[i][iface.Method(j).Name()] {
			return false
		}
	}
	return true
}

// methodNames adds to names the methods t declares and those of the
// fields it embeds, at any depth: a superset of the names in the method
// set of *t.
func methodNames(t types.Type, names map[string]bool, seen map[types.Type]bool) {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	t = types.Unalias(t)
	if seen[t] {
		return
	}
	seen[t] = true
	if n, ok := t.(*types.Named); ok {
		for j := range n.NumMethods() {
			names[n.Method(j).Name()] = true
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Interface:
		for j := range u.NumMethods() {
			names[u.Method(j).Name()] = true
		}
	case *types.Struct:
		for j := range u.NumFields() {
			if f := u.Field(j); f.Embedded() {
				methodNames(f.Type(), names, seen)
			}
		}
	}
}
