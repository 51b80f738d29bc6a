package chans

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
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
// or on field f, in a loop bounded by mk's capacity.
func (x *Index) filledWhereMade(mk *ssa.MakeChan, f *types.Var) bool {
	owner := mk.Parent()
	loops := x.Loops(owner)
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
			if bound := LoopBound(l); bound != nil && SameValue(bound, mk.Size) {
				return true
			}
		}
	}
	return false
}

func (x *Index) madeOrField(ch ssa.Value, mk *ssa.MakeChan, f *types.Var) bool {
	for _, o := range x.Origins(ch) {
		if o.Make == mk || o.Kind == Field && o.Field == f {
			return true
		}
	}
	return false
}
