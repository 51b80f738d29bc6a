package chans

import (
	"cmp"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// A receiver that its shutdown stops only after waiting for the
// goroutines that send to it outlives them, and cannot be the receiver
// that leaves one of their sends waiting:
//
//	func (s *server) Close() {
//		s.workers.Wait()   // every worker has returned ...
//		close(s.done)      // ... before the loop that drains their results stops
//	}
//	func (s *server) work() {
//		defer s.workers.Done()
//		s.results <- compute()
//	}
//	func (s *server) loop() {
//		for {
//			select {
//			case r := <-s.results:
//				s.record(r)
//			case <-s.done:
//				return
//			}
//		}
//	}
//
// The receiver's stop may also be a method of a value kept in a field
// (closer.HasBeenClosed()); then every call on that value outside the
// receiver may be its signal, and each must come after the wait.

// StopsAfterSenders says why the receiver r is not shown to stop while
// the send is still to be made, or returns "": every way r's function
// leaves its receive loop is a stop case, and a stop is signalled, in
// some function, only after that function waits (on every path, before
// the signal; or in every caller, before the call) for a group of
// goroutines that counts one on which the send runs. When every signal
// waits so, and the group counts every goroutine that makes the send, r
// outlives its senders, unless one is started after the wait, which the
// pass cannot rule out; when only some do, the order shown is the
// shutdown's design, and the rest is for a reader to check.
func (x *Index) StopsAfterSenders(r Site, send ssa.Instruction) string {
	signals, ok := x.stopSignals(r)
	if !ok {
		return ""
	}
	roots := x.senderRoots(send.Parent(), 0, make(map[*ssa.Function]bool))
	some := ""
	for _, g := range x.countingGroups(roots) {
		var wait ssa.CallInstruction
		ordered := 0
		for _, s := range signals {
			if w := x.waitedBefore(s, g, 0); w != nil {
				wait, ordered = cmp.Or(wait, w), ordered+1
			}
		}
		if wait == nil {
			continue
		}
		waits := funcName(wait.Parent()) + " waits for " + pathName(wait.Common().Args[0])
		if ordered == len(signals) && x.countsAll(g, roots) {
			return "its receiver is stopped only after " + waits +
				", which counts every goroutine that makes this send; a sender started after that wait is not ruled out"
		}
		some = cmp.Or(some, "its receiver is stopped after "+waits+
			", which counts a goroutine that makes this send; other stops or senders are not shown to be ordered by that wait")
	}
	return some
}

// stopSignals returns the instructions that can make r's stop cases
// fire: the closes of a stop channel kept in a field, or the calls on the
// value whose method gives r its stop channel (c.HasBeenClosed()), made
// outside r's function and the calls that start it. ok is false when a
// stop is of another kind (a context, a timer), when the stop channel
// carries values, or when r's function can leave its loop otherwise.
func (x *Index) stopSignals(r Site) ([]ssa.Instruction, bool) {
	if s, seen := x.signals[r]; seen {
		return s, s != nil
	}
	s, ok := x.scanSignals(r) // never ok with no signal
	if !ok {
		s = nil
	}
	x.signals[r] = s
	return s, s != nil
}

func (x *Index) scanSignals(r Site) (signals []ssa.Instruction, ok bool) {
	cases := x.giveUpCases(r)
	if len(cases) == 0 || !x.onlyStops(r, cases) {
		return nil, false
	}
	for _, ch := range cases {
		if f := LoadedField(ch); f != nil {
			if len(x.fieldCloses[f]) == 0 || x.sentOn(f) {
				return nil, false
			}
			for _, c := range x.fieldCloses[f] {
				signals = append(signals, c)
			}
			continue
		}
		call, isCall := Unconverted(ch).(*ssa.Call)
		if !isCall || call.Call.IsInvoke() || call.Call.StaticCallee() == nil ||
			call.Call.Signature().Recv() == nil || len(call.Call.Args) == 0 {
			return nil, false
		}
		h := x.holderField(r.Func, call.Call.Args[0])
		if h == nil {
			return nil, false
		}
		calls, ok := x.holderCalls(h, r.Func)
		if !ok || len(calls) == 0 {
			return nil, false
		}
		signals = append(signals, calls...)
	}
	return signals, true
}

// onlyStops reports whether r's function, once at r's select, can return
// only through one of the stop cases, or once r's channel is closed.
func (x *Index) onlyStops(r Site, cases []ssa.Value) bool {
	sel, ok := r.Instr.(*ssa.Select)
	if !ok {
		return false
	}
	stops := make(map[flow.Edge]bool)
	RecvCases(r.Func, func(s *ssa.Select, i int) {
		if !containsValue(cases, s.States[i].Chan) {
			return
		}
		if e, ok := CaseEdge(s, i); ok {
			stops[e] = true
		}
	})
	for _, ref := range *sel.Referrers() {
		if e, ok := ref.(*ssa.Extract); ok && e.Index == 1 && inCase(r, e.Block()) {
			okBranches(e, true, stops) // r's channel closed: no sender is left
		}
	}
	leave := flow.Path{
		Stop:     func(i ssa.Instruction) bool { return i == sel },
		StopEdge: func(e flow.Edge) bool { return stops[e] },
	}
	return !leave.ReturnReachable(sel.Block(), flow.IndexOf(sel))
}

func containsValue(list []ssa.Value, v ssa.Value) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// holderField returns the field that holds the value v of fn: loaded
// from it in fn, or handed to fn as a parameter (or captured) by every
// start and call of fn, each a load of that one field.
//
//	go db.pub.listenForUpdates(db.closers.pub)   // c, in listenForUpdates: closers.pub
func (x *Index) holderField(fn *ssa.Function, v ssa.Value) *types.Var {
	switch v := uncelled(v).(type) {
	case *ssa.UnOp:
		return LoadedField(v)
	case *ssa.FreeVar:
		if b := x.binding(v); b != nil {
			return LoadedField(b)
		}
	case *ssa.Parameter:
		i := paramIndex(v)
		entries, ok := x.entries(fn)
		if !ok || len(entries) == 0 || i < 0 {
			return nil
		}
		var field *types.Var
		for _, e := range entries {
			call, ok := e.(ssa.CallInstruction)
			if !ok || call.Common().StaticCallee() != fn || i >= len(call.Common().Args) {
				return nil
			}
			f := LoadedField(call.Common().Args[i])
			if f == nil || field != nil && f != field {
				return nil
			}
			field = f
		}
		return field
	}
	return nil
}

// holderCalls returns the calls made on values loaded from the field h,
// outside the receiver's function recv and the calls that start it. ok
// is false when such a value is put anywhere but a call, a comparison or
// a debug reference.
func (x *Index) holderCalls(h *types.Var, recv *ssa.Function) (calls []ssa.Instruction, ok bool) {
	entries, _ := x.entries(recv)
	for _, fn := range x.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				addr, ok := instr.(*ssa.FieldAddr)
				if !ok || FieldOf(addr.X.Type(), addr.Field, true) != h {
					continue
				}
				for _, ref := range *addr.Referrers() {
					switch ref := ref.(type) {
					case *ssa.Store:
						if ref.Addr != addr {
							return nil, false
						}
					case *ssa.DebugRef:
					case *ssa.UnOp:
						if ref.Op != token.MUL {
							return nil, false
						}
						more, ok := loadCalls(ref, recv, entries)
						if !ok {
							return nil, false
						}
						calls = append(calls, more...)
					default:
						return nil, false
					}
				}
			}
		}
	}
	return calls, true
}

