package chans

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// Stoppers returns the instructions that can make the receiver r stop for
// good, when the pass can name every one: each return of r's function
// that r can reach must follow a select case on
//
//   - a stop channel loaded from a field: its closes and sends stop r,
//     unless r's function closes it itself, which it does only after a
//     request it received (below);
//   - the Done of the context r's function runs with, made by
//     context.WithCancel from a root context, its cancel kept in a field
//     or called where it is made: the calls of that cancel stop r;
//   - r's own channel, on the branch where the value received passes a
//     type assertion (case *closeRequest: return): the sends of values of
//     that type on the channel's field stop r;
//   - any channel kept in a field, on the branch its case takes when the
//     channel is closed (case v, ok := <-p.data: if !ok { return }): its
//     closes stop r, and its sends do not.
//
// ok is false when a return follows none of these (a timer, a context
// of unknown make, a value-decided return without a type, a receive
// loop that returns when a write fails).
//
//	case <-pc.closeCh:            // closed only in internalClose, called below
//		return
//	case event := <-pc.eventsCh:  // r
//		switch v := event.(type) {
//		case *closeRequest:       // t9 = typeassert,ok t5.(*closeRequest)
//			pc.internalClose(v)
//			return                // stopped by each send of a *closeRequest on eventsCh
//		}
func (x *Index) Stoppers(r Site) ([]ssa.Instruction, bool) {
	fn := r.Func
	var out []ssa.Instruction
	var requests []types.Type
	for _, b := range fn.Blocks {
		ret, isRet := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !isRet || !flow.Reaches(r.Instr, ret) {
			continue
		}
		sel, k, to, ok := decidingCase(b)
		if !ok {
			return nil, false
		}
		caseCh := sel.States[k].Chan
		if onClosedBranch(sel, k, b) {
			// Only a close of the case's channel leads here, whichever
			// channel it is: its sends do not.
			f := onlyField(x.Origins(caseCh))
			if !x.keptInPlace(f) {
				return nil, false
			}
			for _, c := range x.allCloses(f) {
				out = append(out, c)
			}
			continue
		}
		if sel == r.Instr && k == r.State || SameValue(caseCh, RecvChan(r)) {
			t := assertedOn(received(sel, k), b, to)
			if t == nil {
				return nil, false
			}
			requests = append(requests, t)
			continue
		}
		if f := LoadedField(caseCh); f != nil {
			own, ok := x.stopChanStoppers(f, r, &out)
			if !ok {
				return nil, false
			}
			requests = append(requests, own...)
			continue
		}
		if !x.cancelStoppers(caseCh, fn, &out) {
			return nil, false
		}
	}
	if len(requests) > 0 {
		f := LoadedField(RecvChan(r))
		if !x.keptInPlace(f) {
			return nil, false
		}
		isRequest := func(instr ssa.Instruction, ch ssa.Value) bool {
			v := sentValue(instr, ch)
			return v != nil && slices.ContainsFunc(requests, func(t types.Type) bool { return types.Identical(t, v.Type()) })
		}
		x.sendsOnField(f, func(instr ssa.Instruction, ch ssa.Value) {
			if isRequest(instr, ch) {
				out = append(out, instr)
			}
		})
		for _, mk := range x.FieldMakes(f) {
			for _, s := range x.Uses(mk).Sends {
				if isRequest(s.Instr, sentOn(s)) && !slices.Contains(out, s.Instr) {
					out = append(out, s.Instr)
				}
			}
		}
	}
	return out, true
}

// onClosedBranch reports whether the block b lies on the branch case k of
// sel takes when its channel is closed (case v, ok := <-c.in: if !ok {...}).
func onClosedBranch(sel *ssa.Select, k int, b *ssa.BasicBlock) bool {
	e, found := CaseEdge(sel, k)
	if !found {
		return false
	}
	closed := make(map[flow.Edge]bool)
	for _, ref := range *sel.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && ex.Index == 1 && e.To.Dominates(ex.Block()) {
			okBranches(ex, true, closed)
		}
	}
	for edge := range closed {
		if len(edge.To.Preds) == 1 && edge.To.Dominates(b) {
			return true
		}
	}
	return false
}

