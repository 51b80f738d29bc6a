package chans

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// A CountedDrain is the loop a receiver runs on its way out once it has
// given up: it takes one value from the channel on every trip, and leaves
// only when it has walked, or emptied, the collection it keeps its
// senders in.
//
//	case <-srv.quit:
//		break running
//	}
//	...
//	for len(peers) > 0 { // one entry per peer goroutine started
//		p := <-srv.delpeer
//		delete(peers, p.ID())
//	}
//	return
//
// The pass cannot tell that every sender is in the collection; the code
// says that is what it is for.
type CountedDrain struct {
	Recv    *ssa.UnOp
	Of      string // the collection, as the source names it ("" when it cannot)
	Counter bool   // Of names a counter of senders, not a collection
}

// DrainsCounted returns the counted drain that r's function runs on every
// way out after r's select gave up, if there is one.
func (x *Index) DrainsCounted(r Site) (CountedDrain, bool) {
	sel, ok := r.Instr.(*ssa.Select)
	if !ok {
		return CountedDrain{}, false
	}
	ch := sel.States[r.State].Chan
	loops := x.Loops(r.Func)
	for _, b := range r.Func.Blocks {
		for _, instr := range b.Instrs {
			recv, ok := instr.(*ssa.UnOp)
			if !ok || recv.Op != token.ARROW || !SameValue(recv.X, ch) {
				continue
			}
			l := loops.Innermost(b)
			if l == nil || l.Blocks[sel.Block()] || !walksOnce(l, b) {
				continue
			}
			coll, counter, ok := walked(l)
			inDrain := func(i ssa.Instruction) bool { return i.Block() == l.Header }
			if !ok || !x.passesOnWayOut(r, sel, inDrain) {
				continue
			}
			if counter != "" {
				return CountedDrain{Recv: recv, Of: counter, Counter: true}, true
			}
			return CountedDrain{Recv: recv, Of: x.exprName(coll)}, true
		}
	}
	return CountedDrain{}, false
}

// walksOnce reports whether the loop's only exit is its header's test and
// b runs on every trip.
func walksOnce(l *flow.Loop, b *ssa.BasicBlock) bool {
	edges, returns := l.Exits()
	if len(returns) > 0 || len(edges) != 1 || edges[0][0] != l.Header {
		return false
	}
	for _, p := range l.Header.Preds {
		if l.Blocks[p] && !b.Dominates(p) {
			return false
		}
	}
	return true
}

// walked returns the position of the collection whose size ends loop l:
// a range over a map or slice, or a test of len(c) against zero; or the
// name of a counter the loop counts down to zero, one a trip (for ;
// active > 0; active-- { <-done }), which its function keeps as it keeps
// a collection of senders.
func walked(l *flow.Loop) (pos token.Pos, counter string, ok bool) {
	instrs := l.Header.Instrs
	cond, ok := instrs[len(instrs)-1].(*ssa.If)
	if !ok {
		return token.NoPos, "", false
	}
	switch c := cond.Cond.(type) {
	case *ssa.Extract: // range over a map: ok of next
		if next, ok := c.Tuple.(*ssa.Next); ok && c.Index == 0 && !next.IsString {
			return next.Iter.(*ssa.Range).Pos(), "", true
		}
	case *ssa.BinOp:
		switch {
		case c.Op == token.LSS && lenOf(c.Y) != nil: // range over a slice
			return lenOf(c.Y).Pos(), "", true
		case (c.Op == token.GTR || c.Op == token.NEQ) && lenOf(c.X) != nil && isZero(c.Y):
			return lenOf(c.X).Pos(), "", true
		case (c.Op == token.GTR || c.Op == token.NEQ) && isZero(c.Y):
			if phi, ok := c.X.(*ssa.Phi); ok && phi.Comment != "" && countsDown(l, phi) {
				return token.NoPos, phi.Comment, true
			}
		}
	}
	return token.NoPos, "", false
}

