package chans

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// StartedPerSlot reports whether field f holds a channel made with room
// for one value from each goroutine its maker starts to fill it, and
// returns that make:
//
//	s.errors = make(chan error, len(s.copyFuncs))
//	for _, fn := range s.copyFuncs {
//		go func(fn func() error) { s.errors <- fn() }(fn)
//	}
//
// The field's one store in the package is that make; every send on f is
// in one function, started only by one go statement of the maker, in a
// loop of its own that the capacity bounds (a range over the slice whose
// len it is, i < n), after the store; and that function sends at most
// once per run for each value of room per trip (k*n holds k from each).
//
// What it does not show is that the maker runs once for each value that
// holds the field: run again, it stores a new channel, and a goroutine of
// the first run that sends late sends into the second run's buffer. So
// the send is not quiet, but its proof is not complete either.
func (x *Index) StartedPerSlot(f *types.Var) (*ssa.MakeChan, bool) {
	stores := x.fieldSts[f]
	if len(stores) != 1 {
		return nil, false
	}
	st := stores[0]
	mk, ok := st.Val.(*ssa.MakeChan)
	if !ok {
		return nil, false
	}
	sender, weights, ok := x.oneSender(f)
	if !ok || sender == st.Parent() {
		return nil, false
	}
	start, ok := x.startedOnlyBy(sender, st.Parent())
	if !ok || !before(st, start) {
		return nil, false
	}
	bound, k := scaled(mk.Size)
	loops := x.Loops(st.Parent())
	l := loops.Innermost(start.Block())
	if l == nil || loops.Depth(start.Block()) > 1 || l.Blocks[mk.Block()] || !boundedBy(l, bound) {
		return nil, false
	}
	own := x.Loops(sender)
	trips := func(b *ssa.BasicBlock) int { return own.Trips(b, nil, Many) }
	return mk, flow.MaxCount(sender, weights, trips, Many) <= k
}

// oneSender returns the one function that holds every send on field f in
// the package, each weighed one.
func (x *Index) oneSender(f *types.Var) (*ssa.Function, map[ssa.Instruction]int, bool) {
	var sender *ssa.Function
	weights := make(map[ssa.Instruction]int)
	ok := true
	x.sendsOnField(f, func(instr ssa.Instruction, _ ssa.Value) {
		if sender != nil && instr.Parent() != sender {
			ok = false
		}
		sender = instr.Parent()
		weights[instr] = 1
	})
	return sender, weights, ok && sender != nil
}

// startedOnlyBy returns the go statement of owner that is fn's one way to
// run.
func (x *Index) startedOnlyBy(fn, owner *ssa.Function) (*ssa.Go, bool) {
	entries, ok := x.entries(fn)
	if !ok || len(entries) != 1 {
		return nil, false
	}
	g, ok := entries[0].(*ssa.Go)
	return g, ok && g.Parent() == owner
}