// decidingCase returns the select case whose branch b lies on, the
// nearest one when selects nest, with the block its branch enters.
//
//	t3 = select blocking [<-t1, <-t2]
//	t4 = extract t3 #0
//	t5 = t4 == 0:int
//	if t5 goto 4 else 5     // 4 dominates b: case 0
func decidingCase(b *ssa.BasicBlock) (sel *ssa.Select, k int, to *ssa.BasicBlock, ok bool) {
	RecvCases(b.Parent(), func(s *ssa.Select, i int) {
		e, found := CaseEdge(s, i)
		if found && len(e.To.Preds) == 1 && e.To.Dominates(b) && (to == nil || to.Dominates(e.To)) {
			sel, k, to, ok = s, i, e.To, true
		}
	})
	return sel, k, to, ok
}

// received returns the value case k of sel receives, or nil when the
// code never reads it.
//
//	t5 = extract t3 #2    // the first receive case's value
func received(sel *ssa.Select, k int) ssa.Value {
	n := 2
	for i := range k {
		if sel.States[i].Dir == types.RecvOnly {
			n++
		}
	}
	for _, ref := range *sel.Referrers() {
		if e, ok := ref.(*ssa.Extract); ok && e.Index == n {
			return e
		}
	}
	return nil
}

// assertedOn returns the type that v, a received value, is asserted to on
// the branch b lies on, between the case's block to and b.
//
//	t9 = typeassert,ok t5.(*closeRequest)
//	t10 = extract t9 #1
//	if t10 goto 12 else 13    // 12 dominates b
func assertedOn(v ssa.Value, b, to *ssa.BasicBlock) types.Type {
	if v == nil {
		return nil
	}
	for d := b; d != nil && to.Dominates(d); d = d.Idom() {
		if len(d.Instrs) == 0 || len(d.Succs) != 2 {
			continue
		}
		cond, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		okv, ok := cond.Cond.(*ssa.Extract)
		if !ok || okv.Index != 1 {
			continue
		}
		ta, ok := okv.Tuple.(*ssa.TypeAssert)
		if !ok || !ta.CommaOk || ta.X != v || !d.Succs[0].Dominates(b) {
			continue
		}
		if _, isIface := ta.AssertedType.Underlying().(*types.Interface); isIface {
			return nil
		}
		return ta.AssertedType
	}
	return nil
}

// stopChanStoppers adds the closes and sends of the stop channel field f
// to out. A close that r's function makes itself, directly or through a
// function only it calls, is no one else's doing: it follows a request r
// received, whose type it returns instead.
func (x *Index) stopChanStoppers(f *types.Var, r Site, out *[]ssa.Instruction) ([]types.Type, bool) {
	if !x.keptInPlace(f) {
		return nil, false
	}
	var requests []types.Type
	for _, c := range x.closesOf(f) {
		sites, own := x.ownCalls(c, r.Func)
		if !own {
			*out = append(*out, c)
			continue
		}
		for _, s := range sites {
			sel, k, to, ok := decidingCase(s.Block())
			if !ok {
				return nil, false
			}
			t := assertedOn(received(sel, k), s.Block(), to)
			if t == nil || !SameValue(sel.States[k].Chan, RecvChan(r)) {
				return nil, false
			}
			requests = append(requests, t)
		}
	}
	x.sendsOnField(f, func(instr ssa.Instruction, _ ssa.Value) { *out = append(*out, instr) })
	for _, mk := range x.FieldMakes(f) {
		for _, s := range x.Uses(mk).Sends {
			*out = append(*out, s.Instr)
		}
	}
	return requests, true
}

