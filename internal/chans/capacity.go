package chans

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// Covered reports whether the buffer of the channel provably has room for
// the send at site, so that the send cannot block: every send the channel
// can see, counted with multiplicity, fits in its capacity.
//
// Three shapes are proved: a constant capacity at least the number of send
// sites, none of which runs more than once (errc := make(chan error, 1) with
// one send); a constant capacity larger than the number of values that can
// be sent before this one (roomAt: the first send of the only goroutine
// that sends); and a capacity equal to the bound of the one loop that runs
// the send sites, k times the bound when an iteration sends at most k
// values (make(chan T, len(xs)) with a send per element of xs), be that
// loop the owner's or its one sender's (coveredBySenderLoop). Senders
// that share a counter of tickets (coveredByTickets) or keep a token of a
// pool or semaphore of n for good (coveredByTokens) are bounded too, and so
// is one send that follows an index into n elements by a counter that grows
// between its runs (coveredByIndex). Once
// the channel escapes to code this package cannot see, only the owner's sends
// that no escape can precede are counted.
func (x *Index) Covered(u *Uses, site Site) bool {
	if x.escapedAt(u) {
		return x.coveredBeforeEscape(u, site)
	}
	if n, ok := constCap(u.Make); ok {
		return x.Count(u, u.Sends) <= n || x.roomAt(u, site, n) || x.coveredByTokens(u) || x.coveredByIndex(u)
	}
	return x.coveredByLoop(u)
}

// escapedAt reports whether other code may send on the channel. A channel
// returned only as a receive-only channel lets the caller receive, never
// send.
func (x *Index) escapedAt(u *Uses) bool {
	if len(u.Stores) > 0 {
		return true
	}
	for _, e := range u.Escapes {
		if !x.returnsRecvOnly(e, u.Make) {
			return true
		}
	}
	return false
}

// returnsRecvOnly reports whether instr is a return whose channel results
// are receive-only, but for those that are provably not a channel mk made
// (a Close's chan<- struct{} returned beside the results).
func (x *Index) returnsRecvOnly(instr ssa.Instruction, mk *ssa.MakeChan) bool {
	ret, ok := instr.(*ssa.Return)
	if !ok {
		return false
	}
	res := ret.Parent().Signature.Results()
	for i, v := range ret.Results {
		if c, ok := res.At(i).Type().Underlying().(*types.Chan); ok && c.Dir() != types.RecvOnly && !x.madeElsewhere(v, mk) {
			return false
		}
	}
	return true
}

// madeElsewhere reports whether every channel v may be was made by another
// make than mk, or is nil.
func (x *Index) madeElsewhere(v ssa.Value, mk *ssa.MakeChan) bool {
	origins := x.Origins(v)
	for _, o := range origins {
		if o.Kind != Nil && (o.Kind != Made || o.Make == mk) {
			return false
		}
	}
	return len(origins) > 0
}

// roomAt proves that the send at site finds room in a buffer of n: fewer
// than n values can be sent before it. Its run (the owner, or one function
// the owner starts or calls once per channel) orders its own sends, so only
// those that can precede the site count, with every send of other runs.
// The first send of the only goroutine that sends has an empty buffer:
//
//	ch := make(chan T, 1)
//	go func() {
//		if err != nil {
//			ch <- T{Err: err} // first send: room
//			return
//		}
//		for v := range vs {
//			ch <- v
//		}
//	}()
func (x *Index) roomAt(u *Uses, site Site, n int) bool {
	if !x.runsOnce(u, site) {
		return false
	}
	var before []Site
	for _, s := range u.Sends {
		if mayPrecede(s, site) {
			before = append(before, s)
		}
	}
	return x.Count(u, before) < n
}

// mayPrecede reports whether send s can run before site in a run that
// runs once: a send of another run can; one of the same function can if
// control reaches site from it; one in a closure nested in site's function
// (a range-over-func body, a callback) can if the closure exists before
// site runs.
func mayPrecede(s, site Site) bool {
	switch {
	case s.Start != site.Start:
		return true
	case s.Func == site.Func:
		return flow.Reaches(s.Instr, site.Instr)
	case s.Func.Parent() == site.Func:
		return closureMadeBefore(s.Func, site.Instr)
	}
	return true
}

