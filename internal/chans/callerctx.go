package chans

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A LoopGone is the proof that a select handing a value to an object's
// loop can wait after the loop has stopped: the loop gives up only on the
// object's stop channel, and the select only on its caller's context.
type LoopGone struct {
	Send   int // the select's send case
	Ctx    *ssa.Parameter
	Recv   Site        // the loop's receive
	Stop   *types.Var  // the stop channel the loop gives up on
	Closes []*ssa.Call // where the package closes it (outside tests, for a shipped select)
}

// OutlivesLoop returns the proof for a blocking select whose one send
// case is on a channel kept in an unexported field of a struct S, which
// no exported function hands out, and whose every
// receive case is ctx.Done() of a context parameter of its function (the
// caller's), when every receiver of that field gives up only on stop
// channels kept in other fields of S (StopsForGood), which the package
// closes, and the select watches none of them.
//
//	func (l *Loop) Run(ctx context.Context, t task) error {
//		select {
//		case l.tasks <- t: // reported: runLoop is gone once done is closed
//		case <-ctx.Done():
//			return ctx.Err()
//		}
//	}
//	func (l *Loop) runLoop() {
//		for {
//			select {
//			case <-l.done:
//				return
//			case t := <-l.tasks:
//				t.run()
//			}
//		}
//	}
//
// Once the stop channel is closed no receiver is left, and a call that
// reaches the select then (or raced past a check of the stop channel)
// waits until its caller's context ends: for good with one that never
// does, as context.Background().
func (x *Index) OutlivesLoop(sel *ssa.Select) (LoopGone, bool) {
	k, ctx, ok := callerContextOnly(sel)
	if !ok {
		return LoopGone{}, false
	}
	ch := sel.States[k].Chan
	f := LoadedField(ch)
	if f == nil || f.Exported() || x.HandedOutBy(f) != nil {
		return LoopGone{}, false // callers may receive from it too, out of sight
	}
	shipped := !InTestFile(sel)
	recvs := x.FieldReceives(f)
	if shipped {
		recvs = slices.DeleteFunc(slices.Clone(recvs), func(r Site) bool { return InTestFile(r.Instr) })
	}
	if len(recvs) == 0 {
		return LoopGone{}, false
	}
	var stop *types.Var
	for _, r := range recvs {
		if r.Func == sel.Parent() || !x.GivesUp(r) || !x.StopsForGood(r) {
			return LoopGone{}, false
		}
		for _, g := range x.stopCases(r) {
			if !sameStruct(ch, g) || x.closesIn(g, sel.Parent()) {
				return LoopGone{}, false
			}
			stop = g
		}
	}
	closes := x.fieldCloses[stop]
	if shipped {
		closes = slices.DeleteFunc(slices.Clone(closes), func(c *ssa.Call) bool { return InTestFile(c) })
	}
	if len(closes) == 0 {
		return LoopGone{}, false // only tests stop the loop
	}
	return LoopGone{Send: k, Ctx: ctx, Recv: recvs[0], Stop: stop, Closes: closes}, true
}

// callerContextOnly returns the one send case of a blocking select whose
// receive cases all wait on ctx.Done() of one context parameter of the
// select's function.
func callerContextOnly(sel *ssa.Select) (int, *ssa.Parameter, bool) {
	if !sel.Blocking {
		return 0, nil, false
	}
	send := -1
	var ctx *ssa.Parameter
	for i, st := range sel.States {
		if st.Dir == types.SendOnly {
			if send >= 0 {
				return 0, nil, false
			}
			send = i
			continue
		}
		if !isContextDone(st.Chan) {
			return 0, nil, false
		}
		p, ok := st.Chan.(*ssa.Call).Call.Value.(*ssa.Parameter)
		if !ok || p.Parent() != sel.Parent() || ctx != nil && p != ctx {
			return 0, nil, false
		}
		ctx = p
	}
	return send, ctx, send >= 0 && ctx != nil
}
