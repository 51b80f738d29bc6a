package chans

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// StopsOnRequest returns the sends that alone can stop the receiver r, when
// each is a send of a stop request on r's own channel: r returns only on
// the branch where the value it took has the request's type (case
// *closeRequest: return), or on a stop channel it closes itself after
// such a request (Stoppers says which).
//
//	func (c *consumer) Close() {
//		c.events <- &closeRequest{}   // the one stopper
//	}
//	func (c *consumer) loop() {
//		for ev := range c.events {
//			switch ev.(type) {
//			case *ackRequest:
//				c.ack()
//			case *closeRequest:
//				return
//			}
//		}
//	}
//
// A channel keeps its values in order, so r takes every value sent before
// the request that stops it: only the values sent after it are stranded,
// and a send blocks for good only once more of them than the buffer holds
// are waiting.
func (x *Index) StopsOnRequest(r Site) ([]ssa.Instruction, bool) {
	f := LoadedField(RecvChan(r))
	if f == nil {
		return nil, false
	}
	stops, ok := x.Stoppers(r)
	if !ok || len(stops) == 0 {
		return nil, false
	}
	for _, s := range stops {
		if !x.sendsOn(s, f) {
			return nil, false // a close, a cancel, a send on a stop channel
		}
	}
	return stops, true
}

// sendsOn reports whether instr is a plain send on a channel kept in
// field f.
func (x *Index) sendsOn(instr ssa.Instruction, f *types.Var) bool {
	send, ok := instr.(*ssa.Send)
	return ok && x.fromField(send.Chan, f)
}

// RepeatedHere reports whether the package itself runs the send at instr
// again and again: it lies in a loop of its function, or a chain of calls
// in this package that reaches its function (direct calls, calls of a
// closure, calls through an interface its method satisfies) passes a go
// statement or a call made in a loop. Calls from other packages and
// closures handed to other functions are no such evidence.
func (x *Index) RepeatedHere(instr ssa.Instruction) bool {
	if flow.Reaches(instr, instr) {
		return true
	}
	seen := map[*ssa.Function]bool{instr.Parent(): true}
	work := []*ssa.Function{instr.Parent()}
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range x.runSites(fn) {
			if _, isGo := s.(*ssa.Go); isGo || flow.Reaches(s, s) {
				return true
			}
			if caller := s.Parent(); !seen[caller] {
				seen[caller] = true
				work = append(work, caller)
			}
		}
	}
	return false
}

// runSites returns the calls and go statements of this package that run
// fn: direct ones, those of a closure's value, and interface calls its
// method satisfies.
func (x *Index) runSites(fn *ssa.Function) []ssa.CallInstruction {
	sites := append(x.invokesOf(fn), x.calls[fn]...)
	for _, mc := range x.closures[fn] {
		calls, _ := onlyCalled(mc, 0)
		sites = append(sites, calls...)
	}
	return sites
}