// ownCalls reports whether instr runs only in fn, or in a function that
// only fn calls, and returns where in fn it is reached from.
func (x *Index) ownCalls(instr ssa.Instruction, fn *ssa.Function) ([]ssa.Instruction, bool) {
	g := instr.Parent()
	if g == fn {
		return []ssa.Instruction{instr}, true
	}
	sites, ok := x.callers(g)
	if !ok || len(sites) == 0 {
		return nil, false
	}
	var out []ssa.Instruction
	for _, s := range sites {
		if s.Parent() != fn {
			return nil, false
		}
		if _, isCall := s.(*ssa.Call); !isCall {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// cancelStoppers adds the calls of the cancel func of the context whose
// Done ch is to out: a parameter of fn, passed by every start of fn a
// context made by context.WithCancel from context.Background or TODO,
// with its cancel stored in a field (every call of that field's func
// value) or called where it is made.
//
//	ctx, cancel := context.WithCancel(context.Background())
//	db := &DB{..., stop: cancel}
//	go db.connectionOpener(ctx)
func (x *Index) cancelStoppers(ch ssa.Value, fn *ssa.Function, out *[]ssa.Instruction) bool {
	done, ok := ch.(*ssa.Call)
	if !ok || !done.Call.IsInvoke() || done.Call.Method.Name() != "Done" {
		return false
	}
	p, ok := done.Call.Value.(*ssa.Parameter)
	if !ok || p.Parent() != fn {
		return false
	}
	i := paramIndex(p)
	entries, ok := x.entries(fn)
	if !ok || len(entries) == 0 {
		return false
	}
	for _, e := range entries {
		call, ok := e.(ssa.CallInstruction)
		if !ok || call.Common().StaticCallee() != fn || i >= len(call.Common().Args) {
			return false
		}
		if !x.cancelsOf(call.Common().Args[i], out) {
			return false
		}
	}
	return true
}

// cancelsOf adds the calls of the cancel func paired with ctx to out,
// when ctx is the context context.WithCancel made from a root context.
func (x *Index) cancelsOf(ctx ssa.Value, out *[]ssa.Instruction) bool {
	e, ok := ctx.(*ssa.Extract)
	if !ok || e.Index != 0 {
		return false
	}
	mk, ok := e.Tuple.(*ssa.Call)
	if !ok || !isContextFunc(mk.Call.StaticCallee(), "WithCancel", "WithCancelCause") || !isRootContext(mk.Call.Args[0]) {
		return false
	}
	for _, ref := range *mk.Referrers() {
		if cancel, ok := ref.(*ssa.Extract); ok && cancel.Index == 1 && !x.cancelCalls(cancel, out, 0) {
			return false
		}
	}
	return true
}

// cancelCalls adds the calls of the cancel func v to out: where it is
// called, and, when it is stored in a field, every call of that field's
// func values. It reports false for any other use.
func (x *Index) cancelCalls(v ssa.Value, out *[]ssa.Instruction, depth int) bool {
	if depth > 2 {
		return false
	}
	for _, use := range *v.Referrers() {
		switch u := use.(type) {
		case *ssa.DebugRef:
		case *ssa.ChangeType: // context.CancelFunc to func()
			if !x.cancelCalls(u, out, depth+1) {
				return false
			}
		case *ssa.Store:
			addr, ok := u.Addr.(*ssa.FieldAddr)
			if !ok || u.Val != v {
				return false
			}
			calls, ok := x.funcFieldCalls(FieldOf(addr.X.Type(), addr.Field, true))
			if !ok {
				return false
			}
			*out = append(*out, calls...)
		case ssa.CallInstruction:
			if u.Common().Value != v {
				return false
			}
			*out = append(*out, u)
		default:
			return false
		}
	}
	return true
}

func isContextFunc(fn *ssa.Function, names ...string) bool {
	return fn != nil && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "context" && slices.Contains(names, fn.Name())
}

// isRootContext reports whether v is context.Background() or TODO(),
// which no one cancels.
func isRootContext(v ssa.Value) bool {
	c, ok := v.(*ssa.Call)
	return ok && isContextFunc(c.Call.StaticCallee(), "Background", "TODO")
}

// funcFieldCalls returns the calls of func values loaded from the field f
// (s.stop(), defer s.stop()), when f is unexported and its loads are
// only called.
func (x *Index) funcFieldCalls(f *types.Var) ([]ssa.Instruction, bool) {
	if f == nil || f.Exported() {
		return nil, false
	}
	var out []ssa.Instruction
	for _, load := range x.fieldLoads()[f] {
		for _, ref := range *load.Referrers() {
			call, ok := ref.(ssa.CallInstruction)
			if _, dbg := ref.(*ssa.DebugRef); dbg {
				continue
			}
			if !ok || call.Common().Value != load || slices.Contains(call.Common().Args, ssa.Value(load)) {
				return nil, false
			}
			out = append(out, call)
		}
	}
	return out, true
}

// sentValue returns the value the send instr (or the select's send case on
// ch) sends, with any conversion to an interface stripped.
func sentValue(instr ssa.Instruction, ch ssa.Value) ssa.Value {
	var v ssa.Value
	switch s := instr.(type) {
	case *ssa.Send:
		v = s.X
	case *ssa.Select:
		for _, st := range s.States {
			if st.Dir == types.SendOnly && st.Chan == ch {
				v = st.Send
			}
		}
	}
	if mi, ok := v.(*ssa.MakeInterface); ok {
		return mi.X
	}
	return v
}

// keptInPlace reports whether every use of the channels held in the field
// f is in sight: f is unexported, the channels stored there are made here
// and escape nowhere, and every load of f is received from, sent on,
// closed, measured, compared, or handed to this package's own functions,
// whose uses of it Origins follows. Only then are the closes and sends the
// index finds on f all there are.
func (x *Index) keptInPlace(f *types.Var) bool {
	if f == nil || f.Exported() {
		return false
	}
	if ok, seen := x.inPlace[f]; seen {
		return ok
	}
	// Tests may make and read the channel their own way: what they do
	// is no use the shipped code makes of it.
	ok := true
	for _, st := range x.fieldSts[f] {
		if InTestFile(st) {
			continue
		}
		switch v := st.Val.(type) {
		case *ssa.MakeChan:
			if len(x.Uses(v).Escapes) > 0 {
				ok = false
			}
		case *ssa.Const: // nil
		default:
			ok = false
		}
	}
	for _, load := range x.fieldLoads()[f] {
		if !ok {
			break
		}
		if InTestFile(load) {
			continue
		}
		for _, ref := range *load.Referrers() {
			if !x.inPlaceUse(ref, load, 0) {
				ok = false
				break
			}
		}
	}
	x.inPlace[f] = ok
	return ok
}

// inPlaceUse reports whether ref uses the channel v where the index sees
// it: see keptInPlace. A phi that merges it into a local variable (var q
// chan T; if ready { q = c.queue }) is in place when the variable's uses
// are.
func (x *Index) inPlaceUse(ref ssa.Instruction, v ssa.Value, depth int) bool {
	switch r := ref.(type) {
	case *ssa.Phi:
		if depth > 2 {
			return false
		}
		for _, use := range *r.Referrers() {
			if use != ref && !x.inPlaceUse(use, r, depth+1) {
				return false
			}
		}
		return true
	case *ssa.DebugRef, *ssa.Select, *ssa.Send, *ssa.BinOp:
		return true
	case *ssa.UnOp:
		return r.Op == token.ARROW
	case ssa.CallInstruction:
		cc := r.Common()
		if b, ok := cc.Value.(*ssa.Builtin); ok {
			return b.Name() == "close" || b.Name() == "len" || b.Name() == "cap"
		}
		callee := cc.StaticCallee()
		return callee != nil && callee.Pkg == x.pkg && cc.Value != v
	}
	return false
}

// fieldLoads returns the loads of each field in the package.
func (x *Index) fieldLoads() map[*types.Var][]*ssa.UnOp {
	if x.loads != nil {
		return x.loads
	}
	x.loads = make(map[*types.Var][]*ssa.UnOp)
	x.inPlace = make(map[*types.Var]bool)
	for _, fn := range x.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				load, ok := instr.(*ssa.UnOp)
				if !ok || load.Op != token.MUL {
					continue
				}
				if addr, ok := load.X.(*ssa.FieldAddr); ok {
					if f := FieldOf(addr.X.Type(), addr.Field, true); f != nil {
						x.loads[f] = append(x.loads[f], load)
					}
				}
			}
		}
	}
	return x.loads
}