// countsDown reports whether phi, a variable of l's header, is one less
// on every way round l than it was on the trip before.
//
//	t5 = phi [2: t1, 4: t7] #active
//	t7 = t5 - 1:int
func countsDown(l *flow.Loop, phi *ssa.Phi) bool {
	if phi.Block() != l.Header {
		return false
	}
	round := false
	for i, p := range l.Header.Preds {
		if !l.Blocks[p] {
			continue
		}
		dec, ok := phi.Edges[i].(*ssa.BinOp)
		if !ok || dec.Op != token.SUB || dec.X != phi || !isOne(dec.Y) {
			return false
		}
		round = true
	}
	return round
}

// lenOf returns v when it is a call of the builtin len on a map or slice.
func lenOf(v ssa.Value) *ssa.Call {
	call, ok := v.(*ssa.Call)
	if !ok || !IsLen(call) {
		return nil
	}
	switch call.Call.Args[0].Type().Underlying().(type) {
	case *types.Map, *types.Slice:
		return call
	}
	return nil
}

// passesOnWayOut reports whether every path on which r's function leaves
// the select for good, once another case than r's is taken, meets an
// instruction of the drain before it returns.
func (x *Index) passesOnWayOut(r Site, sel *ssa.Select, inDrain func(ssa.Instruction) bool) bool {
	ours, _ := CaseEdge(sel, r.State)
	drained := drainedEdges(r.Func, sel.States[r.State].Chan)
	out := flow.Path{
		Stop:     func(i ssa.Instruction) bool { return i == sel || inDrain(i) },
		StopEdge: func(e flow.Edge) bool { return e == ours || drained[e] },
	}
	return !out.ReturnReachable(sel.Block(), flow.IndexOf(sel))
}

// exprName returns the source of the collection a drain walks: the
// operand of the len call whose parenthesis is at pos, or of the range
// statement at pos.
func (x *Index) exprName(pos token.Pos) string {
	var name string
	for _, f := range x.files {
		if pos < f.Pos() || pos > f.End() {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if n.Lparen == pos && len(n.Args) == 1 {
					name = types.ExprString(n.Args[0])
				}
			case *ast.RangeStmt:
				if n.For == pos || n.Range == pos {
					name = types.ExprString(n.X)
				}
			}
			return name == ""
		})
	}
	return name
}

// An AskingDrain is what a receiver runs on its way out once it has given
// up: a loop that keeps taking values from the channel until the goroutine
// that sends them takes its request to be let go.
//
//	func (sub *Subscription) Unsubscribe() {
//		for {
//			select {
//			case sub.es.uninstall <- sub.f: // the event loop, which sends on f.logs
//				return
//			case <-sub.f.logs: // a send the loop is blocked on is taken here
//			}
//		}
//	}
//
// While the request waits, every send the loop makes is taken; once the
// loop has it, a send blocks only if the loop sends on the channel again.
// Whether it does (it deletes the subscription from the set it sends to) is
// beyond the pass.
type AskingDrain struct {
	Recv  token.Pos     // the drain's receive case
	Ask   token.Pos     // the request's send case
	Taker *ssa.Function // the sender's function that receives the request
	Field *types.Var    // the field the request travels on
}

// maxDrainDepth bounds how deep AsksToStop looks for the drain below the
// receiver's function: the unsubscribe method, and the closure it hands to
// sync.Once.Do.
const maxDrainDepth = 3

// AsksToStop returns the asking drain r's function runs on every way out
// once r's select has given up, for the send instr on ch: the drain takes
// from a channel in the same field as ch, and its request is received by
// instr's function or one that calls it.
func (x *Index) AsksToStop(r Site, instr ssa.Instruction, ch ssa.Value) (AskingDrain, bool) {
	sel, ok := r.Instr.(*ssa.Select)
	if !ok {
		return AskingDrain{}, false
	}
	fields := chanFields(x.Origins(ch))
	if len(fields) == 0 {
		return AskingDrain{}, false
	}
	for _, b := range r.Func.Blocks {
		for _, i := range b.Instrs {
			call, ok := i.(ssa.CallInstruction)
			if !ok || !x.onWayOut(r, sel, call) {
				continue
			}
			for _, fn := range calledFuncs(call) {
				if d, ok := x.askingDrainIn(fn, fields, instr.Parent(), 1); ok {
					return d, true
				}
			}
		}
	}
	return AskingDrain{}, false
}

