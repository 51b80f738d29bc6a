package verdict

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/flow"
)

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
	if l == nil || flow.Varies(ch, l) && !j.overRegistry(instr, ch, l) {
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
	if fn := j.idx.MadeForCaller(kept); fn != nil && !j.answeredOnce(instr, ch, v.Makes) {
		return handedOut(v, fn, " makes the channel, keeps it and hands it to its callers")
	}
	if kept.Kind != chans.Field || kept.Field == nil {
		return v
	}
	if fn := j.idx.HandedOutBy(kept.Field); fn != nil {
		return handedOut(v, fn, " hands the channel to its callers")
	}
	return v
}

// handedOut proves v: fn hands the channel to callers the package cannot
// see, any of whom can stop reading.
func handedOut(v Verdict, fn *ssa.Function, what string) Verdict {
	who := OwnerName(fn)
	v.Reason = "its receiver is the caller that " + who + " hands it to, who can stop reading, and " + v.Reason
	v.Related = append(v.Related, related(fn.Pos(), who+what))
	v.Missing = ""
	return v
}

// answeredOnce reports whether each channel gets one value at most from
// the loop, and has room for it: the loop walks a list of waiters once per
// object (chans.WalkedOncePerObject), and every channel kept there was
// made with a slot. A caller that stops reading leaves its value in the
// slot.
func (j *Judge) answeredOnce(instr ssa.Instruction, ch ssa.Value, makes []*ssa.MakeChan) bool {
	return len(makes) > 0 && leastCap(makes) >= 1 && j.idx.WalkedOncePerObject(instr, ch)
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
