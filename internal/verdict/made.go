package verdict

import (
	"cmp"
	"fmt"
	"go/token"

	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/flow"
	"github.com/sendlint/sendlint/internal/report"
)

// madeVerdict judges a send on a channel made in this package, where both
// ends can be seen.
func (j *Judge) madeVerdict(mk *ssa.MakeChan, instr ssa.Instruction, state int) Verdict {
	u := j.idx.Uses(mk)
	for _, s := range u.Sends {
		if s.Instr != instr || s.State != state || j.idx.Covered(u, s) {
			continue
		}
		var v Verdict
		if s.Async {
			v = j.senderVerdict(u, s)
		} else {
			v = j.ownerVerdict(u, s)
		}
		if v.Blocks {
			v.Makes = []*ssa.MakeChan{mk}
			v.Related = append(v.Related, related(mk.Pos(), report.MadeHere+capSuffix(mk)))
			v.Missing = cmp.Or(v.Missing, j.endsWithProcess(mk), overfilled(j.idx, u, s, &v), sizedToSenders(j.idx, u, &v))
			return v
		}
	}
	return j.handedBack(mk, instr)
}

// overfilled says what is missing when s sends one value per run into a
// buffer with a slot for every run, so that it blocks only after another
// run sent more than its one (chans.Overfiller): that send is the one to
// fix, and v points at it.
func overfilled(idx *chans.Index, u *chans.Uses, s chans.Site, v *Verdict) string {
	o, ok := idx.Overfiller(u, s)
	if !ok {
		return ""
	}
	v.Related = append(v.Related, related(o.Pos(), "this send can follow another in one run, and take another run's slot"))
	return "the buffer holds a value from every run and this run sends only this one: it blocks only once a run of " +
		OwnerName(o.Func) + " that sends more took its slot"
}

// receivers splits the receive sites of u into those on the owner's
// goroutine and those on goroutines it started. ok is false when receives
// happen in a helper the owner calls, which the pass does not model.
//
// A receive in a function the owner calls and waits for (a stream
// handler's process loop, handed the channel) counts with the goroutines'
// receives: like them, it must drain the channel before it returns, for
// the owner, which then returns, receives nothing itself. When the owner
// also receives, the pass does not weigh the two together.
func receivers(u *chans.Uses) (inOwner, async []chans.Site, ok bool) {
	var called []chans.Site
	for _, r := range u.Recvs {
		switch {
		case r.Start == nil:
			inOwner = append(inOwner, r)
		case r.Async:
			async = append(async, r)
		default:
			called = append(called, r)
		}
	}
	if len(called) > 0 && len(inOwner) > 0 {
		return nil, nil, false
	}
	return inOwner, append(async, called...), true
}

// visible reports whether every receiver of the channel can be seen: it is
// not passed to unknown code, and no code receives from a field it is
// stored into.
func (j *Judge) visible(u *chans.Uses) bool {
	if len(u.Escapes) > 0 {
		return false
	}
	for _, f := range u.Fields {
		if f == nil || f.Exported() || j.idx.Received(f) {
			return false
		}
	}
	for _, g := range u.Globals {
		if g.Object().Exported() || j.idx.GlobalReceived(g) {
			return false
		}
	}
	return true
}

// senderVerdict judges a send made on a goroutine the owner started.
func (j *Judge) senderVerdict(u *chans.Uses, s chans.Site) Verdict {
	if v := j.returnedToCaller(u, s); v.Blocks {
		return v
	}
	if !j.visible(u) {
		return Verdict{}
	}
	inOwner, async, ok := receivers(u)
	switch {
	case !ok:
		return Verdict{}
	case len(inOwner) == 0 && len(async) == 0:
		return j.nobodyReceives(u)
	case len(async) == 0:
		return j.leakedSender(u, s)
	case len(inOwner) == 0:
		return j.consumerMayStop(u, async)
	}
	return Verdict{}
}

