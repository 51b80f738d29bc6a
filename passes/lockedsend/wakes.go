package lockedsend

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/summary"
)

// wakeDepth bounds how many calls down closedFirst follows the way to a
// lock: a shutdown helper, or one more below it.
const wakeDepth = 3

// wokenFirst reports whether the receiver s, before it waits for the
// acquisition a, fires a case the blocked select at op also waits on: it
// closes that channel (closedFirst), or takes the lock only once the
// context both wait on is done (doneFirst).
func (c *checker) wokenFirst(op ssa.Instruction, s chans.Site, a summary.Acquisition) bool {
	return c.closedFirst(op, s, a) || doneFirst(op, s, a)
}

// closedFirst reports whether the receiver s, on its way to the
// acquisition a, always closes a channel field the blocked select at op
// also waits on. The sender then leaves by that case, releasing the lock,
// before the receiver waits for it: no cycle forms.
//
//	select {                        // the sender, holding p.writeMu
//	case p.pending <- reply:
//	case <-p.exitCh:                // fires once the reader is shutting down
//	}
//
//	close(p.exitCh)                 // the reader's shutdown...
//	p.writeMu.Lock()                // ...then waits for the sender
func (c *checker) closedFirst(op ssa.Instruction, s chans.Site, a summary.Acquisition) bool {
	sel, ok := op.(*ssa.Select)
	if !ok {
		return false
	}
	wakes := make(map[*types.Var]bool)
	for _, st := range sel.States {
		if f := chans.LoadedField(st.Chan); st.Dir == types.RecvOnly && f != nil {
			wakes[f] = true
		}
	}
	if len(wakes) == 0 {
		return false
	}
	return c.closesOnTheWay(s.Func, s.Instr, a, wakes, wakeDepth)
}

// closesOnTheWay reports whether every path in fn from just after from to
// the acquisition a closes one of the wakes fields first, in fn itself or,
// when a is a call, in the callee on its way to the lock.
func (c *checker) closesOnTheWay(fn *ssa.Function, from ssa.Instruction, a summary.Acquisition, wakes map[*types.Var]bool, depth int) bool {
	target := callAt(fn, a.Pos)
	if target == nil || depth == 0 {
		return false
	}
	closes := func(i ssa.Instruction) bool {
		call, ok := i.(*ssa.Call)
		if !ok || len(call.Call.Args) != 1 {
			return false
		}
		b, ok := call.Call.Value.(*ssa.Builtin)
		return ok && b.Name() == "close" && wakes[chans.LoadedField(call.Call.Args[0])]
	}
	if !reachesAvoiding(from, target, closes) {
		return true
	}
	if a.Via == "" {
		return false
	}
	callee := target.(ssa.CallInstruction).Common().StaticCallee()
	if callee == nil || len(callee.Blocks) == 0 {
		return false
	}
	found := false
	for _, b := range c.sum.Acquires(callee) {
		if b.Class != a.Class || b.Write != a.Write {
			continue
		}
		found = true
		if !c.closesOnTheWay(callee, nil, b, wakes, depth-1) {
			return false
		}
	}
	return found
}

// reachesAvoiding reports whether target can run after from (from the
// entry of target's function when from is nil) on a path that meets no
// instruction for which stop holds.
func reachesAvoiding(from, target ssa.Instruction, stop func(ssa.Instruction) bool) bool {
	fn := target.Parent()
	seen := make(map[*ssa.BasicBlock]bool)
	var walk func(b *ssa.BasicBlock, start int) bool
	walk = func(b *ssa.BasicBlock, start int) bool {
		for _, instr := range b.Instrs[start:] {
			if instr == target {
				return true
			}
			if stop(instr) {
				return false
			}
		}
		for _, s := range b.Succs {
			if !seen[s] {
				seen[s] = true
				if walk(s, 0) {
					return true
				}
			}
		}
		return false
	}
	if from == nil {
		return walk(fn.Blocks[0], 0)
	}
	b := from.Block()
	for i, instr := range b.Instrs {
		if instr == from {
			return walk(b, i+1)
		}
	}
	return true
}