// closureMadeBefore reports whether the function holding instr can make
// the closure fn and then reach instr, or refers to fn in a way this does
// not follow.
func closureMadeBefore(fn *ssa.Function, instr ssa.Instruction) bool {
	made := false
	for _, b := range instr.Parent().Blocks {
		for _, in := range b.Instrs {
			mc, ok := in.(*ssa.MakeClosure)
			if ok && mc.Fn == fn {
				made = true
				if flow.Reaches(mc, instr) {
					return true
				}
				continue
			}
			for _, op := range in.Operands(nil) {
				if *op == fn {
					return true
				}
			}
		}
	}
	return !made
}

// runsOnce reports whether the function holding site runs once per
// channel: it is the owner, or the function a go, call or defer of the
// owner runs, directly or through the one call of it that function makes
// (calledOnceBy), at a point of the owner that runs once per make.
func (x *Index) runsOnce(u *Uses, site Site) bool {
	if site.Start == nil {
		return site.Func == u.Owner()
	}
	if site.Start.Parent() != u.Owner() || x.ownerTrips(u, site.Start.Block()) > 1 {
		return false
	}
	started := x.directCallee(site.Start)
	return started != nil && (started == site.Func || x.calledOnceBy(started, site.Func))
}

// directCallee returns the function a go, call or defer instruction runs,
// or nil: a function or closure it names, or the static callee. A
// (*sync.WaitGroup).Go call runs the function it is handed, once, on a
// goroutine of its own: that function is the one it runs.
func (x *Index) directCallee(start ssa.Instruction) *ssa.Function {
	call, ok := start.(ssa.CallInstruction)
	if !ok {
		return nil
	}
	runs := call.Common().Value
	if isWaitGroupGo(call) && len(call.Common().Args) == 2 {
		runs = call.Common().Args[1]
	}
	switch fn := runs.(type) {
	case *ssa.Function:
		return fn
	case *ssa.MakeClosure:
		return fn.Fn.(*ssa.Function)
	}
	if runs != call.Common().Value || call.Common().IsInvoke() {
		return nil
	}
	return x.Callee(call.Common())
}

// calledOnceBy reports whether fn runs once per run of g: its one call site
// in the package is a call of g outside g's loops, as a goroutine calls
// the writer it was started to run:
//
//	go func() {
//		writeStream(s, bufs) // the only call of writeStream
//		close(bufs)
//	}()
func (x *Index) calledOnceBy(g, fn *ssa.Function) bool {
	sites, ok := x.callers(fn)
	if !ok || len(sites) != 1 {
		return false
	}
	call, ok := sites[0].(*ssa.Call)
	return ok && call.Parent() == g && !x.Loops(g).InLoop(call.Block())
}

func (x *Index) coveredBeforeEscape(u *Uses, site Site) bool {
	n, ok := constCap(u.Make)
	if !ok || site.Func != u.Owner() {
		return false
	}
	var early []Site
	for _, s := range u.Sends {
		if s.Func == u.Owner() && !x.afterEscape(u, s.Instr) {
			early = append(early, s)
		}
	}
	for _, s := range early {
		if s.Instr == site.Instr {
			return x.Count(u, early) <= n
		}
	}
	return false
}

// afterEscape reports whether instr, in the owner, may run after the channel
// escaped.
func (x *Index) afterEscape(u *Uses, instr ssa.Instruction) bool {
	for _, e := range append(append([]ssa.Instruction(nil), u.Escapes...), u.Stores...) {
		if e.Parent() != u.Owner() || flow.Reaches(e, instr) {
			return true
		}
	}
	return false
}

// Many stands for a count that has no bound.
const Many = 1 << 30

// Count returns how many values the sites of u can send for one channel
// made by u.Make, or Many: the most that one path through the owner can
// send. A send of the owner weighs one; a goroutine or helper it starts
// weighs, at the instruction that starts it, the most sends one path
// through that function makes. So sends on mutually exclusive paths count
// once, whether the owner makes them or hands the work to a goroutine on
// the other branch.
func (x *Index) Count(u *Uses, sites []Site) int {
	return x.countWith(u, sites, func(b *ssa.BasicBlock) int { return x.ownerTrips(u, b) }, Many)
}

// countedAt returns the instruction whose runs make s's sends: s itself,
// or, for a send that is a case of a select, the test of the select's
// index that enters that case, which flow.MaxCount weighs on its true
// edge only: the select sends only when that case fires. A goroutine
// that sends its result or, once the owner quits, that it is exiting,
// sends one value either way:
//
//	select {
//	case errs <- w.Start():   // t9 = t8 == 0:int; if t9 goto 2 else 3
//	case <-quit:
//		errs <- errExiting
//	}
func countedAt(s Site) ssa.Instruction {
	sel, ok := s.Instr.(*ssa.Select)
	if !ok || s.State < 0 {
		return s.Instr
	}
	e, ok := CaseEdge(sel, s.State)
	if !ok {
		return s.Instr
	}
	return e.From.Instrs[len(e.From.Instrs)-1]
}

