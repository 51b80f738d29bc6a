package silentdrop

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
)

// kept reports whether the sent value stays where it was read from when
// the default runs: only the send case takes it out (a backlog that is
// popped once the send succeeds) or marks it done (w.compacted = true
// after sending w's event), so the default loses nothing: the value is
// still there to be sent again.
//
//	case b.c <- b.backlog[0]:
//		b.backlog = b.backlog[1:]
//	default:
//
//	t2 = &b.backlog                t3 = *t2
//	t4 = &t3[0:int]                t5 = *t4      // sent
//	...in the case: *t2 = t9                     // the same field, written
func (d *branch) kept(v ssa.Value) bool {
	homes := homesOf(v, nil, 0)
	if len(homes) == 0 {
		return false
	}
	for b := range d.sendBlocks {
		for _, instr := range b.Instrs {
			var written []ssa.Value
			switch x := instr.(type) {
			case *ssa.Store:
				written = addrHomes(x.Addr)
			case *ssa.MapUpdate:
				written = homesOf(x.Map, []ssa.Value{x.Map}, 0)
			case *ssa.Call:
				if bi, ok := x.Call.Value.(*ssa.Builtin); ok && bi.Name() == "delete" {
					written = homesOf(x.Call.Args[0], []ssa.Value{x.Call.Args[0]}, 0)
				}
			}
			for _, w := range written {
				for _, h := range homes {
					if chans.SameValue(w, h) || sameElement(w, h) {
						return true
					}
				}
			}
		}
	}
	return false
}

// sameElement reports whether two homes are fields of one element of a
// collection the function works through (a watcher of the ones it syncs,
// not the function's receiver): the send case that writes any field of
// the element the value was built from (w.compacted = true after sending
// w's event) leaves the element as it was when the default runs, so the
// value can be built and sent again. Fields of a parameter or of a
// captured variable are too broad a match: every field of s is not the
// value sent from s.latest.
func sameElement(a, b ssa.Value) bool {
	fa, ok1 := a.(*ssa.FieldAddr)
	fb, ok2 := b.(*ssa.FieldAddr)
	if !ok1 || !ok2 || !chans.SameValue(fa.X, fb.X) {
		return false
	}
	switch fa.X.(type) {
	case *ssa.Parameter, *ssa.FreeVar:
		return false
	}
	return true
}

// homesOf returns the places v was read from: the field or global
// addresses, and the maps, that a load of v goes through.
func homesOf(v ssa.Value, out []ssa.Value, depth int) []ssa.Value {
	if depth > 6 {
		return out
	}
	switch x := v.(type) {
	case *ssa.UnOp:
		if x.Op != token.MUL {
			break
		}
		if a, ok := x.X.(*ssa.Alloc); ok {
			out = literalHomes(a, out, depth)
		} else {
			out = append(out, addrHomes(x.X)...)
		}
	case *ssa.Index:
		out = homesOf(x.X, out, depth+1)
	case *ssa.Lookup:
		out = append(out, x.X)
		out = homesOf(x.X, out, depth+1)
	case *ssa.Field:
		out = homesOf(x.X, out, depth+1)
	case *ssa.Extract:
		if l, ok := x.Tuple.(*ssa.Lookup); ok {
			out = homesOf(l, out, depth+1)
		}
	case *ssa.MakeInterface:
		out = homesOf(x.X, out, depth+1)
	case *ssa.ChangeType:
		out = homesOf(x.X, out, depth+1)
	case *ssa.Convert:
		out = homesOf(x.X, out, depth+1)
	}
	return out
}

// literalHomes returns the homes of the values a composite literal is
// built from:
//
//	t1 = local WatchResponse (complit)
//	t2 = &t1.WatchID
//	*t2 = t0.id                       // t0.id is read from w
//	t5 = *t1                          // sent
func literalHomes(a *ssa.Alloc, out []ssa.Value, depth int) []ssa.Value {
	for _, ref := range *a.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok {
			continue
		}
		for _, ref := range *fa.Referrers() {
			if st, ok := ref.(*ssa.Store); ok && st.Addr == fa {
				out = homesOf(st.Val, out, depth+1)
			}
		}
	}
	return out
}

// addrHomes returns the homes of an address: the field or global itself,
// and for an element, the homes of the slice, array or map holding it.
func addrHomes(addr ssa.Value) []ssa.Value {
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		return []ssa.Value{a}
	case *ssa.Global:
		return []ssa.Value{a}
	case *ssa.IndexAddr:
		if _, isSlice := a.X.(*ssa.UnOp); isSlice {
			return homesOf(a.X, nil, 0)
		}
		return addrHomes(a.X)
	}
	return nil
}