// returnedToCaller judges the goroutine of a function that returns the
// channel to its callers (chans.ReturnedBy: an exported maker, or an
// unexported one whose callers return what it returns). Its caller can
// stop reading (it cancels and walks away), and the goroutine then blocks
// for good on a send that has no way out: one in a loop that keeps
// sending on the channel, or one beside another send of the goroutine on
// it that gives up on a liveness case (select with <-ctx.Done()), which
// says that the reader may be gone. A generator that sends one value, or
// has room for all it sends, is neither; the capacity rule has already
// cleared the latter. A loop whose caller has no way to tell it to stop
// (chans.StopInReach) is in the audit tier: until the API changes,
// reading to the close is the caller's part.
func (j *Judge) returnedToCaller(u *chans.Uses, s chans.Site) Verdict {
	send, ok := s.Instr.(*ssa.Send)
	if !ok {
		return Verdict{}
	}
	fn, ret := j.idx.ReturnedBy(u)
	if fn == nil {
		return Verdict{}
	}
	who := OwnerName(fn)
	v := Verdict{
		Blocks: true,
		Related: []analysis.RelatedInformation{
			related(s.Start.Pos(), "sender started here"),
			related(ret.Pos(), who+" returns the channel here"),
		},
	}
	if l := j.idx.Loops(s.Func).Innermost(send.Block()); l != nil && !flow.Varies(send.Chan, l) {
		v.Reason = "its receiver is the caller " + who + " returns it to, who can stop reading, and this loop has no liveness case (ctx.Done(), a stop channel) to give up"
		if !chans.StopInReach(u.Make, s.Start) {
			v.Missing = "nothing its caller hands " + who + " (no context, no other channel) can tell the sender to stop: reading to the close is the caller's part"
		}
		return v
	}
	if other, ok := j.givesUpBeside(u, s); ok {
		v.Reason = "its receiver is the caller " + who + " returns it to, who can stop reading (the goroutine's other send on it gives up then), and this send has no liveness case (ctx.Done(), a stop channel) to give up"
		v.Related = append(v.Related, related(other, "this send gives up when the reader is gone"))
		return v
	}
	return Verdict{}
}

// givesUpBeside returns the position of another send on u's channel, made
// by the goroutine that makes s, that is a case of a select with a live
// receive case: a send that expects its reader to leave.
func (j *Judge) givesUpBeside(u *chans.Uses, s chans.Site) (token.Pos, bool) {
	for _, o := range u.Sends {
		sel, ok := o.Instr.(*ssa.Select)
		if !ok || o.Start != s.Start || j.idx.LiveCase(sel) < 0 {
			continue
		}
		return sel.States[o.State].Pos, true
	}
	return token.NoPos, false
}

// ownerVerdict judges a send made on the owner's goroutine.
func (j *Judge) ownerVerdict(u *chans.Uses, s chans.Site) Verdict {
	if v := j.filledBeforeHanded(u, s); v.Blocks {
		return v
	}
	if !j.visible(u) {
		return Verdict{}
	}
	inOwner, async, ok := receivers(u)
	switch {
	case !ok || len(inOwner) > 0:
		return Verdict{} // the owner receives itself: not a head-of-line question
	case len(async) == 0:
		return j.nobodyReceives(u)
	}
	return j.consumerMayStop(u, async)
}

func (j *Judge) nobodyReceives(u *chans.Uses) Verdict {
	if len(u.Stores) > 0 {
		return Verdict{} // stored for others to use; they are not visible here
	}
	return Verdict{Blocks: true, Reason: "nothing receives from it"}
}

