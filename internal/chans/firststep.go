package chans

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// firstStep is a guard that lets one caller through per object: the
// result of an atomic step on a counter field of the object the channel is
// a field of, compared with a constant, or a compare-and-swap of it.
//
//	if b.failed.Add(1) == 1 { b.err <- err }    // the first failure only
//	if b.pending.Add(-1) == 0 { b.done <- v }   // the last success only
//	if b.closed.CompareAndSwap(false, true) { b.stopped <- v }
//
// When every write of the counter moves it the same way (all increments,
// or all decrements), it takes each value once, so one step at most sees
// the constant; when every write is that compare-and-swap, one succeeds.
type firstStep struct {
	counter *types.Var
	object  types.Type        // the struct that holds it
	dir     int               // +1 or -1 for steps, 0 for a compare-and-swap
	cas     [2]constant.Value // old and new of the compare-and-swap
}

// firstStepOnly reports whether every send on field f is guarded by the
// first step of one counter of the same object (see firstStep), a
// counter that nothing resets once the object is shared: the sends
// together put one value at most into each object's channel, however many
// goroutines run them.
func (x *Index) firstStepOnly(f *types.Var) bool {
	var guard *firstStep
	ok := true
	x.sendsOnField(f, func(instr ssa.Instruction, ch ssa.Value) {
		send, isSend := instr.(*ssa.Send)
		fa := loadedAddr(ch)
		if !isSend || fa == nil {
			ok = false
			return
		}
		g := firstStepGuard(send.Block(), fa.X)
		if g == nil || guard != nil && !g.same(guard) {
			ok = false
			return
		}
		guard = g
	})
	return ok && x.monotone(guard)
}

// same reports whether g and h are the same guard.
func (g *firstStep) same(h *firstStep) bool {
	return g.counter == h.counter && g.dir == h.dir && g.sameCAS(h.cas)
}

// sameCAS reports whether g's compare-and-swap has the old and new values cas.
func (g *firstStep) sameCAS(cas [2]constant.Value) bool {
	for i, v := range g.cas {
		if (v == nil) != (cas[i] == nil) || v != nil && !constant.Compare(v, token.EQL, cas[i]) {
			return false
		}
	}
	return true
}

// firstStepGuard returns the first-step guard on a counter of base that
// dominates b, or nil.
func firstStepGuard(b *ssa.BasicBlock, base ssa.Value) *firstStep {
	for d := b.Idom(); d != nil; d = d.Idom() {
		iff, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		g, taken := stepTest(iff.Cond, base)
		if g != nil && flow.EdgeDominates(d, d.Succs[taken], b) {
			return g
		}
	}
	return nil
}

// stepTest returns the guard cond tests and the successor (0 or 1) its
// first step takes.
func stepTest(cond ssa.Value, base ssa.Value) (*firstStep, int) {
	switch c := cond.(type) {
	case *ssa.UnOp:
		if c.Op == token.NOT {
			g, taken := stepTest(c.X, base)
			return g, 1 - taken
		}
	case *ssa.Call:
		if g := stepOf(c, base); g != nil && g.dir == 0 {
			return g, 0
		}
	case *ssa.BinOp:
		if c.Op != token.EQL && c.Op != token.NEQ {
			return nil, 0
		}
		call, _ := c.X.(*ssa.Call)
		if _, isConst := c.Y.(*ssa.Const); !isConst || call == nil {
			return nil, 0
		}
		if g := stepOf(call, base); g != nil && g.dir != 0 {
			if c.Op == token.EQL {
				return g, 0
			}
			return g, 1
		}
	}
	return nil, 0
}

// stepOf returns the guard an atomic step or compare-and-swap on a counter
// field of base stands for, or nil.
func stepOf(call *ssa.Call, base ssa.Value) *firstStep {
	op, fa := atomicOp(call.Common())
	if fa == nil || fa.X != base {
		return nil
	}
	g := &firstStep{counter: FieldOf(fa.X.Type(), fa.Field, true), object: fa.X.Type()}
	args := call.Common().Args
	switch op {
	case "Add", "Sub", "Inc", "Dec":
		g.dir = stepDir(op, args)
		if g.dir == 0 {
			return nil
		}
	case "CompareAndSwap":
		old, nu := constValue(args[len(args)-2]), constValue(args[len(args)-1])
		if old == nil || nu == nil || constant.Compare(old, token.EQL, nu) {
			return nil
		}
		g.cas = [2]constant.Value{old, nu}
	default:
		return nil
	}
	return g
}

