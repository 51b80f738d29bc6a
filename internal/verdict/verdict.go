// Package verdict decides whether a channel send can block forever, and
// carries the proof with the answer: the receiver that can stop, the owner
// that can return without receiving, the make and its capacity. A verdict
// without a proof names what is missing, and its finding belongs to the
// audit tier. baresend reports verdicts; lockedsend asks them of the sends
// it finds under a lock, since a send that can block forever holds its
// lock forever.
package verdict

import (
	"cmp"
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/flow"
)

// Verdict is the answer for one send.
type Verdict struct {
	Blocks  bool
	Reason  string // why, in words: "its receiver X can return before draining it"
	Related []analysis.RelatedInformation
	Makes   []*ssa.MakeChan // where the channel was made, when known
	// Missing is empty when the verdict carries its proof (the receiver's
	// stop, the owner's return, the receiver that does not exist); else it
	// says what the proof lacks, and the finding is in the audit tier.
	Missing string
}

// Proven reports whether the send can block forever and the verdict shows
// why.
func (v Verdict) Proven() bool { return v.Blocks && v.Missing == "" }

// Judge answers for the sends of one package.
type Judge struct{ idx *chans.Index }

// New returns the judge for the package idx indexes.
func New(idx *chans.Index) *Judge { return &Judge{idx: idx} }

// What a verdict can lack.
const (
	NoReceiverSeen = "no receiver of it is visible in this package"
	NoStopSeen     = "its receivers are visible, but none is seen to stop while senders remain"
)

// NoWayOut is the reason of a send with no liveness case and no receiver
// that is seen to stop.
const NoWayOut = "no liveness case (ctx.Done(), a stop channel) lets it give up"

// Send decides whether the send (state -1) or select send case at instr,
// on channel ch, can block forever. A channel with several origins blocks
// when any of them does; a proven verdict wins over one without proof.
func (j *Judge) Send(instr ssa.Instruction, state int, ch ssa.Value) Verdict {
	if j.idx.NeverBlocks(instr, state, ch) {
		return Verdict{} // no receiver can make it wait: see chans.NeverBlocks
	}
	var unproven Verdict
	shipped := !chans.InTestFile(instr)
	for _, o := range j.idx.Origins(ch) {
		if shipped && o.Kind == chans.Made && chans.InTestFile(o.Make) {
			continue // a test's channel proves nothing about shipped code
		}
		v := j.originVerdict(o, instr, state, ch)
		switch {
		case v.Proven():
			return v
		case v.Blocks && !unproven.Blocks:
			unproven = v
		}
	}
	return unproven
}

func (j *Judge) originVerdict(o chans.Origin, instr ssa.Instruction, state int, ch ssa.Value) Verdict {
	switch o.Kind {
	case chans.Field:
		makes := j.idx.FieldMakes(o.Field)
		visible := o.Field != nil && !o.Field.Exported() && j.allVisible(makes)
		return j.withReceivers(instr, ch, j.unowned(instr, ch, makes), j.idx.FieldReceives(o.Field), visible, o)
	case chans.Global:
		makes := j.idx.GlobalMakes(o.Global)
		visible := !o.Global.Object().Exported() && j.allVisible(makes)
		return j.withReceivers(instr, ch, j.unowned(instr, ch, makes), j.idx.GlobalReceives(o.Global), visible, o)
	case chans.Element:
		home, ok := o.Home()
		if !ok {
			return j.unowned(instr, ch, nil)
		}
		makes := j.idx.ElementMakes(home)
		visible := !homeExported(home) && j.allVisible(makes)
		return j.withReceivers(instr, ch, j.unowned(instr, ch, makes), j.idx.ElementReceives(home), visible, o)
	case chans.Param, chans.Received:
		return j.unowned(instr, ch, nil)
	case chans.Made:
		return j.madeVerdict(o.Make, instr, state)
	}
	return Verdict{} // nil or unknown: nothing to say
}