// leakedSender judges a goroutine's send whose only receiver is its owner.
// With N sends and a buffer of C, the owner must receive at least N-C
// values on every path to its returns; with an unbounded number of sends it
// must receive until the channel is closed, or once per sender.
func (j *Judge) leakedSender(u *chans.Uses, s chans.Site) Verdict {
	owner := u.Owner()
	recvs, caseEdges := chans.ReceiveEdges(u, owner)
	startedAt := []analysis.RelatedInformation{related(s.Start.Pos(), "sender started here")}
	// leaves is the verdict once the owner is shown to stop receiving
	// (how: "without receiving it"), made only then: an owner that waits
	// for its senders as it returns cannot return past a blocked one, and
	// hangs with it.
	leaves := func(how string) Verdict {
		if w := j.idx.WaitsForSenders(owner, s.Instr, s.Start); w != nil && !closedFirst(u, owner, w) {
			return Verdict{Blocks: true, Reason: OwnerName(owner) + " can stop receiving from it and then waits for its senders: a sender left on this send hangs " + OwnerName(owner) + " too",
				Related: append(slices.Clip(startedAt), related(w.Pos(), OwnerName(owner)+" waits here, as it returns, for the goroutines that send"))}
		}
		return closedOnReturn(u, owner, Verdict{Blocks: true, Reason: OwnerName(owner) + " can return " + how, Related: startedAt})
	}
	if j.idx.AnsweredOnce(u, s) {
		return Verdict{} // the owner's select takes the one answer, on whichever channel it comes
	}
	const without, partial = "without receiving it", "before receiving every value"
	n := j.idx.Count(u, u.Sends)
	weights := j.receiveWeights(u, caseEdges, n)
	past := j.doneAfterSends(u, s)
	for _, e := range past {
		weights[e] = n // the sender is past every send
	}
	for _, e := range j.idx.FailedHandOff(s) {
		weights[e] = n // the sender was never handed on
	}
	if j.abandons(u, s, recvs, weights) && chans.ConstCap(u.Make) < n {
		return Verdict{
			Blocks:  true,
			Reason:  OwnerName(owner) + " can go on to its next iteration, which makes a new channel, without receiving it",
			Related: startedAt,
		}
	}
	if n < chans.Many {
		got := flow.MinCount(u.Make.Block(), flow.IndexOf(u.Make), recvs, weights)
		switch {
		case got < 0 || got+chans.ConstCap(u.Make) >= n:
			return Verdict{}
		case got == 0:
			return leaves(without)
		}
		return leaves(partial)
	}
	closed := chans.ClosedEdges(u, owner)
	for _, e := range past {
		closed[e] = true // as good as the close: the sender sends no more
	}
	untilClosed := flow.Path{StopEdge: func(e flow.Edge) bool { return closed[e] }}
	if j.countedReceive(u, s) || j.relayCounted(u, s) || j.countdown(u, s) || j.inFlight(u, s) || j.oneAtATime(u, s) || j.repliesOneAtATime(u, s) || !untilClosed.ReturnReachable(s.Start.Block(), flow.IndexOf(s.Start)) {
		return Verdict{}
	}
	received := flow.Path{
		Stop:     func(i ssa.Instruction) bool { return recvs[i] },
		StopEdge: func(e flow.Edge) bool { return weights[e] > 0 },
	}
	if received.ReturnReachable(s.Start.Block(), flow.IndexOf(s.Start)) {
		return leaves(without)
	}
	return leaves(partial)
}

// closedOnReturn marks v, whose owner can return without receiving, as a
// panic when the owner defers the channel's close: the send left behind
// waits only until the owner returns, and then panics on the closed
// channel.
//
//	errc := make(chan error, 1)
//	defer close(errc)
//	go func() { errc <- work() }() // waits, then panics once the caller returned
func closedOnReturn(u *chans.Uses, owner *ssa.Function, v Verdict) Verdict {
	for _, c := range u.Closes {
		if d, ok := c.Instr.(*ssa.Defer); ok && c.Func == owner && c.Start == nil {
			v.Panics = true
			v.Reason += ", and closes it as it returns"
			v.Related = append(slices.Clip(v.Related), related(d.Pos(), "closed here when "+OwnerName(owner)+" returns"))
			return v
		}
	}
	return v
}