// countWith is Count with ownerTrips saying how many times each block of
// the owner runs, and with each start's sends counted as at most perRun.
func (x *Index) countWith(u *Uses, sites []Site, ownerTrips func(*ssa.BasicBlock) int, perRun int) int {
	type run struct {
		fn    *ssa.Function
		start ssa.Instruction
	}
	runs := make(map[run]map[ssa.Instruction]int)
	var order []run
	for _, s := range sites {
		if Refills(s.Instr, sentOn(s)) {
			continue // puts back a value it took: uses no room
		}
		r := run{s.Func, s.Start}
		if runs[r] == nil {
			runs[r] = make(map[ssa.Instruction]int)
			order = append(order, r)
		}
		runs[r][countedAt(s)] = 1
	}
	owner := make(map[ssa.Instruction]int) // weights on the owner's instructions
	byStart := make(map[ssa.Instruction]map[*ssa.Function]map[ssa.Instruction]int)
	for _, r := range order {
		if r.start == nil {
			for instr, w := range runs[r] {
				owner[instr] += w
			}
			continue
		}
		if byStart[r.start] == nil {
			byStart[r.start] = make(map[*ssa.Function]map[ssa.Instruction]int)
		}
		byStart[r.start][r.fn] = runs[r]
	}
	for _, r := range order {
		fns := byStart[r.start]
		if fns == nil {
			continue // the owner's, or a start already counted
		}
		owner[r.start] = min(owner[r.start]+min(x.startCount(r.start, fns), perRun), Many)
		delete(byStart, r.start)
	}
	return flow.MaxCount(u.Owner(), owner, ownerTrips, Many)
}

// startCount returns how many values the functions one start of the owner
// runs can send, given each function's sends: the sum of what each can
// send in one run, times the runs it can make in one run of the start
// (runsPerStart), but for a body and the closure it defers to report a
// panic, which never both send in one execution (see recoveringSends).
func (x *Index) startCount(start ssa.Instruction, fns map[*ssa.Function]map[ssa.Instruction]int) int {
	if n, ok := x.flagGuardedRun(fns); ok {
		return n
	}
	n := 0
	paired := make(map[*ssa.Function]bool)
	for _, rr := range x.recoveringSends(fns) {
		if paired[rr.body] || paired[rr.deferred] {
			continue
		}
		paired[rr.body], paired[rr.deferred] = true, true
		body := fns[rr.body]
		unfinished := make(map[ssa.Instruction]int)
		final := finalSends(body)
		for instr, w := range body {
			if !final[instr] {
				unfinished[instr] = w
			}
		}
		beforePanic := x.runCount(rr.body, unfinished) + x.runCount(rr.deferred, fns[rr.deferred])
		n += times(x.runsPerStart(start, rr.body), max(x.runCount(rr.body, body), beforePanic))
	}
	for fn, sends := range fns {
		if !paired[fn] {
			if fn == x.directCallee(start) {
				sends = liveWith(start.(ssa.CallInstruction), fn, sends)
			}
			n += times(x.runsPerStart(start, fn), x.runCount(fn, sends))
		}
	}
	return min(n, Many)
}

// liveWith returns the sends of fn that can run when the call (a go
// statement, a call or a defer) hands fn its constant arguments: a send
// on a branch that tests a parameter against a constant is dead for a
// start that passes another constant. A copier started once per stream,
// which signals only for the output streams, sends nothing from the
// start that copies stdin:
//
//	cp := func(kind string, dst io.Writer, src io.Reader) {
//		io.Copy(dst, src)
//		if kind == "stdout" || kind == "stderr" {
//			done <- struct{}{}
//		}
//	}
//	go cp("stdin", remote, os.Stdin)    // sends nothing
func liveWith(call ssa.CallInstruction, fn *ssa.Function, sends map[ssa.Instruction]int) map[ssa.Instruction]int {
	args := call.Common().Args
	if len(args) != len(fn.Params) {
		return sends
	}
	consts := make(map[*ssa.Parameter]*ssa.Const)
	for i, a := range args {
		if c, ok := a.(*ssa.Const); ok && c.Value != nil {
			consts[fn.Params[i]] = c
		}
	}
	if len(consts) == 0 {
		return sends
	}
	live := reachableWith(fn, consts)
	out := make(map[ssa.Instruction]int, len(sends))
	for instr, w := range sends {
		if live[instr.Block()] {
			out[instr] = w
		}
	}
	return out
}