// withReceivers weighs the receivers this package shows for a channel held
// in a field, a global or the elements of a container there. The proof is
// a receiver that can stop (a select that gives up, a read loop that
// returns before the close) and is the channel's last: it runs once per
// channel made (chans.RunsOncePerChannel), or gives up on a stop channel
// that stays closed (chans.StopsForGood). A reply slot its maker waits on
// also needs more values than its buffer holds (overflow); a send guarded
// by a shutdown flag, or on a channel whose receiver stops only where its
// registry is emptied, may be ordered before the stop, which the pass
// cannot see. When every receiver is visible and each waits with a plain
// receive, the send is one side of a handshake whose other side is
// waiting: not reported. With no receiver in view, callersChannel decides.
func (j *Judge) withReceivers(instr ssa.Instruction, ch ssa.Value, v Verdict, recvs []chans.Site, visible bool, kept chans.Origin) Verdict {
	if !chans.InTestFile(instr) {
		// A test's receiver proves nothing about the code that ships,
		// neither that it stops nor that it waits.
		recvs = slices.DeleteFunc(slices.Clone(recvs), func(r chans.Site) bool { return chans.InTestFile(r.Instr) })
	}
	var again *chans.Site
	for _, r := range recvs {
		if !j.idx.GivesUp(r) && !j.idx.LeavesLoop(r) || answersRequest(instr, r) {
			continue
		}
		if !j.idx.RunsOncePerChannel(r, v.Makes) && !j.idx.StopsForGood(r) {
			if again == nil {
				again = &r
			}
			continue
		}
		v.Related = append(v.Related, related(recvPos(r), "its receiver "+OwnerName(r.Func)+" can stop waiting here"))
		v.Reason = "its receiver " + OwnerName(r.Func) + " can stop receiving, and " + v.Reason
		v.Missing = cmp.Or(madeInTests(v.Makes), j.shutdownGuard(instr), j.deregistered(r, kept))
		if j.ownerWaits(r, v.Makes) {
			v.Missing = cmp.Or(j.overflow(instr, ch, v.Makes), v.Missing)
		}
		return v
	}
	if again != nil {
		v.Related = append(v.Related, related(recvPos(*again), "its receiver "+OwnerName(again.Func)+" can stop waiting here"))
		v.Missing = "its receiver " + OwnerName(again.Func) + " can stop waiting, but may run again for the same channel"
		return v
	}
	if visible && len(recvs) > 0 {
		return Verdict{}
	}
	if len(recvs) > 0 {
		v.Missing = NoStopSeen
		return v
	}
	return j.callersChannel(instr, ch, v, kept)
}

// callersChannel proves a send on channels that callers outside the
// package hand in (a Notify(c) that registers c), or that an exported
// function hands out to them (a Channel() that returns the field), when
// the send loops, over every registered channel or on the same one: any
// caller can stop reading, and the loop, which every other caller depends
// on, then stops for good. A single send on a caller's channel stays in
// the audit tier, as the caller may read it exactly once, and so does a
// bare send the caller chose beside a non-blocking one (chosenBlocking).
func (j *Judge) callersChannel(instr ssa.Instruction, ch ssa.Value, v Verdict, kept chans.Origin) Verdict {
	l := j.idx.Loops(instr.Parent()).Innermost(instr.Block())
	if l == nil || varies(ch, l, 0) && !j.overRegistry(ch, l) {
		return v
	}
	if f := chosenBlocking(instr, ch); f != nil {
		v.Missing = "the send blocks only when the caller asked for it (" + f.Name() + "); the other branch does not wait"
		return v
	}
	if p := j.idx.RegisteredByCaller(kept); p != nil {
		who := OwnerName(p.Parent())
		v.Reason = "its receiver is the caller that handed it to " + who + ", who can stop reading, and " + v.Reason
		v.Related = append(v.Related, related(p.Pos(), "callers hand in their channel here"))
		v.Missing = ""
		return v
	}
	if kept.Kind != chans.Field || kept.Field == nil {
		return v
	}
	if fn := j.idx.HandedOutBy(kept.Field); fn != nil {
		who := OwnerName(fn)
		v.Reason = "its receiver is the caller that " + who + " hands it to, who can stop reading, and " + v.Reason
		v.Related = append(v.Related, related(fn.Pos(), who+" hands the channel to its callers"))
		v.Missing = ""
	}
	return v
}

