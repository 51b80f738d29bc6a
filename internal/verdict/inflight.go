package verdict

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/flow"
)

// inFlight proves "receives one result per job handed out" for a worker
// pool whose owner counts the jobs in flight: it adds one each time it
// hands a job to its workers, takes one off each time it receives a
// result, and leaves its loop only when nothing is in flight. Each worker
// sends at most one result per job it took, and only after taking it, so
// when the count is zero every result sent has been received.
//
//	for len(todo) > 0 || inflight > 0 {
//		select {
//		case res := <-results:
//			inflight--
//		case jobCh <- todo[0]: // jobCh is jobs, or nil when todo is empty
//			inflight++
//			todo = todo[1:]
//		}
//	}
//
// with workers that run `for j := range jobs { results <- do(j) }`. The
// jobs channel must be the owner's alone to send on: a job handed out
// anywhere else is not counted. A count that can be lowered without a
// receive, a worker that answers twice for one job, or a loop that can
// leave while jobs are in flight proves nothing.
func (j *Judge) inFlight(u *chans.Uses, s chans.Site) bool {
	if len(u.Escapes)+len(u.Stores) > 0 {
		return false
	}
	jobs := j.jobsOf(u, s)
	if jobs == nil {
		return false
	}
	owner := u.Owner()
	loops := j.idx.Loops(owner)
	fromZero := func(v ssa.Value) bool { return isConst(v, 0) }
	for _, r := range u.Recvs {
		if r.Func != owner {
			continue
		}
		l := loops.Innermost(r.Instr.Block())
		after := receivedBlock(r)
		if l == nil || after == nil {
			continue
		}
		for _, instr := range l.Header.Instrs {
			k, ok := instr.(*ssa.Phi)
			if !ok {
				continue
			}
			incs := make(map[*ssa.BasicBlock]bool)
			if countsDown(k, k, l, fromZero, after, incs, make(map[*ssa.Phi]bool)) && handedOutCounted(jobs, owner, l, incs) && exitsAtZero(l, k) {
				return true
			}
		}
	}
	return false
}

// jobsOf returns the channel of jobs that the worker sending on u takes
// its work from: a channel the owner made, that only the owner sends on,
// received by the worker in the one loop that holds every send on u, in
// a block every trip to those sends passes, with at most one send on u
// per trip.
func (j *Judge) jobsOf(u *chans.Uses, s chans.Site) *chans.Uses {
	if s.Start == nil || s.Func == u.Owner() {
		return nil
	}
	loops := j.idx.Loops(s.Func)
	l := loops.Innermost(s.Instr.Block())
	if l == nil {
		return nil
	}
	weights := make(map[ssa.Instruction]int)
	for _, t := range u.Sends {
		b := t.Instr.Block()
		if t.Func != s.Func || t.Start == nil || loops.Innermost(b) != l || loops.Depth(b) > 1 {
			return nil
		}
		weights[t.Instr] = 1
	}
	once := func(b *ssa.BasicBlock) int {
		if l.Blocks[b] {
			return 1
		}
		return loops.Trips(b, nil, chans.Many)
	}
	if flow.MaxCount(s.Func, weights, once, chans.Many) > 1 {
		return nil
	}
	for _, b := range u.Owner().Blocks {
		for _, instr := range b.Instrs {
			mk, ok := instr.(*ssa.MakeChan)
			if !ok || mk == u.Make {
				continue
			}
			jobs := j.idx.Uses(mk)
			if ownedJobs(jobs) && takenBeforeEverySend(jobs, s.Func, l, weights) {
				return jobs
			}
		}
	}
	return nil
}

// ownedJobs reports whether only the owner sends on the channel: it is
// neither stored, nor handed to code the package cannot see, nor sent on
// by a function the owner calls or starts.
func ownedJobs(jobs *chans.Uses) bool {
	if len(jobs.Escapes)+len(jobs.Stores) > 0 || len(jobs.Sends) == 0 {
		return false
	}
	for _, t := range jobs.Sends {
		if t.Func != jobs.Owner() || t.Start != nil {
			return false
		}
	}
	return true
}

// takenBeforeEverySend reports whether fn receives from jobs in loop l, in
// a block that every trip of l passes before it reaches a send of sends.
func takenBeforeEverySend(jobs *chans.Uses, fn *ssa.Function, l *flow.Loop, sends map[ssa.Instruction]int) bool {
	for _, r := range jobs.Recvs {
		if r.Func != fn || !l.Blocks[r.Instr.Block()] {
			continue
		}
		after := receivedBlock(r)
		if after == nil || !l.Blocks[after] {
			continue
		}
		skipped := tripReachesAvoiding(l, after)
		ok := true
		for instr := range sends {
			ok = ok && !skipped[instr.Block()]
		}
		if ok {
			return true
		}
	}
	return false
}

// tripReachesAvoiding returns the blocks of l that a trip, from l's head,
// can reach without passing through block avoid.
func tripReachesAvoiding(l *flow.Loop, avoid *ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	seen := map[*ssa.BasicBlock]bool{}
	var walk func(b *ssa.BasicBlock)
	walk = func(b *ssa.BasicBlock) {
		if seen[b] || b == avoid || !l.Blocks[b] {
			return
		}
		seen[b] = true
		for _, s := range b.Succs {
			if s != l.Header {
				walk(s)
			}
		}
	}
	walk(l.Header)
	return seen
}

// isIncrement reports whether v is k + 1.
func isIncrement(v ssa.Value, k *ssa.Phi) bool {
	add, ok := v.(*ssa.BinOp)
	return ok && add.Op == token.ADD && add.X == k && isConst(add.Y, 1)
}

// handedOutCounted reports whether every send of a job is made by the
// owner in loop l and followed, in the block that runs once it went
// through, by one of the counter's increments: a select case's body, or
// the send's own block after it.
// Two sends in one block share no increment.
func handedOutCounted(jobs *chans.Uses, owner *ssa.Function, l *flow.Loop, incs map[*ssa.BasicBlock]bool) bool {
	counted := make(map[*ssa.BasicBlock]bool)
	for _, t := range jobs.Sends {
		if t.Func != owner || !l.Blocks[t.Instr.Block()] {
			return false
		}
		b := t.Instr.Block()
		if sel, ok := t.Instr.(*ssa.Select); ok {
			e, ok := chans.CaseEdge(sel, t.State)
			if !ok || len(e.To.Preds) != 1 {
				return false
			}
			b = e.To
		}
		if !incs[b] || counted[b] {
			return false
		}
		counted[b] = true
	}
	return true
}
