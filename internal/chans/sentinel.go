package chans

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// A drain that cannot close its channel (other goroutines may still send
// on it) marks the end of what it must take with a sentinel: it starts a
// goroutine that sends a value no other sender sends, and then receives
// until that value comes.
//
//	go func() {
//		ch <- nil                 // send t0 <- nil:*request
//	}()
//	for req := range ch {         // t4 = <-ch,ok; ...; t6 = extract t4 #0
//		if req == nil {           // t7 = t6 == nil:*request; if t7 goto done else body
//			break
//		}
//		handle(req)
//	}
//
// The receiver leaves its loop only on that value (or the close, after
// which the send could not wait), and it runs that loop after every start
// of the goroutine, before it starts another: it is there until it takes
// the sentinel. A second sentinel the goroutine sends once the first was
// taken, for a second loop that follows the first, waits as well, provided
// nobody but that receiver's goroutine can take the first.

// maxSentinelChain bounds how many earlier sentinels of one goroutine
// AwaitedSentinel follows.
const maxSentinelChain = 4

// AwaitedSentinel reports whether the send is a drain's sentinel that its
// receiver waits for, so that it cannot block forever:
//
//   - it sends a constant (nil, or a constant the receiver compares with)
//     that no other send of the package on the channel can send, on a
//     channel whose every sender is in this package (chanSetOf);
//   - it lies in a function literal that only go statements start, outside
//     the literal's loops, so each start sends it once;
//   - after each of those go statements, the starting function reaches a
//     plain receive from the same channel before it returns, starts the
//     literal again or takes a value of the channel elsewhere, and once
//     there it comes back to that receive until the value it took is the
//     sentinel or the channel is closed (drainFor);
//   - every earlier drain of the same goroutine the receiver passes on its
//     way, it passes for good (chainedDrains).
//
// The receiver's function may still block in the loop's body; that is not
// this send's to answer for.
func (x *Index) AwaitedSentinel(send *ssa.Send) bool { return x.awaited(send, 0) }

func (x *Index) awaited(send *ssa.Send, depth int) bool {
	sentinel, ok := send.X.(*ssa.Const)
	g := send.Parent()
	if !ok || depth > maxSentinelChain || g.Parent() == nil || x.escaped[g] || x.Loops(g).InLoop(send.Block()) {
		return false
	}
	set, ok := x.chanSetOf(send.Chan)
	if !ok || !x.onlySentinel(set, send, sentinel) {
		return false
	}
	starts, ok := x.entries(g)
	if !ok || len(starts) == 0 {
		return false
	}
	for _, e := range starts {
		start, ok := e.(*ssa.Go)
		if !ok || goEntry(start) != g || !x.drainFor(send, sentinel, set, start, depth) {
			return false
		}
	}
	return true
}

// drainFor reports whether the function holding start, a go statement
// that starts the sender of the sentinel, then waits for it in a receive
// loop that only the sentinel or the close ends (see AwaitedSentinel).
func (x *Index) drainFor(send *ssa.Send, sentinel *ssa.Const, set *chanSet, start *ssa.Go, depth int) bool {
	r := start.Parent()
	binds := startBindings(start)
	for _, b := range r.Blocks {
		for _, instr := range b.Instrs {
			recv, ok := instr.(*ssa.UnOp)
			if !ok || recv.Op != token.ARROW || !sameAcross(send.Chan, recv.X, binds) {
				continue
			}
			// Neither walk may meet another start of the sender (two
			// sentinels for one loop) or another receive of the channel
			// (which could take the sentinel from the loop).
			bad := func(in ssa.Instruction) bool {
				return in != recv && set.receives(x, in) || isStartOf(in, send.Parent())
			}
			var met []ssa.Instruction
			reached := meetsFirst(start, recv, bad, nil, func(in ssa.Instruction) { met = append(met, in) })
			if reached && meetsFirst(recv, recv, bad, sentinelExits(recv, sentinel), nil) &&
				x.chainedDrains(send, met, binds, depth) {
				return true
			}
		}
	}
	return false
}

// chainedDrains reports whether the receives met, on the receiver's way
// from the go statement to the drain of send, that wait for an earlier
// sentinel of the same goroutine each end: that sentinel is sent on every
// path before send, is itself awaited, and only the receiver's goroutine
// can take it (soleTaker). A receive that waits for any other value the
// goroutine sent earlier is not followed.
func (x *Index) chainedDrains(send *ssa.Send, met []ssa.Instruction, binds map[ssa.Value]ssa.Value, depth int) bool {
	for _, b := range send.Parent().Blocks {
		for _, instr := range b.Instrs {
			earlier, ok := instr.(*ssa.Send)
			if !ok || earlier == send || !flow.Reaches(earlier, send) {
				continue
			}
			for _, in := range met {
				if !receivesAcross(in, earlier.Chan, binds) {
					continue
				}
				set, ok := x.chanSetOf(earlier.Chan)
				if _, isConst := earlier.X.(*ssa.Const); !isConst || !ok || !dominates(earlier, send) ||
					!x.awaited(earlier, depth+1) || !x.soleTaker(set, in.Parent(), send) {
					return false
				}
			}
		}
	}
	return true
}

