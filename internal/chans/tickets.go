package chans

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// coveredByTickets proves make(chan T, n) whose senders are workers that
// take numbers from a counter they share, each number once, and send at
// most one value per number, where the numbers a worker may send for are
// no more than n:
//
//	var next atomic.Uint64
//	next.Store(oldest)
//	results := make(chan *fees, blocks)       // blocks = last + 1 - oldest
//	for range workers {
//		go func() {
//			for {
//				n := next.Add(1) - 1          // one number per trip
//				if n > last {
//					return
//				}
//				results <- fetch(n)           // one value per number
//			}
//		}()
//	}
//
// However many workers run and however the owner stops receiving, the
// sends are at most the numbers from oldest to last: the buffer has room
// for every one. The proof asks that every send be made by goroutines of
// one function literal of the owner, in one loop of it, at most one per
// trip and only past the test of the number the trip took at its top;
// that the counter be a variable of the owner that the literal only adds
// one to there, set at most once before any worker starts; and that the
// count of numbers the test lets through, read as a sum of the same
// values the capacity is made of, be no more than the capacity.
func (x *Index) coveredByTickets(u *Uses) bool {
	if len(u.Sends) == 0 {
		return false
	}
	fn := u.Sends[0].Func
	if fn.Parent() != u.Owner() {
		return false
	}
	loops := x.Loops(fn)
	l := loops.Innermost(u.Sends[0].Instr.Block())
	if l == nil {
		return false
	}
	weights := make(map[ssa.Instruction]int)
	for _, s := range u.Sends {
		b := s.Instr.Block()
		if s.Func != fn || s.Start == nil || loops.Innermost(b) != l || loops.Depth(b) > 1 {
			return false
		}
		weights[s.Instr] = 1
	}
	oneTrip := func(*ssa.BasicBlock) int { return 1 }
	if flow.MaxCount(fn, weights, oneTrip, Many) > 1 {
		return false
	}
	t, ok := takesTicket(l)
	if !ok {
		return false
	}
	for _, s := range u.Sends {
		if !t.in.Dominates(s.Instr.Block()) {
			return false
		}
	}
	start, ok := x.ticketStart(t.counter, fn, t.add, u.Make)
	if !ok {
		return false
	}
	// The numbers let through run from start+1+t.shift to t.last,
	// included when the test excludes only what is above it.
	count := t.last.plus(start, -1).plusConst(-1 - t.shift)
	if t.inclusive {
		count = count.plusConst(1)
	}
	size, ok := linearOf(u.Make.Size, 0)
	if !ok {
		return false
	}
	excess := count.plus(size, -1)
	return len(excess.terms) == 0 && excess.k <= 0
}

// ticket is the number a loop takes at its top: t = counter.Add(1) +
// shift, tested against last, with in the branch that keeps it.
type ticket struct {
	add       *ssa.Call
	counter   ssa.Value // the counter's address, as fn sees it
	shift     int64
	last      linear
	inclusive bool // t <= last passes, rather than t < last
	in        *ssa.BasicBlock
}

// takesTicket reads the ticket test that ends loop l's header: a
// comparison of counter.Add(1) plus a constant with a bound, whose
// failing branch leaves the loop.
func takesTicket(l *flow.Loop) (ticket, bool) {
	cond, ok := l.Header.Instrs[len(l.Header.Instrs)-1].(*ssa.If)
	if !ok {
		return ticket{}, false
	}
	cmp, ok := cond.Cond.(*ssa.BinOp)
	if !ok {
		return ticket{}, false
	}
	op, tv, bv := cmp.Op, cmp.X, cmp.Y
	lt, ok := linearOf(tv, 0)
	if !ok || !isTicket(lt, l) {
		op, tv, bv = Mirror(op), cmp.Y, cmp.X
		if lt, ok = linearOf(tv, 0); !ok || !isTicket(lt, l) {
			return ticket{}, false
		}
	}
	last, ok := linearOf(bv, 0)
	if !ok {
		return ticket{}, false
	}
	t := ticket{add: lt.terms[0].v.(*ssa.Call), shift: lt.k, last: last}
	t.counter = t.add.Call.Args[0]
	var out *ssa.BasicBlock
	switch op {
	case token.GTR, token.GEQ: // t > last: leave
		t.inclusive = op == token.GTR
		out, t.in = cond.Block().Succs[0], cond.Block().Succs[1]
	case token.LEQ, token.LSS: // t <= last: go on
		t.inclusive = op == token.LEQ
		t.in, out = cond.Block().Succs[0], cond.Block().Succs[1]
	default:
		return ticket{}, false
	}
	if l.Blocks[out] || !l.Blocks[t.in] {
		return ticket{}, false
	}
	return t, true
}

