package chans

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// A receiver whose every stop is fired by the goroutine that sends to it,
// as that goroutine's last act, is running at each of its sends. An
// events loop that asks its dispatcher to clear a queue, and closes the
// dispatcher's stop channel only on the close request, after which it
// returns:
//
//	func (c *consumer) events() {          // started once: go c.events()
//		for ev := range c.requests {
//			switch ev.(type) {
//			case *seekRequest:
//				c.clearQueue()             // c.clearc <- f: the send
//			case *closeRequest:
//				close(c.closed)            // the dispatcher's only stop
//				return
//			}
//		}
//	}
//	func (c *consumer) dispatch() {
//		for {
//			select {
//			case <-c.closed:
//				return
//			case f := <-c.clearc:
//				f()
//			}
//		}
//	}
//
// The constructor makes the channels and starts both loops, so each
// events loop stops the dispatcher of its own channels (a Start that runs
// the loops again on channels made once could find them stopped by an
// earlier run). A send that the constructor makes before it starts the
// events loop cannot find the stop fired either. The dispatcher may not have started
// then, or be slow, but it has not gone away, which is the proof baresend
// needs; such a send goes to the audit tier.

// StoppedBySender says why the receiver r has not stopped when send runs,
// or returns "": everything that can stop r (Stoppers) is a close of a
// channel kept in a field; every one of those closes runs on one
// goroutine, started only by go statements of one function, none in a
// loop, and that goroutine reaches no chain of calls to the send after
// any of the closes; and every other way the send runs is a call made in
// the starting function before any of its go statements, which also
// makes the channel sent on and the ones closed: each run of that
// goroutine stops the receiver of its own channels.
func (x *Index) StoppedBySender(r Site, send ssa.Instruction, ch ssa.Value) string {
	closes, ok := x.stopCloses(r)
	if !ok || len(closes) == 0 {
		return ""
	}
	g := x.closingGoroutine(closes)
	if g == nil {
		return ""
	}
	starts, ok := x.onlyGoStarts(g)
	if !ok || !x.madeIn(starts[0].Parent(), ch, closes) {
		return ""
	}
	chain := map[ssa.Instruction]bool{send: true}
	if !x.onOrBefore(send.Parent(), g, starts, chain, make(map[*ssa.Function]bool), 0) {
		return ""
	}
	for _, c := range closes {
		if !x.nothingAfter(c, g, chain, 0) {
			return ""
		}
	}
	return "its receiver " + funcName(r.Func) + " is stopped only by " + funcName(g) +
		", which makes this send and does not reach it after the stop"
}

// stopCloses returns the closes that can make r stop (Stoppers), when
// nothing else can: no send on a stop channel, no request, no cancel.
func (x *Index) stopCloses(r Site) ([]ssa.CallInstruction, bool) {
	stops, ok := x.Stoppers(r)
	if !ok {
		return nil, false
	}
	closes := make([]ssa.CallInstruction, 0, len(stops))
	for _, s := range stops {
		c, ok := s.(ssa.CallInstruction)
		if !ok || !isClose(c) {
			return nil, false
		}
		closes = append(closes, c)
	}
	return closes, true
}

// onlyField returns the field that every origin but nil is, or nil.
func onlyField(origins []Origin) *types.Var {
	var f *types.Var
	for _, o := range origins {
		switch {
		case o.Kind == Nil:
		case o.Kind != Field || o.Field == nil || f != nil && o.Field != f:
			return nil
		default:
			f = o.Field
		}
	}
	return f
}

// allCloses returns every close of a channel held in f, plain, deferred or
// on a goroutine of its own; f is kept in place, so these are all.
func (x *Index) allCloses(f *types.Var) []ssa.CallInstruction {
	if out, ok := x.everyClose[f]; ok {
		return out
	}
	if x.everyClose == nil {
		x.everyClose = make(map[*types.Var][]ssa.CallInstruction)
	}
	out := x.scanCloses(f)
	x.everyClose[f] = out
	return out
}

func (x *Index) scanCloses(f *types.Var) []ssa.CallInstruction {
	var out []ssa.CallInstruction
	for _, fn := range x.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if isClose(call) && x.fromField(call.Common().Args[0], f) {
					out = append(out, call)
				}
			}
		}
	}
	return out
}

