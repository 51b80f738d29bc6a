package verdict

import (
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/flow"
)

// repliesOneAtATime proves a worker that answers its owner's requests one
// at a time: the owner starts it once and hands it a request channel
// only the owner sends on; the worker sends on a group of reply
// channels the owner made with room for a value, and nobody else does;
// every reply follows a request taken since the worker's last reply; and
// the owner asks again only after receiving a reply. At most one reply is
// then owed at any time, and the buffers are empty when it is sent: when
// the owner returns, the one reply still coming has room, and the worker
// waits on the request channel instead.
//
//	go readLines(lines, errs, prompts)   // func readLines: for p := range prompts { ...; lines <- line }
//	for {
//		prompts <- prompt                // the next request, once the last reply was taken
//		select {
//		case <-stopped:
//			return                       // the reply still coming fits in its buffer
//		case err := <-errs: ...
//		case line := <-lines: ...
//		}
//	}
func (j *Judge) repliesOneAtATime(u *chans.Uses, s chans.Site) bool {
	start, ok := s.Start.(*ssa.Go)
	owner := u.Owner()
	if !ok || start.Parent() != owner || j.idx.Loops(owner).InLoop(start.Block()) {
		return false
	}
	worker := start.Call.StaticCallee()
	if worker == nil {
		return false
	}
	group := j.startedGroup(owner, start, nil)
	if !containsUses(group, u) || chans.ConstCap(u.Make) < 1 {
		return false
	}
	for _, q := range j.requestChannels(owner, worker) {
		if repliesAfterRequest(worker, q, group) && asksAfterReply(owner, q, group) {
			return true
		}
	}
	return false
}

// requestChannels returns the channels owner makes that only owner sends
// on, with plain sends, and only worker receives from.
func (j *Judge) requestChannels(owner, worker *ssa.Function) []*chans.Uses {
	var out []*chans.Uses
	for _, b := range owner.Blocks {
		for _, instr := range b.Instrs {
			mk, ok := instr.(*ssa.MakeChan)
			if !ok {
				continue
			}
			q := j.idx.Uses(mk)
			if q == nil || len(q.Sends) == 0 || len(q.Recvs) == 0 || len(q.Stores)+len(q.Escapes) > 0 {
				continue
			}
			if onlySites(q.Sends, owner, true) && onlySites(q.Recvs, worker, false) {
				out = append(out, q)
			}
		}
	}
	return out
}

// onlySites reports whether every site is in fn, and, when plain is set,
// a plain send rather than a select case.
func onlySites(sites []chans.Site, fn *ssa.Function, plain bool) bool {
	for _, s := range sites {
		if _, isSend := s.Instr.(*ssa.Send); s.Func != fn || plain && !isSend {
			return false
		}
	}
	return true
}

// repliesAfterRequest reports whether the worker takes a request from q
// on every path to a reply, from its start and from each reply to the
// next.
func repliesAfterRequest(worker *ssa.Function, q *chans.Uses, group []*chans.Uses) bool {
	took, tookCase := chans.ReceiveEdges(q, worker)
	replies := sendsOf(group)
	if reachesFirst(worker.Blocks[0], -1, replies, took, tookCase) {
		return false
	}
	for r := range replies {
		if reachesFirst(r.Block(), flow.IndexOf(r), replies, took, tookCase) {
			return false
		}
	}
	return true
}

// asksAfterReply reports whether the owner receives from the group on
// every path from one request on q to the next.
func asksAfterReply(owner *ssa.Function, q *chans.Uses, group []*chans.Uses) bool {
	recvs := map[ssa.Instruction]bool{}
	cases := map[flow.Edge]bool{}
	for _, g := range group {
		in, edges := chans.ReceiveEdges(g, owner)
		for r := range in {
			recvs[r] = true
		}
		for e := range edges {
			cases[e] = true
		}
	}
	asks := map[ssa.Instruction]bool{}
	for _, s := range q.Sends {
		asks[s.Instr] = true
	}
	for a := range asks {
		if reachesFirst(a.Block(), flow.IndexOf(a), asks, recvs, cases) {
			return false
		}
	}
	return true
}

// sendsOf returns the send instructions of the group.
func sendsOf(group []*chans.Uses) map[ssa.Instruction]bool {
	out := map[ssa.Instruction]bool{}
	for _, g := range group {
		for _, s := range g.Sends {
			out[s.Instr] = true
		}
	}
	return out
}

// reachesFirst reports whether a path from just after index start of
// block from (-1 for its first instruction) meets an instruction of
// targets before one of stops or an edge of stopEdges.
func reachesFirst(from *ssa.BasicBlock, start int, targets, stops map[ssa.Instruction]bool, stopEdges map[flow.Edge]bool) bool {
	// scan reports whether instrs meet a target first, and whether they
	// meet a stop at all.
	scan := func(instrs []ssa.Instruction) (hit, stopped bool) {
		for _, instr := range instrs {
			switch {
			case targets[instr]:
				return true, true
			case stops[instr]:
				return false, true
			}
		}
		return false, false
	}
	if hit, stopped := scan(from.Instrs[start+1:]); hit || stopped {
		return hit
	}
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{from}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range b.Succs {
			if stopEdges[flow.Edge{From: b, To: s}] || seen[s] {
				continue
			}
			seen[s] = true
			hit, stopped := scan(s.Instrs)
			if hit {
				return true
			}
			if !stopped {
				stack = append(stack, s)
			}
		}
	}
	return false
}
