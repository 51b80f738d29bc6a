package chans

import (
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// Semaphore reports whether the channel u makes is a counting semaphore
// whose holders always give their token back: a buffered channel seen
// whole by this package (it escapes nowhere; a capacity that is not a
// constant, a pool sized by its caller's settings, is taken to be at
// least one: with none, the first acquire would wait for a holder that
// starts only after it, which the first run shows), on which only its owner
// sends, and where every send (an acquire) is followed, on every path and
// before the next acquire or the owner's return, by a release: a receive
// of the owner, or the start of a function (a goroutine, a call, a
// deferred call) that receives on the channel on every path through it.
//
//	pending := make(chan struct{}, 1)
//	write := func(reqs []*request) {
//		flush(reqs)
//		<-pending // release
//	}
//	for {
//		...
//		pending <- struct{}{} // acquire: waits for the last write to finish
//		go write(reqs)
//	}
//
// Such a send waits for an earlier holder's release, which comes when that
// holder's work ends: a throttle, not a receiver that can be gone. The
// holder's work blocking is the bug to find there, not this send.
func (x *Index) Semaphore(u *Uses) bool {
	if n, ok := constCap(u.Make); ok && n < 1 || len(u.Escapes) > 0 || len(u.Stores) > 0 || len(u.Sends) == 0 {
		return false
	}
	if selfReleased(u) {
		return true
	}
	releases := x.releases(u)
	if len(releases) == 0 {
		return false
	}
	acquires := make(map[ssa.Instruction]bool)
	for _, s := range u.Sends {
		if s.Func != u.Owner() {
			return false
		}
		acquires[s.Instr] = true
	}
	for _, s := range u.Sends {
		from, start, ok := afterSend(s)
		if !ok || !releasedFirst(from, start, releases, acquires) {
			return false
		}
	}
	return true
}

// selfReleased reports whether every send on u's channel is given back
// by a plain receive of the same function before that function sends on
// it again or returns: a semaphore each holder releases itself, whoever
// holds it,
//
//	sema <- 1 // waits for a holder's release, not for a receiver
//	bp, err := ctxt.Import(path, "", 0)
//	<-sema
//
// so that a send waits only while cap(sema) holders do their work.
func selfReleased(u *Uses) bool {
	releases := make(map[*ssa.Function]map[ssa.Instruction]bool)
	for _, r := range u.Recvs {
		if _, plain := r.Instr.(*ssa.UnOp); !plain {
			continue
		}
		if releases[r.Func] == nil {
			releases[r.Func] = make(map[ssa.Instruction]bool)
		}
		releases[r.Func][r.Instr] = true
	}
	acquires := make(map[ssa.Instruction]bool)
	for _, s := range u.Sends {
		acquires[s.Instr] = true
	}
	for _, s := range u.Sends {
		from, start, ok := afterSend(s)
		if !ok || !releasedFirst(from, start, releases[s.Func], acquires) {
			return false
		}
	}
	return true
}

// releases returns the owner's instructions that give a token back: its
// own receives, and the go, call or defer instructions whose function
// gives one back on every path through it.
func (x *Index) releases(u *Uses) map[ssa.Instruction]bool {
	out := make(map[ssa.Instruction]bool)
	byStart := make(map[ssa.Instruction]map[*ssa.Function]map[ssa.Instruction]bool)
	for _, r := range u.Recvs {
		switch {
		case r.Start == nil && r.Func == u.Owner():
			out[r.Instr] = true
		case r.Start != nil && r.Start.Parent() == u.Owner():
			byFunc := byStart[r.Start]
			if byFunc == nil {
				byFunc = make(map[*ssa.Function]map[ssa.Instruction]bool)
				byStart[r.Start] = byFunc
			}
			if byFunc[r.Func] == nil {
				byFunc[r.Func] = make(map[ssa.Instruction]bool)
			}
			byFunc[r.Func][r.Instr] = true
		}
	}
	for start, byFunc := range byStart {
		if fn := x.heldBy(start); fn != nil && x.alwaysReceives(fn, byFunc, releaseDepth) {
			out[start] = true
		}
	}
	return out
}

// heldBy returns the function a start runs for the token's holder: the
// function or closure it names, or, when it hands one closure to a
// function of another package (threading.GoSafe(func() {...}), an
// errgroup's Go), that closure, which such a function is there to run.
func (x *Index) heldBy(start ssa.Instruction) *ssa.Function {
	fn := x.directCallee(start)
	call, ok := start.(*ssa.Call)
	if !ok || fn == nil || len(fn.Blocks) > 0 {
		return fn
	}
	var only *ssa.Function
	for _, a := range call.Call.Args {
		if mc, ok := a.(*ssa.MakeClosure); ok {
			if only != nil {
				return fn
			}
			only = mc.Fn.(*ssa.Function)
		}
	}
	if only == nil {
		return fn
	}
	return only
}

// releaseDepth bounds how deep alwaysReceives follows calls: a holder's
// release sits in its body or one helper down, often a deferred closure.
const releaseDepth = 3

// alwaysReceives reports whether every path through fn gives the token
// back: it meets one of fn's receives in recvs, or a call or defer of a
// function that always receives. A deferred release counts where the
// defer runs, since every return and every panic after it runs the call.
func (x *Index) alwaysReceives(fn *ssa.Function, recvs map[*ssa.Function]map[ssa.Instruction]bool, depth int) bool {
	if len(fn.Blocks) == 0 || depth == 0 {
		return false
	}
	mine := recvs[fn]
	release := func(i ssa.Instruction) bool {
		if mine[i] {
			return true
		}
		switch i.(type) {
		case *ssa.Call, *ssa.Defer:
			callee := x.directCallee(i)
			return callee != nil && callee != fn && x.alwaysReceives(callee, recvs, depth-1)
		}
		return false
	}
	always := flow.Path{Stop: release}
	return !always.ReturnReachable(fn.Blocks[0], -1)
}

// afterSend returns where control goes once the send at s has been made:
// just after a send statement, or into the case of a select.
func afterSend(s Site) (*ssa.BasicBlock, int, bool) {
	if sel, ok := s.Instr.(*ssa.Select); ok {
		e, ok := CaseEdge(sel, s.State)
		return e.To, -1, ok
	}
	return s.Instr.Block(), flow.IndexOf(s.Instr), true
}

// releasedFirst reports whether every path from just after index start of
// block from meets a release before it meets an acquire or returns. A path
// that panics gives nothing back, but waits for nobody either.
func releasedFirst(from *ssa.BasicBlock, start int, releases, acquires map[ssa.Instruction]bool) bool {
	seen := make(map[*ssa.BasicBlock]bool)
	var ok func(b *ssa.BasicBlock, start int) bool
	ok = func(b *ssa.BasicBlock, start int) bool {
		for _, instr := range b.Instrs[start+1:] {
			switch {
			case releases[instr]:
				return true
			case acquires[instr]:
				return false
			}
			switch instr.(type) {
			case *ssa.Return:
				return false
			case *ssa.Panic:
				return true
			}
		}
		for _, s := range b.Succs {
			if !seen[s] {
				seen[s] = true
				if !ok(s, -1) {
					return false
				}
			}
		}
		return true
	}
	return ok(from, start)
}
