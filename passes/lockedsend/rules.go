package lockedsend

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/flow"
	"github.com/sendlint/sendlint/internal/locks"
	"github.com/sendlint/sendlint/internal/summary"
	"github.com/sendlint/sendlint/internal/verdict"
)

// root is one blocking operation under one set of held locks, however many
// paths reach it: the package's finding for that pair. rep is the path it
// is reported at; others are the rest, in position order.
type root struct {
	rep    *finding
	others []*finding

	// Set by judge: the rule that puts the finding in the default tier,
	// with its reason and related positions, or, for an audit finding,
	// what it lacks.
	rule    rule
	reason  string
	related []analysis.RelatedInformation
	missing string
}

// rule says why a finding is in the default tier.
type rule uint8

const (
	audit   rule = iota // none: missing says what is lacking
	peer                // a stream send or configured call: the peer decides
	cycle               // a receiver of the channel takes the held lock
	forever             // the send can block forever, by baresend's proof
)

// What a finding can lack.
const (
	noCycleSeen    = "no receiver of it is seen to need the lock"
	wokenFirst     = "its receiver takes the lock only once a case this select waits on can fire"
	vastBuffer     = "its buffer holds %d values: the cycle closes only if the senders run that far ahead of the receiver"
	noReceiverSeen = "no receiver of it is visible in this package"
	otherPackage   = "the channel and its receivers are in another package"
)

// roots groups the findings by held locks and blocking operation. Each
// group is reported once, at its first path by position: the file name,
// then the offset. That position does not move when a new caller is added
// after it, and a suppression written there keeps working.
func (c *checker) roots() []*root {
	byKey := make(map[string]*root)
	var order []string
	for _, f := range c.found {
		k := c.lockKey(f) + "\x00" + opKey(f.b)
		r := byKey[k]
		if r == nil {
			r = &root{rep: f}
			byKey[k] = r
			order = append(order, k)
			continue
		}
		r.others = append(r.others, f)
	}
	out := make([]*root, 0, len(order))
	for _, k := range order {
		r := byKey[k]
		all := append([]*finding{r.rep}, r.others...)
		sort.SliceStable(all, func(i, j int) bool { return c.before(all[i].b.At, all[j].b.At) })
		r.rep, r.others = all[0], all[1:]
		out = append(out, r)
	}
	return out
}

func (c *checker) before(a, b token.Pos) bool {
	pa, pb := c.pass.Fset.Position(a), c.pass.Fset.Position(b)
	if pa.Filename != pb.Filename {
		return pa.Filename < pb.Filename
	}
	return pa.Offset < pb.Offset
}

