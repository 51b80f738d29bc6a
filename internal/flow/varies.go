package flow

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// Varies reports whether v can differ between iterations of l. A value
// made before the loop cannot; inside it, loads, fields, elements and
// conversions of values that cannot vary cannot either. Anything else
// computed inside the loop (a loop variable, a value received or returned
// anew on each trip, a type assertion) is taken to vary.
func Varies(v ssa.Value, l *Loop) bool { return varies(v, l, 0) }

func varies(v ssa.Value, l *Loop, depth int) bool {
	instr, ok := v.(ssa.Instruction)
	if !ok || !l.Blocks[instr.Block()] {
		return false
	}
	if depth > 8 {
		return true
	}
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return true // a receive, or arithmetic on one
		}
		if a, ok := v.X.(*ssa.Alloc); ok {
			return storedIn(a, l)
		}
		return varies(v.X, l, depth+1)
	case *ssa.FieldAddr:
		return varies(v.X, l, depth+1)
	case *ssa.Field:
		return varies(v.X, l, depth+1)
	case *ssa.IndexAddr:
		return varies(v.X, l, depth+1) || varies(v.Index, l, depth+1)
	case *ssa.Index:
		return varies(v.X, l, depth+1) || varies(v.Index, l, depth+1)
	case *ssa.Lookup:
		return varies(v.X, l, depth+1) || varies(v.Index, l, depth+1)
	case *ssa.Extract:
		return varies(v.Tuple, l, depth+1)
	case *ssa.ChangeType:
		return varies(v.X, l, depth+1)
	case *ssa.Convert:
		return varies(v.X, l, depth+1)
	case *ssa.MakeInterface:
		return varies(v.X, l, depth+1)
	case *ssa.BinOp:
		return varies(v.X, l, depth+1) || varies(v.Y, l, depth+1)
	}
	return true
}

// storedIn reports whether the loop stores into the local variable a: a
// variable a closure captures, set anew on each trip.
func storedIn(a *ssa.Alloc, l *Loop) bool {
	for _, ref := range *a.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == a && l.Blocks[st.Block()] {
			return true
		}
	}
	return false
}
