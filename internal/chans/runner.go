package chans

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A service's loop is often not started with a go statement but handed,
// as a method value, to a runner: a helper that wraps it in a service a
// supervisor starts and stops. The runner may call it more than once, so
// the loop's return is not by itself its channels' last receive. It is
// when the runner never calls the loop again once the context it gave the
// loop is done, and the loop gives up on that context: a context, once
// done, stays done. A runner does that when it calls the loop
//
//   - once, on a goroutine or in line, per call of the runner;
//   - with one context it keeps for every call (made once with the value
//     that holds the loop, or given to it), and only after a check that the
//     context is not done, as a Serve that a supervisor restarts does:
//
//	func (s *service) Serve() {
//		select {
//		case <-s.ctx.Done():     // t9 = select nonblocking [<-t8]
//			return
//		default:                 // dominates the call
//		}
//		s.serve(s.ctx)           // s.ctx stored only where s is made
//	}
//
//   - or through another runner, or a closure a runner runs, that passes
//     on the context it was given.
//
// A runner that makes a new context for each run (a restart after Stop)
// or calls the loop in a loop without that check may run it again, and
// the loop's return is then no proof. The check and the call are not one
// step: a Stop between them runs the loop once more with a done context,
// which it soon leaves; the proof is the execution in which Stop comes
// first, after which the runner calls nothing.

// runMode is how a func value is run.
type runMode int

const (
	runUnknown   runMode = iota
	runOnce              // at most once per run of the function holding it
	runUntilDone         // with one context, never again once it is done
)

// run is one way a func value is run: the call, go or defer that calls it,
// or the instruction that hands it to a runner or stores it in a runner's
// field.
type run struct {
	mode runMode
	at   ssa.Instruction
}

// maxRunDepth bounds how many hand-offs and closures the runner questions
// follow.
const maxRunDepth = 6

// SetRunners tells the index which functions of other packages are
// runners: imported(fn, i) reports whether fn never calls its parameter i
// (receiver first) again once the context it passed is done
// (RunsUntilDone in fn's package).
func (x *Index) SetRunners(imported func(fn *types.Func, param int) bool) {
	x.imported = imported
}

// RunsUntilDone reports whether fn, a function of this package, never calls
// the func value it takes as parameter i (receiver first) again once the
// context it passed that value is done: the value takes one
// context.Context, and fn calls it once, or only with one context and only
// while that context is not done, itself or through the runners and
// closures it hands it to.
func (x *Index) RunsUntilDone(fn *ssa.Function, i int) bool {
	if i >= len(fn.Params) || fn.Blocks == nil || ctxParam(fn.Params[i].Type()) < 0 {
		return false
	}
	key := runnerKey{fn, i}
	if ok, seen := x.runners[key]; seen {
		return ok
	}
	x.runners[key] = false // a cycle of hand-offs proves nothing
	r, ok := x.onlyRun(fn.Params[i], fn, runOnce, 0)
	ok = ok && r.mode != runUnknown
	x.runners[key] = ok
	return ok
}

type runnerKey struct {
	fn    *ssa.Function
	param int
}

// runsUntilDone answers RunsUntilDone for a static callee of this package
// or, through the facts SetRunners gave, of another.
func (x *Index) runsUntilDone(callee *ssa.Function, i int) bool {
	if callee.Pkg == x.pkg {
		return x.RunsUntilDone(callee, i)
	}
	obj, ok := callee.Object().(*types.Func)
	return ok && x.imported != nil && x.imported(obj.Origin(), i)
}

// onlyRun returns the one way the func value v, held in h, which itself is
// run in mode hm, is run. ok is false when v is run in more than one place
// or used in a way the runner questions do not follow.
func (x *Index) onlyRun(v ssa.Value, h *ssa.Function, hm runMode, depth int) (run, bool) {
	runs, ok := x.runsOf(v, h, hm, depth)
	if !ok || len(runs) != 1 {
		return run{}, false
	}
	return runs[0], true
}

// runsOf returns the ways the func value v, held in h, is run.
func (x *Index) runsOf(v ssa.Value, h *ssa.Function, hm runMode, depth int) ([]run, bool) {
	if depth > maxRunDepth {
		return nil, false
	}
	var runs []run
	for _, ref := range *v.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.ChangeType:
			more, ok := x.runsOf(r, h, hm, depth+1)
			if !ok {
				return nil, false
			}
			runs = append(runs, more...)
		case ssa.CallInstruction:
			runs = append(runs, x.callRun(v, r, h, hm))
		case *ssa.Store:
			if r.Val != v {
				return nil, false
			}
			more, ok := x.storedRuns(v, r, h, hm, depth)
			if !ok {
				return nil, false
			}
			runs = append(runs, more...)
		case *ssa.MakeClosure:
			// A closure that captures v by value: v is run where the
			// closure runs it.
			more, ok := x.capturedRuns(v, r, h, hm, depth)
			if !ok {
				return nil, false
			}
			runs = append(runs, more...)
		default:
			return nil, false
		}
	}
	return runs, true
}