// stepDir returns +1 or -1 for a step by a constant of known sign, else 0.
func stepDir(op string, args []ssa.Value) int {
	switch op {
	case "Inc":
		return 1
	case "Dec":
		return -1
	}
	k, ok := args[len(args)-1].(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.Int {
		return 0
	}
	if b, ok := k.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsUnsigned != 0 {
		return 0 // x.Add(^uint32(0)) is a decrement
	}
	sign := constant.Sign(k.Value)
	if op == "Sub" {
		sign = -sign
	}
	return sign
}

// monotone reports whether every use of g's counter in the package keeps
// the guard a first step: reads, steps in its direction (or, for a
// compare-and-swap, that same compare-and-swap), and writes made to a
// fresh object before anything can share it. The field is unexported and
// of a type of this package, so no other package touches it.
func (x *Index) monotone(g *firstStep) bool {
	if g == nil || g.counter == nil || g.counter.Exported() || g.counter.Pkg() != x.pkg.Pkg {
		return false
	}
	for _, fn := range x.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.FieldAddr:
					if FieldOf(instr.X.Type(), instr.Field, true) == g.counter && !x.keepsStep(instr, g) {
						return false
					}
				case *ssa.Store:
					// *b = tracker{} resets every counter of b.
					if types.Identical(instr.Addr.Type(), g.object) && !beforeShared(instr.Addr, instr) {
						return false
					}
				}
			}
		}
	}
	return true
}

// keepsStep reports whether every use of the counter's address fa is one
// monotone allows.
func (x *Index) keepsStep(fa *ssa.FieldAddr, g *firstStep) bool {
	for _, ref := range *fa.Referrers() {
		switch ref := ref.(type) {
		case *ssa.UnOp:
			if ref.Op != token.MUL {
				return false
			}
		case *ssa.DebugRef:
		case *ssa.Store:
			if ref.Addr != fa || !beforeShared(fa.X, ref) {
				return false
			}
		case *ssa.Call:
			op, at := atomicOp(ref.Common())
			if at != fa || !x.keepsStepCall(ref, op, g) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func (x *Index) keepsStepCall(call *ssa.Call, op string, g *firstStep) bool {
	switch op {
	case "Load":
		return true
	case "Add", "Sub", "Inc", "Dec":
		return g.dir != 0 && stepDir(op, call.Common().Args) == g.dir
	case "CompareAndSwap":
		s := stepOf(call, call.Common().Args[0].(*ssa.FieldAddr).X)
		if g.dir == 0 && s != nil && g.sameCAS(s.cas) {
			return true
		}
	}
	return beforeShared(call.Common().Args[0].(*ssa.FieldAddr).X, call)
}

// beforeShared reports whether instr, a write into the object at base,
// sets up an object its function has just allocated before anything else
// can see it: no closure, goroutine or other use of the object can reach
// the write, and the write runs once per allocation.
//
//	t := tracker{done: make(chan struct{}, 1)}
//	t.pending.Store(int32(len(keys))) // before the workers start
func beforeShared(base ssa.Value, instr ssa.Instruction) bool {
	alloc, ok := base.(*ssa.Alloc)
	if !ok || alloc.Parent() != instr.Parent() || flow.Reaches(instr, instr) {
		return false
	}
	for _, b := range instr.Parent().Blocks {
		for _, in := range b.Instrs {
			switch in.(type) {
			case *ssa.Go, *ssa.MakeClosure, *ssa.Defer:
				if flow.Reaches(in, instr) {
					return false
				}
			}
		}
	}
	for _, ref := range *alloc.Referrers() {
		if !sharesNot(ref, alloc) && flow.Reaches(ref, instr) {
			return false
		}
	}
	return true
}

// sharesNot reports whether ref, a use of alloc, cannot let anyone else
// reach the object: it addresses one of its fields, or writes it whole.
func sharesNot(ref ssa.Instruction, alloc *ssa.Alloc) bool {
	switch ref := ref.(type) {
	case *ssa.FieldAddr, *ssa.DebugRef:
		return true
	case *ssa.Store:
		return ref.Addr == alloc
	}
	return false
}
