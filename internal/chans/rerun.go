package chans

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// RerunUntilStopped returns the call that runs the receiver r again, and
// true, when r, which can stop and run again, is run again only by the
// loop of one function that ends for good on a stop channel: every call of
// r's function is in a loop of one function F; F runs once per channel
// made (RunsOncePerChannel), or is started once, as a method value, by the
// function that made the channel, through a helper that starts it on a
// goroutine (startedOnceBy); and every return of F those calls reach
// follows a select case on a stop channel: a field the package closes and
// never sends on. Once that channel is closed F has returned, and r's last
// run with it: from then on nothing receives.
//
//	func (r *Raft) run() {
//		for {
//			select {
//			case <-r.shutdownCh:
//				return
//			default:
//			}
//			switch r.getState() {
//			case Follower:
//				r.runFollower() // receives from verifyCh until the state changes
//			...
func (x *Index) RerunUntilStopped(r Site, makes []*ssa.MakeChan) (ssa.Instruction, bool) {
	site := x.rerunBy(r.Func)
	if site == nil {
		return nil, false
	}
	f := site.Parent()
	if !x.RunsOncePerChannel(Site{Instr: site, Func: f}, makes) && !x.startedOnceBy(f, makes) {
		return nil, false
	}
	return site, true
}

// rerunBy returns a call of fn when every call of it is in a loop of one
// function whose every return those calls reach follows a stop channel's
// case; nil otherwise. The answer, which does not depend on the channel,
// is kept per function.
func (x *Index) rerunBy(fn *ssa.Function) ssa.Instruction {
	if site, ok := x.reruns[fn]; ok {
		return site
	}
	site := x.findRerun(fn)
	if x.reruns == nil {
		x.reruns = make(map[*ssa.Function]ssa.Instruction)
	}
	x.reruns[fn] = site
	return site
}

func (x *Index) findRerun(fn *ssa.Function) ssa.Instruction {
	sites, ok := x.callers(fn)
	if !ok || len(sites) == 0 {
		return nil
	}
	f := sites[0].Parent()
	for _, s := range sites {
		if _, isCall := s.(*ssa.Call); !isCall || s.Parent() != f || !flow.Reaches(s, s) {
			return nil
		}
	}
	for _, b := range f.Blocks {
		ret, isRet := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if isRet && flow.Reaches(sites[0], ret) && !x.afterStop(b) {
			return nil
		}
	}
	return sites[0]
}

// afterStop reports whether the block b lies on the branch of a select
// case that receives from a stop channel (stopField).
func (x *Index) afterStop(b *ssa.BasicBlock) bool {
	sel, k, _, ok := decidingCase(b)
	if !ok {
		return false
	}
	f := LoadedField(sel.States[k].Chan)
	return f != nil && x.stopField(f)
}

// startedOnceBy reports whether the method f is started only through its
// method values, each handed, outside loops, by a function that made one
// of makes to a helper of this package that starts it once on a goroutine
// of its own (goOnce):
//
//	r.goFunc(r.run) // func (r *Raft) goFunc(f func()) { go func() { defer r.wg.Done(); f() }() }
func (x *Index) startedOnceBy(f *ssa.Function, makes []*ssa.MakeChan) bool {
	obj := f.Object()
	if obj == nil || f.Parent() != nil || len(x.calls[f]) > 0 || len(x.goStarts[f]) > 0 || len(x.boundVals[obj]) == 0 {
		return false
	}
	for _, mc := range x.boundVals[obj] {
		for _, ref := range *mc.Referrers() {
			if _, isDebug := ref.(*ssa.DebugRef); isDebug {
				continue
			}
			call, ok := ref.(*ssa.Call)
			if !ok || !madeBy(call.Parent(), makes) || x.Loops(call.Parent()).InLoop(call.Block()) {
				return false
			}
			callee := call.Call.StaticCallee()
			i := slices.Index(call.Call.Args, ssa.Value(mc))
			if callee == nil || callee.Pkg != x.pkg || i < 0 || !x.goOnce(callee, i) {
				return false
			}
		}
	}
	return true
}

// madeBy reports whether fn made one of makes.
func madeBy(fn *ssa.Function, makes []*ssa.MakeChan) bool {
	return slices.ContainsFunc(makes, func(mk *ssa.MakeChan) bool { return mk.Parent() == fn })
}

// goOnce reports whether the helper fn does nothing with its func
// parameter i but start it, once: a go statement outside loops that
// calls it, or starts a literal that captures it (by value, or in the
// variable a closure captures by address) and calls it once, outside its
// loops.
func (x *Index) goOnce(fn *ssa.Function, i int) bool {
	if i >= len(fn.Params) {
		return false
	}
	p := fn.Params[i]
	started := 0
	for _, ref := range *p.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Go:
			if r.Call.Value != ssa.Value(p) || x.Loops(fn).InLoop(r.Block()) {
				return false
			}
			started++
		case *ssa.MakeClosure:
			if !x.startsCaptured(r, p) {
				return false
			}
			started++
		case *ssa.Store:
			a, ok := r.Addr.(*ssa.Alloc)
			if !ok || r.Val != ssa.Value(p) {
				return false
			}
			n, ok := x.closuresOf(a)
			if !ok {
				return false
			}
			started += n
		default:
			return false
		}
	}
	return started == 1
}

// closuresOf counts the literals that capture the variable a and start
// it once (startsCaptured); ok is false when a has other uses than its
// stores and those captures.
func (x *Index) closuresOf(a *ssa.Alloc) (n int, ok bool) {
	for _, ref := range *a.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef, *ssa.Store:
		case *ssa.MakeClosure:
			if !x.startsCaptured(r, a) {
				return 0, false
			}
			n++
		default:
			return 0, false
		}
	}
	return n, true
}

// startsCaptured reports whether mc is started once, by one go statement
// outside loops, and its literal calls the captured v once, outside its
// loops.
func (x *Index) startsCaptured(mc *ssa.MakeClosure, v ssa.Value) bool {
	lit, ok := mc.Fn.(*ssa.Function)
	i := slices.Index(mc.Bindings, v)
	return ok && i >= 0 && x.goesOnce(mc) && x.calledOnce(lit, lit.FreeVars[i])
}

// goesOnce reports whether the literal mc is only started, by one go
// statement outside loops.
func (x *Index) goesOnce(mc *ssa.MakeClosure) bool {
	n := 0
	for _, ref := range *mc.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Go:
			if r.Call.Value != ssa.Value(mc) || x.Loops(r.Parent()).InLoop(r.Block()) {
				return false
			}
			n++
		default:
			return false
		}
	}
	return n == 1
}

// calledOnce reports whether the free variable v of fn is only called,
// once, outside fn's loops: directly, or loaded from the variable it
// captures by address.
func (x *Index) calledOnce(fn *ssa.Function, v ssa.Value) bool {
	n := 0
	for _, ref := range *v.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if r.Op != token.MUL || !x.calledOnce(fn, r) {
				return false
			}
			n++
		case *ssa.Call:
			if r.Call.Value != v || x.Loops(fn).InLoop(r.Block()) {
				return false
			}
			n++
		default:
			return false
		}
	}
	return n == 1
}
