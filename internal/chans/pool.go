package chans

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// TokenPool reports whether field f holds a semaphore filled with tokens
// where it is made: every channel this package stores into f is made with
// capacity n and then filled, by the function that made it, in a loop that
// runs n times; and the package receives from f. Taking a token is a
// receive, putting it back a send, and a send that puts a token back
// cannot block while every receive is matched by one:
//
//	d := &sema{ch: make(chan struct{}, n)}
//	for range n {
//		d.ch <- struct{}{}      // fill
//	}
//	func (d *sema) acquire() { <-d.ch }
//	func (d *sema) release() { d.ch <- struct{}{} }  // cannot block
func (x *Index) TokenPool(f *types.Var) bool {
	makes := x.FieldMakes(f)
	if len(makes) == 0 || !x.Received(f) {
		return false
	}
	for _, mk := range makes {
		if !x.filledWhereMade(mk, f) {
			return false
		}
	}
	return true
}

// filledWhereMade reports whether the function that made mk sends on it,
// or on field f, in a loop bounded by mk's capacity: the size it was made
// with, or cap of the channel.
func (x *Index) filledWhereMade(mk *ssa.MakeChan, f *types.Var) bool {
	return len(x.fillSends(mk, f)) > 0
}

// fillSends returns the sends by which the function that made mk fills
// it, or field f, in a loop bounded by mk's capacity: a loop of its own,
// not nested in another.
func (x *Index) fillSends(mk *ssa.MakeChan, f *types.Var) []ssa.Instruction {
	owner := mk.Parent()
	loops := x.Loops(owner)
	var out []ssa.Instruction
	for _, b := range owner.Blocks {
		for _, instr := range b.Instrs {
			send, ok := instr.(*ssa.Send)
			if !ok || !x.madeOrField(send.Chan, mk, f) {
				continue
			}
			l := loops.Innermost(b)
			if l == nil || loops.Depth(b) > 1 {
				continue
			}
			if bound := flow.LoopBound(l); bound != nil && (SameValue(bound, mk.Size) || x.capOf(bound, mk, f)) {
				out = append(out, send)
			}
		}
	}
	return out
}

// capOf reports whether v is cap(ch) of the channel mk made or of field
// f: a fill loop written for range cap(p.slots).
func (x *Index) capOf(v ssa.Value, mk *ssa.MakeChan, f *types.Var) bool {
	call, ok := v.(*ssa.Call)
	if !ok || len(call.Call.Args) != 1 {
		return false
	}
	b, ok := call.Call.Value.(*ssa.Builtin)
	return ok && b.Name() == "cap" && x.madeOrField(call.Call.Args[0], mk, f)
}

func (x *Index) madeOrField(ch ssa.Value, mk *ssa.MakeChan, f *types.Var) bool {
	for _, o := range x.Origins(ch) {
		if o.Make == mk || o.Kind == Field && o.Field == f {
			return true
		}
	}
	return false
}

// OneShot reports whether field f holds channels that are sent on at most
// once: every channel this package stores into f is made with a constant
// capacity of at least 1, and every send on f is followed, in its block, by
// close of the same channel. A second send would panic on the closed
// channel, so in a program that does not panic the one value fits.
//
//	w := &wantConn{result: make(chan connOrError, 1)}
//	w.result <- connOrError{pc: pc}  // cannot block
//	close(w.result)
//
// A select case that sends on f counts when every way out of the select
// closes the channel (see closedAfterSelect). A send not followed by
// close makes f an ordinary channel.
func (x *Index) OneShot(f *types.Var) bool {
	if v, ok := x.oneShot[f]; ok {
		return v
	}
	if x.oneShot == nil {
		x.oneShot = make(map[*types.Var]bool)
	}
	x.oneShot[f] = false // a guard while the origins below are followed
	v := x.oneShotField(f)
	x.oneShot[f] = v
	return v
}

// OneShotChan reports whether every channel ch may be is held in a field
// that OneShot accepts: a send on it always finds room, so a select's
// default beside it never runs.
func (x *Index) OneShotChan(ch ssa.Value) bool {
	origins := x.Origins(ch)
	for _, o := range origins {
		if o.Kind != Field || o.Field == nil || !x.OneShot(o.Field) {
			return false
		}
	}
	return len(origins) > 0
}

func (x *Index) oneShotField(f *types.Var) bool {
	makes := x.FieldMakes(f)
	if len(makes) == 0 {
		return false
	}
	for _, mk := range makes {
		if n, ok := constCap(mk); !ok || n < 1 {
			return false
		}
	}
	sends := 0
	for _, send := range x.sends {
		if !x.fromField(send.Chan, f) {
			continue
		}
		if !closedAfter(send) {
			return false
		}
		sends++
	}
	for _, sel := range x.sendSels {
		for _, st := range sel.States {
			if st.Dir != types.SendOnly || !x.fromField(st.Chan, f) {
				continue
			}
			if !closedAfterSelect(sel, st.Chan) {
				return false
			}
			sends++
		}
	}
	return sends > 0
}

// closedAfterSelect reports whether every path out of sel closes ch
// before it returns or comes back to sel: whichever case runs, the
// channel is closed after this one chance to send on it.
//
//	select {
//	case done <- state:
//	default:
//	}
//	close(done)
func closedAfterSelect(sel *ssa.Select, ch ssa.Value) bool {
	return flow.After(sel, sel.Block(), func(instr ssa.Instruction) bool { return ClosesChan(instr, ch) })
}

// ClosesChan reports whether instr is close(ch), of the same channel as
// far as SameValue tells.
func ClosesChan(instr ssa.Instruction, ch ssa.Value) bool {
	call, ok := instr.(*ssa.Call)
	return ok && isClose(call) && len(call.Call.Args) == 1 && SameValue(call.Call.Args[0], ch)
}

func (x *Index) fromField(ch ssa.Value, f *types.Var) bool {
	for _, o := range x.Origins(ch) {
		if o.Kind == Field && o.Field == f {
			return true
		}
	}
	return false
}

// closedAfter reports whether send's block closes the same channel after
// the send.
func closedAfter(send *ssa.Send) bool {
	for _, instr := range send.Block().Instrs[flow.IndexOf(send)+1:] {
		if ClosesChan(instr, send.Chan) {
			return true
		}
	}
	return false
}