// reachableWith returns the blocks of fn reachable from its entry when
// each parameter in consts holds its constant: an If on the comparison of
// such a parameter with a constant goes only the way the two decide.
func reachableWith(fn *ssa.Function, consts map[*ssa.Parameter]*ssa.Const) map[*ssa.BasicBlock]bool {
	return reachableFrom(fn.Blocks[:1], func(b *ssa.BasicBlock) []*ssa.BasicBlock {
		cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			return b.Succs
		}
		taken, ok := decided(cond.Cond, consts)
		switch {
		case !ok:
			return b.Succs
		case taken:
			return b.Succs[:1]
		}
		return b.Succs[1:]
	})
}

// decided evaluates cond when it compares a parameter in consts with a
// constant (kind == "stdin", "stdout" != kind).
func decided(cond ssa.Value, consts map[*ssa.Parameter]*ssa.Const) (taken, ok bool) {
	cmp, isCmp := cond.(*ssa.BinOp)
	if !isCmp || cmp.Op != token.EQL && cmp.Op != token.NEQ {
		return false, false
	}
	x, y := cmp.X, cmp.Y
	if _, isConst := x.(*ssa.Const); isConst {
		x, y = y, x
	}
	p, isParam := x.(*ssa.Parameter)
	c, isConst := y.(*ssa.Const)
	arg := consts[p]
	if !isParam || !isConst || arg == nil || c.Value == nil || arg.Value.Kind() != c.Value.Kind() {
		return false, false
	}
	return constant.Compare(arg.Value, cmp.Op, c.Value), true
}

// runsPerStart returns how many times fn can run in one run of what start
// starts: once for the function it names or a closure it hands on (which
// the pass takes to run once, as errgroup's Go runs it); for a function
// called, deferred or started in this package, the sum over its call
// sites of the runs of the function that holds each, Many for a site in a
// loop (a helper a loop calls for each item). A function whose callers
// the pass cannot list (a callback kept and called later) is taken to run
// once, as a closure handed on is.
func (x *Index) runsPerStart(start ssa.Instruction, fn *ssa.Function) int {
	return x.runsUnder(start, fn, maxDepth)
}

func (x *Index) runsUnder(start ssa.Instruction, fn *ssa.Function, depth int) int {
	if fn == x.directCallee(start) || handsOn(start, fn) {
		return 1
	}
	sites, ok := x.callers(fn)
	if !ok || len(sites) == 0 {
		return 1
	}
	if depth == 0 {
		return Many
	}
	n := 0
	for _, site := range sites {
		if x.Loops(site.Parent()).InLoop(site.Block()) {
			return Many
		}
		n = min(n+x.runsUnder(start, site.Parent(), depth-1), Many)
	}
	return n
}

// handsOn reports whether start is a call that hands on a closure of fn.
func handsOn(start ssa.Instruction, fn *ssa.Function) bool {
	call, ok := start.(ssa.CallInstruction)
	return ok && closureArg(call.Common(), fn) >= 0
}

// times multiplies two counts, either of which may be Many.
func times(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	if a >= Many || b >= Many || a > Many/b {
		return Many
	}
	return a * b
}

// runCount returns the most values one run of fn sends, weighing its
// sends by weights and by how often their blocks can run.
func (x *Index) runCount(fn *ssa.Function, weights map[ssa.Instruction]int) int {
	loops := x.Loops(fn)
	trips := func(b *ssa.BasicBlock) int { return loops.Trips(b, nil, Many) }
	return flow.MaxCount(fn, weights, trips, Many)
}

// sentOn returns the channel a send site sends on.
func sentOn(s Site) ssa.Value {
	if sel, ok := s.Instr.(*ssa.Select); ok {
		return sel.States[s.State].Chan
	}
	return s.Instr.(*ssa.Send).Chan
}

// ownerTrips returns how many times block b of the owner runs for one
// channel: loops that also make a fresh channel each iteration do not
// count.
func (x *Index) ownerTrips(u *Uses, b *ssa.BasicBlock) int {
	return x.Loops(u.Owner()).Trips(b, u.Make.Block(), Many)
}

