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
	"github.com/sendlint/sendlint/internal/report"
)

// Verdict is the answer for one send.
type Verdict struct {
	Blocks  bool
	Reason  string // why, in words: "its receiver X can return before draining it"
	Related []analysis.RelatedInformation
	Makes   []*ssa.MakeChan // where the channel was made, when known
	// MadeElsewhere is set when other packages may make the channel too
	// (a field of a struct another package declares): Makes are only this
	// package's, and their capacity is not the channel's.
	MadeElsewhere bool
	// Missing is empty when the verdict carries its proof (the receiver's
	// stop, the owner's return, the receiver that does not exist); else it
	// says what the proof lacks, and the finding is in the audit tier.
	Missing string
	// Panics is set when the owner that returns without receiving closes
	// the channel as it returns: the send waits until then, and panics.
	Panics bool
}

// Proven reports whether the send can block forever and the verdict shows
// why.
func (v Verdict) Proven() bool { return v.Blocks && v.Missing == "" }

// ProvenUnderLock reports whether the send can block forever and the
// verdict shows why, for a send made while a lock is held. A command's
// bounded leak (EndsWithProcess) stalls no one by itself, but a sender
// that blocks for good holding a lock stalls every goroutine that wants
// it, however few such senders there are.
func (v Verdict) ProvenUnderLock() bool {
	return v.Blocks && (v.Missing == "" || v.Missing == EndsWithProcess)
}

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
	return j.SendFrom(instr, state, ch, nil)
}

// SendFrom is Send for a send reached through a call that outer
// describes: the locks the caller holds for the whole call, and the
// guards that dominate it (see shutdownGuard).
func (j *Judge) SendFrom(instr ssa.Instruction, state int, ch ssa.Value, outer *Outer) Verdict {
	if send, ok := instr.(*ssa.Send); ok {
		// Before NeverBlocks: a slot counted as one value per object
		// (chans.SingleValue) does not see an answer made in a callee.
		if a, ok := j.idx.SecondAnswer(send); ok {
			return j.secondAnswer(send, a)
		}
	}
	if j.idx.NeverBlocks(instr, state, ch) {
		return Verdict{} // no receiver can make it wait: see chans.NeverBlocks
	}
	if send, ok := instr.(*ssa.Send); ok && j.idx.AwaitedSentinel(send) {
		// Its receiver may keep it waiting while it drains what came
		// before, but it does not stop until it takes this value.
		return Verdict{}
	}
	var unproven Verdict
	shipped := !chans.InTestFile(instr)
	for _, o := range j.idx.Origins(ch) {
		if shipped && o.Kind == chans.Made && chans.InTestFile(o.Make) {
			continue // a test's channel proves nothing about shipped code
		}
		if shipped && o.Kind == chans.Field && j.idx.TestHookSend(instr, o.Field) {
			continue // only a test sets the channel, and only then is it sent on
		}
		v := j.originVerdict(o, instr, state, ch, outer)
		switch {
		case v.Proven():
			return v
		case v.Blocks && !unproven.Blocks:
			unproven = v
		}
	}
	return unproven
}

func (j *Judge) originVerdict(o chans.Origin, instr ssa.Instruction, state int, ch ssa.Value, outer *Outer) Verdict {
	switch o.Kind {
	case chans.Field:
		makes := j.idx.FieldMakes(o.Field)
		visible := o.Field != nil && !o.Field.Exported() && j.allVisible(makes)
		v := j.withReceivers(instr, ch, j.unowned(instr, ch, makes), j.idx.FieldReceives(o.Field), visible, o, outer)
		if v.Proven() {
			v.Missing = j.perSlot(o.Field)
		}
		v.MadeElsewhere = j.idx.MadeElsewhere(o)
		if v.MadeElsewhere {
			v.Related = madeHereToo(v.Related, o.Field)
		}
		return v
	case chans.Global:
		makes := j.idx.GlobalMakes(o.Global)
		visible := !o.Global.Object().Exported() && j.allVisible(makes)
		return j.withReceivers(instr, ch, j.unowned(instr, ch, makes), j.idx.GlobalReceives(o.Global), visible, o, outer)
	case chans.Element:
		home, ok := o.Home()
		if !ok {
			return j.unowned(instr, ch, nil)
		}
		makes := j.idx.ElementMakes(home)
		visible := !homeExported(home) && j.allVisible(makes)
		return j.withReceivers(instr, ch, j.unowned(instr, ch, makes), j.idx.ElementReceives(home), visible, o, outer)
	case chans.Param:
		return j.callerCtx(o.Param, instr, j.unowned(instr, ch, nil))
	case chans.Received:
		return j.unowned(instr, ch, nil)
	case chans.Made:
		return j.madeVerdict(o.Make, instr, state)
	}
	return Verdict{} // nil or unknown: nothing to say
}