// closedFirst reports whether the owner defers the channel's close where
// it can run before the wait w, which it does unless the close was
// deferred first (defers run last first): the sender left behind then
// panics rather than hang the owner.
func closedFirst(u *chans.Uses, owner *ssa.Function, w *ssa.Defer) bool {
	for _, c := range u.Closes {
		if d, ok := c.Instr.(*ssa.Defer); ok && c.Func == owner && c.Start == nil && !flow.Reaches(d, w) {
			return true
		}
	}
	return false
}

// abandons reports whether the owner makes the channel inside a loop and
// can come back to the make, on the next trip, without having received
// from it after starting the sender: the channel of the last trip is then
// lost with its sender. (A path that returns without receiving is the
// plain leaked sender, judged below.)
//
//	for _, addr := range addrs {
//		ch := make(chan result)
//		go func() { ch <- dial(addr) }()
//		select {
//		case r := <-ch:
//			...
//		case <-time.After(d):
//			continue // the dial's send waits forever
//		}
//	}
func (j *Judge) abandons(u *chans.Uses, s chans.Site, recvs map[ssa.Instruction]bool, weights map[flow.Edge]int) bool {
	l := j.idx.Loops(u.Owner()).Innermost(u.Make.Block())
	if l == nil || !l.Blocks[s.Start.Block()] {
		return false
	}
	remade := func(e flow.Edge) bool { return e.To == u.Make.Block() }
	received := func(e flow.Edge) bool { return weights[e] > 0 }
	stop := func(i ssa.Instruction) bool { return recvs[i] }
	again := flow.Path{Stop: stop, StopEdge: received, Goal: remade}
	returns := flow.Path{Stop: stop, StopEdge: func(e flow.Edge) bool { return received(e) || remade(e) }}
	start, at := s.Start.Block(), flow.IndexOf(s.Start)
	return again.ReturnReachable(start, at) && !returns.ReturnReachable(start, at)
}

// receiveWeights weighs the edges of the owner for counting receives: the
// edge into a select case that receives counts one, and the exits of a
// loop that receives count n. The pass cannot tell how often a loop runs,
// and a loop that receives is the owner's way of taking what it needs; the
// owner that leaves such a loop early is caught by the "until closed" rule.
func (j *Judge) receiveWeights(u *chans.Uses, caseEdges map[flow.Edge]bool, n int) map[flow.Edge]int {
	weights := make(map[flow.Edge]int)
	for e := range caseEdges {
		weights[e] = 1
	}
	loops := j.idx.Loops(u.Owner())
	for _, r := range u.Recvs {
		if r.Func != u.Owner() {
			continue
		}
		l := loops.Innermost(r.Instr.Block())
		if l == nil {
			continue
		}
		edges, _ := l.Exits()
		for _, e := range edges {
			if e[0] == flow.TestBlock(l) {
				weights[flow.Edge{From: e[0], To: e[1]}] = n
			}
		}
	}
	return weights
}

// countedReceive proves "receives exactly as many values as it started
// senders": the senders are started once per iteration of a loop, and the
// owner receives once per iteration, either later in the same iteration or
// in a loop that runs exactly as many times as the bound (flow.TripCount).
func (j *Judge) countedReceive(u *chans.Uses, s chans.Site) bool {
	owner := u.Owner()
	loops := j.idx.Loops(owner)
	senderLoop := loops.Innermost(s.Start.Block())
	if senderLoop == nil || j.idx.Loops(s.Func).InLoop(s.Instr.Block()) {
		return false
	}
	bound := flow.LoopBound(senderLoop)
	for _, r := range u.Recvs {
		if r.State >= 0 || r.Func != owner {
			continue
		}
		l := loops.Innermost(r.Instr.Block())
		switch {
		case l == senderLoop:
			if sameIteration(l, s.Start, r.Instr) {
				return true
			}
		case l != nil && bound != nil && flow.TripCount(l) != nil && chans.SameValue(flow.TripCount(l), bound) && everyIteration(l, r.Instr.Block()):
			return true
		}
	}
	return false
}

