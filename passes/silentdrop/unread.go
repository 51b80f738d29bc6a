package silentdrop

import (
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
)

// unread reports whether a value the buffer has no room for could never be
// read anyway: the channel is made in this package with a constant
// capacity at least the number of places that receive from it, none of
// them in a loop or reached from one, and it never leaves the package's
// sight, except as a one-slot reply channel does (replySlotEscapes). The reader takes at most that many values, and the buffer already
// holds them: the value dropped is one nobody would receive. This is the
// reply slot where the first answer wins:
//
//	respC := make(chan *Info, 1)
//	sub := subscribe(func(m *Msg) {
//		select {
//		case respC <- decode(m): // not reported: the reader takes one
//		default:
//		}
//	})
//	select {
//	case info := <-respC:
//	case <-time.After(timeout):
//	}
func (c *checker) unread(ch ssa.Value) bool {
	origins := c.idx.Origins(ch)
	if len(origins) == 0 {
		return false
	}
	for _, o := range origins {
		if o.Kind != chans.Made || chans.CapString(o.Make) == "" {
			return false
		}
		u := c.idx.Uses(o.Make)
		if len(u.Stores) > 0 || len(u.Recvs) > chans.ConstCap(o.Make) || !replySlotEscapes(u) {
			return false
		}
		for _, r := range u.Recvs {
			if c.repeats(r) {
				return false
			}
		}
	}
	return true
}

// replySlotEscapes reports whether the channel stays in sight, or leaves
// it only the way a one-slot reply channel does: returned to the caller
// that waits for the reply, or captured by a reply handler that is
// registered (stored) rather than called. The channel itself is never
// handed to code that could loop over it.
func replySlotEscapes(u *chans.Uses) bool {
	if len(u.Escapes) == 0 {
		return true
	}
	if chans.ConstCap(u.Make) != 1 {
		return false
	}
	for _, e := range u.Escapes {
		switch e := e.(type) {
		case *ssa.Return:
		case *ssa.MapUpdate:
			if !isClosure(e.Value) {
				return false
			}
		case *ssa.Store:
			if !isClosure(e.Val) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// isClosure reports whether v is a closure, possibly converted to a named
// func type (a handler type).
func isClosure(v ssa.Value) bool {
	if ct, ok := v.(*ssa.ChangeType); ok {
		v = ct.X
	}
	_, ok := v.(*ssa.MakeClosure)
	return ok
}

// repeats reports whether a receive site can run more than once per
// channel: it is in a loop, or it is reached from the owner through a call
// or go statement in a loop.
func (c *checker) repeats(r chans.Site) bool {
	if c.idx.Loops(r.Func).InLoop(r.Instr.Block()) {
		return true
	}
	return r.Start != nil && c.idx.Loops(r.Start.Parent()).InLoop(r.Start.Block())
}
