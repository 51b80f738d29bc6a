// Package flow answers control-flow questions about one SSA function: which
// blocks form loops, and whether some path reaches a return while avoiding a
// set of instructions or edges. The questions are asked per function and
// the answers are memoised by the caller; nothing here is interprocedural.
package flow

import (
	"go/constant"
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Loop is a natural loop: the blocks that can reach a back edge to Header
// without passing through Header, plus Header itself.
type Loop struct {
	Header *ssa.BasicBlock
	Blocks map[*ssa.BasicBlock]bool
}

// Exits returns the edges that leave the loop, and the blocks inside it that
// return. A loop whose only exit is its header's condition runs to
// completion.
func (l *Loop) Exits() (edges [][2]*ssa.BasicBlock, returns []*ssa.BasicBlock) {
	for _, b := range orderedBlocks(l.Blocks) {
		if isReturn(b) {
			returns = append(returns, b)
		}
		for _, s := range b.Succs {
			if !l.Blocks[s] {
				edges = append(edges, [2]*ssa.BasicBlock{b, s})
			}
		}
	}
	return edges, returns
}

// Loops holds the natural loops of a function.
type Loops struct {
	loops []*Loop
}

// FindLoops computes the natural loops of fn. Loops sharing a header are
// merged, as the usual definition does.
func FindLoops(fn *ssa.Function) *Loops {
	byHeader := make(map[*ssa.BasicBlock]*Loop)
	var order []*ssa.BasicBlock
	for _, b := range fn.Blocks {
		for _, h := range b.Succs {
			if !h.Dominates(b) {
				continue
			}
			l := byHeader[h]
			if l == nil {
				l = &Loop{Header: h, Blocks: map[*ssa.BasicBlock]bool{h: true}}
				byHeader[h] = l
				order = append(order, h)
			}
			addBody(l, b)
		}
	}
	ls := new(Loops)
	for _, h := range order {
		ls.loops = append(ls.loops, byHeader[h])
	}
	return ls
}

// addBody adds to l every block that reaches latch without passing l.Header.
func addBody(l *Loop, latch *ssa.BasicBlock) {
	stack := []*ssa.BasicBlock{latch}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if l.Blocks[b] {
			continue
		}
		l.Blocks[b] = true
		stack = append(stack, b.Preds...)
	}
}

// Innermost returns the smallest loop containing b, or nil.
func (ls *Loops) Innermost(b *ssa.BasicBlock) *Loop {
	var best *Loop
	for _, l := range ls.loops {
		if l.Blocks[b] && (best == nil || len(l.Blocks) < len(best.Blocks)) {
			best = l
		}
	}
	return best
}

// Depth returns how many loops contain b.
func (ls *Loops) Depth(b *ssa.BasicBlock) int {
	n := 0
	for _, l := range ls.loops {
		if l.Blocks[b] {
			n++
		}
	}
	return n
}

// Containing returns the loops that contain b, outermost first.
func (ls *Loops) Containing(b *ssa.BasicBlock) []*Loop {
	var out []*Loop
	for _, l := range ls.loops {
		if l.Blocks[b] {
			out = append(out, l)
		}
	}
	slices.SortStableFunc(out, func(x, y *Loop) int { return len(y.Blocks) - len(x.Blocks) })
	return out
}

// InLoop reports whether b can execute more than once per call.
func (ls *Loops) InLoop(b *ssa.BasicBlock) bool { return ls.Innermost(b) != nil }

// InSameLoop reports whether some loop contains both a and b: a value
// defined in a may differ on each trip that reaches b.
func (ls *Loops) InSameLoop(a, b *ssa.BasicBlock) bool {
	for _, l := range ls.loops {
		if l.Blocks[a] && l.Blocks[b] {
			return true
		}
	}
	return false
}

// RepeatsWithout reports whether b can execute more than once while base
// executes once: some loop contains b but not base.
func (ls *Loops) RepeatsWithout(b, base *ssa.BasicBlock) bool {
	for _, l := range ls.loops {
		if l.Blocks[b] && !l.Blocks[base] {
			return true
		}
	}
	return false
}

