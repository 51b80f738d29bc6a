package silentdrop

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
)

// maxNoticeUses bounds how many values derived from a received one
// noticeOnly follows before it gives up and counts the value as kept.
const maxNoticeUses = 64

// noticeOnly reports whether every receiver of the channel keeps nothing
// of what it takes: the value, and everything computed from it, only
// feeds the tests of ifs. It is not stored, sent, returned, captured or
// handed to a call whose result is dropped, and it is never compared with
// a constant, which would make it a command the receiver acts on by kind
// (cmd == stop). Such a receiver learns from each value only that
// something happened, and the values already queued tell it that too: a
// drop loses a notice, not data. A libp2p NAT watcher that only refreshes
// a timestamp when an inbound connection arrives is this shape.
//
//	case conn := <-as.inbound:
//		if isPublic(conn.RemoteAddr()) {   // a test, through a call
//			as.lastInbound = time.Now()    // nothing of conn is kept
//		}
//
// A call that takes the value and whose result feeds a test is taken to
// read it, not keep it: the pass does not look into the callee.
func (c *checker) noticeOnly(ch ssa.Value) bool {
	recvs, ok := c.receives(ch)
	if !ok || len(recvs) == 0 {
		return false
	}
	for _, r := range recvs {
		v := receivedValue(r)
		if v == nil || !onlyTested(v) {
			return false
		}
	}
	return true
}

// receivedValue returns the value the receive r takes, or nil when
// nothing uses it or the pass cannot find it. A receive that throws its
// value away (a drain, a wait for a signal) shows nothing of what the
// value is for.
//
//	t3 = select blocking [<-t1, <-t2] (index int, ok bool, T1, T2)
//	t7 = extract t3 #3                  // what <-t2 took
func receivedValue(r chans.Site) ssa.Value {
	var v ssa.Value
	switch x := r.Instr.(type) {
	case *ssa.UnOp:
		if x.Op != token.ARROW {
			return nil
		}
		v = x
		if x.CommaOk {
			v = extractOf(x, 0)
		}
	case *ssa.Select:
		index := 2
		for i := range r.State {
			if x.States[i].Dir == types.RecvOnly {
				index++
			}
		}
		v = extractOf(x, index)
	}
	if v == nil || len(*v.Referrers()) == 0 {
		return nil
	}
	return v
}

// extractOf returns the extract of tuple's element i, or nil when nothing
// takes it out of the tuple.
func extractOf(tuple ssa.Value, i int) ssa.Value {
	for _, ref := range *tuple.Referrers() {
		if e, ok := ref.(*ssa.Extract); ok && e.Index == i {
			return e
		}
	}
	return nil
}

// onlyTested reports whether v, and every value computed from it, ends
// in the tests of ifs (see noticeOnly).
func onlyTested(v ssa.Value) bool {
	seen := map[ssa.Value]bool{v: true}
	work := []ssa.Value{v}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		refs := x.Referrers()
		if refs == nil {
			continue
		}
		for _, ref := range *refs {
			next, ok := derived(x, ref)
			if !ok {
				return false
			}
			if next != nil && !seen[next] {
				if len(seen) >= maxNoticeUses {
					return false
				}
				seen[next] = true
				work = append(work, next)
			}
		}
	}
	return true
}

// derived says what the use ref makes of x: a new value to follow, nil
// when the use ends in a test, and false when it keeps x or acts on it.
func derived(x ssa.Value, ref ssa.Instruction) (ssa.Value, bool) {
	switch u := ref.(type) {
	case *ssa.If, *ssa.DebugRef:
		return nil, true
	case *ssa.BinOp:
		_, xc := u.X.(*ssa.Const)
		_, yc := u.Y.(*ssa.Const)
		if isComparison(u.Op) && (xc || yc) {
			return nil, false // cmd == stop: the value is a command
		}
		return u, true
	case *ssa.UnOp:
		if u.Op == token.ARROW {
			return nil, false // a channel it carries: it is used, not tested
		}
		return u, true
	case *ssa.Call:
		if !u.Call.IsInvoke() && u.Call.Value == x || len(*u.Referrers()) == 0 {
			return nil, false // calls the value, or drops what the call says
		}
		return u, true
	case *ssa.Field, *ssa.FieldAddr, *ssa.Index, *ssa.IndexAddr, *ssa.Lookup,
		*ssa.Extract, *ssa.TypeAssert, *ssa.ChangeType, *ssa.ChangeInterface,
		*ssa.Convert, *ssa.MakeInterface, *ssa.Slice, *ssa.Phi:
		return ref.(ssa.Value), true
	}
	return nil, false // stored, sent, returned, captured, started, deferred
}

func isComparison(op token.Token) bool {
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}
