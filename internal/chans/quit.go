package chans

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// StopsOnTake reports whether the receiver r of ch, a channel of reply
// channels, stops only once it has taken a request from it: every path of
// its function to a return passes one of its receives of ch (recvs). Such
// a channel is a stop request, each sender waiting on the channel it sends
// for the answer:
//
//	func (db *DB) Close() error {
//		errc := make(chan error)
//		db.quit <- errc          // the receiver is there to take it
//		return <-errc
//	}
//
//	func (db *DB) meter() {
//		var errc chan error
//		for errc == nil && err == nil {
//			select {
//			case errc = <-db.quit:   // the request ends the loop
//			case <-timer.C:
//			}
//		}
//		if errc == nil {
//			errc = <-db.quit         // an error ended it: wait for the request
//		}
//		errc <- err
//	}
//
// The receiver is never gone before it took a request, so it is not gone
// while the first is on its way: only a request after the one that
// stopped it (a second Close) finds no one. A channel of other values may
// carry the stop request among the data it is there for, and a value sent
// after that request is stranded: it is not this shape.
func (x *Index) StopsOnTake(r Site, ch ssa.Value, recvs []Site) bool {
	if !carriesReplies(ch) {
		return false
	}
	fn := r.Func
	takes := make(map[ssa.Instruction]bool)
	selects := make(map[*ssa.Select]bool)
	edges := make(map[flow.Edge]int)
	for _, s := range recvs {
		if s.Func != fn {
			continue
		}
		if sel, ok := s.Instr.(*ssa.Select); ok {
			e, ok := CaseEdge(sel, s.State)
			if !ok {
				return false
			}
			edges[e] = 1
			selects[sel] = true
			continue
		}
		takes[s.Instr] = true
	}
	for e := range sentinelTakes(fn, recvs) {
		edges[e] = 1
	}
	taken := func(v ssa.Value) bool {
		switch v := v.(type) {
		case *ssa.UnOp:
			return takes[v]
		case *ssa.Extract:
			if recv, ok := v.Tuple.(*ssa.UnOp); ok {
				return takes[recv]
			}
			sel, ok := v.Tuple.(*ssa.Select)
			return ok && v.Index >= 2 && selects[sel]
		}
		return false
	}
	return flow.MinCountTaking(fn.Blocks[0], -1, takes, edges, taken) >= 1
}

// sentinelTakes returns the edges of fn that a request was taken on the
// way to: the branch where the error a call returned is a sentinel that
// the callee, a function of this package, returns only after it took a
// request itself (see takesBeforeReturning):
//
//	newhead, err := s.sync(head)
//	switch {
//	case err == errTerminated:   // sync took the request and answered it
//		return
//	...
func sentinelTakes(fn *ssa.Function, recvs []Site) map[flow.Edge]bool {
	var out map[flow.Edge]bool
	for _, b := range fn.Blocks {
		cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := cond.Cond.(*ssa.BinOp)
		if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
			continue
		}
		call, i, g := sentinelTest(cmp)
		if call == nil {
			continue
		}
		callee := call.Call.StaticCallee()
		if callee == nil || callee.Pkg != fn.Pkg || !takesBeforeReturning(callee, i, g, recvs) {
			continue
		}
		to := b.Succs[0]
		if cmp.Op == token.NEQ {
			to = b.Succs[1]
		}
		if out == nil {
			out = make(map[flow.Edge]bool)
		}
		out[flow.Edge{From: b, To: to}] = true
	}
	return out
}

// sentinelTest reads err == sentinel, either way round: the call whose
// result err is, its index among the call's results, and the sentinel
// variable.
func sentinelTest(cmp *ssa.BinOp) (*ssa.Call, int, *ssa.Global) {
	for _, pair := range [][2]ssa.Value{{cmp.X, cmp.Y}, {cmp.Y, cmp.X}} {
		g := loadedGlobal(pair[1])
		if g == nil {
			continue
		}
		switch v := pair[0].(type) {
		case *ssa.Extract:
			if call, ok := v.Tuple.(*ssa.Call); ok {
				return call, v.Index, g
			}
		case *ssa.Call:
			return v, 0, g
		}
	}
	return nil, 0, nil
}

// loadedGlobal returns the package variable v loads, or nil.
func loadedGlobal(v ssa.Value) *ssa.Global {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		g, _ := load.X.(*ssa.Global)
		return g
	}
	return nil
}

// takesBeforeReturning reports whether fn returns the sentinel g as its
// i-th result only after it took a request: every return that may give g
// there is reached only through a case of a select that receives from
// the channel (one of recvs), or after a plain receive from it; the other
// returns give constants or other package variables, which are not g.
// A result fn got from elsewhere (a call, a parameter, a named result a
// deferred function may change) could be g by another way, and fails the
// proof.
func takesBeforeReturning(fn *ssa.Function, i int, g *ssa.Global, recvs []Site) bool {
	var takes []*ssa.BasicBlock
	for _, s := range recvs {
		if s.Func != fn {
			continue
		}
		if sel, ok := s.Instr.(*ssa.Select); ok {
			if e, ok := CaseEdge(sel, s.State); ok && len(e.To.Preds) == 1 {
				takes = append(takes, e.To)
			}
			continue
		}
		if s.Instr.Block() != nil {
			takes = append(takes, s.Instr.Block())
		}
	}
	returnsG := false
	for _, r := range resultsAt(fn, i) {
		switch v := r.v.(type) {
		case *ssa.Const:
			continue
		case *ssa.UnOp:
			if lg := loadedGlobal(v); lg == nil {
				return false
			} else if lg != g {
				continue
			}
		default:
			return false
		}
		if !slices.ContainsFunc(takes, func(t *ssa.BasicBlock) bool { return t.Dominates(r.at.Block()) }) {
			return false
		}
		returnsG = true
	}
	return returnsG
}

// result is a value a function returns and the instruction that fixes
// it: the return, or the store into the result's variable.
type result struct {
	v  ssa.Value
	at ssa.Instruction
}

// resultsAt returns what fn can return as its i-th result. A function
// that defers keeps its results in variables that its returns load
// (t = *result), each return statement storing into them first: the
// values are those stores', as long as nothing but stores and loads
// touches the variable (no deferred closure that could change it).
func resultsAt(fn *ssa.Function, i int) []result {
	var out []result
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || i >= len(ret.Results) {
			continue
		}
		v := ret.Results[i]
		load, ok := v.(*ssa.UnOp)
		cell, isCell := (*ssa.Alloc)(nil), false
		if ok && load.Op == token.MUL {
			cell, isCell = load.X.(*ssa.Alloc)
		}
		if !isCell {
			out = append(out, result{v, ret})
			continue
		}
		for _, ref := range *cell.Referrers() {
			switch ref := ref.(type) {
			case *ssa.Store:
				out = append(out, result{ref.Val, ref})
			case *ssa.UnOp, *ssa.DebugRef:
			default:
				return append(out, result{v, ret}) // the variable escapes: unknown
			}
		}
	}
	return out
}

// carriesReplies reports whether ch is a channel of channels.
func carriesReplies(ch ssa.Value) bool {
	c, ok := ch.Type().Underlying().(*types.Chan)
	if !ok {
		return false
	}
	_, ok = c.Elem().Underlying().(*types.Chan)
	return ok
}