// onWayOut reports whether call runs on every way out of r's function once
// r's select has given up: a defer made before the select, or a call every
// such path passes.
func (x *Index) onWayOut(r Site, sel *ssa.Select, call ssa.CallInstruction) bool {
	if _, ok := call.(*ssa.Go); ok {
		return false
	}
	if d, ok := call.(*ssa.Defer); ok {
		return d.Block() != sel.Block() && d.Block().Dominates(sel.Block()) ||
			d.Block() == sel.Block() && flow.IndexOf(d) < flow.IndexOf(sel)
	}
	if !flow.Reaches(sel, call) {
		return false
	}
	return x.passesOnWayOut(r, sel, func(i ssa.Instruction) bool { return i == call })
}

// calledFuncs returns the function a call runs, and the function literals
// it hands its callee (sync.Once.Do's).
func calledFuncs(call ssa.CallInstruction) []*ssa.Function {
	var fns []*ssa.Function
	if fn := call.Common().StaticCallee(); fn != nil {
		fns = append(fns, fn)
	}
	for _, a := range call.Common().Args {
		if mc, ok := a.(*ssa.MakeClosure); ok {
			fns = append(fns, mc.Fn.(*ssa.Function))
		}
	}
	return fns
}

// askingDrainIn looks for the asking drain in fn and, to maxDrainDepth,
// in what it calls.
func (x *Index) askingDrainIn(fn *ssa.Function, fields []*types.Var, sender *ssa.Function, depth int) (AskingDrain, bool) {
	if fn.Blocks == nil || depth > maxDrainDepth {
		return AskingDrain{}, false
	}
	for _, b := range fn.Blocks {
		for _, i := range b.Instrs {
			switch i := i.(type) {
			case *ssa.Select:
				if d, ok := x.asksFrom(i, fields, sender); ok && alwaysMeets(fn, i) {
					return d, true
				}
			case ssa.CallInstruction:
				if _, ok := i.(*ssa.Go); ok || !alwaysMeets(fn, i) {
					continue
				}
				for _, callee := range calledFuncs(i) {
					if d, ok := x.askingDrainIn(callee, fields, sender, depth+1); ok {
						return d, true
					}
				}
			}
		}
	}
	return AskingDrain{}, false
}

// alwaysMeets reports whether every path through fn runs instr.
func alwaysMeets(fn *ssa.Function, instr ssa.Instruction) bool {
	p := flow.Path{Stop: func(i ssa.Instruction) bool { return i == instr }}
	return !p.ReturnReachable(fn.Blocks[0], -1)
}

// asksFrom reports whether sel, in a loop, receives from one of fields
// and sends a request that sender's goroutine receives, and the loop ends
// only once the request is taken.
func (x *Index) asksFrom(sel *ssa.Select, fields []*types.Var, sender *ssa.Function) (AskingDrain, bool) {
	l := x.Loops(sel.Parent()).Innermost(sel.Block())
	if l == nil || !sel.Blocking {
		return AskingDrain{}, false
	}
	var d AskingDrain
	ask := -1
	for k, st := range sel.States {
		switch {
		case st.Dir == types.SendOnly:
			if ask >= 0 {
				return AskingDrain{}, false
			}
			ask = k
		case d.Recv == token.NoPos && hasField(chanFields(x.Origins(st.Chan)), fields):
			d.Recv = st.Pos
		}
	}
	if ask < 0 || d.Recv == token.NoPos || !onlyExit(l, sel, ask) {
		return AskingDrain{}, false
	}
	d.Ask = sel.States[ask].Pos
	for _, f := range chanFields(x.Origins(sel.States[ask].Chan)) {
		if taker := x.receivesField(sender, f, 0); taker != nil {
			d.Taker, d.Field = taker, f
			return d, true
		}
	}
	return AskingDrain{}, false
}

