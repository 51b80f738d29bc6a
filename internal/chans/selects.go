package chans

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// LiveCase returns the first receive case of sel that can fire: a liveness
// case such as <-ctx.Done(), a stop or done channel, or a timer. Any receive
// counts except one on a channel nothing can ever send on or close: the nil
// channel, or a channel made in this package that is only ever received
// from. It returns -1 when there is none.
//
//	t6 = select blocking [t1<-t2, <-t4] (index int, ok bool, struct{})
//	                               ^ t4 = invoke ctx.Done()
func (x *Index) LiveCase(sel *ssa.Select) int {
	for i, st := range sel.States {
		if st.Dir == types.RecvOnly && !x.Dead(st.Chan) {
			return i
		}
	}
	return -1
}

// Dead reports whether a receive on ch can never proceed.
func (x *Index) Dead(ch ssa.Value) bool {
	origins := x.Origins(ch)
	if len(origins) == 0 {
		return false
	}
	for _, o := range origins {
		switch o.Kind {
		case Nil:
		case Made:
			u := x.Uses(o.Make)
			if len(u.Sends) > 0 || len(u.Closes) > 0 || len(u.Escapes) > 0 || len(u.Stores) > 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// RecvCases calls f for every receive case of every select in fn: the
// select and the case's index.
func RecvCases(fn *ssa.Function, f func(sel *ssa.Select, i int)) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			sel, ok := instr.(*ssa.Select)
			if !ok {
				continue
			}
			for i, st := range sel.States {
				if st.Dir == types.RecvOnly {
					f(sel, i)
				}
			}
		}
	}
}

// CaseEdge returns the edge that enters the body of case k of sel:
//
//	t6 = select blocking [<-t3, <-t4] (index int, ok bool, int, struct{})
//	t7 = extract t6 #0
//	t8 = t7 == 0:int
//	if t8 goto 1 else 2         // 0 -> 1 enters case 0
func CaseEdge(sel *ssa.Select, k int) (flow.Edge, bool) {
	for _, ref := range *sel.Referrers() {
		idx, ok := ref.(*ssa.Extract)
		if !ok || idx.Index != 0 {
			continue
		}
		for _, ref := range *idx.Referrers() {
			cmp, ok := ref.(*ssa.BinOp)
			if !ok || cmp.Op != token.EQL || !isInt(cmp.Y, k) {
				continue
			}
			for _, ref := range *cmp.Referrers() {
				if cond, ok := ref.(*ssa.If); ok {
					b := cond.Block()
					return flow.Edge{From: b, To: b.Succs[0]}, true
				}
			}
		}
	}
	return flow.Edge{}, false
}

func isInt(v ssa.Value, k int) bool {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return false
	}
	n, ok := constant.Int64Val(c.Value)
	return ok && int(n) == k
}

// ReceiveEdges returns, for the receive sites of u in fn, the instructions
// that receive unconditionally (a plain <-ch) and the edges that enter a
// select case receiving from ch. A path through either has received.
func ReceiveEdges(u *Uses, fn *ssa.Function) (instrs map[ssa.Instruction]bool, edges map[flow.Edge]bool) {
	instrs = make(map[ssa.Instruction]bool)
	edges = make(map[flow.Edge]bool)
	for _, r := range u.Recvs {
		if r.Func != fn {
			continue
		}
		if r.State < 0 {
			instrs[r.Instr] = true
		} else if e, ok := CaseEdge(r.Instr.(*ssa.Select), r.State); ok {
			edges[e] = true
		}
	}
	return instrs, edges
}

// ClosedEdges returns the edges of fn taken when a receive from the channel
// of u reports that it is closed: the exit of a range loop over it, or the
// !ok branch after v, ok := <-ch; and the branches on which the variable
// received from tests nil, when it is set to nil only on those (nilChecks).
//
//	t1 = <-ch,ok
//	t2 = extract t1 #1
//	if t2 goto body else done   // 1 -> done observes the close
func ClosedEdges(u *Uses, fn *ssa.Function) map[flow.Edge]bool {
	edges := make(map[flow.Edge]bool)
	for _, r := range u.Recvs {
		if r.Func != fn {
			continue
		}
		var tuple, ch ssa.Value
		switch recv := r.Instr.(type) {
		case *ssa.UnOp:
			if !recv.CommaOk {
				continue
			}
			tuple, ch = recv, recv.X
		case *ssa.Select:
			tuple, ch = recv, recv.States[r.State].Chan // ok is #1 of the select's tuple, meaningful in case r.State
		}
		own := make(map[flow.Edge]bool)
		for _, ref := range *tuple.Referrers() {
			if ok, isExtract := ref.(*ssa.Extract); isExtract && ok.Index == 1 {
				okBranches(ok, true, edges)
				if inCase(r, ok.Block()) {
					okBranches(ok, true, own)
				}
			}
		}
		nilChecks(fn, ch, own, edges)
	}
	return edges
}

// inCase reports whether b is in the body of the receive r: anywhere for a
// plain receive, under the edge into its case for a select, whose tuple's
// ok belongs to whichever case was chosen.
func inCase(r Site, b *ssa.BasicBlock) bool {
	sel, ok := r.Instr.(*ssa.Select)
	if !ok {
		return true
	}
	e, ok := CaseEdge(sel, r.State)
	return ok && len(e.To.Preds) == 1 && e.To.Dominates(b)
}

// okBranches adds the branches taken when ok is false.
func okBranches(ok ssa.Value, positive bool, edges map[flow.Edge]bool) {
	for _, ref := range *ok.Referrers() {
		switch r := ref.(type) {
		case *ssa.If:
			b := r.Block()
			if positive {
				edges[flow.Edge{From: b, To: b.Succs[1]}] = true
			} else {
				edges[flow.Edge{From: b, To: b.Succs[0]}] = true
			}
		case *ssa.UnOp:
			if r.Op == token.NOT {
				okBranches(r, !positive, edges)
			}
		}
	}
}

