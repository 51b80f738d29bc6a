package chans

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// A goroutine that sends on a channel only it receives from waits for
// itself once the buffer is full:
//
//	func (c *consumer) monitor() {
//		for {
//			select {
//			case <-c.ticker.C:
//				c.discover()         // sends on c.subscribeCh
//			case t := <-c.subscribeCh: // the only receive
//				c.subscribe(t)
//			}
//		}
//	}
//
// Two ticks in a row fill the one slot, and the second discover blocks
// the only goroutine that could empty it.

// OnReceiverGoroutine returns the instruction of r's function through
// which send runs on r's own goroutine: send itself, when r's function
// makes it, or the one call, in r's function, of a function that only r's
// function calls and that makes the send. It returns nil otherwise.
func (x *Index) OnReceiverGoroutine(r Site, send ssa.Instruction) ssa.Instruction {
	fn := send.Parent()
	if fn == r.Func {
		return send
	}
	sites, ok := x.callers(fn)
	if !InTestFile(send) {
		// A test that calls the function itself, on its own goroutine,
		// is not how the shipped code runs it.
		sites = slices.DeleteFunc(slices.Clone(sites), func(c ssa.CallInstruction) bool { return InTestFile(c) })
	}
	if !ok || len(sites) != 1 {
		return nil
	}
	call, ok := sites[0].(*ssa.Call)
	if !ok || call.Parent() != r.Func {
		return nil
	}
	return call
}

// SelfFill reports whether the send that runs on r's goroutine at at (see
// OnReceiverGoroutine) can wait for good: every receive of the channel
// (recvs) is in r's function, which runs once per channel made elsewhere
// (a goroutine started with it), and either the channel is unbuffered or
// r's function can come back to at without taking from the channel.
// Nothing else empties the buffer then.
func (x *Index) SelfFill(recvs []Site, r Site, at ssa.Instruction, makes []*ssa.MakeChan) bool {
	if at == nil || len(makes) == 0 || !x.RunsOncePerChannel(r, makes) {
		return false
	}
	for _, mk := range makes {
		if mk.Parent() == r.Func {
			// Each call makes a channel of its own, and the send may be
			// on another call's (one taken from a registry of waiters):
			// the receiver is then another goroutine.
			return false
		}
	}
	for _, o := range recvs {
		if o.Func != r.Func {
			return false
		}
	}
	return allUnbuffered(makes) || repeatsUntaken(at, recvs)
}

func allUnbuffered(makes []*ssa.MakeChan) bool {
	for _, mk := range makes {
		if n, ok := ConstCapOK(mk); !ok || n != 0 {
			return false
		}
	}
	return true
}

// repeatsUntaken reports whether a path leads from at's block back to it
// that passes none of the receives recvs: no plain receive, no receiving
// case of a select taken.
func repeatsUntaken(at ssa.Instruction, recvs []Site) bool {
	taken := make(map[flow.Edge]bool)
	blocked := make(map[*ssa.BasicBlock]bool)
	for _, r := range recvs {
		switch in := r.Instr.(type) {
		case *ssa.Select:
			if e, ok := CaseEdge(in, r.State); ok {
				taken[e] = true
			} else {
				blocked[in.Block()] = true
			}
		case *ssa.UnOp:
			if in.Op == token.ARROW {
				blocked[in.Block()] = true
			}
		default:
			blocked[r.Instr.Block()] = true
		}
	}
	start := at.Block()
	if blocked[start] {
		return false // a receive in at's own block may run first
	}
	seen := make(map[*ssa.BasicBlock]bool)
	var walk func(b *ssa.BasicBlock) bool
	walk = func(b *ssa.BasicBlock) bool {
		for _, s := range b.Succs {
			if taken[flow.Edge{From: b, To: s}] {
				continue
			}
			if s == start {
				return true
			}
			if seen[s] || blocked[s] {
				continue
			}
			seen[s] = true
			if walk(s) {
				return true
			}
		}
		return false
	}
	return walk(start)
}
