package chans

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// NeverBlocks reports whether the send at instr (select state, or -1) on ch
// provably cannot block, whoever receives: it is the one answer baresend,
// lockedsend and silentdrop share. A send cannot block when
//
//   - it puts back a token its function took from the same channel
//     (Refills), or follows a non-blocking receive that made room for it
//     (MadeRoom);
//   - it answers through a registry of one-shot reply slots (ReplySlot),
//     or a list of them emptied under a lock after the answers (ListSlot);
//   - it fills a fresh struct's channel before anyone else sees it, with
//     room counted or tested by len (FreshField), or, from the maker's
//     goroutine, no more values than the room the maker measured
//     (RoomCounted), or is the first send on a buffered channel just made
//     and stored where it sends (JustStored), or into a struct every
//     caller has just made and shown to nobody (FreshParam);
//   - every channel it may send on is a semaphore filled where it was made
//     (TokenPool), a one-shot channel sent on once and closed (OneShot), a
//     result slot made with each object that holds it (SingleValue), a
//     slot that travels in a struct value handed on once and is sent on
//     once per value received (OncePerValue), a field whose first value
//     this send is (ArmedFirst), a field that passes one token back and
//     forth with another (Exchanged), a channel made in this
//     package with room for every send (Covered), or a semaphore whose
//     every acquire is released by its holder (Semaphore).
//
// The nil channel is not counted against a send: code guards such sends
// (if ch != nil { ch <- v }).
func (x *Index) NeverBlocks(instr ssa.Instruction, state int, ch ssa.Value) bool {
	if Refills(instr, ch) || MadeRoom(instr, ch) && !x.unbuffered(ch) || x.ReplySlot(instr, ch) || x.ListSlot(instr, ch) {
		return true
	}
	if send, ok := instr.(*ssa.Send); ok && (x.FreshField(send) || x.FreshParam(send) || JustStored(send) || x.RoomCounted(send)) {
		return true
	}
	origins := x.Origins(ch)
	if len(origins) == 0 {
		return false
	}
	for _, o := range origins {
		switch o.Kind {
		case Nil:
		case Field:
			if !x.TokenPool(o.Field) && !x.OneShot(o.Field) && !x.SingleValue(instr, o.Field) &&
				!x.OncePerValue(o.Field) && !x.armedFirst(instr, o.Field) && !x.exchanged(instr, o.Field) {
				return false
			}
		case Made:
			if !x.coveredAt(o.Make, instr, state) && !x.Semaphore(x.Uses(o.Make)) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// coveredAt applies the capacity rule to the send at instr on a channel
// made by mk.
func (x *Index) coveredAt(mk *ssa.MakeChan, instr ssa.Instruction, state int) bool {
	u := x.Uses(mk)
	for _, s := range u.Sends {
		if s.Instr == instr && s.State == state {
			return x.Covered(u, s)
		}
	}
	return false
}

// sendsOnField calls f for every send and select send case of the package
// whose channel is loaded from field.
func (x *Index) sendsOnField(field *types.Var, f func(instr ssa.Instruction, ch ssa.Value)) {
	for _, send := range x.sends {
		if x.fromField(send.Chan, field) {
			f(send, send.Chan)
		}
	}
	for _, sel := range x.sendSels {
		for _, st := range sel.States {
			if st.Dir == types.SendOnly && x.fromField(st.Chan, field) {
				f(sel, st.Chan)
			}
		}
	}
}

// unbuffered reports whether every channel made in this package that ch may
// be is unbuffered: a receive that drains one makes no room for a send,
// which still waits for a receiver.
func (x *Index) unbuffered(ch ssa.Value) bool {
	var makes []*ssa.MakeChan
	for _, o := range x.Origins(ch) {
		switch o.Kind {
		case Made:
			makes = append(makes, o.Make)
		case Field:
			makes = append(makes, x.FieldMakes(o.Field)...)
		case Global:
			makes = append(makes, x.GlobalMakes(o.Global)...)
		}
	}
	for _, mk := range makes {
		if n, ok := ConstCapOK(mk); !ok || n > 0 {
			return false
		}
	}
	return len(makes) > 0
}

// exchanged applies Exchanged to a plain send.
func (x *Index) exchanged(instr ssa.Instruction, f *types.Var) bool {
	send, ok := instr.(*ssa.Send)
	return ok && x.Exchanged(send, f)
}

// armedFirst applies ArmedFirst to a plain send.
func (x *Index) armedFirst(instr ssa.Instruction, f *types.Var) bool {
	send, ok := instr.(*ssa.Send)
	return ok && x.ArmedFirst(send, f)
}
