package chans

import (
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// A Write sets a field: a store, an atomic Store, Swap, CompareAndSwap or
// Add, or the call of a setter of this package that stores its parameter
// there (func (pc *T) setState(s S) { pc.st.Store(int32(s)) }), counted
// at each of its calls.
type Write struct {
	Instr ssa.Instruction
	// Value is the constant written, or nil when it is not a constant.
	Value constant.Value
	// Raise is set for an atomic Add of a positive constant
	// (atomic.AddInt32(&s.shutdown, 1)): the field grows, by an amount
	// Value does not hold.
	Raise bool
	// Fresh is set for a write into a struct its function allocated
	// itself: a constructor's, made before anyone else has the struct.
	Fresh bool
}

// Writes returns the writes of f in this package.
func (x *Index) Writes(f *types.Var) []Write {
	if x.writes == nil {
		x.writes = make(map[*types.Var][]Write)
		x.indexAtomicWrites()
	}
	out := x.writes[f]
	for _, st := range x.fieldSts[f] {
		out = append(out, x.writesOf(st, st.Val, st.Addr.(*ssa.FieldAddr))...)
	}
	return out
}

// indexAtomicWrites records every atomic write of a field.
func (x *Index) indexAtomicWrites() {
	for _, fn := range x.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				if f, w, ok := addWrite(call); ok {
					x.writes[f] = append(x.writes[f], w)
					continue
				}
				f := atomicField(call.Common(), "Store")
				if f == nil {
					continue
				}
				args := call.Common().Args
				v := args[len(args)-1] // Store(v), Swap(v), CompareAndSwap(old, v)
				x.writes[f] = append(x.writes[f], x.writesOf(call, v, args[0].(*ssa.FieldAddr))...)
			}
		}
	}
}

// addWrite reads an atomic Add, Sub, Inc or Dec of a field as a write of
// it: a Raise when it adds a small positive constant, and otherwise a
// write of a value the pass does not know. A large one may be a
// decrement of an unsigned field (AddUint32(&n, ^uint32(0))).
func addWrite(call *ssa.Call) (*types.Var, Write, bool) {
	op, fa := atomicOp(call.Common())
	if fa == nil || op != "Add" && op != "Sub" && op != "Inc" && op != "Dec" {
		return nil, Write{}, false
	}
	f := FieldOf(fa.X.Type(), fa.Field, true)
	if f == nil {
		return nil, Write{}, false
	}
	w := Write{Instr: call}
	switch args := call.Common().Args; op {
	case "Inc":
		w.Raise = true
	case "Add":
		d := constValue(stripConv(args[len(args)-1]))
		if n, exact := constInt(d); exact && n > 0 && n <= maxRaise {
			w.Raise = true
		}
	}
	return f, w, true
}

// maxRaise bounds the constant an Add may add to count as a raise.
const maxRaise = 1 << 16

// constInt returns the value of an integer constant.
func constInt(v constant.Value) (int64, bool) {
	if v == nil || v.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(v)
}

// stops reports whether the write w leaves g's field at a value g stops,
// for good as far as w goes: a constant g stops, or a raise of a field
// that only ever grows from zero (every write of it in the package is a
// raise or a constructor's zero) when g lets through only zero. That is
// the shape of `if atomic.AddInt32(&s.shutdown, 1) != 1 { return }` in
// Stop, tested as `atomic.LoadInt32(&s.shutdown) != 0` by the senders.
func (x *Index) stops(g Guard, w Write) bool {
	if w.Value != nil {
		return g.Stops(w.Value)
	}
	return w.Raise && g.only != nil && constant.Sign(g.only) == 0 && x.growsFromZero(g.Field)
}

// growsFromZero reports whether every write of f is a raise, or a write
// of zero into a struct its function just made.
func (x *Index) growsFromZero(f *types.Var) bool {
	for _, w := range x.Writes(f) {
		if w.Raise {
			continue
		}
		if n, isInt := constInt(w.Value); !w.Fresh || !isInt || n != 0 {
			return false
		}
	}
	return true
}