// Mirror turns a comparison around: a < b is b > a.
func Mirror(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// isTicket reports whether lt is one atomic addition of one to a counter,
// made in loop l's header, plus a constant.
func isTicket(lt linear, l *flow.Loop) bool {
	if len(lt.terms) != 1 || lt.terms[0].c != 1 {
		return false
	}
	call, ok := lt.terms[0].v.(*ssa.Call)
	return ok && call.Block() == l.Header && atomicAdd(&call.Call) && len(call.Call.Args) == 2 && isOne(call.Call.Args[1])
}

// atomicAdd reports whether cc adds to an integer atomically: a method
// Add of sync/atomic's integer types, or its AddInt32 and kin.
func atomicAdd(cc *ssa.CallCommon) bool {
	callee := cc.StaticCallee()
	if callee == nil {
		return false
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg().Path() != "sync/atomic" {
		return false
	}
	if recv := obj.Signature().Recv(); recv != nil {
		return obj.Name() == "Add"
	}
	return strings.HasPrefix(obj.Name(), "AddInt") || strings.HasPrefix(obj.Name(), "AddUint")
}

// ticketStart returns the value the counter holds before the first ticket
// is taken: counter is the address fn adds to, a variable of fn's parent
// that fn only adds to at add and reads, and that its parent only sets,
// once, before it makes any closure of fn, and otherwise only reads or
// binds into closures of fn. A counter never set starts at zero. Neither
// the variable nor its setting may come round again while the channel mk
// makes is the same: a counter made or reset each round of a loop that
// keeps one channel hands every number out once per round.
func (x *Index) ticketStart(counter ssa.Value, fn *ssa.Function, add *ssa.Call, mk *ssa.MakeChan) (linear, bool) {
	fv, ok := counter.(*ssa.FreeVar)
	if !ok || !onlyAddsAt(fv, add) {
		return linear{}, false
	}
	_, cell := closureBinding(fn, fv)
	loops := x.Loops(mk.Parent())
	if cell == nil || cell.Parent() != mk.Parent() || loops.RepeatsWithout(cell.Block(), mk.Block()) {
		return linear{}, false
	}
	var set ssa.Value
	var setAt ssa.Instruction
	var closures []ssa.Instruction
	for _, ref := range *cell.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.MakeClosure:
			if ref.Fn != fn {
				return linear{}, false
			}
			closures = append(closures, ref)
		case *ssa.Store:
			if set != nil || ref.Addr != cell {
				return linear{}, false
			}
			set, setAt = ref.Val, ref
		case *ssa.Call:
			switch v, kind := atomicUse(&ref.Call, cell); kind {
			case atomicRead:
			case atomicSet:
				if set != nil {
					return linear{}, false
				}
				set, setAt = v, ref
			default:
				return linear{}, false
			}
		default:
			return linear{}, false
		}
	}
	if set == nil {
		return linear{}, true
	}
	if loops.RepeatsWithout(setAt.Block(), mk.Block()) {
		return linear{}, false
	}
	for _, mc := range closures {
		if !precedes(setAt, mc) {
			return linear{}, false
		}
	}
	return linearOf(set, 0)
}

// onlyAddsAt reports whether the closure's counter fv is used only by add
// and by atomic reads.
func onlyAddsAt(fv *ssa.FreeVar, add *ssa.Call) bool {
	for _, ref := range *fv.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Call:
			if _, kind := atomicUse(&ref.Call, fv); ref != add && kind != atomicRead {
				return false
			}
		default:
			return false
		}
	}
	return true
}

type atomicKind int

const (
	atomicOther atomicKind = iota
	atomicRead
	atomicSet
)