// coveredByLoop proves make(chan T, bound) whose sends all run in one loop
// of the owner bounded by the same bound, at most one value per iteration
// (k for make(chan T, k*bound)):
// a send or a goroutine's send per element of xs (make(chan T, len(xs)),
// for _, x := range xs), on one branch or another. The bound is the loop's
// i < n, or the map or string a range steps through. The make is outside
// the loop, which is nobody's but the owner's: no other loop holds the
// sends.
func (x *Index) coveredByLoop(u *Uses) bool {
	if x.coveredBySenderLoop(u, u.Make.Size) || x.coveredByTickets(u) || x.coveredByTokens(u) || x.coveredByIndex(u) || x.coveredByRelay(u) {
		return true
	}
	return x.coveredByOwnerLoop(u, Many, u.Make.Size)
}

// sentAtMost reports whether the sends on u's channel are bounded by size
// through a loop of the owner or of its one sender (coveredByOwnerLoop,
// coveredBySenderLoop), size being a capacity or another count.
func (x *Index) sentAtMost(u *Uses, size ssa.Value) bool {
	return x.coveredBySenderLoop(u, size) || x.coveredByOwnerLoop(u, Many, size)
}

// coveredByOwnerLoop is the owner's loop of coveredByLoop, with each
// start's sends counted as at most perRun, against size.
func (x *Index) coveredByOwnerLoop(u *Uses, perRun int, size ssa.Value) bool {
	owner := u.Owner()
	loops := x.Loops(owner)
	var l *flow.Loop
	for _, s := range u.Sends {
		if Refills(s.Instr, sentOn(s)) {
			continue // puts back a value it took: uses no room
		}
		at := s.Instr
		if s.Start != nil {
			at = s.Start
		}
		in := loops.Innermost(at.Block())
		if at.Parent() != owner || in == nil || loops.Depth(at.Block()) > 1 || l != nil && in != l {
			return false
		}
		l = in
	}
	bound, k := scaled(size)
	if l == nil || l.Blocks[u.Make.Block()] || !boundedBy(l, bound) {
		return false
	}
	once := func(b *ssa.BasicBlock) int {
		if l.Blocks[b] {
			return 1 // one iteration
		}
		return x.ownerTrips(u, b)
	}
	return x.countWith(u, u.Sends, once, perRun) <= k
}

// coveredBySenderLoop proves make(chan T, bound) whose one sender, a
// goroutine or the helper it calls that runs once per channel (runsOnce),
// sends only in one loop of its own bounded by the same bound, at most k
// values per trip (k*bound):
//
//	bufs := make(chan []byte, opt.MsgNum)
//	go func() {
//		writeStream(s, bufs) // for i := 0; i < opt.MsgNum; i++ { bufs <- buf }
//		close(bufs)
//	}()
//
// The bound is read in the sender's function, the capacity in the owner's:
// SameValue relates the two through the variables their literals capture.
func (x *Index) coveredBySenderLoop(u *Uses, size ssa.Value) bool {
	if len(u.Sends) == 0 || u.Sends[0].Func == u.Owner() {
		return false
	}
	start := u.Sends[0].Start
	fn, l := x.senderLoop(u.Sends[0])
	if l == nil {
		return false
	}
	loops := x.Loops(fn)
	weights := make(map[ssa.Instruction]int)
	perRun := make(map[*ssa.Function]map[ssa.Instruction]int) // literals started per trip
	for _, s := range u.Sends {
		at := s.Instr
		if s.Func != fn {
			at = x.startedPerTrip(fn, s.Func)
			if at == nil {
				return false
			}
			if perRun[s.Func] == nil {
				perRun[s.Func] = make(map[ssa.Instruction]int)
			}
			perRun[s.Func][s.Instr] = 1
		}
		b := at.Block()
		if s.Start != start || loops.Innermost(b) != l || loops.Depth(b) > 1 || !x.runsOnce(u, Site{Instr: at, Func: fn, Start: start}) {
			return false
		}
		weights[at] = 1
	}
	for lit, sends := range perRun {
		weights[x.startedPerTrip(fn, lit)] = x.runCount(lit, sends)
	}
	bound, k := scaled(size)
	if !boundedBy(l, bound) && !x.boundedByArg(l, bound, fn, start) {
		return false
	}
	once := func(b *ssa.BasicBlock) int {
		if l.Blocks[b] {
			return 1 // one trip
		}
		return loops.Trips(b, nil, Many)
	}
	return flow.MaxCount(fn, weights, once, Many) <= k
}