// lockKey names the held locks independently of the function that holds
// them when they have a class (a field of a named type, a global); a lock
// with no class is the function's own.
func (c *checker) lockKey(f *finding) string {
	var keys []string
	for _, l := range f.held.Locks() {
		k := locks.Class(l)
		if k == "" {
			k = f.fn.String() + "." + l.Key
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}

// opKey names the blocking operation: its position in this package, or
// what a dependency's fact says of it.
func opKey(b *summary.Blocking) string {
	if b.OpInstr != nil {
		return fmt.Sprintf("%d/%d", b.OpPos, b.OpState)
	}
	last := ""
	if len(b.Chain) > 0 {
		last = b.Chain[len(b.Chain)-1]
	}
	return b.OpPkg + "\x00" + last + "\x00" + b.Op
}

// judge decides r's tier. The default tier holds the operations whose
// wait has no bound the pass can see:
//
//   - a stream send, or a call configured as blocking: the peer's flow
//     control decides, and a peer that stops reading stops the lock;
//   - a cycle: a receiver of the channel takes a held lock itself, so once
//     the buffer is full neither side can go on;
//   - a send that can block forever by baresend's proof (its receiver can
//     stop), which holds the lock forever;
//   - a cycle through the caller: the channel's only receiver is the
//     caller an exported function returns it to, and the package exports
//     a function that takes the held lock (callerCycle).
//
// Anything else is a wait for a receiver that does not need the lock:
// backpressure, reported in the audit tier.
func (c *checker) judge(r *root) {
	b := r.rep.b
	switch {
	case b.Kind == summary.StreamSend:
		if l, field, ok := c.writeMutexOf(r); ok {
			r.missing = c.writeMutexReason(l, field)
			return
		}
		r.rule = peer
		return
	case b.Kind == summary.Configured:
		r.rule = peer
		return
	case b.OpInstr == nil:
		r.missing = otherPackage
		return
	}
	states := sendStates(b)
	var recvs []chans.Site
	var makes []*ssa.MakeChan
	var proven *verdict.Verdict
	once := make(map[ssa.Instruction]bool)
	n, roomy := 0, false
	c.sum.Chans(func(idx *chans.Index) {
		judge := verdict.New(idx)
		// A select that also waits on a live receive case (<-p.done) gives
		// up when that case fires: not forever, as baresend says too.
		sel, isSel := b.OpInstr.(*ssa.Select)
		forever := !isSel || idx.LiveCase(sel) < 0
		for _, st := range states {
			rs, mks := receivers(idx, st.ch)
			// A receiver running at the send (the sender's own goroutine,
			// or one it starts only afterwards) closes no cycle.
			// Nor does the reader of another struct's channel.
			rs = slices.DeleteFunc(rs, func(r chans.Site) bool {
				return idx.RunningAt(r, b.OpInstr, mks) != "" || chans.OtherInstance(st.ch, r)
			})
			recvs, makes = append(recvs, rs...), append(makes, mks...)
			for _, r := range rs {
				once[r.Instr] = idx.ReceivedOncePerCall(r)
			}
			// Each path to the operation is judged with what its call
			// site knows: a guard tested under the held lock before
			// the call may show the receiver running (see
			// verdict.Judge.SendFrom). One path proven is enough.
			for _, f := range append([]*finding{r.rep}, r.others...) {
				v := judge.SendFrom(b.OpInstr, st.state, st.ch, verdict.OuterAt(idx, f.instr, f.held.Locks()))
				if forever && v.ProvenUnderLock() && proven == nil {
					proven = &v
				}
			}
		}
		n, roomy = vast(idx, makes)
	})
	cycled, woken := c.findCycle(r, recvs, once)
	cycled = cycled || proven == nil && c.callerCycle(r, states)
	switch {
	case cycled && !roomy:
		r.rule = cycle
	case proven != nil:
		if why := c.onlyAroundSend(r, proven); why != "" {
			r.missing = why
			return
		}
		r.rule = forever
		r.reason = proven.Reason
		r.related = proven.Related
	case cycled:
		r.missing = fmt.Sprintf(vastBuffer, n)
	case len(recvs) == 0:
		r.missing = noReceiverSeen
	case woken:
		r.missing = wokenFirst
	default:
		r.missing = noCycleSeen
	}
}

// sendState is one send of a blocking operation: the channel, and the
// select state or -1.
type sendState struct {
	ch    ssa.Value
	state int
}

// sendStates lists the sends of the operation at b.OpInstr: the send, or
// every send case of the select, each of which can block.
func sendStates(b *summary.Blocking) []sendState {
	switch in := b.OpInstr.(type) {
	case *ssa.Send:
		return []sendState{{in.Chan, -1}}
	case *ssa.Select:
		var out []sendState
		for i, st := range in.States {
			if st.Dir == types.SendOnly {
				out = append(out, sendState{st.Chan, i})
			}
		}
		return out
	}
	return nil
}

// vastBufferCap is the capacity from which a buffer is sized never to
// fill: a channel made that large is the author's statement that the
// receiver never falls that far behind (database/sql's connection opener
// queue holds a million requests).
const vastBufferCap = 1 << 16

// vast returns the smallest capacity of makes when every one is settled
// (see chans.Index.SettledCap) at vastBufferCap or more. A cycle through such a buffer needs
// that many sends while the receiver waits for the lock, and each sender
// releases the lock after its send.
func vast(idx *chans.Index, makes []*ssa.MakeChan) (int, bool) {
	least := 0
	for i, mk := range makes {
		n, ok := idx.SettledCap(mk)
		if !ok || n < vastBufferCap {
			return 0, false
		}
		if i == 0 || n < least {
			least = n
		}
	}
	return least, len(makes) > 0
}

// receivers returns the receives this package makes on the channel ch may
// hold: on the fields, globals and elements it is loaded from, on the
// channels made here that reach it, and on the fields and globals those
// channels are stored into, with the makes of those channels. A
// parameter's channel is its callers' to know.
func receivers(idx *chans.Index, ch ssa.Value) ([]chans.Site, []*ssa.MakeChan) {
	var out []chans.Site
	var makes []*ssa.MakeChan
	for _, o := range idx.Origins(ch) {
		switch o.Kind {
		case chans.Field:
			out = append(out, idx.FieldReceives(o.Field)...)
			makes = append(makes, idx.FieldMakes(o.Field)...)
		case chans.Global:
			out = append(out, idx.GlobalReceives(o.Global)...)
			makes = append(makes, idx.GlobalMakes(o.Global)...)
		case chans.Element:
			if home, ok := o.Home(); ok {
				out = append(out, idx.ElementReceives(home)...)
			}
		case chans.Made:
			makes = append(makes, o.Make)
		}
	}
	for _, mk := range makes {
		u := idx.Uses(mk)
		out = append(out, u.Recvs...)
		for _, f := range u.Fields {
			if f != nil {
				out = append(out, idx.FieldReceives(f)...)
			}
		}
		for _, g := range u.Globals {
			out = append(out, idx.GlobalReceives(g)...)
		}
	}
	return out, makes
}

// findCycle reports whether a function that receives from the channel
// needs one of the held locks before it can receive again, and if so
// records how: it takes the lock itself or through its calls, or it takes
// another lock that some function of the package holds while it takes the
// held one. The receiver then waits, directly or through that function,
// for the lock the sender holds, while the sender waits for the receiver.
// Two holds of a lock conflict unless both are for reading. Locks of one
// class are taken to be one mutex, so a receiver that locks another
// instance's field counts too: the pass cannot tell instances apart.
// A receiver whose one receive takes from a channel its call made for
// itself (once, see chans.ReceivedOncePerCall) needs no lock to receive
// from it: whatever it locks comes after that receive. Nor does one that,
// before it takes the lock, fires a case the blocked select waits on
// (wokenFirst): woken reports that it was seen.
func (c *checker) findCycle(r *root, recvs []chans.Site, once map[ssa.Instruction]bool) (cycled, woken bool) {
	held := make(map[string]locks.Lock)
	for _, l := range r.rep.held.Locks() {
		if k := locks.Class(l); k != "" {
			held[k] = l
		}
	}
	if len(held) == 0 {
		return false, false
	}
	var seen []*ssa.Function
	shipped := !chans.InTestFile(r.rep.b.OpInstr)
	for _, s := range recvs {
		if slices.Contains(seen, s.Func) || shipped && chans.InTestFile(s.Instr) {
			continue // a test's receiver proves nothing about shipped code
		}
		if once[s.Instr] {
			continue
		}
		seen = append(seen, s.Func)
		for _, a := range c.sum.Acquires(s.Func) {
			if !afterReceive(s, a.Pos) {
				continue // taken before it receives, as a registration does
			}
			if l, ok := held[a.Class]; ok && conflict(l.Mode == locks.Write, a.Write) {
				if c.wokenFirst(r.rep.b.OpInstr, s, a) {
					woken = true // the sender leaves by the case the receiver fires first
					continue
				}
				c.direct(r, s, a, l)
				return true, false
			}
			for _, l := range r.rep.held.Locks() {
				for _, e := range c.order[locks.Class(l)] {
					if locks.Class(e.held) == a.Class && conflict(e.held.Mode == locks.Write, a.Write) &&
						conflict(l.Mode == locks.Write, e.acq.Write) {
						if c.wokenFirst(r.rep.b.OpInstr, s, a) {
							woken = true
							continue
						}
						c.indirect(r, s, a, l, e)
						return true, false
					}
				}
			}
		}
	}
	return false, woken
}

// afterReceive reports whether the call at pos, in the receiver's function,
// can run after the receive s and before the receiver receives again: it
// is reachable from the receive. A receiver that takes the lock only to
// register its channel, before its receive loop, releases it before any
// sender can fill that channel. For a case of a select, the path starts
// where that case's body does: a lock taken only in another case's body
// (an error read once the connection is done) is not taken after this
// receive, unless a loop brings the receiver back to the select. A call
// the pass cannot find is taken to be reachable.
func afterReceive(s chans.Site, pos token.Pos) bool {
	target := callAt(s.Func, pos)
	if target == nil {
		return true
	}
	if sel, ok := s.Instr.(*ssa.Select); ok && s.State >= 0 {
		if e, ok := chans.CaseEdge(sel, s.State); ok {
			return target.Block() == e.To || flow.Reaches(e.To.Instrs[0], target)
		}
	}
	return flow.Reaches(s.Instr, target)
}

// callAt returns the call or defer instruction of fn at pos.
func callAt(fn *ssa.Function, pos token.Pos) ssa.Instruction {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if _, ok := instr.(ssa.CallInstruction); ok && instr.Pos() == pos {
				return instr
			}
		}
	}
	return nil
}