// atomicUse says what a call of sync/atomic does to the integer at addr:
// reads it (Load), sets it to the value returned (Store), or anything
// else (Add, Swap, CompareAndSwap, or addr handed to another function).
func atomicUse(cc *ssa.CallCommon, addr ssa.Value) (ssa.Value, atomicKind) {
	callee := cc.StaticCallee()
	if callee == nil || len(cc.Args) == 0 || cc.Args[0] != addr || slices.Contains(cc.Args[1:], addr) {
		return nil, atomicOther
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg().Path() != "sync/atomic" {
		return nil, atomicOther
	}
	switch name := obj.Name(); {
	case strings.HasPrefix(name, "Load"):
		return nil, atomicRead
	case strings.HasPrefix(name, "Store") && len(cc.Args) == 2:
		return cc.Args[1], atomicSet
	}
	return nil, atomicOther
}

// linear is a sum of values, each times a whole number, plus a constant:
// what a capacity, a bound or a counter's start is made of, so that the
// count of numbers between two of them can be compared with a third.
type linear struct {
	terms []term
	k     int64
}

type term struct {
	v ssa.Value
	c int64
}

// linearOf reads v as a linear sum: constants, additions and
// subtractions, through conversions between integer types, loads of
// variables set once and variables captured from the parent; any other
// value is a term of its own. Overflow is not modelled: a count of
// numbers that wraps is not a count any program sizes a buffer by.
func linearOf(v ssa.Value, depth int) (linear, bool) {
	if depth > maxDepth {
		return linear{}, false
	}
	v = settled(v)
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value == nil || v.Value.Kind() != constant.Int {
			return linear{}, false
		}
		k, ok := constant.Int64Val(v.Value)
		return linear{k: k}, ok
	case *ssa.BinOp:
		if v.Op != token.ADD && v.Op != token.SUB {
			break
		}
		a, ok := linearOf(v.X, depth+1)
		if !ok {
			return linear{}, false
		}
		b, ok := linearOf(v.Y, depth+1)
		if !ok {
			return linear{}, false
		}
		if v.Op == token.SUB {
			return a.plus(b, -1), true
		}
		return a.plus(b, 1), true
	}
	return linear{terms: []term{{v, 1}}}, true
}

// plus returns l + c*m, with terms of the same value merged.
func (l linear) plus(m linear, c int64) linear {
	out := linear{terms: slices.Clone(l.terms), k: l.k + c*m.k}
	for _, t := range m.terms {
		i := slices.IndexFunc(out.terms, func(o term) bool { return sameSettled(o.v, t.v) })
		if i < 0 {
			out.terms = append(out.terms, term{t.v, c * t.c})
			continue
		}
		out.terms[i].c += c * t.c
		if out.terms[i].c == 0 {
			out.terms = slices.Delete(out.terms, i, i+1)
		}
	}
	return out
}

// plusConst returns l + k.
func (l linear) plusConst(k int64) linear {
	l.terms = slices.Clone(l.terms)
	l.k += k
	return l
}

// settled returns what v stands for once conversions between integer
// types, captured variables and loads of variables stored once before
// any read are seen through.
func settled(v ssa.Value) ssa.Value {
	for range maxDepth {
		switch w := v.(type) {
		case *ssa.Convert:
			if !isInteger(w.Type()) || !isInteger(w.X.Type()) {
				return v
			}
			v = w.X
		case *ssa.ChangeType:
			v = w.X
		case *ssa.FreeVar:
			b := bindingOf(w)
			if b == nil {
				return v
			}
			v = b
		case *ssa.UnOp:
			if w.Op != token.MUL {
				return v
			}
			cell, ok := settled(w.X).(*ssa.Alloc)
			if !ok {
				return v
			}
			set := storedOnce(cell)
			if set == nil {
				return v
			}
			v = set
		default:
			return v
		}
	}
	return v
}

// bindingOf returns what fv is bound to by the one closure of its
// function, wherever the parent makes it (in a loop, every instance binds
// the same value when that value is made outside the loop: a variable of
// the parent, or its parameter).
func bindingOf(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	if fn.Parent() == nil {
		return nil
	}
	mc, _ := closureBinding(fn, fv)
	if mc == nil {
		return nil
	}
	b := mc.Bindings[slices.Index(fn.FreeVars, fv)]
	if instr, ok := b.(ssa.Instruction); ok && flow.Reaches(mc, mc) && flow.Reaches(mc, instr) {
		return nil // made anew in the loop that makes the closure
	}
	return b
}

// storedOnce returns the one value stored into the variable cell, when
// the store comes before every other use in its function: loads, and
// closures that capture it, which can read only what it holds by then.
func storedOnce(cell *ssa.Alloc) ssa.Value {
	var st *ssa.Store
	for _, ref := range *cell.Referrers() {
		if s, ok := ref.(*ssa.Store); ok {
			if st != nil || s.Addr != cell {
				return nil
			}
			st = s
		}
	}
	if st == nil {
		return nil
	}
	for _, ref := range *cell.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store, *ssa.DebugRef:
		case *ssa.UnOp, *ssa.MakeClosure:
			if !precedes(st, ref) {
				return nil
			}
		default:
			return nil
		}
	}
	return st.Val
}

// sameSettled reports whether a and b denote the same value once each is
// settled: SameValue, or len of the same settled value.
func sameSettled(a, b ssa.Value) bool {
	a, b = settled(a), settled(b)
	if SameValue(a, b) {
		return true
	}
	ca, okA := a.(*ssa.Call)
	cb, okB := b.(*ssa.Call)
	return okA && okB && IsLen(ca) && IsLen(cb) && sameSettled(ca.Call.Args[0], cb.Call.Args[0])
}

// isInteger reports whether t is an integer type.
func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}
