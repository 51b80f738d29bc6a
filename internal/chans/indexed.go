package chans

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// coveredByIndex proves make(chan T, n) whose one send site, in the one
// run that sends (runsOnce), follows an index into a slice of length n by
// a counter that grows between any two runs of the send:
//
//	results := make(chan error, len(headers))
//	go func() {
//		errs, done, out := make([]error, len(headers)), make([]bool, len(headers)), 0
//		for {
//			for ; done[out]; out++ {
//				results <- errs[out]
//				...
//
// errs[out] panics unless out < n, and out is larger at each send than at
// the one before, so the run sends at most n values: one per index. A
// counter that only grows is a value of the phis and steps (c + k, k > 0)
// it is made of, each of which reads the latest of them (no other of them
// runs in between) and none of which starts again from outside them
// between two sends.
func (x *Index) coveredByIndex(u *Uses) bool {
	if len(u.Sends) != 1 {
		return false
	}
	s := u.Sends[0]
	send, ok := s.Instr.(*ssa.Send)
	if !ok || !x.runsOnce(u, s) {
		return false
	}
	for _, instr := range send.Block().Instrs[:flow.IndexOf(send)] {
		c, n := indexedBy(instr)
		if c != nil && SameValue(n, u.Make.Size) && growsBetween(c, send) {
			return true
		}
	}
	return false
}

// indexedBy returns the index of a slice or array element instr takes the
// address of, with the length the index must be below.
func indexedBy(instr ssa.Instruction) (index, length ssa.Value) {
	ia, ok := instr.(*ssa.IndexAddr)
	if !ok {
		return nil, nil
	}
	if n := lengthOf(ia.X); n != nil {
		return ia.Index, n
	}
	return nil, nil
}

// lengthOf returns the length of a slice made with make, or of an array
// a pointer points to, or nil.
func lengthOf(v ssa.Value) ssa.Value {
	switch v := v.(type) {
	case *ssa.MakeSlice:
		return v.Len
	case *ssa.Slice:
		if v.Low == nil && v.High == nil {
			return lengthOf(v.X)
		}
	}
	if p, ok := v.Type().Underlying().(*types.Pointer); ok {
		if a, ok := p.Elem().Underlying().(*types.Array); ok {
			return ssa.NewConst(constant.MakeInt64(a.Len()), types.Typ[types.Int])
		}
	}
	return nil
}

// maxCounterParts bounds the phis and steps of one counter: a loop
// counter has a few.
const maxCounterParts = 16

// A counter is the phis and steps one growing value is made of.
type counter struct {
	members map[ssa.Value]bool
	inits   []ssa.Instruction // the ends of the blocks that enter a phi from outside
}

// counterOf collects the phis and steps c is made of, or reports that c is
// made of something else.
func counterOf(c ssa.Value) (*counter, bool) {
	k := &counter{members: make(map[ssa.Value]bool)}
	work := []ssa.Value{c}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		if k.members[v] {
			continue
		}
		if !isCounterPart(v) || v.Parent() != c.Parent() || len(k.members) == maxCounterParts {
			return nil, false
		}
		k.members[v] = true
		switch v := v.(type) {
		case *ssa.Phi:
			for i, e := range v.Edges {
				if isCounterPart(e) {
					work = append(work, e)
					continue
				}
				k.inits = append(k.inits, lastInstr(v.Block().Preds[i]))
			}
		case *ssa.BinOp:
			work = append(work, v.X)
		}
	}
	return k, true
}

// isCounterPart reports whether v is a phi or a step up of another value
// by a positive constant.
func isCounterPart(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Phi:
		return true
	case *ssa.BinOp:
		k, ok := v.Y.(*ssa.Const)
		return v.Op == token.ADD && ok && k.Value != nil && k.Value.Kind() == constant.Int &&
			constant.Sign(k.Value) > 0 && isCounterPart(v.X)
	}
	return false
}

// growsBetween reports whether c, at send, is larger at each run of send
// than at the one before it in the same run of its function.
func growsBetween(c ssa.Value, send *ssa.Send) bool {
	k, ok := counterOf(c)
	if !ok {
		return false
	}
	for _, in := range k.inits {
		if flow.Reaches(send, in) {
			return false // the counter may start again between two sends
		}
	}
	isStep := func(i ssa.Instruction) bool {
		b, ok := i.(*ssa.BinOp)
		return ok && k.members[b]
	}
	if reachesAvoiding(send, send, isStep) {
		return false // a way back to the send that does not step
	}
	if !k.readsLatest(c, send) {
		return false
	}
	for v := range k.members {
		switch v := v.(type) {
		case *ssa.Phi:
			for i, e := range v.Edges {
				if k.members[e] && !k.readsLatest(e, lastInstr(v.Block().Preds[i])) {
					return false
				}
			}
		case *ssa.BinOp:
			if !k.readsLatest(v.X, v) {
				return false
			}
		}
	}
	return true
}

// readsLatest reports whether no other part of the counter can run
// between w and at: at reads the latest value of the counter when it
// reads w. Phis of one block count in their order, so a counter with two
// in one block, which take their values at once, fails on the first.
func (k *counter) readsLatest(w ssa.Value, at ssa.Instruction) bool {
	def := w.(ssa.Instruction)
	isW := func(i ssa.Instruction) bool { return i == def }
	for v := range k.members {
		other := v.(ssa.Instruction)
		if v == w || other == at {
			continue
		}
		if reachesAvoiding(def, other, isW) && reachesAvoiding(other, at, isW) {
			return false
		}
	}
	return true
}

func lastInstr(b *ssa.BasicBlock) ssa.Instruction { return b.Instrs[len(b.Instrs)-1] }

// reachesAvoiding reports whether control leaving from can get to to
// without running an instruction stop reports; to may be from itself.
func reachesAvoiding(from, to ssa.Instruction, stop func(ssa.Instruction) bool) bool {
	type pos struct {
		b *ssa.BasicBlock
		i int
	}
	seen := make(map[*ssa.BasicBlock]bool)
	work := []pos{{from.Block(), flow.IndexOf(from) + 1}}
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		blocked := false
		for _, instr := range p.b.Instrs[p.i:] {
			if instr == to {
				return true
			}
			if stop(instr) {
				blocked = true
				break
			}
		}
		if blocked {
			continue
		}
		for _, s := range p.b.Succs {
			if !seen[s] {
				seen[s] = true
				work = append(work, pos{s, 0})
			}
		}
	}
	return false
}
