package chans

import (
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// maxOnceDepth bounds how many calls StartedWith follows back from a
// receiver to the function that made its channel: a connection's reader
// may be started a handful of calls into the handshake.
const maxOnceDepth = 6

// StartedWith reports whether fn runs once for each call of owner, the
// function that made the channel: every way fn is started or called (a go
// statement, a static call, a function literal handed to another function,
// as a goroutine pool's Go takes one) is outside loops, and lies in owner,
// in a function that itself runs once per call of owner, or in one called
// alongside owner (startedAlongside). A consumer started with the channel
// it reads is that channel's one consumer: when it stops, no later run of
// it will receive again. A method called once per request (a Call that
// waits for its reply, a Reserve that waits for a slot) can give up in one
// call and receive in the next, and a goroutine started per request is
// one of many.
func (x *Index) StartedWith(fn, owner *ssa.Function) bool {
	return x.startedWith(fn, owner, 0)
}

func (x *Index) startedWith(fn, owner *ssa.Function, depth int) bool {
	if depth > maxOnceDepth {
		return false
	}
	entries, ok := x.entries(fn)
	if !ok || len(entries) == 0 {
		return false
	}
	for _, e := range entries {
		// A call in a loop runs fn again: a reader that waits for each
		// request's write in turn.
		g := e.Parent()
		if x.Loops(g).InLoop(e.Block()) {
			return false
		}
		if g != owner && !x.startedAlongside(g, owner) && !x.startedWith(g, owner, depth+1) {
			return false
		}
	}
	return true
}

// entries returns the instructions through which fn starts running: its
// static calls and go statements, and, for a function literal, the calls
// that take it (as their callee or as an argument, to run it later). ok is
// false when a literal is also kept somewhere the index does not follow.
func (x *Index) entries(fn *ssa.Function) (entries []ssa.Instruction, ok bool) {
	for _, c := range x.calls[fn] {
		entries = append(entries, c)
	}
	for _, g := range x.goStarts[fn] {
		if _, static := g.Call.Value.(*ssa.Function); !static {
			entries = append(entries, g) // go func() {...}(): not in calls
		}
	}
	for _, mc := range x.closures[fn] {
		if !handedTo(mc, &entries, 0) {
			return nil, false
		}
	}
	return entries, true
}

// handedTo adds the calls that take the function value v (a closure, or a
// conversion of it to a named func type) to entries, and reports whether
// those are all its uses.
func handedTo(v ssa.Value, entries *[]ssa.Instruction, depth int) bool {
	for _, ref := range *v.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Go:
			if ref.Call.Value != v {
				*entries = append(*entries, ref)
			} // else counted with goStarts
		case ssa.CallInstruction:
			*entries = append(*entries, ref)
		case *ssa.ChangeType:
			if depth > 2 || !handedTo(ref, entries, depth+1) {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// startedAlongside reports whether start (a function holding a go
// statement, or a receive loop) is called only where owner is called too,
// outside loops: a Start method called right after the constructor that
// made the channel.
//
//	r.configSubmitter = newConfigSubmitter(...) // owner: makes the channel
//	r.configSubmitter.Start()                   // start: go cs.readConfigRequests()
func (x *Index) startedAlongside(start, owner *ssa.Function) bool {
	// An exported Start may be called by other packages as well; the
	// calls this package shows decide, as they do for the constructor.
	sites := x.calls[start]
	if len(sites) == 0 {
		return false
	}
	for _, call := range sites {
		caller := call.Parent()
		if x.Loops(caller).InLoop(call.Block()) || !calls(caller, owner) {
			return false
		}
	}
	return true
}

// calls reports whether fn calls callee statically.
func calls(fn, callee *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok && c.Common().StaticCallee() == callee {
				return true
			}
		}
	}
	return false
}

// RunsOncePerChannel reports whether the receive site r, of a channel made
// by one of makes, runs at most once for each channel made: it is in the
// function that made the channel, or in a function that function starts or
// calls outside its loops (Uses records that path in r.Start), or on a
// goroutine that function starts with it (StartedWith), or called right
// after it by the same caller (a term's setup makes the channel, and the
// term's loop, called next, receives from it). After such a
// receiver has stopped, nothing else the package shows receives from that
// channel again.
func (x *Index) RunsOncePerChannel(r Site, makes []*ssa.MakeChan) bool {
	if r.Start != nil {
		return !x.Loops(r.Start.Parent()).InLoop(r.Start.Block())
	}
	for _, mk := range makes {
		if r.Func == mk.Parent() || x.StartedWith(r.Func, mk.Parent()) || x.startedAlongside(r.Func, mk.Parent()) {
			return true
		}
	}
	return false
}

// goEntry returns the function a go statement starts, when it is static:
// go f(x), go s.m(x), go func() {...}().
func goEntry(g *ssa.Go) *ssa.Function { return literal(g.Call.Value) }

// HandedOutInLoop reports whether the function that made mk hands the
// channel on inside a loop that does not make it anew: it passes it to a
// call, stores it, binds it in a closure or sends it, once per iteration.
// Each hand-off is another party that may send on the one channel, as a
// stream handler registers its client's reply channel with every request:
//
//	feedback := make(chan Response, 1000)
//	for {
//		req, err := stream.Recv()
//		...
//		r.route(newTrackedRequest(req, feedback))
//	}
func (x *Index) HandedOutInLoop(mk *ssa.MakeChan) bool {
	loops := x.Loops(mk.Parent())
	return handedOut(mk, func(b *ssa.BasicBlock) bool {
		// The innermost loop around b is the one to ask: if it holds the
		// make, so does every loop around it.
		l := loops.Innermost(b)
		return l != nil && !l.Blocks[mk.Block()]
	}, 0)
}

// handedOut reports whether v, or a conversion of it, is handed on in a
// block for which inLoop holds.
func handedOut(v ssa.Value, inLoop func(*ssa.BasicBlock) bool, depth int) bool {
	if depth > 3 {
		return false
	}
	for _, ref := range *v.Referrers() {
		switch r := ref.(type) {
		case *ssa.ChangeType:
			if handedOut(r, inLoop, depth+1) {
				return true
			}
		case *ssa.Call, *ssa.Go, *ssa.Store, *ssa.MakeClosure, *ssa.MakeInterface, *ssa.Send:
			if inLoop(ref.Block()) {
				return true
			}
		}
	}
	return false
}

// RunningAt says why the receiver r of a channel made by one of makes
// cannot have stopped when send runs, or returns "":
//
//   - the send is the receiver's own: r's function runs once per channel
//     and makes the send, itself or through a function only it calls, so
//     while the sender runs the receiver has not returned (a loop that
//     queues its own errors to itself; whether it can fill its own buffer
//     is SelfFill's question);
//   - the receiver is started after the send: the function that makes
//     the channel sends on it before its go statement starts r's
//     function, so at the send the receiver has not begun.
//
// A receiver that is running cannot be the one that went away, nor can a
// goroutine that has not started hold a lock the sender waits for.
func (x *Index) RunningAt(r Site, send ssa.Instruction, makes []*ssa.MakeChan) string {
	fn := send.Parent()
	if x.OnReceiverGoroutine(r, send) != nil && x.RunsOncePerChannel(r, makes) {
		return "its receiver is the sending goroutine itself, which cannot have stopped while it sends"
	}
	if !slices.ContainsFunc(makes, func(mk *ssa.MakeChan) bool { return mk.Parent() == fn }) {
		return ""
	}
	entries, ok := x.entries(r.Func)
	if !ok || len(entries) == 0 {
		return ""
	}
	for _, e := range entries {
		// Every start is a go statement of the sender's function that
		// only the send can precede: none comes first on any path.
		if _, isGo := e.(*ssa.Go); !isGo || e.Parent() != fn || flow.Reaches(e, send) || !flow.Reaches(send, e) {
			return ""
		}
	}
	return "its receiver is started only after this send, so it cannot have stopped yet"
}

// RunUntilDone returns the instruction that hands the receiver r's
// function to its runner, when the runner makes r the channel's last
// receiver once r gives up on its context: r gives up on the Done of the
// context its function is run with, and the function is an unexported
// method run only through its method values, each taken in the function
// that made the channel (or in one called alongside it, as a Start after
// the constructor) and run once or until its context is done. The
// method's return on that context is then final: no run of it receives
// again.
//
//	l.Service = util.AsService(l.serve, l.String()) // t9 = make closure (*logger).serve$bound [t0]
func (x *Index) RunUntilDone(r Site, makes []*ssa.MakeChan) (ssa.Instruction, bool) {
	fn := r.Func
	obj := fn.Object()
	if fn.Pkg != x.pkg || fn.Parent() != nil || obj == nil || fn.Signature.Recv() == nil ||
		obj.Exported() || x.escaped[fn] || x.thunked[obj] || x.invokedAs(fn) ||
		fn.TypeParams().Len() > 0 || isGenericRecv(fn) || len(x.calls[fn]) > 0 || len(x.boundVals[obj]) == 0 {
		return nil, false
	}
	ctx := runCtx(fn)
	if ctx == nil || !x.givesUpOn(r, ctx) {
		return nil, false
	}
	var at ssa.Instruction
	for _, mc := range x.boundVals[obj] {
		if !x.madeBy(mc.Parent(), makes) {
			return nil, false
		}
		rr, ok := x.onlyRun(mc, mc.Parent(), runOnce, 0)
		if !ok || rr.mode == runUnknown {
			return nil, false
		}
		if at == nil {
			at = rr.at
		}
	}
	return at, true
}

// madeBy reports whether h is a function that made one of the channels,
// or one called alongside it.
func (x *Index) madeBy(h *ssa.Function, makes []*ssa.MakeChan) bool {
	for _, mk := range makes {
		if h == mk.Parent() || x.startedAlongside(h, mk.Parent()) {
			return true
		}
	}
	return false
}

// givesUpOn reports whether r's function can return, without receiving
// again, after a select case on ctx.Done().
func (x *Index) givesUpOn(r Site, ctx ssa.Value) bool {
	return slices.ContainsFunc(x.giveUpCases(r), func(ch ssa.Value) bool { return ctxCall(ch, "Done", ctx) })
}
