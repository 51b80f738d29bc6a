package verdict

import (
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// EndsWithProcess is what a proof lacks when the channel is made by a
// command's main function a bounded number of times and main waits for
// none of its goroutines.
const EndsWithProcess = "made in main, at most once per element of a collection, and main waits for no goroutine: the senders left blocked are a bounded few that end with the process"

// endsWithProcess reports whether the goroutines a leak leaves blocked on
// the channel made by mk are a bounded few that nothing waits for: mk is
// in package main's main, which runs once per process, outside any loop
// that could run without end (every loop around it ranges over a
// collection or counts to a bound), and main waits on no WaitGroup, so a
// blocked sender stalls no one and is gone when main returns. A command
// that leaks one generator per argument is that shape; a server's main
// that makes a channel per accepted connection is not.
func (j *Judge) endsWithProcess(mk *ssa.MakeChan) string {
	fn := mk.Parent()
	if fn.Name() != "main" || fn.Signature.Recv() != nil || fn.Pkg == nil || fn.Pkg.Pkg.Name() != "main" {
		return ""
	}
	for _, l := range j.idx.Loops(fn).Containing(mk.Block()) {
		if !bounded(l) {
			return ""
		}
	}
	if waitsOnGroup(fn) {
		return ""
	}
	return EndsWithProcess
}

// bounded reports whether loop l runs a bounded number of times: its
// header tests an index against a bound (a counted loop, a range over a
// slice, an array or an integer) or steps a map or string iterator. A
// loop over a channel or a bare for loop is neither.
func bounded(l *flow.Loop) bool {
	if flow.LoopBound(l) != nil {
		return true
	}
	for _, instr := range l.Header.Instrs {
		if _, ok := instr.(*ssa.Next); ok {
			return true
		}
	}
	return false
}

// waitsOnGroup reports whether fn waits for goroutines on a WaitGroup:
// then a sender left blocked holds main up, which is a hang, not a leak.
func waitsOnGroup(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if callee := call.Common().StaticCallee(); callee != nil && callee.String() == "(*sync.WaitGroup).Wait" {
				return true
			}
		}
	}
	return false
}
