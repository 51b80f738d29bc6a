package silentdrop

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/verdict"
)

// earlyWaiter returns the receive that may not have started yet when a
// non-blocking send hands it its one value, and true: every channel the
// send may be on is a field channel, every channel stored into the field
// is made unbuffered here, and every receive of it the package shows is a
// plain receive outside any loop, with no timeout and no other case (one
// call waits for one value, as a transaction's WaitForResult does).
//
//	func (t *Transaction) WriteResult(res Result) bool {
//		select {
//		case t.resultCh <- res: // reported
//			return true
//		default:
//			return false
//		}
//	}
//	func (t *Transaction) WaitForResult() Result { return <-t.resultCh }
//
// An unbuffered send goes through only while the receive is blocked: an
// answer that comes before the waiter has started waiting is dropped, and
// the waiter then waits for an answer that never comes. Whatever the
// default tells the sender's caller, the waiter learns nothing, so a
// status or a log there does not make the drop visible to the one it
// hurts. A waiter that gives up (a select with a timeout) is a late
// answer's concern (lateAnswer); one that receives in a loop keeps taking
// values, and missing one while busy is the ordinary drop.
func (c *checker) earlyWaiter(sel *ssa.Select, sends []int) (chans.Site, bool) {
	var waiter chans.Site
	for _, i := range sends {
		ch := sel.States[i].Chan
		origins := c.idx.Origins(ch)
		if len(origins) == 0 {
			return chans.Site{}, false
		}
		for _, o := range origins {
			if o.Kind != chans.Field || !c.unbufferedField(o.Field) {
				return chans.Site{}, false
			}
			r, ok := c.waitsOnce(sel, o.Field)
			if !ok {
				return chans.Site{}, false
			}
			waiter = r
		}
	}
	return waiter, true
}

// unbufferedField reports whether every channel stored into f is made
// unbuffered by this package.
func (c *checker) unbufferedField(f *types.Var) bool {
	stored := c.idx.Stored(chans.Origin{Kind: chans.Field, Field: f})
	if len(stored) == 0 {
		return false
	}
	for _, o := range stored {
		if o.Kind != chans.Made {
			return false
		}
		if n, ok := chans.ConstCapOK(o.Make); !ok || n != 0 {
			return false
		}
	}
	return true
}

// waitsOnce returns a receive of f when every receive of it is a plain
// one outside its function's loops; receives in test files do not count
// for a send in shipped code.
func (c *checker) waitsOnce(sel *ssa.Select, f *types.Var) (chans.Site, bool) {
	var out chans.Site
	n := 0
	for _, r := range c.idx.FieldReceives(f) {
		if chans.InTestFile(r.Instr) && !chans.InTestFile(sel) {
			continue
		}
		recv, ok := r.Instr.(*ssa.UnOp)
		if !ok || r.Func == nil || c.idx.Loops(r.Func).InLoop(recv.Block()) {
			return chans.Site{}, false
		}
		if n == 0 {
			out = r
		}
		n++
	}
	return out, n > 0
}

// reportWaiter reports a send whose value an early waiter misses.
func (c *checker) reportWaiter(sel *ssa.Select, sends []int, waiter chans.Site) {
	if !c.rep.Tests() && c.idx.TestOnly(sel.Parent()) {
		return
	}
	stmt := c.selects[sel.Pos()]
	first := sel.States[sends[0]]
	name := verdict.OwnerName(waiter.Func)
	lost := types.TypeString(elem(first.Chan), c.qualifier)
	msg := fmt.Sprintf("send on %s (%s) drops the %s unless %s is already waiting, and it waits for one value without a timeout: "+
		"an answer that comes first is lost and the waiter waits on; the default tells only the sender's caller",
		c.chanName(stmt, first), c.chanType(first.Chan, c.makes(first.Chan)), lost, name)
	related := []analysis.RelatedInformation{{Pos: waiter.Pos(), Message: name + " waits for it here"}}
	c.reportUnlessIntended(sel, analysis.Diagnostic{Pos: first.Pos, Message: msg, Related: dropRelated(related, stmt, c.makes(first.Chan))})
}
