package chans

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// coveredByRelay proves a result channel sized to the work it answers:
// every send on it is made by a worker that ranges over a work channel and
// sends at most once per value it takes, and the work channel is sent no
// more values than the result channel holds (sentAtMost). Each send uses
// up a value taken from the work channel, so however many workers run,
// there are no more sends than work:
//
//	results := make(chan error, len(jobs))
//	work := make(chan job, n)
//	for range n {
//		go func() {
//			for j := range work {
//				results <- do(j) // one send per job taken
//			}
//		}()
//	}
//	for _, j := range jobs { // len(jobs) jobs
//		work <- j
//	}
//	close(work)
func (x *Index) coveredByRelay(u *Uses) bool {
	w := x.relayed(u)
	return w != nil && x.sentAtMost(w, u.Make.Size)
}

// RelayedAtMost reports whether every send on u's channel relays a value
// taken from a work channel that is sent at most n values
// (coveredByRelay): the channel is sent at most n values in all.
func (x *Index) RelayedAtMost(u *Uses, n ssa.Value) bool {
	w := x.relayed(u)
	return w != nil && x.sentAtMost(w, n)
}

// relayed returns the uses of the one work channel, made by u's owner and
// seen whole (nothing stores it or lets it escape), whose values every
// send of u relays; or nil.
func (x *Index) relayed(u *Uses) *Uses {
	var work *ssa.MakeChan
	for _, s := range u.Sends {
		mk := x.relayOf(u, s)
		if mk == nil || mk == u.Make || work != nil && mk != work {
			return nil
		}
		work = mk
	}
	if work == nil || work.Parent() != u.Owner() {
		return nil
	}
	w := x.Uses(work)
	if x.escapedAt(w) {
		return nil
	}
	return w
}

// relayOf returns the make of the channel whose range loop holds the plain
// send s of u, when no trip of that loop can send twice: s is in no inner
// loop, and no path through one trip passes two of u's sends. Each trip of
// a range over a channel starts by taking a value from it.
func (x *Index) relayOf(u *Uses, s Site) *ssa.MakeChan {
	send, ok := s.Instr.(*ssa.Send)
	if !ok {
		return nil
	}
	l := x.Loops(s.Func).Innermost(send.Block())
	if l == nil {
		return nil
	}
	ranged := rangedChannel(l)
	if ranged == nil {
		return nil
	}
	origins := x.Origins(ranged)
	if len(origins) != 1 || origins[0].Kind != Made {
		return nil
	}
	weights := make(map[ssa.Instruction]int)
	for _, other := range u.Sends {
		if other.Func == s.Func {
			weights[other.Instr] = 1
		}
	}
	oneTrip := func(b *ssa.BasicBlock) int {
		if l.Blocks[b] {
			return 1
		}
		return Many
	}
	if flow.MaxCount(s.Func, weights, oneTrip, Many) > 1 {
		return nil
	}
	return origins[0].Make
}

// rangedChannel returns the channel a loop ranges over, or nil: its header
// takes a value with v, ok := <-ch and leaves the loop once ok is false.
//
//	rangechan.loop:
//	  t5 = <-t0,ok
//	  t7 = extract t5 #1
//	  if t7 goto rangechan.body else rangechan.done
func rangedChannel(l *flow.Loop) ssa.Value {
	iff, ok := l.Header.Instrs[len(l.Header.Instrs)-1].(*ssa.If)
	if !ok {
		return nil
	}
	okv, ok := iff.Cond.(*ssa.Extract)
	if !ok || okv.Index != 1 {
		return nil
	}
	recv, ok := okv.Tuple.(*ssa.UnOp)
	if !ok || recv.Op != token.ARROW || !recv.CommaOk || recv.Block() != l.Header {
		return nil
	}
	if !l.Blocks[l.Header.Succs[0]] || l.Blocks[l.Header.Succs[1]] {
		return nil
	}
	return recv.X
}
