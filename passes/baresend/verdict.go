package baresend

import (
	"fmt"
	"go/token"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/flow"
)

// verdict is the pass's answer for one send.
type verdict struct {
	blocks  bool
	reason  string
	related []analysis.RelatedInformation
	makes   []*ssa.MakeChan // where the channel was made, when known
	// missing is empty when the verdict carries its proof (the receiver's
	// stop, the owner's return, the receiver that does not exist); else it
	// says what the proof lacks, and the finding is in the audit tier.
	missing string
}

const (
	noReceiverSeen = "no receiver of it is visible in this package"
	noStopSeen     = "its receivers are visible, but none is seen to stop while senders remain"
)

const noWayOut = "no liveness case (ctx.Done(), a stop channel) lets it give up"

// sendVerdict decides whether the send (state -1) or select send case at
// instr, on channel ch, can block forever. A channel with several origins
// blocks when any of them does.
func (c *checker) sendVerdict(instr ssa.Instruction, state int, ch ssa.Value) verdict {
	if c.idx.NeverBlocks(instr, state, ch) {
		return verdict{} // no receiver can make it wait: see chans.NeverBlocks
	}
	for _, o := range c.idx.Origins(ch) {
		if v := c.originVerdict(o, instr, state, ch); v.blocks {
			return v
		}
	}
	return verdict{}
}

func (c *checker) originVerdict(o chans.Origin, instr ssa.Instruction, state int, ch ssa.Value) verdict {
	switch o.Kind {
	case chans.Field:
		makes := c.idx.FieldMakes(o.Field)
		visible := o.Field != nil && !o.Field.Exported() && c.allVisible(makes)
		return c.withReceivers(c.unowned(instr, ch, makes), c.idx.FieldReceives(o.Field), visible)
	case chans.Global:
		makes := c.idx.GlobalMakes(o.Global)
		visible := !o.Global.Object().Exported() && c.allVisible(makes)
		return c.withReceivers(c.unowned(instr, ch, makes), c.idx.GlobalReceives(o.Global), visible)
	case chans.Element:
		home, ok := o.Home()
		if !ok {
			return c.unowned(instr, ch, nil)
		}
		makes := c.idx.ElementMakes(home)
		visible := !homeExported(home) && c.allVisible(makes)
		return c.withReceivers(c.unowned(instr, ch, makes), c.idx.ElementReceives(home), visible)
	case chans.Param, chans.Received:
		return c.unowned(instr, ch, nil)
	case chans.Made:
		return c.madeVerdict(o.Make, instr, state)
	}
	return verdict{} // nil or unknown: nothing to say
}

// withReceivers weighs the receivers this package shows for a channel held
// in a field or global. A receiver that can give up (a select with a
// default or another live case) is the other half of the finding. When
// every receiver is visible and each waits with a plain receive, the send
// is one side of a handshake whose other side is waiting: not reported.
func (c *checker) withReceivers(v verdict, recvs []chans.Site, visible bool) verdict {
	for _, r := range recvs {
		if c.idx.GivesUp(r) {
			v.related = append(v.related, related(recvPos(r), "its receiver "+ownerName(r.Func)+" can stop waiting here"))
			v.reason = "its receiver " + ownerName(r.Func) + " can stop receiving, and " + v.reason
			v.missing = ""
			return v
		}
	}
	if visible && len(recvs) > 0 {
		return verdict{}
	}
	if len(recvs) > 0 {
		v.missing = noStopSeen
	}
	return v
}

// homeExported reports whether code outside the package can reach the
// container at home directly.
func homeExported(home chans.Origin) bool {
	if home.Kind == chans.Global {
		return home.Global.Object().Exported()
	}
	return home.Field.Exported()
}

// allVisible reports whether no channel made at these sites escapes to code
// this package cannot see, so that its receivers are all known here.
func (c *checker) allVisible(makes []*ssa.MakeChan) bool {
	for _, mk := range makes {
		if len(c.idx.Uses(mk).Escapes) > 0 {
			return false
		}
	}
	return true
}

func recvPos(r chans.Site) token.Pos {
	if sel, ok := r.Instr.(*ssa.Select); ok {
		return sel.States[r.State].Pos
	}
	return r.Instr.Pos()
}

// unowned is the verdict for a channel the sender does not own: whoever owns
// it can stop reading, and the send has no way out.
func (c *checker) unowned(instr ssa.Instruction, ch ssa.Value, makes []*ssa.MakeChan) verdict {
	v := verdict{blocks: true, reason: noWayOut, makes: makes, missing: noReceiverSeen}
	if c.fanOut(instr, ch) {
		v.reason += "; in this loop over receivers one slow receiver stalls every later one"
	}
	for _, mk := range makes {
		v.related = append(v.related, related(mk.Pos(), "channel made here"+capSuffix(mk)))
	}
	return v
}