// closesOf returns every close of a channel held in f: of a load of it,
// of a value whose origin is f, or of a channel made here and stored
// there.
func (x *Index) closesOf(f *types.Var) []ssa.Instruction {
	if out, ok := x.closes[f]; ok {
		return out
	}
	var out []ssa.Instruction
	for _, fn := range x.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				if bi, ok := call.Call.Value.(*ssa.Builtin); ok && bi.Name() == "close" && x.fromField(call.Call.Args[0], f) {
					out = append(out, call)
				}
			}
		}
	}
	for _, mk := range x.FieldMakes(f) {
		for _, c := range x.Uses(mk).Closes {
			if !slices.Contains(out, c.Instr) {
				out = append(out, c.Instr)
			}
		}
	}
	if x.closes == nil {
		x.closes = make(map[*types.Var][]ssa.Instruction)
	}
	x.closes[f] = out
	return out
}

// StopsOnlyOn reports whether the receiver r stops only on the value the
// send at instr makes, once per run: every stopper of r (Stoppers) is that
// send, and the send cannot run again before its function returns. A
// Close that hands its loop a close request is the common case:
//
//	func (c *consumer) Close() {
//		if c.state() != ready {
//			return
//		}
//		req := &closeRequest{done: make(chan struct{})}
//		c.events <- req // the loop returns only after taking a closeRequest
//		<-req.done
//	}
//
// For such a send to find r gone, r must have taken the value of an
// earlier run of this same send: it blocks only when its function runs
// twice for one channel (a second Close), which the receiver's own stop
// says nothing about.
func (x *Index) StopsOnlyOn(r Site, instr ssa.Instruction) bool {
	if flow.Reaches(instr, instr) {
		return false // a loop of stop requests: the second finds r gone
	}
	stoppers, named := x.Stoppers(r)
	if !named || len(stoppers) == 0 {
		return false
	}
	for _, s := range stoppers {
		if s != instr {
			return false
		}
	}
	return true
}