// perSlot says what is missing when the field's channel is made with a
// slot for each goroutine its maker starts to fill it
// (chans.StartedPerSlot): only a second run of the maker for the same
// value can overfill it.
func (j *Judge) perSlot(f *types.Var) string {
	mk, ok := j.idx.StartedPerSlot(f)
	if !ok {
		return ""
	}
	maker := OwnerName(mk.Parent())
	return "its buffer holds one value from each goroutine " + maker + " starts to fill it; it can fill up only if " + maker + " runs again for the same value"
}

// withReceivers weighs the receivers this package shows for a channel held
// in a field, a global or the elements of a container there. The proof is
// a receiver that can stop (a select that gives up, a read loop that
// returns before the close) and is the channel's last: it runs once per
// channel made (chans.RunsOncePerChannel), gives up on a stop channel
// that stays closed (chans.StopsForGood), is a service's loop that
// gives up on its context and is handed to a runner that never runs it
// again once that context is done (chans.RunUntilDone), or is run again
// only by one loop that returns for good on a stop channel
// (chans.RerunUntilStopped: a state machine's follower loop, run by a
// main loop that exits on shutdown). A reply slot its
// maker waits on also needs more values than its buffer holds (overflow).
// A send guarded by a shutdown flag or state tested under a lock that
// every stop of the receiver follows a write of is made while the
// receiver runs (shutdownGuard, which outer extends with what a caller
// knows); one whose order the pass cannot see, or on a channel whose
// receiver stops only where its registry is emptied, may be ordered
// before the stop: the audit tier. A receiver that is running when the send is
// made (the sender itself, or one started only after the send) proves
// nothing: chans.RunningAt; nor does one that gives up only in another
// mode than the send's, or that is stopped only after a wait for the
// goroutines that make the send (outlives). Nor, for a send in code that
// ships (chans.Shipped), does a receiver whose only way to give up is a stop
// channel that only test code closes or sends on, or unexported code that
// only tests call (chans.StopsOnlyUnderTest): the shipped program never
// stops it. A proof from another receiver is preferred; without one the
// send is audited. When every receiver is visible and each waits with a
// plain receive, the send is one side of a handshake whose other side is
// waiting: not reported. With no receiver in view, callersChannel
// decides.
func (j *Judge) withReceivers(instr ssa.Instruction, ch ssa.Value, v Verdict, recvs []chans.Site, visible bool, kept chans.Origin, outer *Outer) Verdict {
	if !chans.InTestFile(instr) {
		// A test's receiver proves nothing about the code that ships,
		// neither that it stops nor that it waits.
		recvs = slices.DeleteFunc(slices.Clone(recvs), func(r chans.Site) bool { return chans.InTestFile(r.Instr) })
	}
	if w, ok := j.selfFill(v, recvs, instr); ok {
		return w
	}
	var again, running, taken *chans.Site
	var underTest *Verdict
	var runningWhy string
	for _, r := range recvs {
		if !j.idx.GivesUp(r) && !j.idx.LeavesLoop(r) || answersRequest(instr, r) || chans.OtherInstance(ch, r) {
			continue
		}
		if why := j.outlives(r, instr, ch, v.Makes); why != "" {
			if running == nil {
				running, runningWhy = &r, why
			}
			continue
		}
		if j.idx.StopsOnTake(r, ch, recvs) {
			if taken == nil {
				taken = &r // a stop request: the receiver waits for the first
			}
			continue
		}
		last := j.idx.RunsOncePerChannel(r, v.Makes) || j.idx.StopsForGood(r) || j.idx.StartedOnce(r, v.Makes)
		var handed, rerun ssa.Instruction
		if !last {
			handed, last = j.idx.RunUntilDone(r, v.Makes)
		}
		if !last {
			rerun, last = j.idx.RerunUntilStopped(r, v.Makes)
		}
		var restart *chans.Restart
		if !last {
			if rs, ok := j.idx.StopsUnlessRestarted(r, v.Makes); ok {
				restart, last = &rs, true
			}
		}
		if !last {
			if again == nil {
				again = &r
			}
			continue
		}
		if fires := j.idx.StopsOnlyUnderTest(r); fires != nil && j.idx.Shipped(instr.Parent()) {
			if underTest == nil {
				w := j.receiverStops(v, r, handed, rerun, instr, ch, kept, outer)
				if !w.Blocks {
					return w // a guard shows r running at the send
				}
				w.Missing = testStop(fires)
				for _, f := range fires {
					w.Related = append(w.Related, related(f.Pos(), "its stop channel is fired here, in code only tests run"))
				}
				underTest = &w
			}
			continue
		}
		w := j.receiverStops(v, r, handed, rerun, instr, ch, kept, outer)
		if restart != nil && w.Blocks && w.Missing == "" {
			w = restarted(w, v.Reason, r, *restart)
		}
		if d := drainer(j.idx, recvs, r, ch); d != nil && w.Blocks && w.Missing == "" {
			w.Related = append(w.Related, related(recvPos(*d), OwnerName(d.Func)+" receives here until the channel is closed"))
			w.Missing = "its receiver " + OwnerName(r.Func) + " can stop, but " + OwnerName(d.Func) + " receives from it until it is closed"
		}
		if d, ok := j.idx.DrainsCounted(r); ok && w.Blocks && w.Missing == "" {
			w = countedDrain(w, r, d)
		}
		if d, ok := j.idx.AsksToStop(r, instr, ch); ok && w.Blocks && w.Missing == "" {
			w = askingDrain(w, r, d)
		}
		if d, ok := j.idx.DrainsToLast(r, instr, ch); ok && w.Blocks && w.Missing == "" {
			w = lastDrain(w, r, d)
		}
		return w
	}
	if underTest != nil {
		return *underTest
	}
	if taken != nil {
		name := OwnerName(taken.Func)
		v.Related = append(v.Related, related(recvPos(*taken), "its receiver "+name+" takes one value here, and then stops"))
		v.Missing = "its receiver " + name + " stops only once it takes one value from it: a send blocks only after another one for the same run"
		return v
	}
	if again != nil {
		v.Related = append(v.Related, related(recvPos(*again), "its receiver "+OwnerName(again.Func)+" can stop waiting here"))
		v.Missing = "its receiver " + OwnerName(again.Func) + " can stop waiting, but may run again for the same channel"
		return v
	}
	if running != nil {
		v.Related = append(v.Related, related(recvPos(*running), "its receiver "+OwnerName(running.Func)+" can stop waiting here"))
		v.Missing = runningWhy
		return v
	}
	if w, ok := j.siblingGivesUp(v, instr, ch, recvs, kept); ok {
		return w
	}
	if w, ok := j.abandonedAtClose(v, instr, recvs); ok {
		return w
	}
	if visible && len(recvs) > 0 {
		return Verdict{}
	}
	if len(recvs) > 0 {
		v.Missing = NoStopSeen
		return v
	}
	v = j.callersChannel(instr, ch, v, kept)
	if v.Missing == NoReceiverSeen && kept.Kind == chans.Field {
		v = j.objectCtx(instr, ch, v, kept.Field)
	}
	return v
}