// relayCounted proves "receives every value" for a channel whose sends
// each relay a value taken from a work channel that is sent at most n
// values (chans.RelayedAtMost): every path from the sender's start to a
// return enters a loop of the owner that runs exactly n trips
// (flow.TripCount) and receives once each trip.
//
//	work, results := make(chan *vm, workers), make(chan error, workers)
//	... workers: for v := range work { results <- enrich(v) }
//	go func() { for i := range vms { work <- &vms[i] }; close(work) }()
//	for range vms {
//		if err := <-results; err != nil && first == nil { first = err }
//	}
func (j *Judge) relayCounted(u *chans.Uses, s chans.Site) bool {
	owner := u.Owner()
	loops := j.idx.Loops(owner)
	for _, r := range u.Recvs {
		if r.State >= 0 || r.Func != owner {
			continue
		}
		l := loops.Innermost(r.Instr.Block())
		if l == nil || !everyIteration(l, r.Instr.Block()) {
			continue
		}
		n := flow.TripCount(l)
		if n == nil || !j.idx.RelayedAtMost(u, n) {
			continue
		}
		entered := flow.Path{StopEdge: func(e flow.Edge) bool { return e.To == l.Header && !l.Blocks[e.From] }}
		if !entered.ReturnReachable(s.Start.Block(), flow.IndexOf(s.Start)) {
			return true
		}
	}
	return false
}

// sameIteration reports whether every path from start, an instruction of
// loop l, passes recv before the iteration ends or the function returns.
func sameIteration(l *flow.Loop, start, recv ssa.Instruction) bool {
	p := flow.Path{
		Stop: func(i ssa.Instruction) bool { return i == recv },
		Goal: func(e flow.Edge) bool { return e.To == l.Header || !l.Blocks[e.To] },
	}
	return !p.ReturnReachable(start.Block(), flow.IndexOf(start))
}

// everyIteration reports whether b runs on every iteration of l: it
// dominates every block that jumps back to the header.
func everyIteration(l *flow.Loop, b *ssa.BasicBlock) bool {
	for _, p := range l.Header.Preds {
		if l.Blocks[p] && !b.Dominates(p) {
			return false
		}
	}
	return true
}

// consumerMayStop judges sends whose receivers are goroutines the owner
// started: each must keep receiving until the channel is closed. A receiver
// that can return another way (a drain, stop or ctx signal, a failed stream
// write) leaves the sender blocked once the buffer fills.
func (j *Judge) consumerMayStop(u *chans.Uses, async []chans.Site) Verdict {
	seen := map[*ssa.Function]bool{}
	for _, r := range async {
		if seen[r.Func] {
			continue
		}
		seen[r.Func] = true
		closed := chans.ClosedEdges(u, r.Func)
		untilClosed := flow.Path{StopEdge: func(e flow.Edge) bool { return closed[e] }}
		if untilClosed.ReturnReachable(r.Func.Blocks[0], -1) && !j.receivesOnce(u, r.Func) {
			return Verdict{
				Blocks:  true,
				Reason:  fmt.Sprintf("its receiver %s can return before draining it", OwnerName(r.Func)),
				Related: []analysis.RelatedInformation{related(r.Start.Pos(), startedOrCalled(r)+" here")},
			}
		}
	}
	return Verdict{}
}

// startedOrCalled says how the owner runs the receiver r.
func startedOrCalled(r chans.Site) string {
	if _, call := r.Start.(*ssa.Call); call && !r.Async {
		return "receiver called"
	}
	return "receiver started"
}

// receivesOnce reports whether one send meets a receiver that receives on
// every path: one value, one unconditional receive.
func (j *Judge) receivesOnce(u *chans.Uses, fn *ssa.Function) bool {
	if j.idx.Count(u, u.Sends) != 1 {
		return false
	}
	recvs, caseEdges := chans.ReceiveEdges(u, fn)
	p := flow.Path{
		Stop:     func(i ssa.Instruction) bool { return recvs[i] },
		StopEdge: func(e flow.Edge) bool { return caseEdges[e] },
	}
	return !p.ReturnReachable(fn.Blocks[0], -1)
}