// Trips returns how many times b can execute while base executes once: the
// product of the constant trip counts of the loops that contain b but not
// base, or many when one of them has no constant bound. A send in the same
// loop iteration as the make of its channel sends once per channel; base
// may be nil.
func (ls *Loops) Trips(b, base *ssa.BasicBlock, many int) int {
	n := 1
	for _, l := range ls.loops {
		if !l.Blocks[b] || base != nil && l.Blocks[base] {
			continue
		}
		k, ok := constTrips(l)
		if !ok || n*k >= many {
			return many
		}
		n *= k
	}
	return n
}

// constTrips returns K for a loop whose header tests i < K for a constant K
// with i counting up from zero, the shape of for i := 0; i < K; i++ and of
// range over a constant: it runs at most K times.
func constTrips(l *Loop) (int, bool) {
	c, ok := LoopBound(l).(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return 0, false
	}
	k, ok := constant.Int64Val(c.Value)
	return int(k), ok && k >= 0 && k < 1<<20 && countsFromZero(l)
}

// countsFromZero reports whether the induction variable of the loop's test
// counts up by one from zero. The IR tests it in three shapes: i < K with i
// starting at 0 (a for loop); i+1 < K with i starting at -1 (range over a
// slice); and i+1 < K at the end of the body with i starting at 0 (range
// over an integer, whose entry is tested before the loop).
func countsFromZero(l *Loop) bool {
	cmp := BoundTest(l).Cond.(*ssa.BinOp)
	v, incremented := cmp.X, false
	if inc, ok := v.(*ssa.BinOp); ok && inc.Op == token.ADD && isConst(inc.Y, 1) {
		v, incremented = inc.X, true
	}
	phi, ok := v.(*ssa.Phi)
	if !ok || phi.Block() != l.Header {
		return false
	}
	for i, e := range phi.Edges {
		if l.Blocks[phi.Block().Preds[i]] {
			continue
		}
		fromZero := isConst(e, 0) || incremented && isConst(e, -1)
		if !fromZero {
			return false
		}
	}
	return true
}

// TripCount returns n for a loop that runs exactly n times: its bound
// test i < n (LoopBound) is its only way out, and i counts up by one from
// zero, each trip. It returns nil for any other loop.
func TripCount(l *Loop) ssa.Value {
	n := LoopBound(l)
	if n == nil || !countsFromZero(l) || !stepsByOne(l) {
		return nil
	}
	edges, returns := l.Exits()
	if len(returns) > 0 || len(edges) != 1 || edges[0][0] != TestBlock(l) {
		return nil
	}
	return n
}

// stepsByOne reports whether the counter of the loop's bound test grows by
// exactly one on every way back to the test; LoopBound lets it grow by
// any positive step.
func stepsByOne(l *Loop) bool {
	iff := BoundTest(l)
	if iff.Block() != l.Header {
		return true // the rotated test is i+1 < n, of the i it carries back
	}
	v := iff.Cond.(*ssa.BinOp).X
	if inc, ok := v.(*ssa.BinOp); ok && inc.Op == token.ADD && isConst(inc.Y, 1) {
		return true // i+1 < n, with i+1 carried back (stepsEveryTrip)
	}
	phi, ok := v.(*ssa.Phi)
	return ok && everyBackEdge(l, phi, func(e ssa.Value) bool {
		step, ok := e.(*ssa.BinOp)
		return ok && step.Op == token.ADD && step.X == phi && isConst(step.Y, 1)
	})
}

func isConst(v ssa.Value, k int64) bool {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return false
	}
	n, ok := constant.Int64Val(c.Value)
	return ok && n == k
}

// Edge is a control-flow edge between two blocks.
type Edge struct{ From, To *ssa.BasicBlock }