// countedDrain audits a send whose receiver, once it gives up, takes one
// value a trip until the collection it keeps its senders in is walked
// (chans.DrainsCounted): a sender counted there is answered; only one the
// collection misses waits.
func countedDrain(v Verdict, r chans.Site, d chans.CountedDrain) Verdict {
	name, of := OwnerName(r.Func), d.Of
	if of == "" {
		of = "the collection it walks"
	}
	if d.Counter {
		v.Related = append(slices.Clip(v.Related), related(d.Recv.Pos(), name+" receives here once it stops, one value for each sender counted in "+of))
		v.Missing = "its receiver " + name + ", once it stops, keeps receiving one value for each sender counted in " + of + ": a send blocks only if its sender was not counted"
		return v
	}
	v.Related = append(slices.Clip(v.Related), related(d.Recv.Pos(), name+" receives here once it stops, one value for each entry of "+of))
	v.Missing = "its receiver " + name + ", once it stops, keeps receiving one value for each entry of " + of + ": a send blocks only if its sender has no entry there"
	return v
}

// askingDrain audits a send whose receiver, once it gives up, keeps
// taking from the channel until the sender's own goroutine takes its
// request to be let go (chans.AsksToStop): a send the sender is blocked on
// meanwhile is taken; only one it makes after taking the request waits.
func askingDrain(v Verdict, r chans.Site, d chans.AskingDrain) Verdict {
	name, taker := OwnerName(r.Func), OwnerName(d.Taker)
	v.Related = append(slices.Clip(v.Related),
		related(d.Recv, name+" keeps receiving here once it stops"),
		related(d.Ask, "until "+taker+" takes its request on "+d.Field.Name()+" here"))
	v.Missing = "its receiver " + name + ", once it stops, keeps receiving until " + taker +
		", which sends, takes its request on " + d.Field.Name() + ": a send blocks only if made after that"
	return v
}