// fanOut reports whether the send sits in a loop whose iterations choose
// different channels: a fan-out over independent receivers.
func (c *checker) fanOut(instr ssa.Instruction, ch ssa.Value) bool {
	l := c.idx.Loops(instr.Parent()).Innermost(instr.Block())
	return l != nil && varies(ch, l, 0)
}

// varies reports whether v can differ between iterations of l: it derives,
// through loads, fields and elements, from a value the loop iterates over.
func varies(v ssa.Value, l *flow.Loop, depth int) bool {
	instr, ok := v.(ssa.Instruction)
	if !ok || !l.Blocks[instr.Block()] || depth > 8 {
		return false
	}
	switch v := v.(type) {
	case *ssa.Phi, *ssa.Next:
		return true
	case *ssa.UnOp:
		return varies(v.X, l, depth+1)
	case *ssa.FieldAddr:
		return varies(v.X, l, depth+1)
	case *ssa.Field:
		return varies(v.X, l, depth+1)
	case *ssa.IndexAddr:
		return varies(v.X, l, depth+1) || varies(v.Index, l, depth+1)
	case *ssa.Index:
		return varies(v.X, l, depth+1) || varies(v.Index, l, depth+1)
	case *ssa.Lookup:
		return varies(v.X, l, depth+1) || varies(v.Index, l, depth+1)
	case *ssa.Extract:
		return varies(v.Tuple, l, depth+1)
	case *ssa.BinOp:
		return varies(v.X, l, depth+1) || varies(v.Y, l, depth+1)
	case *ssa.ChangeType:
		return varies(v.X, l, depth+1)
	}
	return false
}

// madeVerdict judges a send on a channel made in this package, where both
// ends can be seen.
func (c *checker) madeVerdict(mk *ssa.MakeChan, instr ssa.Instruction, state int) verdict {
	u := c.idx.Uses(mk)
	for _, s := range u.Sends {
		if s.Instr != instr || s.State != state || c.idx.Covered(u, s) {
			continue
		}
		var v verdict
		if s.Async {
			v = c.senderVerdict(u, s)
		} else {
			v = c.ownerVerdict(u)
		}
		if v.blocks {
			v.makes = []*ssa.MakeChan{mk}
			v.related = append(v.related, related(mk.Pos(), "channel made here"+capSuffix(mk)))
			return v
		}
	}
	return verdict{}
}

// receivers splits the receive sites of u into those on the owner's
// goroutine and those on goroutines it started. ok is false when receives
// happen in a helper the owner calls, which the pass does not model.
func receivers(u *chans.Uses) (inOwner, async []chans.Site, ok bool) {
	for _, r := range u.Recvs {
		switch {
		case r.Start == nil:
			inOwner = append(inOwner, r)
		case r.Async:
			async = append(async, r)
		default:
			return nil, nil, false
		}
	}
	return inOwner, async, true
}

// visible reports whether every receiver of the channel can be seen: it is
// not passed to unknown code, and no code receives from a field it is
// stored into.
func (c *checker) visible(u *chans.Uses) bool {
	if len(u.Escapes) > 0 {
		return false
	}
	for _, f := range u.Fields {
		if f == nil || f.Exported() || c.idx.Received(f) {
			return false
		}
	}
	for _, g := range u.Globals {
		if g.Object().Exported() || c.idx.GlobalReceived(g) {
			return false
		}
	}
	return true
}

// senderVerdict judges a send made on a goroutine the owner started.
func (c *checker) senderVerdict(u *chans.Uses, s chans.Site) verdict {
	if !c.visible(u) {
		return verdict{}
	}
	inOwner, async, ok := receivers(u)
	switch {
	case !ok:
		return verdict{}
	case len(inOwner) == 0 && len(async) == 0:
		return c.nobodyReceives(u)
	case len(async) == 0:
		return c.leakedSender(u, s)
	case len(inOwner) == 0:
		return c.consumerMayStop(u, async)
	}
	return verdict{}
}

// ownerVerdict judges a send made on the owner's goroutine.
func (c *checker) ownerVerdict(u *chans.Uses) verdict {
	if !c.visible(u) {
		return verdict{}
	}
	inOwner, async, ok := receivers(u)
	switch {
	case !ok || len(inOwner) > 0:
		return verdict{} // the owner receives itself: not a head-of-line question
	case len(async) == 0:
		return c.nobodyReceives(u)
	}
	return c.consumerMayStop(u, async)
}

func (c *checker) nobodyReceives(u *chans.Uses) verdict {
	if len(u.Stores) > 0 {
		return verdict{} // stored for others to use; they are not visible here
	}
	return verdict{blocks: true, reason: "nothing receives from it"}
}