// Path describes a search for a path to a return.
type Path struct {
	// Stop reports whether an instruction ends the path (the path has done
	// what was asked, e.g. received from the channel).
	Stop func(ssa.Instruction) bool
	// StopEdge reports whether taking an edge ends the path.
	StopEdge func(Edge) bool
	// Goal, when set, reports whether taking an edge completes the search,
	// as reaching a return does.
	Goal func(Edge) bool
}

// ReturnReachable reports whether some path that starts just after the
// instruction at index start of block from reaches a return without meeting
// a stopping instruction or edge. Blocks that end in panic do not count as
// returns: a function that panics is not waiting for anyone.
func (p Path) ReturnReachable(from *ssa.BasicBlock, start int) bool {
	if p.stopsIn(from.Instrs[start+1:]) || endsAfter(from, start) {
		return false
	}
	if isReturn(from) {
		return true
	}
	seen := map[*ssa.BasicBlock]bool{}
	var visit func(b *ssa.BasicBlock) bool
	visit = func(b *ssa.BasicBlock) bool {
		for _, s := range b.Succs {
			if p.StopEdge != nil && p.StopEdge(Edge{b, s}) {
				continue
			}
			if p.Goal != nil && p.Goal(Edge{b, s}) {
				return true
			}
			if seen[s] {
				continue
			}
			seen[s] = true
			if p.stopsIn(s.Instrs) || ends(s) {
				continue
			}
			if isReturn(s) || visit(s) {
				return true
			}
		}
		return false
	}
	return visit(from)
}

// endsAfter reports whether a call after index start of b never returns.
func endsAfter(b *ssa.BasicBlock, start int) bool {
	for _, instr := range b.Instrs[start+1:] {
		if NoReturn(instr) {
			return true
		}
	}
	return false
}

func (p Path) stopsIn(instrs []ssa.Instruction) bool {
	if p.Stop == nil {
		return false
	}
	for _, instr := range instrs {
		if p.Stop(instr) {
			return true
		}
	}
	return false
}

func isReturn(b *ssa.BasicBlock) bool {
	if len(b.Instrs) == 0 {
		return false
	}
	_, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
	return ok
}

func orderedBlocks(set map[*ssa.BasicBlock]bool) []*ssa.BasicBlock {
	out := make([]*ssa.BasicBlock, 0, len(set))
	for b := range set {
		out = append(out, b)
	}
	slices.SortFunc(out, func(a, b *ssa.BasicBlock) int { return a.Index - b.Index })
	return out
}

// IndexOf returns the position of instr in its block.
func IndexOf(instr ssa.Instruction) int {
	for i, x := range instr.Block().Instrs {
		if x == instr {
			return i
		}
	}
	return -1
}

// Reaches reports whether some path leads from instruction a to instruction
// b of the same function.
func Reaches(a, b ssa.Instruction) bool {
	ab, bb := a.Block(), b.Block()
	if ab == bb && IndexOf(a) < IndexOf(b) {
		return true
	}
	seen := map[*ssa.BasicBlock]bool{}
	stack := append([]*ssa.BasicBlock(nil), ab.Succs...)
	for len(stack) > 0 {
		blk := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if blk == bb {
			return true
		}
		if seen[blk] {
			continue
		}
		seen[blk] = true
		stack = append(stack, blk.Succs...)
	}
	return false
}

// MinCount returns the least number of counted instructions and edges on a
// path from just after instruction start of block from to a return, or -1
// when no return is reachable. It answers "how many receives happen on
// every path", where a receive is an instruction or the edge into a select
// case, weighted by edges. Paths through calls that never return do not
// count, nor paths a constant-valued flag rules out (flags): a receive
// skipped only when a flag says it already happened is not skipped.
func MinCount(from *ssa.BasicBlock, start int, instrs map[ssa.Instruction]bool, edges map[Edge]int) int {
	if n, ok := minCount(from, start, instrs, edges, findFlags(from.Parent())); ok {
		return n
	}
	n, _ := minCount(from, start, instrs, edges, nil)
	return n
}