// boundedByArg reports whether the loop l of fn, which the owner's start
// runs, walks the slice whose length is the capacity n: the loop's bound
// is the length of a parameter to which start passes that slice.
//
//	ch := make(chan error, len(batches))
//	go e.startWorker(ch, batches) // for _, b := range batches { go ... }
func (x *Index) boundedByArg(l *flow.Loop, n ssa.Value, fn *ssa.Function, start ssa.Instruction) bool {
	lb, ok := flow.LoopBound(l).(*ssa.Call)
	size, ok2 := n.(*ssa.Call)
	if !ok || !ok2 || !IsLen(lb) || !IsLen(size) || start == nil || x.directCallee(start) != fn {
		return false
	}
	p, ok := lb.Call.Args[0].(*ssa.Parameter)
	if !ok || p.Parent() != fn {
		return false
	}
	args := start.(ssa.CallInstruction).Common().Args
	i := paramIndex(p)
	return i >= 0 && i < len(args) && SameValue(args[i], size.Call.Args[0])
}

// senderLoop returns the function whose loop bounds the sends, and that
// loop: the loop around the send s, or, for a send of a literal its
// function starts in a loop (a goroutine per batch), the loop around the
// start.
func (x *Index) senderLoop(s Site) (*ssa.Function, *flow.Loop) {
	if l := x.Loops(s.Func).Innermost(s.Instr.Block()); l != nil {
		return s.Func, l
	}
	fn := s.Func.Parent()
	if fn == nil {
		return nil, nil
	}
	at := x.startedPerTrip(fn, s.Func)
	if at == nil {
		return nil, nil
	}
	return fn, x.Loops(fn).Innermost(at.Block())
}

// startedPerTrip returns the one go statement of fn that starts the
// literal lit, when lit has no other use.
func (x *Index) startedPerTrip(fn, lit *ssa.Function) ssa.Instruction {
	sites, ok := x.callers(lit)
	if !ok || len(sites) != 1 || sites[0].Parent() != fn {
		return nil
	}
	if _, isGo := sites[0].(*ssa.Go); !isGo {
		return nil
	}
	return sites[0]
}

// scaled splits a capacity k*n (or n*k) with a positive constant k into n
// and k; any other capacity is itself times one. A loop that sends up to k
// values per trip (two requests per broker) sizes its buffer so.
func scaled(size ssa.Value) (ssa.Value, int) {
	if b, ok := size.(*ssa.BinOp); ok && b.Op == token.MUL {
		for _, pair := range [][2]ssa.Value{{b.X, b.Y}, {b.Y, b.X}} {
			if c, ok := pair[0].(*ssa.Const); ok && c.Value != nil {
				if k, ok := constant.Int64Val(constant.ToInt(c.Value)); ok && k > 0 && k < Many {
					return pair[1], int(k)
				}
			}
		}
	}
	return size, 1
}

// boundedBy reports whether loop l runs at most n times: its header tests
// i < n, or i < m with i counting up from s where n is m - s (spans), or
// it ranges over the map or string that n is the len of.
func boundedBy(l *flow.Loop, n ssa.Value) bool {
	if b := flow.LoopBound(l); b != nil {
		return SameValue(b, n) || spans(l, b, n)
	}
	size, ok := n.(*ssa.Call)
	if !ok || !IsLen(size) {
		return false
	}
	for _, instr := range l.Header.Instrs {
		if next, ok := instr.(*ssa.Next); ok {
			if rng, ok := next.Iter.(*ssa.Range); ok && SameValue(rng.X, size.Call.Args[0]) {
				return true
			}
		}
	}
	return false
}

// spans reports whether n is the number of trips of loop l, whose header
// tests i < m: i counts up by one from a start s, and n is m - s, or m
// where s is 0, on every path into the loop. A loop that starts where the
// last run stopped, or from zero when the count shrank, sizes its buffer
// with the same choice, made on the same branch:
//
//	t48 = phi [8: t14, 12: 0:int] #start
//	t49 = phi [8: t39, 12: t11] #toAdd    // t39 = t11 - t14
//	t51 = make chan T t49
//	for.loop:
//	t52 = phi [13: t48, 15: t57] #i       // t57 = t52 + 1:int
//	t53 = t52 < t11
//
// Such a loop runs m - s times, or not at all when m is below s (and then
// the make, with a negative size, would have panicked).
func spans(l *flow.Loop, m, n ssa.Value) bool {
	s := countedFrom(l)
	return s != nil && isDifference(n, m, s, 0)
}