// conflict reports whether two holds of one lock exclude each other.
func conflict(write1, write2 bool) bool { return write1 || write2 }

// direct records a receiver that takes the held lock l.
func (c *checker) direct(r *root, s chans.Site, a summary.Acquisition, l locks.Lock) {
	name, who := c.lockName(l), verdict.OwnerName(s.Func)
	r.reason = "its receiver " + who + " takes " + name + " too, so once the channel is full neither can go on"
	r.related = []analysis.RelatedInformation{
		{Pos: recvPos(s), Message: who + " receives here"},
		{Pos: a.Pos, Message: who + " takes " + name + " here" + through(a)},
	}
}

// indirect records a receiver that takes a lock which e's function holds
// while it takes the held lock l.
func (c *checker) indirect(r *root, s chans.Site, a summary.Acquisition, l locks.Lock, e orderEdge) {
	name, who, other := c.lockName(l), verdict.OwnerName(s.Func), c.lockName(e.held)
	holder := verdict.OwnerName(e.fn)
	r.reason = "its receiver " + who + " takes " + other + ", which " + holder + " holds while it takes " + name +
		", so once the channel is full none of them can go on"
	r.related = []analysis.RelatedInformation{
		{Pos: recvPos(s), Message: who + " receives here"},
		{Pos: a.Pos, Message: who + " takes " + other + " here" + through(a)},
		{Pos: e.held.Pos(), Message: holder + " takes " + other + " here"},
		{Pos: e.acq.Pos, Message: "and then " + name + " here" + through(e.acq)},
	}
}

func through(a summary.Acquisition) string {
	if a.Via == "" {
		return ""
	}
	return ", through " + a.Via
}

func recvPos(r chans.Site) token.Pos {
	if sel, ok := r.Instr.(*ssa.Select); ok {
		return sel.States[r.State].Pos
	}
	return r.Instr.Pos()
}