// MinCountTaking is MinCount for receives that set a channel variable,
// such as a stop request's reply channel: it follows whether each such
// variable is still nil (see nilWeb), taken saying which values come from
// the counted receives, so a receive made only when none was taken
// before (if errc == nil { errc = <-quit }) is not skipped.
func MinCountTaking(from *ssa.BasicBlock, start int, instrs map[ssa.Instruction]bool, edges map[Edge]int, taken func(ssa.Value) bool) int {
	if f := withTested(from.Parent(), taken); f != nil {
		if n, ok := minCount(from, start, instrs, edges, f); ok {
			return n
		}
	}
	if n, ok := minCount(from, start, instrs, edges, nilWeb(from.Parent(), taken)); ok {
		return n
	}
	n, _ := minCount(from, start, instrs, edges, nil)
	return n
}

// statesPerBlock bounds the (block, flags) pairs minCount visits, per
// block of the function, before it gives up on the flags: the search
// scans its nodes for the nearest, so its cost grows with their square.
const statesPerBlock = 4

// minCount is MinCount following the flags f, or none when f is nil; it
// reports false when the flags take too many states to follow.
func minCount(from *ssa.BasicBlock, start int, instrs map[ssa.Instruction]bool, edges map[Edge]int, f *flags) (int, bool) {
	weight := func(list []ssa.Instruction) int {
		n := 0
		for _, instr := range list {
			if instrs[instr] {
				n++
			}
		}
		return n
	}
	if endsAfter(from, start) {
		return -1, true
	}
	// Dijkstra over blocks and what is known of the flags; the start block
	// is entered with only the instructions after start counted. Weights
	// are small and the graph is a CFG, so a plain scan for the nearest
	// node keeps the code simple.
	type node struct {
		b     *ssa.BasicBlock
		first bool // the partial start block, before any loop re-enters it
		e     env
	}
	dist := map[node]int{{from, true, env{}}: weight(from.Instrs[start+1:])}
	done := map[node]bool{}
	best := -1
	for {
		if f != nil && len(dist) > statesPerBlock*len(from.Parent().Blocks) {
			return 0, false
		}
		var n node
		found := false
		for cand, d := range dist {
			if !done[cand] && (!found || d < dist[n] || d == dist[n] && less(cand.b, cand.e, n.b, n.e)) {
				n, found = cand, true
			}
		}
		if !found {
			return best, true
		}
		done[n] = true
		if !n.first && ends(n.b) {
			continue
		}
		if isReturn(n.b) && (best < 0 || dist[n] < best) {
			best = dist[n]
		}
		for _, s := range f.succs(n.e, n.b) {
			next := node{s, false, f.enter(f.learn(n.e, n.b, s), n.b, s)}
			d := dist[n] + weight(s.Instrs) + edges[Edge{n.b, s}]
			if old, ok := dist[next]; !ok || d < old {
				dist[next] = d
			}
		}
	}
}

// less orders search nodes of equal distance, so the search is
// deterministic.
func less(a *ssa.BasicBlock, ae env, b *ssa.BasicBlock, be env) bool {
	if a.Index != b.Index {
		return a.Index < b.Index
	}
	if ae.known != be.known {
		return ae.known < be.known
	}
	return ae.val < be.val
}