// Refills reports whether the send puts back a value its function took
// from the same channel on every path before it: the channel is a
// semaphore or a mutex, and the send refills the slot the receive emptied.
//
//	status := <-statusc
//	...
//	statusc <- status
//
// The refill may also be deferred in a closure, after the token was taken
// from the same field:
//
//	case <-r.scanSema:
//	}
//	defer func() { r.scanSema <- struct{}{} }()
//
// Or the token was taken by the goroutine's starter, which hands it on:
// a goroutine started only after a take from the channel, that sends on
// it once, puts back the token taken for it (startedAfterTake).
func Refills(instr ssa.Instruction, ch ssa.Value) bool {
	same := func(c ssa.Value) bool { return SameValue(c, ch) }
	if flow.Before(instr, func(x ssa.Instruction) bool { return tookFrom(x, same, instr.Block()) }) {
		return true
	}
	if startedAfterTake(instr, ch) {
		return true
	}
	f := LoadedField(ch)
	if f == nil {
		return false
	}
	sameField := func(c ssa.Value) bool { return LoadedField(c) == f }
	for _, d := range deferredAt(instr.Parent()) {
		if flow.Before(d, func(x ssa.Instruction) bool { return tookFrom(x, sameField, d.Block()) }) {
			return true
		}
	}
	return false
}

// startedAfterTake reports whether the send at instr, on a channel ch that
// its closure captured, is its closure's only send on ch, outside any
// loop, and every go statement that starts the closure runs only after
// its starter took a value from that channel:
//
//	buf := <-bufs
//	go func() {
//		upload(buf)
//		bufs <- buf // gives back the buffer taken for it
//	}()
func startedAfterTake(instr ssa.Instruction, ch ssa.Value) bool {
	fn := instr.Parent()
	fv := capturedChan(ch)
	if fv == nil || fn.Parent() == nil || flow.Reaches(instr, instr) || sendsOn(fn, ch) != 1 {
		return false
	}
	i := slices.Index(fn.FreeVars, fv)
	started := false
	for _, b := range fn.Parent().Blocks {
		for _, in := range b.Instrs {
			mc, ok := in.(*ssa.MakeClosure)
			if !ok || mc.Fn != fn {
				continue
			}
			outer := mc.Bindings[i]
			same := func(c ssa.Value) bool { return c == outer || IsLoadOf(c, outer) }
			for _, ref := range *mc.Referrers() {
				g, ok := ref.(*ssa.Go)
				if !ok || g.Call.Value != mc {
					if _, debug := ref.(*ssa.DebugRef); debug {
						continue
					}
					return false
				}
				if !flow.Before(g, func(x ssa.Instruction) bool { return tookFrom(x, same, g.Block()) }) {
					return false
				}
				started = true
			}
		}
	}
	return started
}

// capturedChan returns the free variable a channel value is, or is loaded
// from.
func capturedChan(ch ssa.Value) *ssa.FreeVar {
	if load, ok := ch.(*ssa.UnOp); ok && load.Op == token.MUL {
		ch = load.X
	}
	fv, _ := ch.(*ssa.FreeVar)
	return fv
}

// IsLoadOf reports whether v is a load of the variable at addr.
func IsLoadOf(v, addr ssa.Value) bool {
	load, ok := v.(*ssa.UnOp)
	return ok && load.Op == token.MUL && load.X == addr
}

// sendsOn counts fn's sends and select send cases on channels SameValue
// takes for ch.
func sendsOn(fn *ssa.Function, ch ssa.Value) int {
	n := 0
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			switch in := in.(type) {
			case *ssa.Send:
				if SameValue(in.Chan, ch) {
					n++
				}
			case *ssa.Select:
				for _, st := range in.States {
					if st.Dir == types.SendOnly && SameValue(st.Chan, ch) {
						n++
					}
				}
			}
		}
	}
	return n
}

// LoadedField returns the field a channel value is loaded from, x.f.
func LoadedField(ch ssa.Value) *types.Var {
	if addr := loadedAddr(ch); addr != nil {
		return FieldOf(addr.X.Type(), addr.Field, true)
	}
	return nil
}

// loadedAddr returns the field address v is loaded from (v = *&x.f), or
// nil.
func loadedAddr(v ssa.Value) *ssa.FieldAddr {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if addr, ok := load.X.(*ssa.FieldAddr); ok {
			return addr
		}
	}
	return nil
}

// deferredAt returns the defer statements that run the closure fn.
func deferredAt(fn *ssa.Function) []*ssa.Defer {
	parent := fn.Parent()
	if parent == nil {
		return nil
	}
	var out []*ssa.Defer
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			if d, ok := instr.(*ssa.Defer); ok {
				if mc, ok := d.Call.Value.(*ssa.MakeClosure); ok && mc.Fn == fn {
					out = append(out, d)
				}
			}
		}
	}
	return out
}

// tookFrom reports whether x receives from a channel same accepts on every
// path to block b: a plain receive, or a select whose receiving case leads
// to b.
func tookFrom(x ssa.Instruction, same func(ssa.Value) bool, b *ssa.BasicBlock) bool {
	switch x := x.(type) {
	case *ssa.UnOp:
		return x.Op == token.ARROW && same(x.X)
	case *ssa.Select:
		for i, st := range x.States {
			if st.Dir != types.RecvOnly || !same(st.Chan) {
				continue
			}
			if e, ok := CaseEdge(x, i); ok && e.To.Dominates(b) {
				return true
			}
		}
	}
	return false
}