func loadCalls(load *ssa.UnOp, recv *ssa.Function, entries []ssa.Instruction) (calls []ssa.Instruction, ok bool) {
	for _, ref := range *load.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef, *ssa.BinOp:
		case ssa.CallInstruction:
			if ref.Parent() != recv && !containsInstr(entries, ref) {
				calls = append(calls, ref)
			}
		default:
			return nil, false
		}
	}
	return calls, true
}

// waitedBefore returns the wait for the goroutines of g that comes, on
// every path, before instr in its function, or, when there is none and
// instr's function has only known callers, one that comes before each
// caller's call. It returns nil when there is no such wait.
func (x *Index) waitedBefore(instr ssa.Instruction, g group, depth int) ssa.CallInstruction {
	var wait ssa.CallInstruction
	eachBefore(instr, func(i ssa.Instruction) {
		call, ok := i.(ssa.CallInstruction)
		if _, isDefer := i.(*ssa.Defer); !ok || isDefer || wait != nil {
			return
		}
		if at, isWait, ok := x.opAt(call, nil); ok && isWait && at == g {
			wait = call
		}
	})
	if wait != nil || depth >= maxGroupDepth {
		return wait
	}
	callers, ok := x.callers(instr.Parent())
	if !ok || len(callers) == 0 {
		return nil
	}
	for _, c := range callers {
		w := x.waitedBefore(c, g, depth+1)
		if w == nil {
			return nil
		}
		wait = cmp.Or(wait, w)
	}
	return wait
}

// root is a goroutine a send may run on: started by a go statement (or
// handed to (*sync.WaitGroup).Go) with entry as its function. A nil start
// is a goroutine the package does not show: a caller in another package,
// or a function handed to code that runs it somewhere.
type root struct {
	start ssa.Instruction
	entry *ssa.Function
}