// MaxCount returns the largest total weight of the instructions a single
// run of fn can execute, each weighted by weights and by how often its
// block runs (trips, or once for an instruction a flag lets through once:
// AtMostOnce), or many. Three mutually exclusive sends on three error
// paths count as one. The weight of an If counts only when its true
// edge is taken: that is how a select's case is weighed (the test of the
// select's index that enters the case).
func MaxCount(fn *ssa.Function, weights map[ssa.Instruction]int, trips func(*ssa.BasicBlock) int, many int) int {
	memo := make(map[*ssa.BasicBlock]int)
	var flagsOf *flags // found once, when a loop's instruction needs them
	found := false
	once := func(instr ssa.Instruction) bool {
		if !found {
			flagsOf, found = findFlags(fn), true
		}
		return flagsOf.atMostOnce(instr)
	}
	var longest func(b *ssa.BasicBlock) int
	longest = func(b *ssa.BasicBlock) int {
		if n, ok := memo[b]; ok {
			return n
		}
		memo[b] = 0 // back edges contribute nothing: loops are counted by trips
		here, taken := 0, 0
		for _, instr := range b.Instrs {
			if w := weights[instr]; w > 0 {
				n := trips(b)
				if n > 1 && once(instr) {
					n = 1 // a flag lets it through once
				}
				if _, ok := instr.(*ssa.If); ok && !b.Succs[0].Dominates(b) {
					taken = min(w*n, many) // on the true edge only
					continue
				}
				here += min(w*n, many)
			}
		}
		best := 0
		for i, s := range b.Succs {
			if s.Dominates(b) {
				continue
			}
			n := longest(s)
			if i == 0 {
				n += taken
			}
			best = max(best, n)
		}
		memo[b] = min(here+best, many)
		return memo[b]
	}
	if len(fn.Blocks) == 0 {
		return 0
	}
	return longest(fn.Blocks[0])
}

// LoopBound returns n for a loop that ends once its counter reaches n
// (BoundTest) and steps the counter up on every trip, so that it runs at
// most n trips: the shape of counted loops, range over a slice and range
// over an integer; nil for any other loop.
func LoopBound(l *Loop) ssa.Value {
	if iff := BoundTest(l); iff != nil && stepsEveryTrip(l, iff) {
		return iff.Cond.(*ssa.BinOp).Y
	}
	return nil
}

// BoundTest returns the branch on i < n that ends loop l, or nil. A for
// loop and a range over a slice test the bound in the header, before each
// trip:
//
//	rangeindex.loop:
//	  t4 = phi [0: -1:int, 2: t5]
//	  t5 = t4 + 1:int
//	  t6 = t5 < t3                  // t3 = len(xs)
//	  if t6 goto body else done
//
// A range over an integer is rotated: it tests 0 < n once before it
// enters, and i+1 < n at the end of each trip, in the loop's one latch,
// whose true edge goes back to the header. Its counter starts at zero on
// the one edge in, so it runs exactly n times:
//
//	  t12 = 0:int < t11
//	  if t12 goto rangeint.body else done
//	rangeint.body:
//	  t14 = phi [3: 0:int, 7: t19]
//	  ...
//	latch:
//	  t19 = t14 + 1:int
//	  t20 = t19 < t11
//	  if t20 goto rangeint.body else done
func BoundTest(l *Loop) *ssa.If {
	if iff := rotatedTest(l); iff != nil {
		return iff
	}
	if iff := lessThan(l.Header); iff != nil && l.Blocks[l.Header.Succs[0]] && !l.Blocks[l.Header.Succs[1]] {
		return iff
	}
	return nil
}

// stepsEveryTrip reports whether the counter the header's test i < n reads
// goes up on every way back to the header: a loop that can come back
// without stepping (a continue before i++, a retry that sets i back) runs
// more than n trips.
func stepsEveryTrip(l *Loop, iff *ssa.If) bool {
	if iff.Block() != l.Header {
		return true // the rotated test checks its latch itself
	}
	v := iff.Cond.(*ssa.BinOp).X
	if inc, ok := v.(*ssa.BinOp); ok && inc.Op == token.ADD && isConst(inc.Y, 1) {
		phi, ok := inc.X.(*ssa.Phi) // range over a slice: i+1 < n, i+1 carried back
		return ok && phi.Block() == l.Header && everyBackEdge(l, phi, func(e ssa.Value) bool { return e == inc })
	}
	phi, ok := v.(*ssa.Phi)
	return ok && phi.Block() == l.Header && everyBackEdge(l, phi, func(e ssa.Value) bool {
		step, ok := e.(*ssa.BinOp)
		return ok && step.Op == token.ADD && step.X == phi && positive(step.Y)
	})
}

// everyBackEdge reports whether ok holds for the value phi, in l's header,
// takes on every edge from inside l.
func everyBackEdge(l *Loop, phi *ssa.Phi, ok func(ssa.Value) bool) bool {
	for i, e := range phi.Edges {
		if l.Blocks[l.Header.Preds[i]] && !ok(e) {
			return false
		}
	}
	return true
}