// closingGoroutine returns the function of the one goroutine on which
// every one of closes runs, or nil.
func (x *Index) closingGoroutine(closes []ssa.CallInstruction) *ssa.Function {
	var g *ssa.Function
	for _, c := range closes {
		if _, isGo := c.(*ssa.Go); isGo {
			return nil // go close(ch) runs on a goroutine of its own
		}
		for _, rt := range x.senderRoots(c.Parent(), 0, make(map[*ssa.Function]bool)) {
			if _, isGo := rt.start.(*ssa.Go); !isGo || g != nil && rt.entry != g {
				return nil
			}
			g = rt.entry
		}
	}
	return g
}

// madeIn reports whether every channel ch and the closes' arguments may
// be is held in a field whose every make is in fn.
func (x *Index) madeIn(fn *ssa.Function, ch ssa.Value, closes []ssa.CallInstruction) bool {
	vals := []ssa.Value{ch}
	for _, c := range closes {
		vals = append(vals, c.Common().Args[0])
	}
	for _, v := range vals {
		f := onlyField(x.Origins(v))
		makes := x.FieldMakes(f)
		if f == nil || len(makes) == 0 {
			return false
		}
		for _, mk := range makes {
			if mk.Parent() != fn {
				return false
			}
		}
	}
	return true
}

// onlyGoStarts returns the go statements that start g, when g runs in no
// other way, all of them lie in one function, and none is in a loop: each
// run of that function starts one goroutine of g.
func (x *Index) onlyGoStarts(g *ssa.Function) ([]*ssa.Go, bool) {
	entries, ok := x.entries(g)
	if !ok || len(entries) == 0 {
		return nil, false
	}
	var starts []*ssa.Go
	for _, e := range entries {
		start, isGo := e.(*ssa.Go)
		if !isGo || !startsFn(start, g) || e.Parent() != entries[0].Parent() || flow.Reaches(e, e) {
			return nil, false
		}
		starts = append(starts, start)
	}
	return starts, true
}

// onOrBefore reports whether fn runs only on the goroutine g, or through a
// call that the function starting g makes before any of its go statements
// of g. It adds every call site it passes through to chain.
func (x *Index) onOrBefore(fn, g *ssa.Function, starts []*ssa.Go, chain map[ssa.Instruction]bool, seen map[*ssa.Function]bool, depth int) bool {
	if fn == g || seen[fn] {
		return true
	}
	seen[fn] = true
	if depth > maxOnceDepth {
		return false
	}
	sites, ok := x.syncCallers(fn)
	if !ok || len(sites) == 0 {
		return false
	}
	for _, c := range sites {
		if InTestFile(c) {
			continue // a test's direct call says nothing of the shipped program
		}
		chain[c] = true
		if _, isCall := c.(*ssa.Call); !isCall {
			return false // another goroutine, or a deferred call
		}
		if c.Parent() == starts[0].Parent() {
			if !beforeAll(c, starts) {
				return false
			}
			continue
		}
		if !x.onOrBefore(c.Parent(), g, starts, chain, seen, depth+1) {
			return false
		}
	}
	return true
}

// beforeAll reports whether no path leads from any of starts to c.
func beforeAll(c ssa.Instruction, starts []*ssa.Go) bool {
	for _, s := range starts {
		if flow.Reaches(s, c) {
			return false
		}
	}
	return true
}

// nothingAfter reports whether, once instr has run on the goroutine g, g
// reaches none of chain (the send, or a call leading to it): not in
// instr's function, nor in any caller after its call, up to g.
func (x *Index) nothingAfter(instr ssa.Instruction, g *ssa.Function, chain map[ssa.Instruction]bool, depth int) bool {
	for c := range chain {
		if c.Parent() == instr.Parent() && flow.Reaches(instr, c) {
			return false
		}
	}
	fn := instr.Parent()
	if fn == g {
		return true
	}
	sites, ok := x.syncCallers(fn)
	if !ok || len(sites) == 0 || depth > maxOnceDepth {
		return false
	}
	for _, c := range sites {
		if _, isCall := c.(*ssa.Call); !isCall || !x.nothingAfter(c, g, chain, depth+1) {
			return false
		}
	}
	return true
}
