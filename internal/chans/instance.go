package chans

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// OtherInstance reports whether the receive site r cannot be on the
// channel instance that send sends on ch: both load the channel from a
// field of a struct, and each struct is a different allocation the IR
// names (a composite literal in one function, captured or not). All values
// of a struct type share a field's name, not its channel: a subscription
// made by Consume and one made by Fetch have channels of their own, and
// Fetch's reader that stops says nothing about Consume's.
func OtherInstance(ch ssa.Value, r Site) bool {
	mine := fieldAlloc(ch)
	if mine == nil {
		return false
	}
	theirs := fieldAlloc(siteChan(r))
	return theirs != nil && theirs != mine
}

// siteChan returns the channel a receive site receives from.
func siteChan(r Site) ssa.Value {
	switch instr := r.Instr.(type) {
	case *ssa.UnOp:
		return instr.X
	case *ssa.Select:
		return instr.States[r.State].Chan
	}
	return nil
}

// fieldAlloc returns the allocation of the struct whose field ch is
// loaded from, when the IR shows one: t1 = new T (complit), directly, kept
// in a variable assigned once, or bound into the closure that loads it.
func fieldAlloc(ch ssa.Value) *ssa.Alloc {
	base, _, ok := fieldLoad(ch)
	if !ok {
		return nil
	}
	return structAlloc(base)
}

// structAlloc follows v, a pointer to a struct, to the composite literal
// it holds.
func structAlloc(v ssa.Value) *ssa.Alloc {
	switch v := v.(type) {
	case *ssa.Alloc:
		if isStructAlloc(v) {
			return v
		}
	case *ssa.FreeVar:
		if a, ok := boundValue(v).(*ssa.Alloc); ok && isStructAlloc(a) {
			return a
		}
	case *ssa.UnOp:
		// A load of a variable: the variable's one value.
		if v.Op != token.MUL {
			return nil
		}
		cell, _ := v.X.(*ssa.Alloc)
		if fv, ok := v.X.(*ssa.FreeVar); ok && !storedThrough(fv) {
			cell, _ = boundValue(fv).(*ssa.Alloc)
		}
		if cell != nil {
			return assignedOnce(cell)
		}
	}
	return nil
}

// storedThrough reports whether the closure assigns the captured variable
// fv.
func storedThrough(fv *ssa.FreeVar) bool {
	for _, ref := range *fv.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == fv {
			return true
		}
	}
	return false
}

// isStructAlloc reports whether a allocates a struct, not a variable.
func isStructAlloc(a *ssa.Alloc) bool {
	_, ok := a.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
	return ok
}

// assignedOnce returns the composite literal stored into the variable
// cell by its one assignment, or nil.
func assignedOnce(cell *ssa.Alloc) *ssa.Alloc {
	if lit, ok := storedOnce(cell).(*ssa.Alloc); ok && isStructAlloc(lit) {
		return lit
	}
	return nil
}

// boundValue returns the value bound to the free variable fv by the one
// closure that makes its function, or nil.
func boundValue(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	parent := fn.Parent()
	idx := slices.Index(fn.FreeVars, fv)
	if parent == nil || idx < 0 {
		return nil
	}
	var bound ssa.Value
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok || mc.Fn != fn {
				continue
			}
			if bound != nil {
				return nil // made more than once
			}
			bound = mc.Bindings[idx]
		}
	}
	return bound
}
