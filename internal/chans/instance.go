package chans

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
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
	base, _, ok := FieldLoad(ch)
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
	if lit, ok := StoredOnce(cell).(*ssa.Alloc); ok && isStructAlloc(lit) {
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

// ReceivedOncePerCall reports whether the receive r takes, once, from a
// channel that the call of its function makes for itself: the receive is
// in no loop, and the channel is made in that function or is the field of
// a struct it allocates or gets from a constructor of the package, a field
// that every store in the package fills with a channel made for a new
// struct. Nothing the function does after the receive can keep that
// channel from being received from, since it is never received from
// again; and no other call of the function receives from it.
//
//	sema := newSema()         // &sema{ready: make(chan bool, 1)}
//	pq.waiters.put(sema)      // under pq.lock, released before the receive
//	<-sema.ready
//	if pq.Disposed() { ... }  // takes pq.disposeLock: after the one receive
func (x *Index) ReceivedOncePerCall(r Site) bool {
	if flow.Reaches(r.Instr, r.Instr) {
		return false
	}
	ch := siteChan(r)
	if mk, ok := ch.(*ssa.MakeChan); ok {
		return mk.Parent() == r.Func
	}
	base, field, ok := FieldLoad(ch)
	if !ok || !x.filledFresh(FieldOf(base.Type(), field, true)) {
		return false
	}
	if a := structAlloc(base); a != nil {
		return a.Parent() == r.Func
	}
	call, ok := base.(*ssa.Call)
	return ok && returnsNew(call.Call.StaticCallee())
}

// filledFresh reports whether every store into field f in the package
// puts a channel made in the same function into a struct allocated there.
func (x *Index) filledFresh(f *types.Var) bool {
	if f == nil || f.Pkg() != x.pkg.Pkg {
		return false
	}
	stores := x.fieldSts[f]
	for _, s := range stores {
		mk, isMake := s.Val.(*ssa.MakeChan)
		a, isAlloc := s.Addr.(*ssa.FieldAddr).X.(*ssa.Alloc)
		if !isMake || !isAlloc || !isStructAlloc(a) || mk.Parent() != a.Parent() {
			return false
		}
	}
	return len(stores) > 0
}

// returnsNew reports whether fn, a function of the package, returns on
// every path a struct it has just allocated.
func returnsNew(fn *ssa.Function) bool {
	if fn == nil || fn.Signature.Results().Len() != 1 || len(fn.Blocks) == 0 {
		return false
	}
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if a, ok := ret.Results[0].(*ssa.Alloc); !ok || !isStructAlloc(a) {
			return false
		}
	}
	return true
}