// soleTaker reports whether every receive of the channels in set runs on
// the goroutine of r, the drain's function: in r, or in the one function
// that calls r, which runs once per channel made. While r drains, that
// caller waits for it, and nobody else can take the sentinel r waits for.
func (x *Index) soleTaker(set *chanSet, r *ssa.Function, send ssa.Instruction) bool {
	caller := r
	sites, ok := x.callers(r)
	if !ok {
		return false
	}
	for i, s := range sites {
		if i == 0 {
			caller = s.Parent()
		}
		if s.Parent() != caller {
			return false
		}
	}
	shipped := !InTestFile(send)
	for _, rs := range x.recvs {
		if shipped && InTestFile(rs.Instr) || !set.holds(x, RecvChan(rs)) {
			continue
		}
		if rs.Func != r && rs.Func != caller {
			return false
		}
	}
	return x.RunsOncePerChannel(Site{Func: caller}, set.makeList())
}

// sentinelExits returns the edges on which the value recv took is known
// to be the sentinel (the true branch of v == sentinel, the false branch
// of v != sentinel) or the channel closed (ok false).
func sentinelExits(recv *ssa.UnOp, sentinel *ssa.Const) func(flow.Edge) bool {
	exits := make(map[flow.Edge]bool)
	var v ssa.Value = recv
	if recv.CommaOk {
		v = nil
		for _, ref := range *recv.Referrers() {
			if e, ok := ref.(*ssa.Extract); ok {
				switch e.Index {
				case 0:
					v = e
				case 1:
					okBranches(e, true, exits)
				}
			}
		}
	}
	if v != nil {
		for _, ref := range *v.Referrers() {
			cmp, ok := ref.(*ssa.BinOp)
			if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ || !sameConst(cmp.X, sentinel) && !sameConst(cmp.Y, sentinel) {
				continue
			}
			for _, use := range *cmp.Referrers() {
				if cond, ok := use.(*ssa.If); ok {
					b := cond.Block()
					if cmp.Op == token.EQL {
						exits[flow.Edge{From: b, To: b.Succs[0]}] = true
					} else {
						exits[flow.Edge{From: b, To: b.Succs[1]}] = true
					}
				}
			}
		}
	}
	return func(e flow.Edge) bool { return exits[e] }
}

// meetsFirst reports whether every path that starts just after from meets
// to before it returns or meets an instruction bad accepts, taking no edge
// skip accepts. A path that ends in a panic or a call that never returns,
// or that loops without meeting to, waits for no one and passes. met, when
// set, sees every instruction the walk meets before to.
func meetsFirst(from, to ssa.Instruction, bad func(ssa.Instruction) bool, skip func(flow.Edge) bool, met func(ssa.Instruction)) bool {
	seen := make(map[*ssa.BasicBlock]bool)
	var scan func(b *ssa.BasicBlock, at int) bool
	scan = func(b *ssa.BasicBlock, at int) bool {
		for _, in := range b.Instrs[at:] {
			switch {
			case in == to:
				return true
			case bad(in):
				return false
			case flow.NoReturn(in):
				return true
			}
			if met != nil {
				met(in)
			}
		}
		if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			return false
		}
		for _, s := range b.Succs {
			if skip != nil && skip(flow.Edge{From: b, To: s}) || seen[s] {
				continue
			}
			seen[s] = true
			if !scan(s, 0) {
				return false
			}
		}
		return true
	}
	return scan(from.Block(), flow.IndexOf(from)+1)
}

// isStartOf reports whether in is a go statement that starts g.
func isStartOf(in ssa.Instruction, g *ssa.Function) bool {
	gs, ok := in.(*ssa.Go)
	return ok && goEntry(gs) == g
}

// dominates reports whether a runs before b on every path to b.
func dominates(a, b ssa.Instruction) bool {
	if a.Block() == b.Block() {
		return flow.IndexOf(a) < flow.IndexOf(b)
	}
	return a.Block().Dominates(b.Block())
}

// startBindings maps the free variables and parameters of the function a
// go statement starts to the values the statement gives them.
func startBindings(start *ssa.Go) map[ssa.Value]ssa.Value {
	binds := make(map[ssa.Value]ssa.Value)
	fn := goEntry(start)
	if fn == nil {
		return binds
	}
	if mc, ok := start.Call.Value.(*ssa.MakeClosure); ok {
		for i, fv := range fn.FreeVars {
			binds[fv] = mc.Bindings[i]
		}
	}
	for i, p := range fn.Params {
		if i < len(start.Call.Args) {
			binds[p] = start.Call.Args[i]
		}
	}
	return binds
}