// lastDrain audits a send whose receiver, on its way out, may run a loop
// that takes every value until the sender's last (chans.DrainsToLast): a
// send blocks only if the drain is skipped while the sender runs.
func lastDrain(v Verdict, r chans.Site, d chans.LastDrain) Verdict {
	name, drainer := OwnerName(r.Func), OwnerName(d.Drainer)
	v.Related = append(slices.Clip(v.Related), related(d.Call, name+" runs "+drainer+" here on its way out"))
	v.Missing = "its receiver " + name + ", on its way out, runs " + drainer +
		", which takes values from it until the sender's last one, on " + d.Last.Name() + ": a send blocks only if the drain is skipped"
	return v
}

// restarted says how a receiver that runs again can be gone for good
// (chans.StopsUnlessRestarted): the one function that starts it again
// closes its stop channel and can return without doing so.
// reason is what the send lacks, as receiverStops was handed it.
func restarted(v Verdict, reason string, r chans.Site, rs chans.Restart) Verdict {
	recv, closer := OwnerName(r.Func), OwnerName(rs.Closer)
	v.Reason = "its receiver " + recv + " stops once " + rs.Stop.Name() + " is closed, and " + closer +
		", which closes it, starts " + recv + " again only on some of its paths; " + reason
	v.Related = append(slices.Clip(v.Related),
		related(rs.Close.Pos(), rs.Stop.Name()+" is closed here"),
		related(rs.Again.Pos(), recv+" is started again here"),
		related(returnPos(rs.Return), closer+" can return here without starting it again"))
	return v
}

// returnPos is where a return is written, or, for the one a function
// ends with implicitly, its closing brace.
func returnPos(ret *ssa.Return) token.Pos {
	if ret.Pos().IsValid() {
		return ret.Pos()
	}
	if body := ret.Parent().Syntax(); body != nil {
		return body.End() - 1
	}
	return token.NoPos
}

// selfFill proves a send made on the goroutine of the channel's only
// receiver, when the buffer can fill there (chans.SelfFill): the one
// goroutine that could take from it is the one waiting to put in.
func (j *Judge) selfFill(v Verdict, recvs []chans.Site, instr ssa.Instruction) (Verdict, bool) {
	if len(recvs) == 0 {
		return Verdict{}, false
	}
	r := recvs[0]
	at := j.idx.OnReceiverGoroutine(r, instr)
	if !j.idx.SelfFill(recvs, r, at, v.Makes) {
		return Verdict{}, false
	}
	name := OwnerName(r.Func)
	v.Missing = ""
	v.Reason = "its only receiver, " + name + ", is the goroutine that makes this send: once the buffer is full nothing can take from it"
	v.Related = append(slices.Clip(v.Related), related(recvPos(r), name+" receives from it only here"))
	if at != instr {
		v.Related = append(v.Related, related(at.Pos(), "the send runs on "+name+"'s goroutine, through this call"))
	}
	return v, true
}

