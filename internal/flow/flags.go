package flow

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// flags are a function's boolean variables that are only ever assigned
// constants, such as a "received already" flag:
//
//	stopped := false
//	...
//	case ok = <-stop:
//		stopped = true
//	...
//	if !stopped {
//		<-stop
//	}
//
// In SSA each is a web of phis whose incoming values are constants or
// other phis of the web. Following their values along a path lets a
// search skip the branches a flag rules out.
//
// A variable that starts nil and is set by a receive (see nilWeb) is
// followed the same way, by whether it is nil: a stop request taken in a
// loop, or else waited for after it.
//
//	var errc chan error
//	for errc == nil && err == nil {
//		select {
//		case errc = <-quit:
//		case <-tick:
//		}
//	}
//	if errc == nil {
//		errc = <-quit      // taken here unless the loop took it
//	}
//
// Its bit says "is nil", known on the edges that carry the nil constant,
// a channel just made, or another followed phi.
type flags struct {
	bit map[*ssa.Phi]uint
}

// maxFlags bounds the flags followed in one function: one bit each.
const maxFlags = 64

// env is what a path knows of the flags: known has a bit set for each
// flag whose value it knows, val that value.
type env struct{ known, val uint64 }

// findFlags returns fn's flags, or nil when it has none or too many.
func findFlags(fn *ssa.Function) *flags {
	cand := make(map[*ssa.Phi]bool)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if phi, ok := instr.(*ssa.Phi); ok && isBool(phi.Type()) {
				cand[phi] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for phi := range cand {
			for _, e := range phi.Edges {
				if _, ok := boolConst(e); ok {
					continue
				}
				if p, ok := e.(*ssa.Phi); ok && cand[p] {
					continue
				}
				delete(cand, phi)
				changed = true
				break
			}
		}
	}
	return bits(fn, cand)
}

// bits numbers the phis of cand, in block order so that bits are stable,
// or returns nil when there are none or too many to follow.
func bits(fn *ssa.Function, cand map[*ssa.Phi]bool) *flags {
	if len(cand) == 0 || len(cand) > maxFlags {
		return nil
	}
	f := &flags{bit: make(map[*ssa.Phi]uint, len(cand))}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if phi, ok := instr.(*ssa.Phi); ok && cand[phi] {
				f.bit[phi] = uint(len(f.bit))
			}
		}
	}
	return f
}

// enter returns e as it is once the edge from → to is taken: the flags
// among to's phis take their values on that edge, all at once.
func (f *flags) enter(e env, from, to *ssa.BasicBlock) env {
	if f == nil {
		return e
	}
	k := predIndex(to, from)
	out := e
	for _, instr := range to.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		i, ok := f.bit[phi]
		if !ok || k < 0 {
			continue
		}
		mask := uint64(1) << i
		out.known &^= mask
		out.val &^= mask
		eval := f.eval
		if !isBool(phi.Type()) {
			eval = f.isNil
		}
		if v, ok := eval(e, phi.Edges[k]); ok {
			out.known |= mask
			if v {
				out.val |= mask
			}
		}
	}
	return out
}

// succs returns the successors of b that a path knowing e can take: both
// arms of a branch, unless e decides its condition, or the condition
// compares constants (0 < 2, the entry test of a range over 2). Any f,
// nil included, folds constants.
func (f *flags) succs(e env, b *ssa.BasicBlock) []*ssa.BasicBlock {
	if len(b.Succs) != 2 || len(b.Instrs) == 0 {
		return b.Succs
	}
	br, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return b.Succs
	}
	v, ok := f.eval(e, br.Cond)
	switch {
	case !ok:
		return b.Succs
	case v:
		return b.Succs[:1]
	}
	return b.Succs[1:]
}

// eval returns v's value on a path that knows e, when e decides it.
func (f *flags) eval(e env, v ssa.Value) (bool, bool) {
	switch v := v.(type) {
	case *ssa.Const:
		return boolConst(v)
	case *ssa.BinOp:
		if nilTest, ok := f.nilTest(e, v); ok {
			return nilTest, true
		}
		x, okx := v.X.(*ssa.Const)
		y, oky := v.Y.(*ssa.Const)
		if !okx || !oky || x.Value == nil || y.Value == nil || !isComparison(v.Op) {
			return false, false
		}
		return constant.Compare(x.Value, v.Op, y.Value), true
	case *ssa.Phi:
		if f == nil {
			return false, false
		}
		i, ok := f.bit[v]
		if !ok || e.known&(1<<i) == 0 {
			return false, false
		}
		return e.val&(1<<i) != 0, true
	case *ssa.UnOp:
		if v.Op == token.NOT {
			x, ok := f.eval(e, v.X)
			return !x, ok
		}
	}
	return false, false
}