// positive reports whether v is an integer constant above zero.
func positive(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Int && constant.Sign(c.Value) > 0
}

// lessThan returns the branch that ends b when it tests x < y.
func lessThan(b *ssa.BasicBlock) *ssa.If {
	if len(b.Instrs) == 0 {
		return nil
	}
	iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return nil
	}
	if cmp, ok := iff.Cond.(*ssa.BinOp); !ok || cmp.Op != token.LSS {
		return nil
	}
	return iff
}

// rotatedTest returns the latch's test of a range over an integer (see
// BoundTest), or nil when l is not one.
func rotatedTest(l *Loop) *ssa.If {
	var latch, entry *ssa.BasicBlock
	for _, p := range l.Header.Preds {
		switch {
		case !l.Blocks[p] && entry == nil:
			entry = p
		case l.Blocks[p] && latch == nil:
			latch = p
		default:
			return nil // a second way in or back
		}
	}
	if latch == nil || entry == nil {
		return nil
	}
	iff, guard := lessThan(latch), lessThan(entry)
	if iff == nil || guard == nil || latch.Succs[0] != l.Header || l.Blocks[latch.Succs[1]] || entry.Succs[0] != l.Header {
		return nil
	}
	cmp, entered := iff.Cond.(*ssa.BinOp), guard.Cond.(*ssa.BinOp)
	inc, ok := cmp.X.(*ssa.BinOp)
	if !ok || inc.Op != token.ADD || !isConst(inc.Y, 1) || !isConst(entered.X, 0) || entered.Y != cmp.Y {
		return nil
	}
	i, ok := inc.X.(*ssa.Phi)
	if !ok || i.Block() != l.Header {
		return nil
	}
	for k, e := range i.Edges {
		if l.Header.Preds[k] == entry && !isConst(e, 0) || l.Header.Preds[k] == latch && e != inc {
			return nil
		}
	}
	return iff
}

// TestBlock returns the block whose branch ends loop l's trips: that of
// its bound test, or the header for a loop without one.
func TestBlock(l *Loop) *ssa.BasicBlock {
	if iff := BoundTest(l); iff != nil {
		return iff.Block()
	}
	return l.Header
}

// Before reports whether an instruction that runs on every path to instr,
// earlier, satisfies pred: one in a block that dominates instr's block, or
// earlier in instr's own block.
func Before(instr ssa.Instruction, pred func(ssa.Instruction) bool) bool {
	for _, b := range instr.Parent().Blocks {
		if !b.Dominates(instr.Block()) {
			continue
		}
		for _, x := range b.Instrs {
			if x == instr {
				break
			}
			if pred(x) {
				return true
			}
		}
	}
	return false
}

// After reports whether every path from just after instr runs an
// instruction that satisfies pred before it leaves the function or comes
// to block until (nil for none): the mirror of Before, for what must
// follow. A path into instr's own block again counts as coming back.
//
//	select { case done <- v: default: }
//	close(done)                          // After(sel, until=sel's block, close of done)
func After(instr ssa.Instruction, until *ssa.BasicBlock, pred func(ssa.Instruction) bool) bool {
	start := instr.Block()
	for _, x := range start.Instrs[IndexOf(instr)+1:] {
		if pred(x) {
			return true
		}
	}
	if len(start.Succs) == 0 {
		return false
	}
	found := func(b *ssa.BasicBlock) bool {
		for _, x := range b.Instrs {
			if pred(x) {
				return true
			}
		}
		return false
	}
	seen := map[*ssa.BasicBlock]bool{}
	stack := append([]*ssa.BasicBlock(nil), start.Succs...)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == start || b == until {
			return false
		}
		if seen[b] || found(b) {
			continue
		}
		seen[b] = true
		if len(b.Succs) == 0 {
			return false
		}
		stack = append(stack, b.Succs...)
	}
	return true
}