// siblingGivesUp proves a plain send on a channel kept in a field (or in
// a container there) whose receivers are not seen to stop, when another
// send of the package on a channel kept there gives up on its object's
// stop channel or context (chans.SiblingGivesUp):
// the package's own code says that once that channel is closed no
// receiver can be counted on, and this send has no such case. A send by
// one of the channel's receivers is left alone: it runs while that
// receiver does. A send on a channel of a value the sender is handed,
// away from the sibling (a request's reply channel: chans.OwnObject),
// goes to the audit tier: how many values one request gets is not
// counted.
func (j *Judge) siblingGivesUp(v Verdict, instr ssa.Instruction, ch ssa.Value, recvs []chans.Site, kept chans.Origin) (Verdict, bool) {
	if _, ok := instr.(*ssa.Send); !ok {
		return Verdict{}, false
	}
	for _, r := range recvs {
		if r.Func == instr.Parent() {
			return Verdict{}, false
		}
	}
	sib, ok := j.idx.SiblingGivesUp(instr, kept)
	if !ok {
		return Verdict{}, false
	}
	stop, when := sib.Stop.Name(), sib.Stop.Name()+" is closed"
	if sib.Ctx {
		stop, when = sib.Stop.Name()+".Done()", sib.Stop.Name()+" is done"
	}
	v.Missing = ""
	if root, own := chans.OwnObject(instr, ch, sib); !own {
		v.Missing = keptBy(root) + ", not through the object whose methods send on it: the other send's give-up says its receiver may leave, but not that one such value gets more values than its buffer holds"
	}
	v.Reason = "the package's other send on it gives up when " + when + ", as its receivers may be gone by then, and this send has no such case"
	if j.fanOut(instr, ch) {
		v.Reason += fanOutNote
	}
	v.Related = append(slices.Clip(v.Related), related(sib.Select.Pos(), "the other send gives up here, on "+stop))
	for i, c := range sib.Closes {
		if i == 3 {
			v.Related = append(v.Related, related(c.Pos(), fmt.Sprintf("and %d more", len(sib.Closes)-3)))
			break
		}
		v.Related = append(v.Related, related(c.Pos(), sib.Stop.Name()+" is closed here"))
	}
	return v, true
}

// keptBy says what value a channel that is not its sender's own is
// reached through (chans.OwnObject): a parameter, or a value received
// from a channel.
func keptBy(root ssa.Value) string {
	if p, ok := root.(*ssa.Parameter); ok {
		return "the channel is reached through " + p.Name() + ", a value handed to " + OwnerName(p.Parent())
	}
	return "the channel is reached through a value received from a channel"
}

// abandonedAtClose proves a plain send from the package's own goroutine
// on a channel only the type's exported methods receive from, when the
// type's Close does nothing that releases it (chans.AbandonedAtClose): a
// caller that has closed the value owes no more calls to those methods,
// so a value pending then is never taken. A Close that does nothing,
// beside a close of the channel by the package, leaves the finding to the
// audit tier: the receivers end on that close.
func (j *Judge) abandonedAtClose(v Verdict, instr ssa.Instruction, recvs []chans.Site) (Verdict, bool) {
	s, ok := instr.(*ssa.Send)
	if !ok {
		return Verdict{}, false
	}
	a, ok := j.idx.AbandonedAtClose(s, recvs)
	if !ok {
		return Verdict{}, false
	}
	recv, closer := OwnerName(a.Recv.Func), OwnerName(a.Close)
	v.Missing = ""
	v.Reason = "its receiver is " + recv + ", which callers stop calling once they call " + closer +
		", and nothing " + closer + " does lets this send give up: a value pending at Close is never taken"
	v.Related = append(slices.Clip(v.Related),
		related(recvPos(a.Recv), recv+" receives from it here"),
		related(a.Close.Pos(), closer+" neither takes from it nor closes it"))
	if a.Ended != nil {
		v.Related = append(v.Related, related(a.Ended.Pos(), "the package closes it here"))
		v.Missing = closer + " does nothing, and the package closes the channel itself: callers that call " + recv + " until it fails stop on that close, not on " + closer
	}
	return v, true
}

// drainer returns a receiver of the channel, other than r's function,
// that ranges over it until it is closed (chans.DrainsToClose), or nil.
// While it runs it takes every value sent, so r's stop strands no one;
// whether it runs whenever r has stopped (a channel handed on once its
// first reader is done) is a question of order the pass leaves to the
// audit tier.
func drainer(idx *chans.Index, recvs []chans.Site, r chans.Site, ch ssa.Value) *chans.Site {
	for i, d := range recvs {
		if d.Func != r.Func && !chans.OtherInstance(ch, d) && idx.DrainsToClose(d) {
			return &recvs[i]
		}
	}
	return nil
}