// doneFirst reports whether the receiver s takes the acquisition a only
// on the branch of a select case on the Done of the context its own
// subscription carries, while the blocked select at op waits on that same
// context, read from the struct that holds the channel it sends on:
//
//	select {                            // the publisher, holding mgr.mu
//	case sub.pubch <- a:
//	case <-sub.ctx.Done():
//	}
//
//	sub := &addrSub{pubch: make(chan T), ctx: ctx}
//	go func() {
//		select {
//		case v := <-sub.pubch:          // s
//		case <-ctx.Done():              // the context stored in sub.ctx
//			mgr.removeSub(sub)          // takes mgr.mu: the publisher has left
//		}
//	}()
//
// When the receiver reaches the lock, that context is done, so the
// sender's case fires and it releases the lock.
func doneFirst(op ssa.Instruction, s chans.Site, a summary.Acquisition) bool {
	sel, ok := op.(*ssa.Select)
	target := callAt(s.Func, a.Pos)
	if !ok || target == nil {
		return false
	}
	sub, _, ok := chans.FieldLoad(chans.RecvChan(s))
	if !ok {
		return false
	}
	for _, field := range senderContexts(sel) {
		for _, done := range doneCases(s.Func, target) {
			if sameContext(done, sub, field) {
				return true
			}
		}
	}
	return false
}

// senderContexts returns the fields that the select's cases on a Done
// read their context from, when that field belongs to the struct whose
// channel a send case fills: p.ctx for case p.ch <- v, case <-p.ctx.Done().
func senderContexts(sel *ssa.Select) []int {
	var out []int
	for _, st := range sel.States {
		if st.Dir != types.SendOnly {
			continue
		}
		base, _, ok := chans.FieldLoad(st.Chan)
		if !ok {
			continue
		}
		for _, other := range sel.States {
			ctx := chans.DoneOf(other.Chan)
			if other.Dir != types.RecvOnly || ctx == nil {
				continue
			}
			if b, f, ok := chans.FieldLoad(ctx); ok && b == base {
				out = append(out, f)
			}
		}
	}
	return out
}

// doneCases returns the contexts whose Done a select case of fn waits on,
// on a branch that every path to target passes.
func doneCases(fn *ssa.Function, target ssa.Instruction) []ssa.Value {
	var out []ssa.Value
	chans.RecvCases(fn, func(sel *ssa.Select, k int) {
		ctx := chans.DoneOf(sel.States[k].Chan)
		if ctx == nil {
			return
		}
		if e, ok := chans.CaseEdge(sel, k); ok && len(e.To.Preds) == 1 && e.To.Dominates(target.Block()) {
			out = append(out, ctx)
		}
	})
	return out
}

// sameContext reports whether ctx, in the receiver's function, is the
// context stored in field f of the struct sub points to: a load of sub.f,
// or the value its maker stored there, as both reach a closure.
func sameContext(ctx, sub ssa.Value, f int) bool {
	if b, g, ok := chans.FieldLoad(ctx); ok && b == sub && g == f {
		return true
	}
	ctx, sub = resolve(ctx), resolve(sub)
	if ctx == nil || sub == nil {
		return false
	}
	for _, ref := range *sub.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.Field != f {
			continue
		}
		for _, use := range *fa.Referrers() {
			if st, ok := use.(*ssa.Store); ok && st.Addr == fa && resolve(st.Val) == ctx {
				return true
			}
		}
	}
	return false
}

// resolveDepth bounds how many captures and cells resolve looks through.
const resolveDepth = 8

// resolve returns the value a variable holds where it was set, looking
// through what closures capture: a free variable's binding in the one
// function that makes the closure, and the cell of a captured variable,
// assigned once. It returns nil when the variable is assigned more than
// once or bound in more than one place.
func resolve(v ssa.Value) ssa.Value {
	for range resolveDepth {
		switch x := v.(type) {
		case *ssa.FreeVar:
			v = binding(x)
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return v
			}
			addr := x.X
			if fv, ok := addr.(*ssa.FreeVar); ok {
				addr = binding(fv)
			}
			cell, ok := addr.(*ssa.Alloc)
			if !ok || !isCell(cell) {
				return v
			}
			v = chans.StoredOnce(cell)
		default:
			return v
		}
		if v == nil {
			return nil
		}
	}
	return nil
}

// isCell reports whether a is a named variable's heap cell, not a
// composite literal: what the IR makes for a variable a closure captures.
func isCell(a *ssa.Alloc) bool {
	_, isPtr := a.Type().Underlying().(*types.Pointer)
	return a.Heap && isPtr && a.Comment != "complit"
}

// binding returns what a closure's free variable is bound to where the
// closure is made, or nil when the closure is made in more than one place.
func binding(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	i := slices.Index(fn.FreeVars, fv)
	var out ssa.Value
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn {
				if out != nil {
					return nil
				}
				out = mc.Bindings[i]
			}
		}
	}
	return out
}