// nilTest decides v == nil and v != nil for a followed phi v.
func (f *flags) nilTest(e env, v *ssa.BinOp) (bool, bool) {
	if v.Op != token.EQL && v.Op != token.NEQ {
		return false, false
	}
	x, y := v.X, v.Y
	if isNilConst(x) {
		x, y = y, x
	}
	phi, ok := x.(*ssa.Phi)
	if !ok || !isNilConst(y) || isBool(phi.Type()) {
		return false, false
	}
	isNil, ok := f.isNil(e, phi)
	return isNil == (v.Op == token.EQL), ok
}

// isNil says whether v, the value a followed phi takes on an edge, is
// nil, when e decides it.
func (f *flags) isNil(e env, v ssa.Value) (bool, bool) {
	switch v := v.(type) {
	case *ssa.Const:
		return v.IsNil(), true
	case *ssa.MakeChan:
		return false, true
	case *ssa.Phi:
		return f.eval(e, v)
	}
	return false, false
}

// nilWeb returns the flags of fn's variables that start nil and are set
// only by the values taken says come from a receive, or back to nil (an
// error reset after each try): a web of phis whose incoming values are
// the nil constant, a channel just made, a taken value or another phi of
// the web. Only these are followed, so a function with many other flags
// stays cheap to search.
func nilWeb(fn *ssa.Function, taken func(ssa.Value) bool) *flags {
	cand := make(map[*ssa.Phi]bool)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if phi, ok := instr.(*ssa.Phi); ok && nillable(phi.Type()) {
				cand[phi] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for phi := range cand {
			for _, e := range phi.Edges {
				switch e := e.(type) {
				case *ssa.Const, *ssa.MakeChan:
					continue
				case *ssa.Phi:
					if cand[e] {
						continue
					}
				}
				if taken(e) {
					continue
				}
				delete(cand, phi)
				changed = true
				break
			}
		}
	}
	return bits(fn, cand)
}

// withTested returns nilWeb's flags and, besides them, the variables of fn
// that a branch tests against nil and nothing else sets from a receive (an
// error a call returned). Their value is not known when set, but a path
// learns it from the branch it takes (see learn), so a later test of the
// same variable goes the same way:
//
//	for errc == nil && err == nil { ... }   // leaves with err != nil, or errc taken
//	if err != nil {
//		errc = <-quit                         // so a path with err set takes the request here
//	}
//
// It returns nil when that adds no variable or makes too many to follow.
func withTested(fn *ssa.Function, taken func(ssa.Value) bool) *flags {
	web := nilWeb(fn, taken)
	cand := make(map[*ssa.Phi]bool)
	if web != nil {
		for phi := range web.bit {
			cand[phi] = true
		}
	}
	added := false
	for _, b := range fn.Blocks {
		br, ok := lastIf(b)
		if !ok {
			continue
		}
		if phi, _, ok := testedNil(br.Cond); ok && !cand[phi] {
			cand[phi], added = true, true
		}
	}
	if !added {
		return nil
	}
	return bits(fn, cand)
}

// learn returns e as a path knows it once it leaves b for s: when b ends
// in a nil test of a followed variable, the arm taken says whether it is
// nil.
func (f *flags) learn(e env, b, s *ssa.BasicBlock) env {
	if f == nil {
		return e
	}
	br, ok := lastIf(b)
	if !ok || b.Succs[0] == b.Succs[1] {
		return e
	}
	phi, nilWhenTrue, ok := testedNil(br.Cond)
	if !ok {
		return e
	}
	i, ok := f.bit[phi]
	if !ok {
		return e
	}
	e.known |= 1 << i
	e.val &^= 1 << i
	if (s == b.Succs[0]) == nilWhenTrue {
		e.val |= 1 << i
	}
	return e
}

// lastIf returns the branch that ends b, if any.
func lastIf(b *ssa.BasicBlock) (*ssa.If, bool) {
	if len(b.Instrs) == 0 || len(b.Succs) != 2 {
		return nil, false
	}
	br, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	return br, ok
}

// testedNil returns the non-boolean phi cond compares with nil, and
// whether cond is true when it is nil.
func testedNil(cond ssa.Value) (phi *ssa.Phi, nilWhenTrue, ok bool) {
	cmp, ok := cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
		return nil, false, false
	}
	x, y := cmp.X, cmp.Y
	if isNilConst(x) {
		x, y = y, x
	}
	phi, ok = x.(*ssa.Phi)
	if !ok || !isNilConst(y) || isBool(phi.Type()) || !nillable(phi.Type()) {
		return nil, false, false
	}
	return phi, cmp.Op == token.EQL, true
}

// nillable reports whether nil is a value of t.
func nillable(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Chan, *types.Interface, *types.Pointer, *types.Map, *types.Slice, *types.Signature:
		return true
	}
	return false
}

func isNilConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}

func isComparison(op token.Token) bool {
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

func boolConst(v ssa.Value) (bool, bool) {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Bool {
		return false, false
	}
	return constant.BoolVal(c.Value), true
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

func predIndex(b, pred *ssa.BasicBlock) int {
	for i, p := range b.Preds {
		if p == pred {
			return i
		}
	}
	return -1
}