// outlives says why the receiver r need not have stopped when the send is
// made, or returns "": it is running (chans.RunningAt), it gives up only
// in the other mode of a question the send's branch asks too
// (chans.OtherMode), its stop is signalled only after a wait for the
// goroutines that make the send (chans.StopsAfterSenders), or only by
// the goroutine that makes the send, after its last send
// (chans.StoppedBySender).
func (j *Judge) outlives(r chans.Site, instr ssa.Instruction, ch ssa.Value, makes []*ssa.MakeChan) string {
	if why := j.idx.RunningAt(r, instr, makes); why != "" {
		return why
	}
	if why := j.idx.OtherMode(r, instr, ch); why != "" {
		return why
	}
	if why := j.idx.StopsAfterSenders(r, instr); why != "" {
		return why
	}
	return j.idx.StoppedBySender(r, instr, ch)
}

// receiverStops is v proven by the receiver r, which can stop and is the
// channel's last (handed to a runner at handed, or run again only at
// rerun, in a main loop that stops for good, when not nil), with what
// the proof still lacks; or no verdict, when a guard shows r running at
// the send (shutdownGuard, with what outer adds).
func (j *Judge) receiverStops(v Verdict, r chans.Site, handed, rerun ssa.Instruction, instr ssa.Instruction, ch ssa.Value, kept chans.Origin, outer *Outer) Verdict {
	guard, safe := j.shutdownGuard(instr, r, outer, v.Makes)
	if safe {
		return Verdict{}
	}
	v.Related = append(slices.Clip(v.Related), related(recvPos(r), "its receiver "+OwnerName(r.Func)+" can stop waiting here"))
	if out, isCase := j.idx.WayOut(r); out.IsValid() {
		how := "it returns here, before the channel is closed"
		if isCase {
			how = "it returns for good once this case fires"
		}
		v.Related = append(v.Related, related(out, how))
	}
	if handed != nil && handed.Pos().IsValid() {
		v.Related = append(v.Related, related(handed.Pos(), runnerNote(r.Func, handed)))
	}
	if rerun != nil {
		main := OwnerName(rerun.Parent())
		v.Related = append(v.Related, related(rerun.Pos(), OwnerName(r.Func)+" is run again only here, in a loop of "+main+" that returns for good on its stop channel"))
		v.Reason = "its receiver " + OwnerName(r.Func) + " runs only from " + main + ", which returns for good on its stop channel, and " + v.Reason
	} else {
		v.Reason = "its receiver " + OwnerName(r.Func) + " can stop receiving, and " + v.Reason
	}
	request, asks := stopRequest(j.idx, r, instr, v.Makes)
	v.Missing = cmp.Or(madeInTests(v.Makes), guard, j.deregistered(r, kept), selfStop(j.idx, r, instr), j.perCallBuffer(v.Makes, r, instr), closesOnStop(j.idx, r), stopsCloseIt(j.idx, r, instr, ch), request)
	if v.Missing == request && request != "" {
		v.Related = appendCapped(v.Related, asks, "the request that stops it is sent here")
	}
	if j.ownerWaits(r, v.Makes) {
		v.Missing = cmp.Or(j.overflow(instr, ch, v.Makes), v.Missing)
	}
	return v
}

// stopRequest says what is missing when the receiver r stops only on a
// request it takes from the channel itself (chans.StopsOnRequest), and
// every make gives the channel a buffer: r takes each value sent before
// that request, so a send waits for good only behind more values sent
// after it than the buffer holds, callers that race Close or outlive it.
// On an unbuffered channel the first such value waits for good, and so
// does a send the package itself repeats (chans.RepeatedHere: a loop, a
// goroutine), which alone can send any number after the request: the
// proof stands. asks are the sends of the request.
func stopRequest(idx *chans.Index, r chans.Site, instr ssa.Instruction, makes []*ssa.MakeChan) (missing string, asks []ssa.Instruction) {
	room := leastCap(makes)
	if room == 0 {
		return "", nil
	}
	asks, ok := idx.StopsOnRequest(r)
	if !ok || idx.RepeatedHere(instr) {
		return "", nil
	}
	return fmt.Sprintf("its receiver %s stops only once it takes a stop request from this channel, and takes every value sent before it: a send waits for good only behind more than %d values sent after the request", OwnerName(r.Func), room), asks
}