// sameAcross reports whether gv, a value of the started function, and rv,
// one of the function that starts it, denote the same value: the same
// loads of the same fields of what the go statement handed it. Loads made
// at different times are taken for one value, as SameValue takes them.
func sameAcross(gv, rv ssa.Value, binds map[ssa.Value]ssa.Value) bool {
	gv, rv = Unconverted(gv), Unconverted(rv)
	if b, ok := binds[gv]; ok {
		return SameValue(Unconverted(b), rv)
	}
	switch gv := gv.(type) {
	case *ssa.UnOp:
		r, ok := rv.(*ssa.UnOp)
		return ok && gv.Op == token.MUL && r.Op == token.MUL && sameAcross(gv.X, r.X, binds)
	case *ssa.FieldAddr:
		r, ok := rv.(*ssa.FieldAddr)
		return ok && gv.Field == r.Field && sameAcross(gv.X, r.X, binds)
	case *ssa.Field:
		r, ok := rv.(*ssa.Field)
		return ok && gv.Field == r.Field && sameAcross(gv.X, r.X, binds)
	case *ssa.Global:
		return gv == rv
	}
	return false
}

// receivesAcross reports whether in, an instruction of the starting
// function, receives from ch, a channel of the started one.
func receivesAcross(in ssa.Instruction, ch ssa.Value, binds map[ssa.Value]ssa.Value) bool {
	switch in := in.(type) {
	case *ssa.UnOp:
		return in.Op == token.ARROW && sameAcross(ch, in.X, binds)
	case *ssa.Select:
		for _, st := range in.States {
			if st.Dir == types.RecvOnly && sameAcross(ch, st.Chan, binds) {
				return true
			}
		}
	}
	return false
}

// onlySentinel reports whether send is the one send on the channels of set
// that can send the sentinel: every other send, plain or in a select,
// sends a value shown to differ from it. A shipped send counts the
// shipped senders only, as receivers are counted.
func (x *Index) onlySentinel(set *chanSet, send *ssa.Send, sentinel *ssa.Const) bool {
	shipped := !InTestFile(send)
	for _, s := range x.sends {
		if s != send && (!shipped || !InTestFile(s)) && set.holds(x, s.Chan) && !differs(s.X, sentinel, s) {
			return false
		}
	}
	for _, sel := range x.sendSels {
		if shipped && InTestFile(sel) {
			continue
		}
		for _, st := range sel.States {
			if st.Dir == types.SendOnly && set.holds(x, st.Chan) && !differs(st.Send, sentinel, sel) {
				return false
			}
		}
	}
	return true
}

// differs reports whether v, sent at instr, cannot equal the sentinel: a
// different constant, or, against nil, a value that is never nil.
func differs(v ssa.Value, sentinel *ssa.Const, instr ssa.Instruction) bool {
	if sentinel.IsNil() {
		return nonNil(v, instr, 0)
	}
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && sentinel.Value != nil && c.Value.Kind() == sentinel.Value.Kind() &&
		constant.Compare(c.Value, token.NEQ, sentinel.Value)
}

// nonNil reports whether v is never nil where instr uses it: a new value
// (&T{}, make, a closure, a slice of an array, an interface holding
// anything), a non-nil constant, a phi of such values, or a value that a
// test on every path to instr showed to be non-nil or non-empty.
func nonNil(v ssa.Value, instr ssa.Instruction, depth int) bool {
	switch v := v.(type) {
	case *ssa.Alloc, *ssa.MakeSlice, *ssa.MakeMap, *ssa.MakeChan, *ssa.MakeClosure, *ssa.Function,
		*ssa.MakeInterface, *ssa.FieldAddr, *ssa.IndexAddr:
		return true
	case *ssa.Const:
		return !v.IsNil()
	case *ssa.Slice:
		if _, ok := v.X.Type().Underlying().(*types.Pointer); ok {
			return true // a slice of an array: []T{...} is slice t0[:]
		}
	case *ssa.ChangeType:
		return nonNil(v.X, instr, depth)
	case *ssa.Phi:
		if depth < 4 {
			all := true
			for _, e := range v.Edges {
				all = all && nonNil(e, instr, depth+1)
			}
			if all {
				return true
			}
		}
	}
	return testedNonNil(v, instr)
}

