package chans

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// A Restart is the proof that a receiver which runs again after it stops
// can stay gone for a channel: the function that stops it starts it again
// only on some of its paths (StopsUnlessRestarted).
type Restart struct {
	Stop  *types.Var      // the stop channel the receiver gives up on
	Close ssa.Instruction // where Closer closes it, or calls what does
	// Closer is the one function that starts the receiver again, and
	// Return a return it reaches from Close without doing so.
	Closer *ssa.Function
	Return *ssa.Return
	Again  ssa.CallInstruction // a start of the receiver Closer can skip
}

// StopsUnlessRestarted reports whether the receiver r, which gives up on
// a stop channel and may then run again, can stop for good for the
// channel it receives from: a connection's writer that stops when the
// connection is lost, and is started again by a reconnect that runs only
// when reconnecting is switched on.
//
//	func (c *client) connLost() {
//		close(c.stop)          // the writer returns on <-c.stop
//		if c.opts.AutoReconnect {
//			go c.reconnect() // starts the writer again, same c.out
//		}
//	}
//
// r's function is started by go statements only, and nothing else uses
// it. Each start is either a first run, in the function that made the
// channel (or a closure inside it), or a restart: in the closer itself,
// or in an unexported function whose every call is in the closer. The
// closer closes a stop channel r gives up on (the package closes it and
// sends nothing on it), itself or through a function it calls, and from
// there can return without passing a restart. After such a run r has
// returned and nothing starts it again for this channel; a start that
// makes a new channel serves only senders that load the new one.
func (x *Index) StopsUnlessRestarted(r Site, makes []*ssa.MakeChan) (Restart, bool) {
	if len(makes) == 0 {
		return Restart{}, false
	}
	starts, ok := x.callers(r.Func)
	if !ok || len(starts) == 0 {
		return Restart{}, false
	}
	var stops []*types.Var
	for _, f := range x.stopCases(r) {
		if x.stopField(f) {
			stops = append(stops, f)
		}
	}
	var closer *ssa.Function
	var again []ssa.CallInstruction
	var skip []ssa.Instruction // the restarts as the closer sees them
	for _, s := range starts {
		if _, isGo := s.(*ssa.Go); !isGo {
			return Restart{}, false
		}
		if madeAround(s.Parent(), makes) {
			continue // a first run, for the channel just made
		}
		c, via, ok := x.restartedBy(s, stops)
		if !ok || closer != nil && c != closer {
			return Restart{}, false
		}
		closer = c
		again = append(again, s)
		skip = append(skip, via...)
	}
	if closer == nil {
		return Restart{}, false
	}
	for _, f := range stops {
		for _, k := range x.stopsIn(closer, f) {
			if ret := returnAvoiding(k, skip); ret != nil {
				return Restart{Stop: f, Close: k, Closer: closer, Return: ret, Again: again[0]}, true
			}
		}
	}
	return Restart{}, false
}

// restartedBy returns the function that closes one of stops and restarts
// the receiver through the start s, and the instructions of it that do:
// s itself, when its own function closes a stop channel, or else that
// function's calls, when they are all in sight and in one function.
func (x *Index) restartedBy(s ssa.CallInstruction, stops []*types.Var) (*ssa.Function, []ssa.Instruction, bool) {
	fn := s.Parent()
	for _, f := range stops {
		if len(x.stopsIn(fn, f)) > 0 {
			return fn, []ssa.Instruction{s}, true
		}
	}
	c, ok := x.soleCaller(fn)
	if !ok {
		return nil, nil, false
	}
	calls, _ := x.callers(fn)
	via := make([]ssa.Instruction, len(calls))
	for i, call := range calls {
		via[i] = call
	}
	return c, via, true
}

// madeAround reports whether fn made one of makes, or is a closure inside
// a function that did.
func madeAround(fn *ssa.Function, makes []*ssa.MakeChan) bool {
	for ; fn != nil; fn = fn.Parent() {
		if madeBy(fn, makes) {
			return true
		}
	}
	return false
}

// soleCaller returns the one function that calls or starts fn, when fn's
// every call is in sight and in that function.
func (x *Index) soleCaller(fn *ssa.Function) (*ssa.Function, bool) {
	calls, ok := x.callers(fn)
	if !ok || len(calls) == 0 {
		return nil, false
	}
	c := calls[0].Parent()
	for _, call := range calls[1:] {
		if call.Parent() != c {
			return nil, false
		}
	}
	return c, c != fn
}

// stopsIn returns the instructions of fn that close a channel held in f:
// a close of it, or a static call of a function that makes one.
func (x *Index) stopsIn(fn *ssa.Function, f *types.Var) []ssa.Instruction {
	closers := make(map[*ssa.Function]bool)
	var out []ssa.Instruction
	for _, c := range x.closesOf(f) {
		if c.Parent() == fn {
			out = append(out, c)
		}
		closers[c.Parent()] = true
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok && closers[call.Call.StaticCallee()] {
				out = append(out, call)
			}
		}
	}
	return out
}

// returnAvoiding returns a return of from's function that some path from
// from reaches without passing any of avoid (the first such in block
// order); nil when every path passes one, or none returns.
func returnAvoiding(from ssa.Instruction, avoid []ssa.Instruction) *ssa.Return {
	start := from.Block()
	for _, instr := range start.Instrs[flow.IndexOf(from)+1:] {
		if slices.Contains(avoid, instr) {
			return nil
		}
		if ret, ok := instr.(*ssa.Return); ok {
			return ret
		}
	}
	blocked := map[*ssa.BasicBlock]bool{start: true} // its head comes before from
	for _, a := range avoid {
		blocked[a.Block()] = true
	}
	open := func(b *ssa.BasicBlock) []*ssa.BasicBlock {
		return slices.DeleteFunc(slices.Clone(b.Succs), func(s *ssa.BasicBlock) bool { return blocked[s] })
	}
	reached := reachableFrom(open(start), open)
	for _, b := range start.Parent().Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && reached[b] {
			return ret
		}
	}
	return nil
}