// writesOf returns the writes that instr, which stores v through addr,
// stands for: itself, or, when v is a parameter of a setter whose calls
// are all in sight, each of those calls with the argument it passes.
func (x *Index) writesOf(instr ssa.Instruction, v ssa.Value, addr *ssa.FieldAddr) []Write {
	fresh := false
	if a, ok := addr.X.(*ssa.Alloc); ok && a.Parent() == instr.Parent() {
		fresh = true
	}
	v = stripConv(v)
	p, isParam := v.(*ssa.Parameter)
	if !isParam {
		return []Write{{Instr: instr, Value: constValue(v), Fresh: fresh}}
	}
	fn := instr.Parent()
	sites, ok := x.callers(fn)
	i := paramIndex(p)
	if !ok || i < 0 || len(sites) == 0 {
		return []Write{{Instr: instr}}
	}
	var out []Write
	for _, c := range sites {
		args := c.Common().Args
		if i >= len(args) {
			return []Write{{Instr: instr}}
		}
		a, fresh := args[0].(*ssa.Alloc) // pc.setState(initial) on the pc just made
		out = append(out, Write{Instr: c, Value: constValue(stripConv(args[i])), Fresh: fresh && a.Parent() == c.Parent()})
	}
	return out
}

func constValue(v ssa.Value) constant.Value {
	if c, ok := v.(*ssa.Const); ok {
		return c.Value
	}
	return nil
}

// stripConv strips the conversions around v: int32(state), State(n).
func stripConv(v ssa.Value) ssa.Value {
	for {
		switch c := v.(type) {
		case *ssa.ChangeType:
			v = c.X
		case *ssa.Convert:
			v = c.X
		default:
			return v
		}
	}
}

// WrittenBefore returns the writes of a value g stops that run before
// instr on every path through its function: in a block that dominates
// instr's, or earlier in its own, made there or by a function called
// there that makes the write on every path to its return
// (pc.chunks.Close(), which sets closed under its own lock).
func (x *Index) WrittenBefore(g Guard, instr ssa.Instruction) []ssa.Instruction {
	stops := make(map[ssa.Instruction]bool)
	for _, w := range x.Writes(g.Field) {
		if x.stops(g, w) {
			stops[w.Instr] = true
		}
	}
	var out []ssa.Instruction
	flow.Before(instr, func(in ssa.Instruction) bool {
		if stops[in] {
			out = append(out, in)
		} else if call, ok := in.(*ssa.Call); ok {
			if callee := call.Call.StaticCallee(); callee != nil && callee.Pkg == x.pkg {
				out = append(out, alwaysIn(callee, stops)...)
			}
		}
		return false
	})
	return out
}

// alwaysIn returns the instructions of stops in fn that run on every path
// to each of its returns.
func alwaysIn(fn *ssa.Function, stops map[ssa.Instruction]bool) []ssa.Instruction {
	var out []ssa.Instruction
	for in := range stops {
		if in.Parent() != fn {
			continue
		}
		always := true
		for _, b := range fn.Blocks {
			if b == fn.Recover {
				continue // entered only by a panic
			}
			if _, ret := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ret && !in.Block().Dominates(b) {
				always = false
			}
		}
		if always {
			out = append(out, in)
		}
	}
	return out
}

// Reopened reports whether the package writes into g's field a value g
// lets through, or one it cannot read, other than where the field's
// struct is made: a flag that is cleared again, a state that goes back
// to ready.
func (x *Index) Reopened(g Guard) bool {
	for _, w := range x.Writes(g.Field) {
		if !w.Fresh && !x.stops(g, w) {
			return true
		}
	}
	return false
}

// ShutdownWrite reports whether the package writes a value g stops in a
// function that shuts something down: it closes a channel or calls a func
// value held in a field (a context's cancel, a stop function). That is
// the shape of a Close that marks its object closed and then stops the
// goroutines that serve it; a flag set on the way in (registered = true)
// is not one.
func (x *Index) ShutdownWrite(g Guard) bool {
	for _, w := range x.Writes(g.Field) {
		if x.stops(g, w) && shutsDown(w.Instr.Parent()) {
			return true
		}
	}
	return false
}