// callRun says how the call instruction c, in h, runs the func value v: it
// calls v, or hands it to a runner.
func (x *Index) callRun(v ssa.Value, c ssa.CallInstruction, h *ssa.Function, hm runMode) run {
	cc := c.Common()
	looped := x.Loops(h).InLoop(c.Block())
	if cc.Value == v && !cc.IsInvoke() {
		k := ctxParam(v.Type())
		switch {
		case k < 0 || k >= len(cc.Args):
		case hm == runOnce && !looped:
			return run{runOnce, c}
		case hm == runUntilDone && !looped && cc.Args[k] == runCtx(h):
			return run{runUntilDone, c}
		case x.notDone(c, cc.Args[k]) && (hm == runOnce && x.fixedFor(c, cc.Args[k]) || hm == runUntilDone && cc.Args[k] == runCtx(h)):
			return run{runUntilDone, c}
		}
		return run{}
	}
	callee := cc.StaticCallee()
	if callee == nil || hm != runOnce || looped {
		return run{}
	}
	for i, arg := range cc.Args {
		if arg == v {
			if cc.Value == v || !x.runsUntilDone(callee, i) {
				return run{}
			}
			return run{runUntilDone, c}
		}
	}
	return run{}
}

// storedRuns follows v into the variable or field st stores it in.
func (x *Index) storedRuns(v ssa.Value, st *ssa.Store, h *ssa.Function, hm runMode, depth int) ([]run, bool) {
	switch addr := st.Addr.(type) {
	case *ssa.Alloc:
		// A captured variable: its cell is loaded here or bound by the
		// closures that capture it.
		return x.cellRuns(addr, v, h, hm, depth)
	case *ssa.FieldAddr:
		f := FieldOf(addr.X.Type(), addr.Field, true)
		if hm != runOnce || x.Loops(h).InLoop(st.Block()) || f == nil || !x.fieldRunsUntilDone(f) {
			return nil, false
		}
		return []run{{runUntilDone, st}}, true
	}
	return nil, false
}

// cellRuns returns the runs of v, the one value stored in cell: through
// its loads in h and in the closures that capture the cell.
func (x *Index) cellRuns(cell ssa.Value, v ssa.Value, h *ssa.Function, hm runMode, depth int) ([]run, bool) {
	if depth > maxRunDepth {
		return nil, false
	}
	var runs []run
	for _, ref := range *cell.Referrers() {
		var more []run
		ok := false
		switch r := ref.(type) {
		case *ssa.DebugRef:
			ok = true
		case *ssa.Store:
			ok = r.Addr == cell && r.Val == v
		case *ssa.UnOp:
			if r.Op == token.MUL {
				more, ok = x.runsOf(r, h, hm, depth+1)
			}
		case *ssa.MakeClosure:
			more, ok = x.capturedRuns(cell, r, h, hm, depth)
		}
		if !ok {
			return nil, false
		}
		runs = append(runs, more...)
	}
	return runs, true
}

// capturedRuns returns the runs of a func value (or of the cell holding
// it) that the closure mc captures: the closure is run in one way, which
// decides how its own calls of the value run it.
func (x *Index) capturedRuns(captured ssa.Value, mc *ssa.MakeClosure, h *ssa.Function, hm runMode, depth int) ([]run, bool) {
	g, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return nil, false
	}
	gr, ok := x.onlyRun(mc, h, hm, depth+1)
	if !ok || gr.mode == runUnknown {
		return nil, false
	}
	var runs []run
	for i, b := range mc.Bindings {
		if b != captured {
			continue
		}
		var more []run
		if _, isCell := captured.(*ssa.Alloc); isCell {
			more, ok = x.cellRuns(g.FreeVars[i], nil, g, gr.mode, depth+1)
		} else {
			more, ok = x.runsOf(g.FreeVars[i], g, gr.mode, depth+1)
		}
		if !ok {
			return nil, false
		}
		runs = append(runs, more...)
	}
	return runs, true
}

// runCtx returns the context h is run with: its one context.Context
// parameter, or nil.
func runCtx(h *ssa.Function) ssa.Value {
	var ctx ssa.Value
	for _, p := range h.Params {
		if isContext(p.Type()) {
			if ctx != nil {
				return nil
			}
			ctx = p
		}
	}
	return ctx
}

// ctxParam returns the index of the one context.Context parameter of the
// func type t, or -1.
func ctxParam(t types.Type) int {
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || sig.Recv() != nil {
		return -1
	}
	k := -1
	for i := range sig.Params().Len() {
		if isContext(sig.Params().At(i).Type()) {
			if k >= 0 {
				return -1
			}
			k = i
		}
	}
	return k
}

func isContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}
