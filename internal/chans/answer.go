package chans

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// A goroutine that answers once, on one of several channels its starter
// made for it (the result on one, the error on another), is answered by a
// select of its starter that receives from all of them and from nothing
// else: whichever channel the one answer goes to, that select takes it.
//
//	msgs, errs := make(chan []*Message), make(chan error)
//	go func() {
//		m, err := pull()
//		if err != nil {
//			errs <- err // one answer ...
//			return
//		}
//		msgs <- m       // ... or the other
//	}()
//	select {
//	case err := <-errs:
//		return err      // msgs is never sent on this path
//	case m := <-msgs:
//	}

// AnsweredOnce reports whether the send s on u's channel is the one
// answer of its goroutine that a select of the owner takes: the goroutine
// is the function its start runs, started once per make of every channel
// the select receives from; it alone sends on those channels, at most
// once in all on any path; the select receives from those channels only,
// with no default; and every path from the start to a return of the
// owner, or to the next trip of the loop that makes the channels, passes
// the select.
func (x *Index) AnsweredOnce(u *Uses, s Site) bool {
	if s.Start == nil || x.directCallee(s.Start) != s.Func {
		return false
	}
	for _, r := range u.Recvs {
		sel, ok := r.Instr.(*ssa.Select)
		if !ok || r.Func != u.Owner() || !sel.Blocking {
			continue
		}
		if answers, ok := x.answerChannels(sel, u); ok && x.answersOnce(answers, s) && x.passesBefore(sel, s.Start) {
			return true
		}
	}
	return false
}

// answerChannels returns the uses of every channel the select sel
// receives from, u's among them, when each is a channel its owner made
// and kept to itself, and sel has no send case.
func (x *Index) answerChannels(sel *ssa.Select, u *Uses) ([]*Uses, bool) {
	var out []*Uses
	for _, st := range sel.States {
		if st.Dir != types.RecvOnly {
			return nil, false
		}
		origins := x.Origins(st.Chan)
		if len(origins) != 1 || origins[0].Kind != Made || origins[0].Make.Parent() != u.Owner() {
			return nil, false
		}
		w := x.Uses(origins[0].Make)
		if x.escapedAt(w) {
			return nil, false
		}
		out = append(out, w)
	}
	return out, len(out) > 1
}

// answersOnce reports whether only the goroutine that s's start runs sends
// on or closes the channels of answers, at most once on all of them
// together on any path, and the start comes after their makes in the same loop of
// the owner (a fresh set of channels for each goroutine).
func (x *Index) answersOnce(answers []*Uses, s Site) bool {
	loops := x.Loops(s.Start.Parent())
	weights := make(map[ssa.Instruction]int)
	for _, w := range answers {
		mk := w.Make
		if loops.Innermost(mk.Block()) != loops.Innermost(s.Start.Block()) || !flow.Reaches(mk, s.Start) || !mk.Block().Dominates(s.Start.Block()) {
			return false
		}
		// A close answers the select too: a receive from a closed
		// channel fires.
		for _, o := range append(slices.Clip(w.Sends), w.Closes...) {
			if o.Start != s.Start || o.Func != s.Func {
				return false
			}
			weights[countedAt(o)] = 1
		}
	}
	once := func(b *ssa.BasicBlock) int { return x.Loops(s.Func).Trips(b, nil, Many) }
	return flow.MaxCount(s.Func, weights, once, Many) <= 1
}

// passesBefore reports whether every path from start to a return of its
// function, or back to the head of the loop that holds it, passes sel.
func (x *Index) passesBefore(sel *ssa.Select, start ssa.Instruction) bool {
	l := x.Loops(start.Parent()).Innermost(start.Block())
	p := flow.Path{
		Stop: func(i ssa.Instruction) bool { return i == sel },
		Goal: func(e flow.Edge) bool { return l != nil && e.To == l.Header },
	}
	return !p.ReturnReachable(start.Block(), flow.IndexOf(start))
}