// onlyExit reports whether every way out of loop l goes through case k of
// sel.
func onlyExit(l *flow.Loop, sel *ssa.Select, k int) bool {
	e, ok := CaseEdge(sel, k)
	if !ok {
		return false
	}
	edges, returns := l.Exits()
	for _, ed := range edges {
		if (flow.Edge{From: ed[0], To: ed[1]}) != e && !e.To.Dominates(ed[0]) && !panics(ed[1]) {
			return false
		}
	}
	for _, b := range returns {
		if !e.To.Dominates(b) {
			return false
		}
	}
	return len(edges)+len(returns) > 0
}

// panics reports whether b ends in a panic: a select that matched no
// case, an index out of range.
func panics(b *ssa.BasicBlock) bool {
	_, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Panic)
	return ok
}

// receivesField returns fn, or a function of this package that calls it
// (to maxDrainDepth), when it receives from a channel kept in field f.
func (x *Index) receivesField(fn *ssa.Function, f *types.Var, depth int) *ssa.Function {
	if depth > maxDrainDepth {
		return nil
	}
	if slices.ContainsFunc(x.fieldRecvs()[f], func(r Site) bool { return r.Func == fn }) {
		return fn
	}
	for _, call := range x.calls[fn] {
		if taker := x.receivesField(call.Parent(), f, depth+1); taker != nil {
			return taker
		}
	}
	return nil
}

// chanFields returns the fields among origins.
func chanFields(origins []Origin) []*types.Var {
	var fs []*types.Var
	for _, o := range origins {
		if o.Kind == Field && o.Field != nil {
			fs = append(fs, o.Field)
		}
	}
	return fs
}

func hasField(fs, of []*types.Var) bool {
	for _, f := range fs {
		if slices.Contains(of, f) {
			return true
		}
	}
	return false
}

// A LastDrain is what a receiver runs on its way out: a loop that takes
// values from the channel until it takes the sender's last, a value on a
// channel the sender sends on only right before it returns.
//
//	defer func() {
//		if reading {
//			c.drainRead() // for { select { case <-c.readOp: case <-c.readErr: return } }
//		}
//	}()
//
//	func (c *Client) read() {
//		for {
//			msg, err := c.codec.read()
//			if err != nil {
//				c.readErr <- err // the last: read returns next
//				return
//			}
//			c.readOp <- msg
//		}
//	}
//
// While the drain runs, every send the sender makes is taken, the last
// included. Whether it runs on every way out while a sender lives (the
// flag reading above) is beyond the pass.
type LastDrain struct {
	Drainer *ssa.Function // the function whose loop drains
	Call    token.Pos     // where the receiver's way out runs it
	Last    *types.Var    // the field of the sender's last value
}

// DrainsToLast returns the last-value drain that r's function runs on its
// way out (a function it defers, or one that function calls) for the send
// instr on ch: the drain's loop, blocking, receives from a channel in the
// same field as ch and leaves only through a case that receives the last
// value of instr's function, which sends nothing after it.
func (x *Index) DrainsToLast(r Site, instr ssa.Instruction, ch ssa.Value) (LastDrain, bool) {
	sel, ok := r.Instr.(*ssa.Select)
	if !ok {
		return LastDrain{}, false
	}
	fields := chanFields(x.Origins(ch))
	if len(fields) == 0 {
		return LastDrain{}, false
	}
	for _, b := range r.Func.Blocks {
		for _, i := range b.Instrs {
			call, ok := i.(*ssa.Defer)
			if !ok || !x.onWayOut(r, sel, call) {
				continue
			}
			for _, fn := range calledFuncs(call) {
				if d, ok := x.lastDrainIn(fn, fields, instr.Parent(), 1); ok {
					if d.Call == token.NoPos {
						d.Call = call.Pos()
					}
					return d, true
				}
			}
		}
	}
	return LastDrain{}, false
}