// appendCapped adds a related position for each instruction, at most
// three, then one that counts the rest.
func appendCapped(rel []analysis.RelatedInformation, instrs []ssa.Instruction, msg string) []analysis.RelatedInformation {
	for i, in := range instrs {
		if i == 3 {
			return append(rel, related(in.Pos(), fmt.Sprintf("and %d more", len(instrs)-3)))
		}
		rel = append(rel, related(in.Pos(), msg))
	}
	return rel
}

// selfStop says what is missing when the receiver r stops only on the
// value this send makes (chans.StopsOnlyOn): it can be gone only after
// taking an earlier run's, so the send blocks only when it runs twice for
// one channel, and nothing r does on its own strands it.
func selfStop(idx *chans.Index, r chans.Site, instr ssa.Instruction) string {
	if !idx.StopsOnlyOn(r, instr) {
		return ""
	}
	return "its receiver " + OwnerName(r.Func) + " stops only on the value this send makes: it blocks only if the send runs twice for one channel"
}

// closesOnStop says what is missing when the receiver r closes the
// channel as it stops, or stops only once a receive saw it closed
// (chans.ClosesOnStop): a send left behind is woken by the close and
// panics, which is a bug of another kind than the one baresend proves.
func closesOnStop(idx *chans.Index, r chans.Site) string {
	if !idx.ClosesOnStop(r) {
		return ""
	}
	return "its receiver " + OwnerName(r.Func) + " closes the channel as it stops, unless it saw it closed: a send left behind panics rather than waits"
}

// stopsCloseIt says what is missing when every stop of the receiver r
// closes the send's channel too, or is this send's own value
// (chans.StopsCloseIt): a send left behind panics rather than waits, as
// with closesOnStop.
func stopsCloseIt(idx *chans.Index, r chans.Site, instr ssa.Instruction, ch ssa.Value) string {
	if !idx.StopsCloseIt(r, instr, ch) {
		return ""
	}
	return "every stop of its receiver " + OwnerName(r.Func) + " closes the channel too, or is the value this send makes: a send left behind panics rather than waits, unless the send runs twice for one channel"
}

// perCallBuffer says what is missing when the send fills its buffer only
// as fast as the package's users call: every channel it may use is
// buffered (the smallest holds c values), its receiver r stops only when
// told to (chans.StopsOnlyWhenSignalled), and the send is made once per
// call of the package's API (chans.OncePerCall). The receiver is stopped
// by the code that also calls: the send blocks only when its callers go
// on calling after they stopped r, until the buffer is full, a contract
// about the order of calls that the pass cannot see the other half of. A
// loop or a goroutine of the package that keeps sending fills it by
// itself, and an unbuffered send blocks at the first call: both stay
// proven.
func (j *Judge) perCallBuffer(makes []*ssa.MakeChan, r chans.Site, instr ssa.Instruction) string {
	c := leastCap(makes)
	if c < 1 || !j.idx.StopsOnlyWhenSignalled(r) || !j.idx.OncePerCall(instr) {
		return ""
	}
	return fmt.Sprintf("its receiver %s stops only when told to, and this send is made once per call into a buffer of %d: it blocks only if callers go on calling after the stop until the buffer is full", OwnerName(r.Func), c)
}

// testStop says what is missing when the receiver's only stop is fired by
// closes and sends that code a user ships never runs
// (chans.StopsOnlyUnderTest): in the shipped program it never stops, and
// every send finds it.
func testStop(fires []ssa.Instruction) string {
	closes, sends := false, false
	for _, f := range fires {
		switch f.(type) {
		case *ssa.Send, *ssa.Select:
			sends = true
		default: // close(ch), go close(ch), defer close(ch)
			closes = true
		}
	}
	what := "closes"
	switch {
	case closes && sends:
		what = "closes or sends on"
	case sends:
		what = "sends on"
	}
	return "its receiver stops only when test code " + what + " its stop channel"
}