// StopsCloseIt reports whether every stop of the receiver r (Stoppers)
// either is the send instr itself, made once per run of its function, or
// closes a channel in a function that closes instr's channel too, on
// every way out after the stop (a deferred close counts). A producer's
// loop that returns on its own close request, or when its input channels
// are closed together:
//
//	func (p *producer) shutdown() {
//		defer close(p.data)   // a stop of the loop
//		defer close(p.cmds)   // and the channel Close sends on
//		...
//	}
//
// A send left behind by any of those stops is woken by the close and
// panics, or was the stop itself: it does not wait for good. A send that
// loops (a flush polling the loop until its buffer is empty) is woken by
// the close on every trip; only a send that is itself a stop must run
// once, for its second run finds r gone.
func (x *Index) StopsCloseIt(r Site, instr ssa.Instruction, ch ssa.Value) bool {
	f := onlyField(x.Origins(ch))
	if f == nil || !x.keptInPlace(f) {
		return false
	}
	stoppers, named := x.Stoppers(r)
	if !named || len(stoppers) == 0 {
		return false
	}
	for _, s := range stoppers {
		if s == instr && flow.Reaches(instr, instr) {
			return false
		}
		if s != instr && !x.closesAfter(s, f) {
			return false
		}
	}
	return true
}

// closesAfter reports whether s closes a channel held in f, or is a close
// whose function closes one, or defers that close, on every path from s
// to a return, or deferred it on every path to s.
func (x *Index) closesAfter(s ssa.Instruction, f *types.Var) bool {
	call, ok := s.(ssa.CallInstruction)
	if !ok || !isClose(call) {
		return false
	}
	closesF := func(i ssa.Instruction) bool {
		c, ok := i.(ssa.CallInstruction)
		return ok && isClose(c) && x.fromField(c.Common().Args[0], f)
	}
	if closesF(s) {
		return true
	}
	for _, b := range s.Parent().Blocks {
		for _, i := range b.Instrs {
			if _, deferred := i.(*ssa.Defer); deferred && closesF(i) && b.Dominates(s.Block()) && (b != s.Block() || flow.IndexOf(i) < flow.IndexOf(s)) {
				return true
			}
		}
	}
	open := flow.Path{Stop: closesF}
	return !open.ReturnReachable(s.Block(), flow.IndexOf(s))
}

func isClose(call ssa.CallInstruction) bool {
	b, ok := call.Common().Value.(*ssa.Builtin)
	return ok && b.Name() == "close"
}