// testedNonNil reports whether every path to instr takes the branch of a
// test on which v is not nil: v != nil, or len(v) != 0, > 0, or the false
// branch of == 0 (a nil slice, map or channel has length zero).
//
//	if len(messages) == 0 {     // t5 = len(t3); t6 = t5 == 0:int; if t6 goto 1 else 2
//		return nil
//	}
//	pc.queueCh <- messages      // in block 2, entered only from that test
func testedNonNil(v ssa.Value, instr ssa.Instruction) bool {
	for d := instr.Block(); d.Idom() != nil; d = d.Idom() {
		test := d.Idom()
		cond, ok := test.Instrs[len(test.Instrs)-1].(*ssa.If)
		if !ok || len(d.Preds) != 1 || test.Succs[0] == test.Succs[1] {
			continue
		}
		cmp, ok := cond.Cond.(*ssa.BinOp)
		if !ok {
			continue
		}
		onTrue := d == test.Succs[0]
		switch {
		case cmp.X == v && isNilConst(cmp.Y) || cmp.Y == v && isNilConst(cmp.X):
			if cmp.Op == token.NEQ && onTrue || cmp.Op == token.EQL && !onTrue {
				return true
			}
		case isLenOf(cmp.X, v) && isZero(cmp.Y):
			if (cmp.Op == token.NEQ || cmp.Op == token.GTR) && onTrue || cmp.Op == token.EQL && !onTrue {
				return true
			}
		}
	}
	return false
}

func isLenOf(l, v ssa.Value) bool {
	c, ok := l.(*ssa.Call)
	return ok && IsLen(c) && c.Call.Args[0] == v
}

func isZero(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Int && constant.Sign(c.Value) == 0
}

// sameConst reports whether v is the constant c: nil of the same type, or
// an equal value.
func sameConst(v ssa.Value, c *ssa.Const) bool {
	k, ok := v.(*ssa.Const)
	if !ok || !types.Identical(k.Type(), c.Type()) {
		return false
	}
	if k.IsNil() || c.IsNil() {
		return k.IsNil() && c.IsNil()
	}
	return k.Value != nil && c.Value != nil && k.Value.Kind() == c.Value.Kind() &&
		constant.Compare(k.Value, token.EQL, c.Value)
}

// chanSet is a channel whose every send and receive this package shows:
// the makes it may be, with the fields and globals they are kept in.
type chanSet struct {
	makes   map[*ssa.MakeChan]bool
	fields  map[*types.Var]bool
	globals map[*ssa.Global]bool
}

// chanSetOf returns the channels ch may be, when code outside the package
// can neither send nor receive on them: ch is made here (or loaded from an
// unexported field every channel stored into is made here), and no made
// channel escapes or is kept in an exported field or global. A copy of a
// field into another field, or a field's channel handed to code outside
// the package, is not followed, as FieldReceives does not follow them.
func (x *Index) chanSetOf(ch ssa.Value) (*chanSet, bool) {
	set := &chanSet{makes: map[*ssa.MakeChan]bool{}, fields: map[*types.Var]bool{}, globals: map[*ssa.Global]bool{}}
	for _, o := range x.Origins(ch) {
		switch {
		case o.Kind == Nil:
		case o.Kind == Made:
			set.makes[o.Make] = true
		case o.Kind == Field && o.Field != nil && !o.Field.Exported():
			set.fields[o.Field] = true
			for _, s := range x.Stored(o) {
				if s.Kind != Made {
					return nil, false
				}
				set.makes[s.Make] = true
			}
		default:
			return nil, false
		}
	}
	for mk := range set.makes {
		u := x.Uses(mk)
		if len(u.Escapes) > 0 {
			return nil, false
		}
		for _, f := range u.Fields {
			if f == nil || f.Exported() {
				return nil, false
			}
			set.fields[f] = true
		}
		for _, g := range u.Globals {
			if g.Object().Exported() {
				return nil, false
			}
			set.globals[g] = true
		}
	}
	return set, len(set.makes) > 0
}

// holds reports whether ch may be one of the set's channels.
func (s *chanSet) holds(x *Index, ch ssa.Value) bool {
	for _, o := range x.Origins(ch) {
		if o.Kind == Made && s.makes[o.Make] || o.Kind == Field && s.fields[o.Field] || o.Kind == Global && s.globals[o.Global] {
			return true
		}
	}
	return false
}

// receives reports whether in receives from one of the set's channels.
func (s *chanSet) receives(x *Index, in ssa.Instruction) bool {
	switch in := in.(type) {
	case *ssa.UnOp:
		return in.Op == token.ARROW && s.holds(x, in.X)
	case *ssa.Select:
		for _, st := range in.States {
			if st.Dir == types.RecvOnly && s.holds(x, st.Chan) {
				return true
			}
		}
	}
	return false
}

func (s *chanSet) makeList() []*ssa.MakeChan {
	out := make([]*ssa.MakeChan, 0, len(s.makes))
	for mk := range s.makes {
		out = append(out, mk)
	}
	return out
}