// senderRoots returns the goroutines on which fn may run, following its
// calls back to the go statements that start them.
func (x *Index) senderRoots(fn *ssa.Function, depth int, seen map[*ssa.Function]bool) []root {
	if seen[fn] {
		return nil
	}
	seen[fn] = true
	if depth > maxOnceDepth {
		return []root{{entry: fn}}
	}
	var out []root
	if _, ok := x.callers(fn); !ok && fn.Parent() == nil {
		out = append(out, root{entry: fn}) // callers outside the package
	}
	entries, ok := x.entries(fn)
	if !ok {
		return append(out, root{entry: fn})
	}
	for _, e := range entries {
		call, isCall := e.(ssa.CallInstruction)
		switch {
		case !isCall:
			out = append(out, root{entry: fn})
		case startsFn(call, fn):
			if _, isGo := e.(*ssa.Go); isGo {
				out = append(out, root{start: e, entry: fn})
			} else {
				out = append(out, x.senderRoots(e.Parent(), depth+1, seen)...)
			}
		case isWaitGroupGo(call):
			out = append(out, root{start: e, entry: fn})
		default:
			out = append(out, root{entry: fn})
		}
	}
	return out
}

// startsFn reports whether call calls fn itself (statically, or as the
// closure it makes), rather than handing it on as an argument.
func startsFn(call ssa.CallInstruction, fn *ssa.Function) bool {
	switch v := call.Common().Value.(type) {
	case *ssa.Function:
		return v == fn
	case *ssa.MakeClosure:
		return v.Fn == fn
	}
	return false
}

// isWaitGroupGo reports whether call is (*sync.WaitGroup).Go, which runs
// its function on a goroutine the group counts.
func isWaitGroupGo(call ssa.CallInstruction) bool {
	callee := call.Common().StaticCallee()
	return callee != nil && callee.Name() == "Go" && isWaitGroupMethod(callee)
}

// countingGroups returns the groups that count at least one of roots.
func (x *Index) countingGroups(roots []root) []group {
	var out []group
	for _, r := range roots {
		for _, g := range x.countedBy(r) {
			if !containsGroup(out, g) {
				out = append(out, g)
			}
		}
	}
	return out
}

func containsGroup(list []group, g group) bool {
	for _, x := range list {
		if x == g {
			return true
		}
	}
	return false
}

// countsAll reports whether g counts every one of roots.
func (x *Index) countsAll(g group, roots []root) bool {
	for _, r := range roots {
		if !containsGroup(x.countedBy(r), g) {
			return false
		}
	}
	return len(roots) > 0
}

// countedBy returns the groups the goroutine r marks done on its way
// out: the entry defers a Done on them (a parameter resolved to what the
// go statement passed), or it was handed to the group's Go.
//
//	go db.doWrites(db.closers.writes)   // doWrites: defer lc.Done()
func (x *Index) countedBy(r root) []group {
	if r.start == nil {
		return nil
	}
	start := r.start.(ssa.CallInstruction)
	if isWaitGroupGo(start) {
		if home := x.homeOf(start.Common().Args[0], nil, 0); home != nil {
			return []group{{home: home}}
		}
		return nil
	}
	bind := func(p *ssa.Parameter) ssa.Value {
		i := paramIndex(p)
		if p.Parent() != r.entry || i < 0 || i >= len(start.Common().Args) {
			return nil
		}
		return start.Common().Args[i]
	}
	var out []group
	for _, b := range r.entry.Blocks {
		for _, instr := range b.Instrs {
			d, ok := instr.(*ssa.Defer)
			if !ok {
				continue
			}
			if g, wait, ok := x.opAt(d, bind); ok && !wait {
				out = append(out, g)
			}
			if mc, ok := d.Call.Value.(*ssa.MakeClosure); ok {
				out = append(out, x.doneBeforeReturn(mc.Fn.(*ssa.Function))...)
			}
		}
	}
	return out
}

// doneBeforeReturn returns the groups that fn, a deferred function
// literal, marks done before every return:
//
//	defer func() {
//		p.cleanup()
//		wg.Done()
//	}()
func (x *Index) doneBeforeReturn(fn *ssa.Function) []group {
	var out []group
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if g, wait, ok := x.opAt(call, nil); ok && !wait && x.onEveryReturn(fn, []ssa.Instruction{call}) {
				out = append(out, g)
			}
		}
	}
	return out
}

// funcName names fn as messages do: "(*DB).close".
func funcName(fn *ssa.Function) string {
	if fn.Parent() != nil {
		return "the function literal in " + funcName(fn.Parent())
	}
	if recv := fn.Signature.Recv(); recv != nil {
		return "(" + types.TypeString(recv.Type(), func(*types.Package) string { return "" }) + ")." + fn.Name()
	}
	return fn.Name()
}

// pathName names the value v as its source does: "db.closers.writes",
// "s.wg", "wg".
func pathName(v ssa.Value) string {
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return pathName(v.X)
		}
	case *ssa.FieldAddr:
		if f := FieldOf(v.X.Type(), v.Field, true); f != nil {
			if base := pathName(v.X); base != "" {
				return base + "." + f.Name()
			}
			return f.Name()
		}
	case *ssa.Parameter:
		return v.Name()
	case *ssa.FreeVar:
		return v.Name()
	case *ssa.Alloc:
		return v.Comment
	}
	return ""
}