// leakedSender judges a goroutine's send whose only receiver is its owner.
// With N sends and a buffer of C, the owner must receive at least N-C
// values on every path to its returns; with an unbounded number of sends it
// must receive until the channel is closed, or once per sender.
func (c *checker) leakedSender(u *chans.Uses, s chans.Site) verdict {
	owner := u.Owner()
	recvs, caseEdges := chans.ReceiveEdges(u, owner)
	startedAt := []analysis.RelatedInformation{related(s.Start.Pos(), "sender started here")}
	without := verdict{blocks: true, reason: ownerName(owner) + " can return without receiving it", related: startedAt}
	partial := verdict{blocks: true, reason: ownerName(owner) + " can return before receiving every value", related: startedAt}
	n := c.idx.Count(u, u.Sends)
	weights := c.receiveWeights(u, caseEdges, n)
	if n < chans.Many {
		got := flow.MinCount(u.Make.Block(), flow.IndexOf(u.Make), recvs, weights)
		switch {
		case got < 0 || got+chans.ConstCap(u.Make) >= n:
			return verdict{}
		case got == 0:
			return without
		}
		return partial
	}
	closed := chans.ClosedEdges(u, owner)
	untilClosed := flow.Path{StopEdge: func(e flow.Edge) bool { return closed[e] }}
	if c.countedReceive(u, s) || !untilClosed.ReturnReachable(s.Start.Block(), flow.IndexOf(s.Start)) {
		return verdict{}
	}
	received := flow.Path{
		Stop:     func(i ssa.Instruction) bool { return recvs[i] },
		StopEdge: func(e flow.Edge) bool { return weights[e] > 0 },
	}
	if received.ReturnReachable(s.Start.Block(), flow.IndexOf(s.Start)) {
		return without
	}
	return partial
}

// receiveWeights weighs the edges of the owner for counting receives: the
// edge into a select case that receives counts one, and the exits of a
// loop that receives count n. The pass cannot tell how often a loop runs,
// and a loop that receives is the owner's way of taking what it needs; the
// owner that leaves such a loop early is caught by the "until closed" rule.
func (c *checker) receiveWeights(u *chans.Uses, caseEdges map[flow.Edge]bool, n int) map[flow.Edge]int {
	weights := make(map[flow.Edge]int)
	for e := range caseEdges {
		weights[e] = 1
	}
	loops := c.idx.Loops(u.Owner())
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
			if e[0] == l.Header {
				weights[flow.Edge{From: e[0], To: e[1]}] = n
			}
		}
	}
	return weights
}

// countedReceive proves "receives exactly as many values as it started
// senders": the senders are started once per iteration of a loop, and the
// owner receives once per iteration, either later in the same iteration or
// in a loop with the same bound that has no other exit.
func (c *checker) countedReceive(u *chans.Uses, s chans.Site) bool {
	owner := u.Owner()
	loops := c.idx.Loops(owner)
	senderLoop := loops.Innermost(s.Start.Block())
	if senderLoop == nil || c.idx.Loops(s.Func).InLoop(s.Instr.Block()) {
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
		case l != nil && bound != nil && chans.SameValue(flow.LoopBound(l), bound) && runsToCompletion(l) && everyIteration(l, r.Instr.Block()):
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

// runsToCompletion reports whether the loop's only exit is its header's
// condition.
func runsToCompletion(l *flow.Loop) bool {
	edges, returns := l.Exits()
	return len(returns) == 0 && len(edges) == 1 && edges[0][0] == l.Header
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
func (c *checker) consumerMayStop(u *chans.Uses, async []chans.Site) verdict {
	seen := map[*ssa.Function]bool{}
	for _, r := range async {
		if seen[r.Func] {
			continue
		}
		seen[r.Func] = true
		closed := chans.ClosedEdges(u, r.Func)
		untilClosed := flow.Path{StopEdge: func(e flow.Edge) bool { return closed[e] }}
		if untilClosed.ReturnReachable(r.Func.Blocks[0], -1) && !c.receivesOnce(u, r.Func) {
			return verdict{
				blocks:  true,
				reason:  fmt.Sprintf("its receiver %s can return before draining it", ownerName(r.Func)),
				related: []analysis.RelatedInformation{related(r.Start.Pos(), "receiver started here")},
			}
		}
	}
	return verdict{}
}

// receivesOnce reports whether one send meets a receiver that receives on
// every path: one value, one unconditional receive.
func (c *checker) receivesOnce(u *chans.Uses, fn *ssa.Function) bool {
	if c.idx.Count(u, u.Sends) != 1 {
		return false
	}
	recvs, caseEdges := chans.ReceiveEdges(u, fn)
	p := flow.Path{
		Stop:     func(i ssa.Instruction) bool { return recvs[i] },
		StopEdge: func(e flow.Edge) bool { return caseEdges[e] },
	}
	return !p.ReturnReachable(fn.Blocks[0], -1)
}