// runnerNote says where the receiver fn is handed to the runner that does
// not run it again once its context is done (chans.RunUntilDone).
func runnerNote(fn *ssa.Function, handed ssa.Instruction) string {
	const final = ", which does not run it again once its context is done"
	if c, ok := handed.(ssa.CallInstruction); ok {
		if callee := c.Common().StaticCallee(); callee != nil {
			name := OwnerName(callee)
			if callee.Pkg != nil && callee.Pkg != fn.Pkg {
				name = callee.Pkg.Pkg.Name() + "." + name
			}
			return OwnerName(fn) + " is handed here to " + name + final
		}
	}
	return OwnerName(fn) + " is run from here" + final
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
	if l := j.idx.Loops(instr.Parent()).Innermost(instr.Block()); l != nil && (!flow.Varies(ch, l) || j.overRegistry(instr, ch, l)) {
		return ""
	}
	for _, mk := range makes {
		if j.idx.HandedOutInLoop(mk) {
			return ""
		}
	}
	if caps := j.idx.SizesOf(makes); caps != "" && caps != "unbuffered" {
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
//
// A loop over a map that deletes the entry it sent to, on every way from
// the send to the next trip, is not such a fan-out: each registration
// gets one value from it, ever (a set of pending requests, each answered
// once and dropped).
func (j *Judge) overRegistry(instr ssa.Instruction, ch ssa.Value, l *flow.Loop) bool {
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
			return ok && j.registered(r.X) && !deletesEntry(instr, next, r.X, l)
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

// deletesEntry reports whether every path from the send at instr to the
// next trip of l, or out of the function, deletes from the map m the key
// that next, the loop's range over m, gave this trip.
func deletesEntry(instr ssa.Instruction, next *ssa.Next, m ssa.Value, l *flow.Loop) bool {
	if !isMap(m.Type()) {
		return false
	}
	return flow.After(instr, l.Header, func(x ssa.Instruction) bool {
		call, ok := x.(*ssa.Call)
		if !ok {
			return false
		}
		b, ok := call.Call.Value.(*ssa.Builtin)
		if !ok || b.Name() != "delete" || !chans.SameValue(call.Call.Args[0], m) {
			return false
		}
		key, ok := call.Call.Args[1].(*ssa.Extract)
		return ok && key.Tuple == next && key.Index == 1
	})
}

func isMap(t types.Type) bool {
	_, ok := t.Underlying().(*types.Map)
	return ok
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

func recvPos(r chans.Site) token.Pos { return r.Pos() }

// unowned is the verdict for a channel the sender does not own: whoever owns
// it can stop reading, and the send has no way out.
func (j *Judge) unowned(instr ssa.Instruction, ch ssa.Value, makes []*ssa.MakeChan) Verdict {
	if !chans.InTestFile(instr) {
		makes = chans.ShippedMakes(makes) // a test's channel says nothing of shipped code's
	}
	v := Verdict{Blocks: true, Reason: NoWayOut, Makes: makes, Missing: NoReceiverSeen}
	if j.fanOut(instr, ch) {
		v.Reason += fanOutNote
	}
	for _, mk := range makes {
		v.Related = append(v.Related, related(mk.Pos(), report.MadeHere+capSuffix(mk)))
	}
	return v
}

// fanOutNote ends the reason of a send in a fan-out (fanOut).
const fanOutNote = "; in this loop over receivers one slow receiver stalls every later one"

// fanOut reports whether the send sits in a loop whose iterations choose
// different channels: a fan-out over independent receivers.
func (j *Judge) fanOut(instr ssa.Instruction, ch ssa.Value) bool {
	l := j.idx.Loops(instr.Parent()).Innermost(instr.Block())
	return l != nil && flow.Varies(ch, l)
}

// madeHereToo says, at each make of this package into a field another
// package declares, that the field holds that package's channels too: the
// make is one of the channels the send may be on, not the one.
func madeHereToo(rel []analysis.RelatedInformation, f *types.Var) []analysis.RelatedInformation {
	out := slices.Clone(rel)
	for i, ri := range out {
		if strings.HasPrefix(ri.Message, report.MadeHere) {
			out[i].Message += "; " + f.Name() + " is a field of package " + f.Pkg().Name() + ", which may fill it with channels of its own"
		}
	}
	return out
}

func related(pos token.Pos, msg string) analysis.RelatedInformation {
	return analysis.RelatedInformation{Pos: pos, Message: msg}
}

// leastCap returns the least constant capacity of makes, or 0 when one
// is unbuffered or not a constant.
func leastCap(makes []*ssa.MakeChan) int {
	least := 0
	for i, mk := range makes {
		n, ok := chans.ConstCapOK(mk)
		if !ok || n == 0 {
			return 0
		}
		if i == 0 || n < least {
			least = n
		}
	}
	return least
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
