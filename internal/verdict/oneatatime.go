package verdict

import (
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/flow"
)

// oneAtATime proves a goroutine started in a loop whose owner waits for it
// before starting the next: each run sends at most one value in all on a
// group of channels the owner made before the loop (the errors and the
// responses of a retry), only those runs send on them, and every way
// around the loop back to the go statement receives from one of them. At
// most one sender is then running at any time, and it finds the channels
// empty: when the owner gives up, its one value fits in a buffer. A send
// with no buffer is proved only when it is the group's one channel and
// the owner also receives from it on every way out (a cancelled attempt
// waited for: cancel(); <-errs; return).
//
//	for {
//		go func() {
//			if err := try(); err != nil {
//				errs <- err // one value a run, into a buffer of one
//				return
//			}
//			done <- struct{}{}
//		}()
//		select {
//		case <-ctx.Done():
//			return ctx.Err() // the one run still going has room
//		case <-done:
//			return nil
//		case <-errs: // the next run starts only after this one's value
//		}
//	}
func (j *Judge) oneAtATime(u *chans.Uses, s chans.Site) bool {
	start, ok := s.Start.(*ssa.Go)
	owner := u.Owner()
	if !ok || start.Parent() != owner {
		return false
	}
	loop := j.idx.Loops(owner).Innermost(start.Block())
	if loop == nil {
		return false
	}
	group := j.startedGroup(owner, start, loop)
	if !containsUses(group, u) || !oneSendPerRun(group) {
		return false
	}
	if chans.ConstCap(u.Make) < 1 && (len(group) != 1 || leavesUnreceived(start, group)) {
		return false // the run still going when the owner leaves has no room
	}
	return !startsAgainUnreceived(start, group, gateOf(start, group))
}

// startedGroup returns the channels the owner makes outside loop (nil for
// anywhere) whose sends are all made by the goroutine that start runs,
// which is their only sender: none is stored or handed on, and each has a
// constant capacity.
func (j *Judge) startedGroup(owner *ssa.Function, start *ssa.Go, loop *flow.Loop) []*chans.Uses {
	var group []*chans.Uses
	for _, b := range owner.Blocks {
		for _, instr := range b.Instrs {
			mk, ok := instr.(*ssa.MakeChan)
			if !ok || loop != nil && loop.Blocks[b] {
				continue
			}
			g := j.idx.Uses(mk)
			if g == nil || len(g.Sends) == 0 || len(g.Stores)+len(g.Escapes) > 0 {
				continue
			}
			if _, ok := chans.ConstCapOK(mk); !ok || !sentOnlyBy(g, start) {
				continue
			}
			group = append(group, g)
		}
	}
	return group
}

// sentOnlyBy reports whether every send on g is a plain send made by the
// goroutine that start runs, in its own function.
func sentOnlyBy(g *chans.Uses, start *ssa.Go) bool {
	for _, s := range g.Sends {
		if _, plain := s.Instr.(*ssa.Send); !plain || s.Start != start || s.Func != start.Call.StaticCallee() {
			return false
		}
	}
	return true
}

func containsUses(group []*chans.Uses, u *chans.Uses) bool {
	for _, g := range group {
		if g.Make == u.Make {
			return true
		}
	}
	return false
}

// oneSendPerRun reports whether no path of a run leads from one send on
// the group to another, or back to itself (startedGroup has put every
// send in the started function).
func oneSendPerRun(group []*chans.Uses) bool {
	var sends []ssa.Instruction
	for _, g := range group {
		for _, s := range g.Sends {
			sends = append(sends, s.Instr)
		}
	}
	for _, a := range sends {
		for _, b := range sends {
			if flow.Reaches(a, b) {
				return false
			}
		}
	}
	return true
}

// startsAgainUnreceived reports whether the owner can come back to the go
// statement start without receiving from any channel of the group.
func startsAgainUnreceived(start *ssa.Go, group []*chans.Uses, gate *gate) bool {
	return unreceived(start, group, gate, true)
}

// leavesUnreceived reports whether the owner can return after the go
// statement start without receiving from any channel of the group.
func leavesUnreceived(start *ssa.Go, group []*chans.Uses) bool {
	return unreceived(start, group, nil, false)
}

// unreceived reports whether a path from the go statement start reaches a
// return, or when again is set comes back to start, without receiving from
// any channel of the group.
func unreceived(start *ssa.Go, group []*chans.Uses, gate *gate, again bool) bool {
	recvs := map[ssa.Instruction]bool{}
	edges := map[flow.Edge]bool{}
	for _, g := range group {
		in, cases := chans.ReceiveEdges(g, start.Parent())
		for r := range in {
			recvs[r] = true
		}
		for e := range cases {
			edges[e] = true
		}
	}
	home := start.Block()
	at := flow.IndexOf(start)
	receivedFirst := slices.ContainsFunc(home.Instrs[:at], func(instr ssa.Instruction) bool { return recvs[instr] })
	if !again {
		out := flow.Path{
			Stop:     func(instr ssa.Instruction) bool { return recvs[instr] },
			StopEdge: func(e flow.Edge) bool { return edges[e] },
		}
		return out.ReturnReachable(home, at)
	}
	round := flow.Path{
		// A return is no way round: the path ends there.
		Stop: func(instr ssa.Instruction) bool {
			_, ret := instr.(*ssa.Return)
			return ret || recvs[instr] || gate != nil && gate.resets[instr]
		},
		StopEdge: func(e flow.Edge) bool { return edges[e] || gate != nil && e == gate.open },
		Goal:     func(e flow.Edge) bool { return e.To == home && !receivedFirst },
	}
	return round.ReturnReachable(home, at)
}