// answersRequest reports whether the send answers a request its receiver
// made and waits for: the send follows a receive on a channel q, and the
// receiver's plain receive follows its own send on q. Each answer meets
// the receive of the request it answers, as io.Pipe's writer waits for the
// reader's count after each write; the receiver's other ways out come
// before it asks.
//
//	case bw := <-p.wrCh:          // the sender takes the request
//		p.rdCh <- copy(b, bw)     // and answers it
//	case p.wrCh <- b:             // the receiver asks
//		nw := <-p.rdCh            // and waits for the answer
func answersRequest(send ssa.Instruction, r chans.Site) bool {
	recv, ok := r.Instr.(*ssa.UnOp)
	if !ok {
		return false
	}
	var asked []*types.Var
	flow.Before(send, func(x ssa.Instruction) bool {
		asked = append(asked, receivedFields(x, send.Block())...)
		return false
	})
	for _, q := range asked {
		if flow.Before(recv, func(x ssa.Instruction) bool { return sendsOn(x, q, recv.Block()) }) {
			return true
		}
	}
	return false
}

// receivedFields returns the fields x receives from on its way to block b:
// a plain receive, or the select case that leads to b.
func receivedFields(x ssa.Instruction, b *ssa.BasicBlock) []*types.Var {
	var out []*types.Var
	switch x := x.(type) {
	case *ssa.UnOp:
		if x.Op == token.ARROW {
			if f := chans.LoadedField(x.X); f != nil {
				out = append(out, f)
			}
		}
	case *ssa.Select:
		for i, st := range x.States {
			if e, ok := chans.CaseEdge(x, i); ok && st.Dir == types.RecvOnly && e.To.Dominates(b) {
				if f := chans.LoadedField(st.Chan); f != nil {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// sendsOn reports whether x sends on field q on its way to block b.
func sendsOn(x ssa.Instruction, q *types.Var, b *ssa.BasicBlock) bool {
	switch x := x.(type) {
	case *ssa.Send:
		return chans.LoadedField(x.Chan) == q
	case *ssa.Select:
		for i, st := range x.States {
			if e, ok := chans.CaseEdge(x, i); ok && st.Dir == types.SendOnly && e.To.Dominates(b) && chans.LoadedField(st.Chan) == q {
				return true
			}
		}
	}
	return false
}

// ownerWaits reports whether the receiver r is the function that made the
// channel, waiting for what its own call is owed: a reply slot. A receiver
// on a goroutine of its own is a consumer, and its channel a queue that
// takes any number of values from any number of calls.
func (j *Judge) ownerWaits(r chans.Site, makes []*ssa.MakeChan) bool {
	if r.Start != nil {
		return false
	}
	for _, mk := range makes {
		if r.Func == mk.Parent() {
			return true
		}
	}
	return false
}

// madeInTests says what is missing when every channel the send may use is
// made in a _test.go file: the code a user ships never makes one, and the
// send on it runs only under test (a hook such as a ForTesting field).
func madeInTests(makes []*ssa.MakeChan) string {
	for _, mk := range makes {
		if !strings.HasSuffix(mk.Parent().Prog.Fset.Position(mk.Pos()).Filename, "_test.go") {
			return ""
		}
	}
	if len(makes) == 0 {
		return ""
	}
	return "its channel is made only in test code"
}

// overflow says what is missing to show that more values than the buffer
// holds can be sent into one channel, or "" when that is shown: a channel
// made unbuffered; a send in a loop that keeps sending on the same channel;
// or a channel its maker hands out in a loop (a client's one reply channel,
// registered with each of its requests). A one-slot reply channel made per
// call and answered once is none of these.
func (j *Judge) overflow(instr ssa.Instruction, ch ssa.Value, makes []*ssa.MakeChan) string {
	for _, mk := range makes {
		if n, ok := chans.ConstCapOK(mk); ok && n == 0 {
			return ""
		}
	}
	if l := j.idx.Loops(instr.Parent()).Innermost(instr.Block()); l != nil && (!varies(ch, l, 0) || j.overRegistry(ch, l)) {
		return ""
	}
	for _, mk := range makes {
		if j.idx.HandedOutInLoop(mk) {
			return ""
		}
	}
	if caps := chans.CapsOf(makes); caps != "" && caps != "unbuffered" {
		return "its buffer (" + caps + ") is not shown to receive more values than it holds"
	}
	return "its capacity is not known, nor that more values than it holds reach it"
}

// overRegistry reports whether the send's channel is taken, on each trip
// of l, from the next element of a container held in a field or a global:
// a fan-out over every registered channel (or every registered client's
// channel), which sends one more value to each of them every time it runs.
//
//	for _, c := range h.clients {   // t5 = next t3; t7 = extract t5 #1
//		c.out <- m
//	}
func (j *Judge) overRegistry(ch ssa.Value, l *flow.Loop) bool {
	for v, depth := ch, 0; depth < 8; depth++ {
		switch x := v.(type) {
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return false
			}
			v = x.X
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.Field:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.Extract:
			next, ok := x.Tuple.(*ssa.Next)
			if !ok || !l.Blocks[next.Block()] {
				return false
			}
			r, ok := next.Iter.(*ssa.Range)
			return ok && j.registered(r.X)
		case *ssa.IndexAddr:
			return inductive(x.Index, l) && j.registered(x.X)
		case *ssa.Index:
			return inductive(x.Index, l) && j.registered(x.X)
		default:
			return false
		}
	}
	return false
}

// registered reports whether the container c is loaded from a field or a
// global, where it outlives one run of the loop.
func (j *Judge) registered(c ssa.Value) bool {
	if load, ok := c.(*ssa.UnOp); ok && load.Op == token.MUL {
		switch a := load.X.(type) {
		case *ssa.FieldAddr, *ssa.Global:
			return true
		case *ssa.IndexAddr, *ssa.UnOp:
			return j.registered(a)
		}
	}
	_, isField := c.(*ssa.FieldAddr) // an array field, addressed in place
	return isField
}

// inductive reports whether i is the loop's index: a phi at its header, or
// one step from it.
func inductive(i ssa.Value, l *flow.Loop) bool {
	if b, ok := i.(*ssa.BinOp); ok {
		i = b.X
	}
	phi, ok := i.(*ssa.Phi)
	return ok && phi.Block() == l.Header
}

// deregistered says what is missing when the channel comes out of a
// registry and its receiver stops only where the registry's entries are
// deleted too (chans.StopsOnDeregistration): the sender, which looks the
// channel up, may find it gone by then. It returns "" otherwise.
func (j *Judge) deregistered(r chans.Site, kept chans.Origin) string {
	registry, ok := kept.Home()
	if !ok || !j.idx.StopsOnDeregistration(r, registry) {
		return ""
	}
	name := ""
	if registry.Kind == chans.Global {
		name = registry.Global.Name()
	} else {
		name = registry.Field.Name()
	}
	return "its receiver stops only where " + name + "'s entries are deleted, and the send looks its channel up there"
}

// chosenBlocking returns the flag that chose this bare send, when the send
// runs on one branch of a condition on a boolean field and the other
// branch sends on the same channel without waiting (a select with a
// default): the caller that set the flag asked for blocking delivery.
//
//	if or.blocking {
//		or.channel <- ob
//	} else {
//		select {
//		case or.channel <- ob:
//		default:
//		}
//	}
func chosenBlocking(instr ssa.Instruction, ch ssa.Value) *types.Var {
	for d := instr.Block().Idom(); d != nil; d = d.Idom() {
		if len(d.Instrs) == 0 || len(d.Succs) != 2 {
			continue
		}
		cond, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		load, ok := cond.Cond.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			continue
		}
		addr, ok := load.X.(*ssa.FieldAddr)
		if !ok {
			continue
		}
		other := d.Succs[1]
		if d.Succs[1].Dominates(instr.Block()) {
			other = d.Succs[0]
		}
		if nonBlockingSendIn(other, ch) {
			return chans.FieldOf(addr.X.Type(), addr.Field, true)
		}
	}
	return nil
}

// nonBlockingSendIn reports whether the blocks b dominates hold a select
// with a default that sends on the same field as ch.
func nonBlockingSendIn(b *ssa.BasicBlock, ch ssa.Value) bool {
	f := chans.LoadedField(ch)
	for _, x := range b.Parent().Blocks {
		if !b.Dominates(x) {
			continue
		}
		for _, instr := range x.Instrs {
			sel, ok := instr.(*ssa.Select)
			if !ok || sel.Blocking {
				continue
			}
			for _, st := range sel.States {
				if st.Dir == types.SendOnly && (chans.SameValue(st.Chan, ch) || f != nil && chans.LoadedField(st.Chan) == f) {
					return true
				}
			}
		}
	}
	return false
}

// shutdownGuard says what is missing when the send runs only while a
// shutdown flag is unset (if s.closed { return } before it) and the package
// sets that flag: the code that stops the receiver usually sets the flag
// first, under the lock the sender holds, and the pass cannot see that
// order. It returns "" when no such guard dominates the send.
func (j *Judge) shutdownGuard(instr ssa.Instruction) string {
	if f := j.idx.GuardingFlag(instr); f != nil {
		return "the send runs only while " + f.Name() + " is false, and its receiver is not shown to stop before " + f.Name() + " is set"
	}
	return ""
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
func (j *Judge) allVisible(makes []*ssa.MakeChan) bool {
	for _, mk := range makes {
		if len(j.idx.Uses(mk).Escapes) > 0 {
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
func (j *Judge) unowned(instr ssa.Instruction, ch ssa.Value, makes []*ssa.MakeChan) Verdict {
	v := Verdict{Blocks: true, Reason: NoWayOut, Makes: makes, Missing: NoReceiverSeen}
	if j.fanOut(instr, ch) {
		v.Reason += "; in this loop over receivers one slow receiver stalls every later one"
	}
	for _, mk := range makes {
		v.Related = append(v.Related, related(mk.Pos(), "channel made here"+capSuffix(mk)))
	}
	return v
}

// fanOut reports whether the send sits in a loop whose iterations choose
// different channels: a fan-out over independent receivers.
func (j *Judge) fanOut(instr ssa.Instruction, ch ssa.Value) bool {
	l := j.idx.Loops(instr.Parent()).Innermost(instr.Block())
	return l != nil && varies(ch, l, 0)
}

// varies reports whether v can differ between iterations of l. A value
// made before the loop cannot; inside it, loads, fields, elements and
// conversions of values that cannot vary cannot either. Anything else
// computed inside the loop (a loop variable, a value received or returned
// anew on each trip, a type assertion) is taken to vary.
func varies(v ssa.Value, l *flow.Loop, depth int) bool {
	instr, ok := v.(ssa.Instruction)
	if !ok || !l.Blocks[instr.Block()] {
		return false
	}
	if depth > 8 {
		return true
	}
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return true // a receive, or arithmetic on one
		}
		if a, ok := v.X.(*ssa.Alloc); ok {
			return storedIn(a, l)
		}
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
	case *ssa.ChangeType:
		return varies(v.X, l, depth+1)
	case *ssa.Convert:
		return varies(v.X, l, depth+1)
	case *ssa.BinOp:
		return varies(v.X, l, depth+1) || varies(v.Y, l, depth+1)
	}
	return true
}

// storedIn reports whether the loop stores into the local variable a: a
// variable a closure captures, set anew on each trip.
func storedIn(a *ssa.Alloc, l *flow.Loop) bool {
	for _, ref := range *a.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == a && l.Blocks[st.Block()] {
			return true
		}
	}
	return false
}

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
			v = j.ownerVerdict(u)
		}
		if v.Blocks {
			v.Makes = []*ssa.MakeChan{mk}
			v.Related = append(v.Related, related(mk.Pos(), "channel made here"+capSuffix(mk)))
			return v
		}
	}
	return Verdict{}
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
// channel to its callers: an exported function whose channel escapes only
// by being returned, and whose goroutine keeps sending on it in a loop.
// Its caller can stop reading (it cancels and walks away), and the
// goroutine then blocks for good. A generator that sends one value, or has
// room for all it sends, is not this; the capacity rule has already
// cleared the latter.
func (j *Judge) returnedToCaller(u *chans.Uses, s chans.Site) Verdict {
	owner := u.Owner()
	obj := owner.Object()
	if obj == nil || !obj.Exported() || len(u.Escapes) == 0 || len(u.Recvs) > 0 || len(u.Stores) > 0 {
		return Verdict{}
	}
	for _, e := range u.Escapes {
		if _, ok := e.(*ssa.Return); !ok {
			return Verdict{}
		}
	}
	l := j.idx.Loops(s.Func).Innermost(s.Instr.Block())
	var ch ssa.Value
	switch send := s.Instr.(type) {
	case *ssa.Send:
		ch = send.Chan
	default:
		return Verdict{}
	}
	if l == nil || varies(ch, l, 0) {
		return Verdict{}
	}
	who := OwnerName(owner)
	return Verdict{
		Blocks: true,
		Reason: "its receiver is the caller " + who + " returns it to, who can stop reading, and this loop has no liveness case (ctx.Done(), a stop channel) to give up",
		Related: []analysis.RelatedInformation{
			related(s.Start.Pos(), "sender started here"),
			related(u.Escapes[0].Pos(), who+" returns the channel here"),
		},
	}
}

// ownerVerdict judges a send made on the owner's goroutine.
func (j *Judge) ownerVerdict(u *chans.Uses) Verdict {
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
	without := Verdict{Blocks: true, Reason: OwnerName(owner) + " can return without receiving it", Related: startedAt}
	partial := Verdict{Blocks: true, Reason: OwnerName(owner) + " can return before receiving every value", Related: startedAt}
	n := j.idx.Count(u, u.Sends)
	weights := j.receiveWeights(u, caseEdges, n)
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
			return without
		}
		return partial
	}
	closed := chans.ClosedEdges(u, owner)
	untilClosed := flow.Path{StopEdge: func(e flow.Edge) bool { return closed[e] }}
	if j.countedReceive(u, s) || j.countdown(u, s) || !untilClosed.ReturnReachable(s.Start.Block(), flow.IndexOf(s.Start)) {
		return Verdict{}
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

func related(pos token.Pos, msg string) analysis.RelatedInformation {
	return analysis.RelatedInformation{Pos: pos, Message: msg}
}

func capSuffix(mk *ssa.MakeChan) string {
	if s := chans.CapString(mk); s != "" {
		return " (" + s + ")"
	}
	return ""
}

// OwnerName names a function for a message: "Broadcast", "(*Router).loop",
// or "the function literal in Broadcast" for a closure.
func OwnerName(fn *ssa.Function) string {
	if parent := fn.Parent(); parent != nil {
		return "the function literal in " + OwnerName(parent)
	}
	if recv := fn.Signature.Recv(); recv != nil {
		return fmt.Sprintf("(%s).%s", types.TypeString(recv.Type(), func(*types.Package) string { return "" }), fn.Name())
	}
	return fn.Name()
}