// lastDrainIn looks for the last-value drain in fn and, to maxDrainDepth,
// in what it calls, on any of its paths.
func (x *Index) lastDrainIn(fn *ssa.Function, fields []*types.Var, sender *ssa.Function, depth int) (LastDrain, bool) {
	if fn.Blocks == nil || depth > maxDrainDepth {
		return LastDrain{}, false
	}
	for _, b := range fn.Blocks {
		for _, i := range b.Instrs {
			switch i := i.(type) {
			case *ssa.Select:
				if last, ok := x.drainsUntilLast(i, fields, sender); ok {
					return LastDrain{Drainer: fn, Last: last}, true
				}
			case *ssa.Call:
				for _, callee := range calledFuncs(i) {
					if d, ok := x.lastDrainIn(callee, fields, sender, depth+1); ok {
						if depth == 1 {
							d.Call = i.Pos()
						}
						return d, true
					}
				}
			}
		}
	}
	return LastDrain{}, false
}

// drainsUntilLast reports whether sel, blocking and in a loop, receives in
// every case, one of them from fields, and leaves the loop only through a
// case that receives from a field on which sender makes only its last
// sends; it returns that field.
func (x *Index) drainsUntilLast(sel *ssa.Select, fields []*types.Var, sender *ssa.Function) (*types.Var, bool) {
	l := x.Loops(sel.Parent()).Innermost(sel.Block())
	if l == nil || !sel.Blocking {
		return nil, false
	}
	drains := false
	var last *types.Var
	for k, st := range sel.States {
		if st.Dir != types.RecvOnly {
			return nil, false
		}
		fs := chanFields(x.Origins(st.Chan))
		drains = drains || hasField(fs, fields)
		if last != nil || !leavesOnlyThrough(sel, k) {
			continue
		}
		for _, f := range fs {
			if x.sendsLastOn(sender, f) {
				last = f
			}
		}
	}
	return last, drains && last != nil
}

// leavesOnlyThrough reports whether every way from sel to a return of
// its function passes through case k: the loop around sel goes on after
// every other case.
func leavesOnlyThrough(sel *ssa.Select, k int) bool {
	e, ok := CaseEdge(sel, k)
	if !ok {
		return false
	}
	p := flow.Path{StopEdge: func(x flow.Edge) bool { return x == e }}
	return !p.ReturnReachable(sel.Block(), flow.IndexOf(sel))
}

// sendsLastOn reports whether fn sends on field f, and each such send is
// its last: no send of fn on any channel, and no call of a function of
// this package, which could send for it, can follow it.
func (x *Index) sendsLastOn(fn *ssa.Function, f *types.Var) bool {
	var sends, lasts []ssa.Instruction
	for _, b := range fn.Blocks {
		for _, i := range b.Instrs {
			switch i := i.(type) {
			case *ssa.Send:
				sends = append(sends, i)
				if slices.Contains(chanFields(x.Origins(i.Chan)), f) {
					lasts = append(lasts, i)
				}
			case *ssa.Select:
				if !selectOnlyReceives(i) {
					sends = append(sends, i)
				}
			case ssa.CallInstruction:
				if callee := i.Common().StaticCallee(); callee == nil || callee.Pkg == fn.Pkg {
					sends = append(sends, i)
				}
			}
		}
	}
	for _, l := range lasts {
		for _, s := range sends {
			if flow.Reaches(l, s) {
				return false
			}
		}
	}
	return len(lasts) > 0
}

// selectOnlyReceives reports whether every case of sel receives.
func selectOnlyReceives(sel *ssa.Select) bool {
	for _, st := range sel.States {
		if st.Dir != types.RecvOnly {
			return false
		}
	}
	return true
}
