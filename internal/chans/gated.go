package chans

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// coveredByTokens proves a channel whose every send is made by goroutines
// the owner starts one at a time, each only after taking a token, where a
// goroutine that sends keeps its token for good: the sends are then at
// most the tokens there are, and the buffer holds that many.
//
//	bufs := make(chan []byte, n)      // a pool, filled with n buffers
//	for range n {
//		bufs <- make([]byte, size)
//	}
//	errc := make(chan error, n)
//	for part := range parts {
//		select {
//		case buf = <-bufs:            // take a token
//		case err := <-errc:
//			return err
//		}
//		go func() {
//			if err := upload(part, buf); err != nil {
//				errc <- err           // keeps buf: at most n such sends
//				return
//			}
//			bufs <- buf               // gives it back, sends nothing
//		}()
//	}
//
// A semaphore works the same way the other way round: sem <- token takes
// one of cap(sem) places and <-sem gives it back. The proof asks that
// every send be made by one go statement of the owner, dominated in the
// same trip by the take from a pool or semaphore made there, with no loop
// around the go statement that leaves the take out; that the tokens exist
// only as the one fill loop the make is followed by makes them (a pool)
// or as the places of the semaphore; that only that goroutine give tokens
// back, in its own body; that no run of it both sends and gives back, or
// does either twice; and that the buffer be as large as the pool.
//
// Goroutines that give their token back on every path, as a deferred
// release does, are not counted this way: each sender frees a place for
// the next, and the sends have no bound.
func (x *Index) coveredByTokens(u *Uses) bool {
	if len(u.Sends) == 0 || len(u.Escapes) > 0 || len(u.Stores) > 0 {
		return false
	}
	start, ok := u.Sends[0].Start.(*ssa.Go)
	if !ok || start.Parent() != u.Owner() {
		return false
	}
	fn := x.directCallee(start)
	weights := make(map[ssa.Instruction]int)
	for _, s := range u.Sends {
		if s.Start != start || s.Func != fn {
			return false
		}
		weights[s.Instr] = 1
	}
	for _, t := range takesBefore(start) {
		if x.tokensBound(u, start, fn, t, weights) {
			return true
		}
	}
	return false
}

// A take is the operation that takes a token before a go statement: a
// receive from a pool, or a send on a semaphore.
type take struct {
	instr ssa.Instruction // the receive, the send, or the select
	ch    ssa.Value
	recv  bool // a receive from a pool, not a send on a semaphore
}

// takesBefore lists the channel operations that every path to start
// passes: in blocks that dominate it, or the select cases whose bodies do.
func takesBefore(start *ssa.Go) []take {
	var out []take
	for b := start.Block(); b != nil; b = b.Idom() {
		for _, instr := range b.Instrs {
			if instr == start {
				break
			}
			switch in := instr.(type) {
			case *ssa.UnOp:
				if in.Op == token.ARROW {
					out = append(out, take{in, in.X, true})
				}
			case *ssa.Send:
				out = append(out, take{in, in.Chan, false})
			case *ssa.Select:
				for k, st := range in.States {
					e, ok := CaseEdge(in, k)
					if ok && len(e.To.Preds) == 1 && e.To.Dominates(start.Block()) {
						out = append(out, take{in, st.Chan, st.Dir == types.RecvOnly})
					}
				}
			}
		}
	}
	return out
}

// tokensBound reports whether t takes a token of a pool or semaphore that
// bounds the sends of u, made by the goroutines start runs (fn), whose
// sends weights holds.
func (x *Index) tokensBound(u *Uses, start *ssa.Go, fn *ssa.Function, t take, weights map[ssa.Instruction]int) bool {
	origins := x.Origins(t.ch)
	if len(origins) != 1 || origins[0].Kind != Made || origins[0].Make.Parent() != u.Owner() {
		return false
	}
	mk := origins[0].Make
	p := x.Uses(mk)
	loops := x.Loops(u.Owner())
	if len(p.Escapes) > 0 || len(p.Stores) > 0 || len(p.Closes) > 0 ||
		loops.RepeatsWithout(start.Block(), t.instr.Block()) || loops.RepeatsWithout(mk.Block(), u.Make.Block()) {
		return false
	}
	gives, other := p.Sends, p.Recvs // a pool's
	if !t.recv {
		gives, other = p.Recvs, p.Sends // a semaphore's
	}
	fills := x.fillSends(mk, nil)
	if t.recv && len(fills) != 1 {
		return false // more than one fill may make more than n tokens
	}
	for _, s := range other {
		if !t.recv && s.Func != u.Owner() {
			return false // another party takes places of the semaphore
		}
	}
	w := make(map[ssa.Instruction]int, len(weights)+len(gives))
	for instr, n := range weights {
		w[instr] = n
	}
	for _, s := range gives {
		switch {
		case t.recv && s.Func == u.Owner() && s.Start == nil && fills[0] == s.Instr:
		case s.Start == start && s.Func == fn:
			w[s.Instr]++
		default:
			return false
		}
	}
	return x.runCount(fn, w) <= 1 && holds(u.Make, mk)
}

// holds reports whether the buffer made by buf is at least as large as
// the pool or semaphore made by pool: both constant, or made with the same
// size, read through conversions to a wider integer type.
func holds(buf, pool *ssa.MakeChan) bool {
	if a, ok := constCap(buf); ok {
		b, ok := constCap(pool)
		return ok && a >= b
	}
	return SameValue(widened(buf.Size), widened(pool.Size))
}

// widened strips conversions between integer types of 64 bits or the
// platform's int, which keep every size make accepts.
func widened(v ssa.Value) ssa.Value {
	for range maxDepth {
		c, ok := v.(*ssa.Convert)
		if !ok || !wide(c.Type()) || !wide(c.X.Type()) {
			return v
		}
		v = c.X
	}
	return v
}

func wide(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return false
	}
	switch b.Kind() {
	case types.Int, types.Int64, types.Uint, types.Uint64, types.Uintptr:
		return true
	}
	return false
}