// countedFrom returns the start of the counter that loop l's header tests
// against its bound (i < m), when it enters the loop with one value and
// each trip adds one to it; nil otherwise.
func countedFrom(l *flow.Loop) ssa.Value {
	cond, ok := l.Header.Instrs[len(l.Header.Instrs)-1].(*ssa.If)
	if !ok {
		return nil
	}
	cmp, ok := cond.Cond.(*ssa.BinOp)
	if !ok {
		return nil
	}
	i, ok := cmp.X.(*ssa.Phi)
	if !ok || i.Block() != l.Header {
		return nil
	}
	var start ssa.Value
	for k, e := range i.Edges {
		if l.Blocks[i.Block().Preds[k]] {
			if inc, ok := e.(*ssa.BinOp); !ok || inc.Op != token.ADD || inc.X != i || !isOne(inc.Y) {
				return nil
			}
			continue
		}
		if start != nil && start != e {
			return nil
		}
		start = e
	}
	return start
}

// isDifference reports whether n is m - s: the subtraction itself, m when
// s is 0, or, for phis of one block, the difference of their values on
// each edge into it.
func isDifference(n, m, s ssa.Value, depth int) bool {
	if isZero(s) && SameValue(n, m) {
		return true
	}
	switch n := n.(type) {
	case *ssa.BinOp:
		return n.Op == token.SUB && SameValue(n.X, m) && SameValue(n.Y, s)
	case *ssa.Phi:
		sp, ok := s.(*ssa.Phi)
		if !ok || sp.Block() != n.Block() || depth > 4 {
			return false
		}
		for k := range n.Edges {
			if !isDifference(n.Edges[k], m, sp.Edges[k], depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

func isOne(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Int && constant.Compare(c.Value, token.EQL, constant.MakeInt64(1))
}

// SameValue reports whether a and b denote the same value at run time as far
// as the IR shows: the same SSA value, len of the same value, or loads of
// the same field or global of the same value. A free variable stands for what its literal's one
// closure binds it to (bound), so two literals that capture one variable
// read the same value.
func SameValue(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	if ra, rb := bound(a), bound(b); ra != a || rb != b {
		return SameValue(ra, rb)
	}
	switch a := a.(type) {
	case *ssa.Call:
		b, ok := b.(*ssa.Call)
		return ok && IsLen(a) && IsLen(b) && SameValue(a.Call.Args[0], b.Call.Args[0])
	case *ssa.UnOp:
		b, ok := b.(*ssa.UnOp)
		return ok && a.Op == token.MUL && b.Op == token.MUL && SameValue(a.X, b.X)
	case *ssa.FieldAddr:
		b, ok := b.(*ssa.FieldAddr)
		return ok && a.Field == b.Field && SameValue(a.X, b.X)
	case *ssa.Const:
		b, ok := b.(*ssa.Const)
		return ok && a.Value != nil && b.Value != nil && constant.Compare(a.Value, token.EQL, b.Value)
	case *ssa.Convert:
		b, ok := b.(*ssa.Convert)
		return ok && SameValue(a.X, b.X)
	}
	return false
}

// bound returns what a free variable is bound to, through enclosing
// literals, when each literal has one closure, made outside its parent's
// loops: its instances are then the closures of one activation of the
// parent, which the pass takes the literals it compares to share, as a
// function's literals that capture the same variable and are handed to one
// another do. Any other value is itself.
//
//	t5 = new Options (opt)                           // in SubtestStress
//	t17 = make closure SubtestStress$2 [t5, ...]     // opt in $2 is t5
//	t21 = make closure SubtestStress$4 [t0, t5, ...] // opt in $4 is t5
func bound(v ssa.Value) ssa.Value {
	for range maxDepth {
		fv, ok := v.(*ssa.FreeVar)
		if !ok {
			return v
		}
		mc := onlyClosure(fv.Parent())
		if mc == nil {
			return v
		}
		i := slices.Index(fv.Parent().FreeVars, fv)
		if i < 0 || i >= len(mc.Bindings) {
			return v
		}
		v = mc.Bindings[i]
	}
	return v
}

// onlyClosure returns the one closure of the function literal fn, when it
// is made once per run of its parent: outside the parent's loops.
func onlyClosure(fn *ssa.Function) *ssa.MakeClosure {
	refs := fn.Referrers()
	if refs == nil {
		return nil
	}
	var only *ssa.MakeClosure
	for _, ref := range *refs {
		mc, ok := ref.(*ssa.MakeClosure)
		if !ok || only != nil || flow.Reaches(mc, mc) {
			return nil
		}
		only = mc
	}
	return only
}

// IsLen reports whether c is a call of the builtin len.
func IsLen(c *ssa.Call) bool {
	b, ok := c.Call.Value.(*ssa.Builtin)
	return ok && b.Name() == "len" && len(c.Call.Args) == 1
}

// ConstCap returns the capacity of mk when it is a constant, and 0 when it
// is not known.
func ConstCap(mk *ssa.MakeChan) int {
	n, _ := constCap(mk)
	return n
}

// ConstCapOK returns the capacity of mk and whether it is a constant.
func ConstCapOK(mk *ssa.MakeChan) (int, bool) { return constCap(mk) }

// constCap returns the capacity of mk when it is a constant.
func constCap(mk *ssa.MakeChan) (int, bool) {
	c, ok := mk.Size.(*ssa.Const)
	if !ok || c.Value == nil {
		return 0, false
	}
	n, ok := constant.Int64Val(constant.ToInt(c.Value))
	return int(n), ok
}

// CapString describes the capacity of mk for a message: "cap 1000",
// "cap len(xs)", or "" when it is not worth printing.
func CapString(mk *ssa.MakeChan) string {
	if n, ok := constCap(mk); ok {
		if n == 0 {
			return "unbuffered"
		}
		return "cap " + itoa(n)
	}
	return ""
}

// ShippedMakes returns the makes outside _test.go files, or all of them
// when every one is in a test file: a field that tests fill with channels
// of their own still holds, in the code that ships, only those its own
// code makes.
func ShippedMakes(makes []*ssa.MakeChan) []*ssa.MakeChan {
	var out []*ssa.MakeChan
	for _, mk := range makes {
		if !InTestFile(mk) {
			out = append(out, mk)
		}
	}
	if len(out) == 0 {
		return makes
	}
	return out
}

// join joins names as prose: "a", "a or b", "a, b or c".
func join(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func itoa(n int) string { return constant.MakeInt64(int64(n)).String() }

// MadeRoom reports whether the send at instr on ch follows, on every path,
// a non-blocking receive from the same channel: the idiom that keeps only
// the latest value in a buffered channel.
//
//	select {
//	case <-ch:   // t3 = select nonblocking [<-t1] (index int, ok bool, T)
//	default:
//	}
//	ch <- v
//
// After the select the buffer has a free slot, unless another goroutine
// filled it in between; the senders of such channels hold a common lock.
func MadeRoom(instr ssa.Instruction, ch ssa.Value) bool {
	return flow.Before(instr, func(x ssa.Instruction) bool {
		sel, ok := x.(*ssa.Select)
		if !ok || sel.Blocking {
			return false
		}
		for _, st := range sel.States {
			if st.Dir == types.RecvOnly && SameValue(st.Chan, ch) {
				return true
			}
		}
		return false
	})
}

// SettledCap returns mk's capacity when it is a constant, or a package
// variable that shipped code never assigns after its initializer gave it
// a constant (tests may change it to exercise a small queue):
//
//	var queueSize = 1000000
//	openerCh: make(chan struct{}, queueSize)
func (x *Index) SettledCap(mk *ssa.MakeChan) (int, bool) {
	if n, ok := constCap(mk); ok {
		return n, true
	}
	load, ok := mk.Size.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return 0, false
	}
	g, ok := load.X.(*ssa.Global)
	if !ok || g.Pkg != x.pkg {
		return 0, false
	}
	init := x.pkg.Func("init")
	for _, st := range x.globalSts[g] {
		if st.Parent() != init && !InTestFile(st) {
			return 0, false
		}
	}
	return initialConst(init, g)
}

// initialConst returns the constant the package initializer init stores
// into g, if that is the one store it makes there.
func initialConst(init *ssa.Function, g *ssa.Global) (int, bool) {
	if init == nil {
		return 0, false
	}
	n, found := 0, false
	for _, b := range init.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || st.Addr != g {
				continue
			}
			c, ok := st.Val.(*ssa.Const)
			if !ok || c.Value == nil || found {
				return 0, false
			}
			v, ok := constant.Int64Val(constant.ToInt(c.Value))
			if !ok {
				return 0, false
			}
			n, found = int(v), true
		}
	}
	return n, found
}

// EscapedBefore reports whether the channel may have left the owner's
// hands (passed, returned or stored) before instr, an instruction of the
// owner, runs.
func (x *Index) EscapedBefore(u *Uses, instr ssa.Instruction) bool { return x.afterEscape(u, instr) }
