package chans

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// A buffer sized at run time is often sized to its senders: a hedged
// call makes room for params.MaxAttempts answers and starts an attempt
// only while attempt < params.MaxAttempts. Whether the senders stay
// within such a bound is a protocol the pass cannot count, so it cannot
// show that more values than the buffer holds reach one channel. What it
// can see is that the value the size is computed from also bounds a
// count: it is compared with, or subtracted from, a value that is not a
// constant. A size compared only with constants (a check that an option
// is positive) bounds nothing.

// SizeBound returns, for a make whose capacity is not a constant, an
// instruction of the package outside test files that bounds a count by
// the value the capacity is computed from: the same SSA value, a load of
// the same field, or len of either. ok is false when the capacity is a
// constant or nothing bounds a count with it.
func (x *Index) SizeBound(mk *ssa.MakeChan) (at ssa.Instruction, ok bool) {
	if _, isConst := mk.Size.(*ssa.Const); isConst {
		return nil, false
	}
	for _, r := range sizeRoots(mk.Size, false) {
		for _, v := range x.rootValues(r) {
			if at := boundUse(v, mk); at != nil {
				return at, true
			}
		}
	}
	return nil, false
}

// A sizeRoot is what a capacity is computed from: a value, or a field
// whose every load stands for it, or the length of either.
type sizeRoot struct {
	val    ssa.Value
	field  *types.Var
	length bool
}

// sizeRoots returns the roots of v: through conversions, the operands of
// arithmetic that are not constants, and the argument of len or cap.
func sizeRoots(v ssa.Value, length bool) []sizeRoot {
	switch v := v.(type) {
	case *ssa.Const:
		return nil
	case *ssa.Convert:
		return sizeRoots(v.X, length)
	case *ssa.ChangeType:
		return sizeRoots(v.X, length)
	case *ssa.BinOp:
		return append(sizeRoots(v.X, length), sizeRoots(v.Y, length)...)
	case *ssa.Call:
		if b, ok := v.Call.Value.(*ssa.Builtin); ok && (b.Name() == "len" || b.Name() == "cap") && !length {
			return append([]sizeRoot{{val: v}}, sizeRoots(v.Call.Args[0], true)...)
		}
	case *ssa.UnOp:
		if addr, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL {
			if f := FieldOf(addr.X.Type(), addr.Field, true); f != nil {
				return []sizeRoot{{val: v, field: f, length: length}}
			}
		}
	case *ssa.Field:
		if f := FieldOf(v.X.Type(), v.Field, false); f != nil {
			return []sizeRoot{{val: v, field: f, length: length}}
		}
	}
	return []sizeRoot{{val: v, length: length}}
}

// rootValues returns the values that stand for r where a count may be
// bounded: r's value itself and every load of its field, and for a
// length every len of those.
func (x *Index) rootValues(r sizeRoot) []ssa.Value {
	vals := []ssa.Value{r.val}
	if r.field != nil {
		for _, load := range x.fieldLoads()[r.field] {
			if load != r.val {
				vals = append(vals, load)
			}
		}
	}
	if !r.length {
		return vals
	}
	var lens []ssa.Value
	for _, v := range vals {
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, ref := range *refs {
			if call, ok := ref.(*ssa.Call); ok {
				if b, ok := call.Call.Value.(*ssa.Builtin); ok && b.Name() == "len" {
					lens = append(lens, call)
				}
			}
		}
	}
	return lens
}

// boundUse returns a use of v, other than by the make mk, that compares
// it with or subtracts it from a value that is not a constant, looking
// through one conversion.
func boundUse(v ssa.Value, mk *ssa.MakeChan) ssa.Instruction {
	refs := v.Referrers()
	if refs == nil {
		return nil
	}
	for _, ref := range *refs {
		if ref == mk || InTestFile(ref) {
			continue
		}
		if c, ok := ref.(*ssa.Convert); ok {
			if at := boundUse(c, mk); at != nil {
				return at
			}
			continue
		}
		op, ok := ref.(*ssa.BinOp)
		if !ok || !countsAgainst(op.Op) {
			continue
		}
		other := op.X
		if other == v {
			other = op.Y
		}
		if _, isConst := other.(*ssa.Const); !isConst {
			return op
		}
	}
	return nil
}

// countsAgainst reports whether op compares two counts or takes one from
// another.
func countsAgainst(op token.Token) bool {
	switch op {
	case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ, token.SUB:
		return true
	}
	return false
}

// UncountedRuns reports whether every send into u's channel is the one
// value of a run its owner started (see alone), and the owner starts each
// run from a loop it cannot count: one with no bound of its own, such as
// for { select { ... } }, or one over what a channel delivers. Runs
// started from a loop over a slice, a map or up to a number are counted
// against the buffer elsewhere (roomPerRun), and a run that sends more
// than once fills the buffer by itself.
func (x *Index) UncountedRuns(u *Uses) bool {
	if len(u.Sends) == 0 {
		return false
	}
	for _, s := range u.Sends {
		if s.Start == nil || !x.alone(u, s) || !x.inUncountedLoop(s.Start) {
			return false
		}
	}
	return true
}

// inUncountedLoop reports whether a loop around instr has no bound of its
// own (see counted).
func (x *Index) inUncountedLoop(instr ssa.Instruction) bool {
	for _, l := range x.Loops(instr.Parent()).Containing(instr.Block()) {
		if !counted(l) {
			return true
		}
	}
	return false
}

// counted reports whether the loop l tests, in its header, an order
// between two numbers (i < n, a range over a slice or up to a number) or
// a map or string's next entry: it runs as often as a count it was given.
//
//	rangeindex.loop:
//		t5 = phi [0: -1:int, 1: t6]
//		t6 = t5 + 1:int
//		t7 = t6 < t4                // t4 = len(witnesses)
//		if t7 goto 2 else 3
func counted(l *flow.Loop) bool {
	n := len(l.Header.Instrs)
	if n == 0 {
		return false
	}
	cond, ok := l.Header.Instrs[n-1].(*ssa.If)
	if !ok {
		return false
	}
	switch c := cond.Cond.(type) {
	case *ssa.BinOp:
		switch c.Op {
		case token.LSS, token.LEQ, token.GTR, token.GEQ:
			return true
		}
	case *ssa.Extract:
		_, next := c.Tuple.(*ssa.Next)
		return next
	}
	return false
}
