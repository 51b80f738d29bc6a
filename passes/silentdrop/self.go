package silentdrop

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/verdict"
)

// A send that does not wait on an unbuffered channel goes through only
// while another goroutine is blocked receiving. When the goroutine that
// makes the send is the channel's only receiver, nobody is: the default
// runs every time, whatever the value, and a signal that is meant to wake
// that goroutine is lost for good. No pending value stands for it, so the
// rule that a signal coalesces does not apply:
//
//	func (c *conn) setDisconnected() {
//		select {
//		case c.disconnected <- true: // dropped when reconnectLoop calls it
//		default:
//		}
//	}
//
//	func (c *conn) reconnectLoop() { // the only receiver
//		for {
//			select {
//			case <-c.stop:
//				return
//			case <-c.disconnected:
//			}
//			if err := c.dial(); err != nil {
//				c.setDisconnected() // never delivered: the loop waits on
//			}
//		}
//	}

// selfDrop is a non-blocking send that its channel's only receiver makes
// on its own goroutine.
type selfDrop struct {
	state int             // the send case
	recv  chans.Site      // the only receiver's receive
	via   ssa.Instruction // the call, in the receiver's function, that leads to the send; nil when the send is there
}

// ownReceiverSend returns the first send case of sel that can be reached
// on the goroutine of its channel's only receiver, when every channel the
// case may be on is held in an unexported field of this package into
// which only unbuffered channels made here are stored, every receive of
// that field is in one function, that function runs once per channel
// (chans.RunsOncePerChannel), and it makes the send itself or calls, two
// calls deep at most, the function that does.
func (c *checker) ownReceiverSend(sel *ssa.Select) (selfDrop, bool) {
	for i, st := range sel.States {
		if st.Dir != types.SendOnly {
			continue
		}
		if r, via, ok := c.ownReceiver(sel, st.Chan); ok {
			return selfDrop{state: i, recv: r, via: via}, true
		}
	}
	return selfDrop{}, false
}

func (c *checker) ownReceiver(sel *ssa.Select, ch ssa.Value) (chans.Site, ssa.Instruction, bool) {
	origins := c.idx.Origins(ch)
	if len(origins) == 0 {
		return chans.Site{}, nil, false
	}
	var recv chans.Site
	var via ssa.Instruction
	for _, o := range origins {
		f := o.Field
		if o.Kind != chans.Field || f == nil || f.Exported() || f.Pkg() != c.pass.Pkg || !c.unbufferedField(f) {
			return chans.Site{}, nil, false
		}
		r, ok := c.onlyReceiver(sel, f)
		if !ok {
			return chans.Site{}, nil, false
		}
		at, ok := reaches(c.idx, r.Func, sel.Parent(), 2)
		if !ok {
			return chans.Site{}, nil, false
		}
		recv, via = r, at
	}
	return recv, via, true
}

// onlyReceiver returns a receive of f when every receive of it that the
// package shows is in one function, which runs once per channel stored
// into f; receives in test files do not count for a send in shipped code.
func (c *checker) onlyReceiver(sel *ssa.Select, f *types.Var) (chans.Site, bool) {
	var first chans.Site
	for _, r := range c.idx.FieldReceives(f) {
		if chans.InTestFile(r.Instr) && !chans.InTestFile(sel) {
			continue
		}
		switch {
		case r.Func == nil:
			return chans.Site{}, false
		case first.Func == nil:
			first = r
		case r.Func != first.Func:
			return chans.Site{}, false
		}
	}
	if first.Func == nil || !c.idx.RunsOncePerChannel(first, c.idx.FieldMakes(f)) {
		return chans.Site{}, false
	}
	return first, true
}

// reaches returns the call in from through which target runs on from's
// goroutine, within depth calls (nil when target is from), and true.
// Only plain calls count: a go statement starts another goroutine, and a
// deferred call runs as from returns.
func reaches(idx *chans.Index, from, target *ssa.Function, depth int) (ssa.Instruction, bool) {
	if from == target {
		return nil, true
	}
	if depth == 0 {
		return nil, false
	}
	for _, b := range from.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			callee := idx.Callee(call.Common())
			if callee == nil || callee == from {
				continue
			}
			if _, ok := reaches(idx, callee, target, depth-1); ok {
				return call, true
			}
		}
	}
	return nil, false
}

// reportSelf reports a send its channel's only receiver makes on its own
// goroutine.
func (c *checker) reportSelf(sel *ssa.Select, s selfDrop) {
	if !c.rep.Tests() && c.idx.TestOnly(sel.Parent()) {
		return
	}
	stmt := c.selects[sel.Pos()]
	st := sel.States[s.state]
	name := verdict.OwnerName(s.recv.Func)
	lost := types.TypeString(elem(st.Chan), c.qualifier)
	makes := c.makes(st.Chan)
	msg := fmt.Sprintf("send on %s (%s) always drops the %s when %s makes it: that function is the channel's only receiver, "+
		"so no one is waiting, and the default runs; a signal meant for it is lost, not deferred",
		c.chanName(stmt, st), c.chanType(st.Chan, makes), lost, name)
	related := []analysis.RelatedInformation{{Pos: s.recv.Pos(), Message: name + " receives it only here"}}
	if s.via != nil {
		related = append(related, analysis.RelatedInformation{Pos: s.via.Pos(), Message: name + " makes the send through this call"})
	}
	c.reportUnlessIntended(sel, analysis.Diagnostic{Pos: st.Pos, Message: msg, Related: dropRelated(related, stmt, makes)})
}
