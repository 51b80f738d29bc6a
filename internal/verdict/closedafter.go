package verdict

import (
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/flow"
)

// doneAfterSends returns the edges of the owner's selects that receive
// from a channel the sender goroutine closes, or sends on, only once it is
// past its sends on u:
//
//	go func() {
//		defer close(done)
//		errc <- work()
//	}()
//	select {
//	case err := <-errc:
//	case <-done:       // fires only after the send went through
//	}
//
// or a reader whose error is its last word:
//
//	go func() {
//		for {
//			msg, err := read()
//			if err != nil {
//				errs <- err   // then it returns
//				return
//			}
//			messages <- msg
//		}
//	}()
//	select {
//	case msg := <-messages:
//	case <-errs:           // the reader sends nothing after this
//	}
//
// Such a case means the sender no longer waits on u, as a receive of
// everything it sent would. The goroutine must be u's only sender, the
// other channel made by the owner and handed to no one else, and every
// close of it and send on it the goroutine's own: a deferred close, or
// one with no send on u after it. A channel it sends on must have one run
// of it: a goroutine started in a loop has others, whose last word the
// case may take instead.
func (j *Judge) doneAfterSends(u *chans.Uses, s chans.Site) []flow.Edge {
	for _, other := range u.Sends {
		if other.Func != s.Func || other.Start != s.Start {
			return nil
		}
	}
	var out []flow.Edge
	chans.RecvCases(u.Owner(), func(sel *ssa.Select, k int) {
		if !j.lastAfterSends(u, s, sel.States[k].Chan) {
			return
		}
		if e, ok := chans.CaseEdge(sel, k); ok {
			out = append(out, e)
		}
	})
	return out
}

// lastAfterSends reports whether ch is a channel the owner made, that
// only the sender s closes or sends on, and only after its sends on u.
func (j *Judge) lastAfterSends(u *chans.Uses, s chans.Site, ch ssa.Value) bool {
	origins := j.idx.Origins(ch)
	if len(origins) != 1 || origins[0].Kind != chans.Made || origins[0].Make == u.Make {
		return false
	}
	done := j.idx.Uses(origins[0].Make)
	if len(done.Escapes) > 0 || len(done.Stores) > 0 || len(done.Closes)+len(done.Sends) == 0 {
		return false
	}
	if len(done.Sends) > 0 && j.idx.Loops(u.Owner()).InLoop(s.Start.Block()) {
		return false
	}
	for _, c := range append(slices.Clone(done.Closes), done.Sends...) {
		if c.Func != s.Func || c.Start != s.Start {
			return false
		}
		if _, deferred := c.Instr.(*ssa.Defer); deferred {
			continue
		}
		for _, send := range u.Sends {
			if flow.Reaches(c.Instr, send.Instr) {
				return false
			}
		}
	}
	return true
}
