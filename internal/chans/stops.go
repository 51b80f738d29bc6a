package chans

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// shutsDown reports whether fn closes a channel or calls a func value loaded
// from a field.
func shutsDown(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			switch v := call.Common().Value.(type) {
			case *ssa.Builtin:
				if v.Name() == "close" {
					return true
				}
			case *ssa.UnOp:
				if _, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL {
					return true
				}
			}
		}
	}
	return false
}

// LeavesLoop reports whether the plain receive r is in a loop that its
// function can leave, and return, before the channel is closed: a reader
// that ranges over its channel and returns when a write fails, or a loop
// that stops on a sentinel value. Such a receiver can stop receiving while
// senders remain. A loop that leaves only when the channel is closed (a
// range, or ok false) keeps receiving for as long as anyone sends.
//
//	for m := range c {        // t4 = <-c,ok; t5 = extract t4 #1; if t5 goto body else done
//		if err := write(m); err != nil {
//			return            // reachable without passing done
//		}
//	}
func (x *Index) LeavesLoop(r Site) bool {
	recv, ok := x.readLoop(r)
	return ok && x.leaves(recv, true)
}

// DrainsToClose reports whether the plain receive r is in a read loop
// that its function leaves only once the channel is closed: a range over
// it, or a loop that breaks on ok false. Such a receiver takes every value
// sent for as long as it runs.
func (x *Index) DrainsToClose(r Site) bool {
	recv, ok := x.readLoop(r)
	return ok && !x.leaves(recv, false)
}

// readLoop returns r's receive when it is in a read loop: every trip
// receives. A receive inside one branch of a loop (a writer that waits
// for the reader's count after each write, io.Pipe's handshake) is taken
// each time its request is made, and the loop's other ways out are not
// its stop.
func (x *Index) readLoop(r Site) (*ssa.UnOp, bool) {
	recv, ok := r.Instr.(*ssa.UnOp)
	if !ok {
		return nil, false
	}
	l := x.Loops(r.Func).Innermost(recv.Block())
	if l == nil {
		return nil, false
	}
	for _, p := range l.Header.Preds {
		if l.Blocks[p] && !recv.Block().Dominates(p) {
			return nil, false
		}
	}
	return recv, true
}

// leaves reports whether the function of recv, a receive in a read loop,
// can return without passing the loop's closed branch. With sentinels
// set, a way out decided by the value received (m.Kind == "end") does not
// count: the sender chose to send it last.
func (x *Index) leaves(recv *ssa.UnOp, sentinels bool) bool {
	return x.leavePath(recv, sentinels).ReturnReachable(recv.Block(), flow.IndexOf(recv))
}

// leavePath is the search leaves makes: paths that neither receive again
// nor take the loop's closed branch (nor, with sentinels, a branch on the
// value received).
func (x *Index) leavePath(recv *ssa.UnOp, sentinels bool) flow.Path {
	closed := make(map[flow.Edge]bool)
	if recv.CommaOk {
		for _, ref := range *recv.Referrers() {
			if e, ok := ref.(*ssa.Extract); ok && e.Index == 1 {
				okBranches(e, true, closed)
			}
		}
	}
	var sentinel map[ssa.Value]bool
	if sentinels {
		sentinel = derived(recv)
	}
	return flow.Path{
		Stop: func(i ssa.Instruction) bool { return i == recv },
		StopEdge: func(e flow.Edge) bool {
			return closed[e] || sentinels && decidedBy(e.From, sentinel)
		},
	}
}

// WayOut returns where the receive site r gives up for good, as GivesUp
// and LeavesLoop find it: the first case of its select, in source order,
// after which its function can return without coming back to the select;
// or, for a read loop that can return before its channel is closed, the
// first such return. It returns token.NoPos when the way out has no
// position of its own (a default, the function's closing brace). It
// reports whether the way out is a select case.
func (x *Index) WayOut(r Site) (out token.Pos, isCase bool) {
	if sel, ok := r.Instr.(*ssa.Select); ok {
		return x.selectWayOut(r, sel), true
	}
	recv, ok := x.readLoop(r)
	if !ok {
		return token.NoPos, false
	}
	leave := x.leavePath(recv, true)
	best := token.NoPos
	for _, b := range r.Func.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || !ret.Pos().IsValid() || best.IsValid() && ret.Pos() >= best {
			continue
		}
		// Only this return counts: the others end the search.
		into := leave
		into.Stop = func(i ssa.Instruction) bool {
			_, other := i.(*ssa.Return)
			return leave.Stop(i) || other && i != ret
		}
		into.Goal = func(e flow.Edge) bool { return e.To == b }
		if into.ReturnReachable(recv.Block(), flow.IndexOf(recv)) {
			best = ret.Pos()
		}
	}
	return best, false
}

// selectWayOut is WayOut for a case of a select: the receive of another
// case whose body can reach a return without the select again. A stop
// channel or a context's Done is preferred to any other case, and a case
// that returns without going round its loop again (case <-stop: return)
// to one after which only the loop's own test may end it.
func (x *Index) selectWayOut(r Site, sel *ssa.Select) token.Pos {
	ours, _ := CaseEdge(sel, r.State)
	drained := drainedEdges(r.Func, sel.States[r.State].Chan)
	var header *ssa.BasicBlock
	if l := x.Loops(r.Func).Innermost(sel.Block()); l != nil {
		header = l.Header
	}
	leaves := func(e flow.Edge, direct bool) bool {
		p := flow.Path{
			Stop: func(i ssa.Instruction) bool { return i == sel },
			StopEdge: func(f flow.Edge) bool {
				return f == ours || drained[f] || direct && f.To == header
			},
		}
		return p.ReturnReachable(e.To, -1)
	}
	best, bestRank := token.NoPos, 0
	for k, st := range sel.States {
		e, ok := CaseEdge(sel, k)
		if k == r.State || !ok || !st.Pos.IsValid() {
			continue
		}
		rank := 0
		switch {
		case leaves(e, true):
			rank = 2
		case leaves(e, false):
			rank = 1
		}
		if rank > 0 && (DoneOf(st.Chan) != nil || x.isStopField(st.Chan)) {
			rank += 2
		}
		if rank > bestRank || rank == bestRank && rank > 0 && st.Pos < best {
			best, bestRank = st.Pos, rank
		}
	}
	return best
}

// isStopField reports whether ch is loaded from a field the package only
// closes, a stop channel (see stopField).
func (x *Index) isStopField(ch ssa.Value) bool {
	f := x.caseField(ch)
	return f != nil && x.stopField(f)
}

// derived returns the values computed from what recv received, without
// going through calls other than len and cap: the value, its fields,
// comparisons on them, what it is added to (a count of bytes written). A loop
// that leaves on such a value (m.Kind == "end") stops on a message its
// sender chose to send last, which is a protocol, not a receiver that goes
// away; one that leaves when a write of the value fails does go away.
func derived(recv *ssa.UnOp) map[ssa.Value]bool {
	out := map[ssa.Value]bool{recv: true}
	work := []ssa.Value{recv}
	for len(work) > 0 && len(out) < 64 {
		v := work[0]
		work = work[1:]
		for _, ref := range *v.Referrers() {
			w, ok := ref.(ssa.Value)
			if !ok || out[w] {
				continue
			}
			if e, ok := ref.(*ssa.Extract); ok && v == recv && e.Index == 1 {
				continue // ok, whose false branch is the close
			}
			switch ref := ref.(type) {
			case *ssa.Extract, *ssa.Field, *ssa.FieldAddr, *ssa.UnOp, *ssa.BinOp,
				*ssa.TypeAssert, *ssa.ChangeType, *ssa.Convert, *ssa.Index, *ssa.IndexAddr,
				*ssa.Slice, *ssa.Phi:
				out[w] = true
				work = append(work, w)
			case *ssa.Call:
				// len and cap of what was received, as a writer that
				// leaves once the reader's count used up its buffer.
				if b, ok := ref.Call.Value.(*ssa.Builtin); ok && (b.Name() == "len" || b.Name() == "cap") {
					out[w] = true
					work = append(work, w)
				}
			}
		}
	}
	return out
}

// decidedBy reports whether b ends in a branch on one of the values.
func decidedBy(b *ssa.BasicBlock, values map[ssa.Value]bool) bool {
	if len(b.Instrs) == 0 {
		return false
	}
	cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	return ok && values[cond.Cond]
}

// StopsOnDeregistration reports whether the receiver r stops only when its
// channel leaves the registry at home (a map in a field or global that the
// sender looks the channel up in): every way it gives up is a select case
// on a stop channel that the package closes only in functions that also
// delete from that registry. A Close that, under the registry's lock,
// closes the stop channel and deletes every entry leaves no sender able to
// find the channel once its receiver is gone.
//
//	func (subs *consumers) close() {
//		subs.Lock()
//		defer subs.Unlock()
//		close(subs.closed)            // the buffer goroutines return
//		for tag, ch := range subs.chans {
//			delete(subs.chans, tag)   // and send finds nothing to send on
//			close(ch)
//		}
//	}
func (x *Index) StopsOnDeregistration(r Site, home Origin) bool {
	key := registryOf(home)
	if key == nil {
		return false
	}
	deregisters := make(map[*ssa.Function]bool)
	for _, d := range x.deletes[key] {
		deregisters[d.Parent()] = true
	}
	stops := x.stopCases(r)
	if len(deregisters) == 0 || len(stops) == 0 {
		return false
	}
	for _, f := range stops {
		closes := x.fieldCloses[f]
		if len(closes) == 0 {
			return false
		}
		for _, c := range closes {
			if !deregisters[c.Parent()] {
				return false
			}
		}
	}
	return true
}

// StopsForGood reports whether every way the receiver r gives up is a
// select case on a stop channel the package closes: once closed, a stop
// channel fires for every later call too, so a receiver that runs once per
// request gives up on all of them, and none is left to receive. One that
// gives up on its own context or timer may receive in the next call.
func (x *Index) StopsForGood(r Site) bool {
	stops := x.stopCases(r)
	for _, f := range stops {
		if !x.stopField(f) {
			return false
		}
	}
	return len(stops) > 0
}

// stopField reports whether the channels in field f are stop signals:
// the package closes them and sends no values on them (a channel that
// carries values is no stop signal); or, for a field of another package,
// a stop method there returns them (SetStopMethods); or f holds a context
// set only on new objects (contextStop). Once closed, or done, one fires
// for good.
func (x *Index) stopField(f *types.Var) bool {
	return x.importedFields[f] || x.contextStop(f) || len(x.fieldCloses[f]) > 0 && !x.sentOn(f)
}

// sentOn reports whether the package sends values on channels loaded from
// f, other than a last one on its way to closing it (a shutdown that sends
// its error to a waiting call, then closes the channel).
func (x *Index) sentOn(f *types.Var) bool {
	closers := make(map[*ssa.Function]bool)
	for _, c := range x.fieldCloses[f] {
		closers[c.Parent()] = true
	}
	found := false
	x.sendsOnField(f, func(instr ssa.Instruction, _ ssa.Value) {
		if !closers[instr.Parent()] {
			found = true
		}
	})
	return found
}

// stopCases returns the fields of the stop channels r's function gives up
// on: the select receive cases, other than r itself, after which it can
// return without receiving again. It returns nil when one of them is not a
// channel loaded from a field (a ctx.Done(), a timer), which stops the
// receiver on its own schedule.
func (x *Index) stopCases(r Site) []*types.Var {
	var out []*types.Var
	for _, ch := range x.giveUpCases(r) {
		f := x.caseField(ch)
		if f == nil {
			return nil
		}
		out = append(out, f)
	}
	return out
}

// giveUpCases returns the channels of the select receive cases of r's
// function, other than r itself, after which it can return without
// receiving again.
func (x *Index) giveUpCases(r Site) []ssa.Value {
	var out []ssa.Value
	RecvCases(r.Func, func(sel *ssa.Select, i int) {
		if (sel != r.Instr || i != r.State) && x.returnsAfter(sel, i, r.Instr) {
			out = append(out, sel.States[i].Chan)
		}
	})
	return out
}

// returnsAfter reports whether the function can return after case i of sel
// without passing the receive again.
func (x *Index) returnsAfter(sel *ssa.Select, i int, recv ssa.Instruction) bool {
	e, ok := CaseEdge(sel, i)
	if !ok {
		return false
	}
	leave := flow.Path{Stop: func(in ssa.Instruction) bool { return in == recv || in == sel }}
	return isReturnBlock(e.To) || leave.ReturnReachable(e.To, -1)
}

func isReturnBlock(b *ssa.BasicBlock) bool {
	if len(b.Instrs) == 0 {
		return false
	}
	_, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
	return ok
}

// registryOf returns the key deletes are indexed by for the container at
// home: its unexported field or global.
func registryOf(home Origin) any {
	switch {
	case home.Kind == Field && home.Field != nil && !home.Field.Exported():
		return home.Field
	case home.Kind == Global && !home.Global.Object().Exported():
		return home.Global.Object()
	}
	return nil
}

// InTestFile reports whether instr lies in a _test.go file. A receiver in a
// test proves nothing about a send in the code a user ships: the test
// variant of a package sees receivers that production never has.
func InTestFile(instr ssa.Instruction) bool {
	fn := instr.Parent()
	return strings.HasSuffix(fn.Prog.Fset.Position(instr.Pos()).Filename, "_test.go") ||
		fn.Synthetic == "" && strings.HasSuffix(fn.Prog.Fset.Position(fn.Pos()).Filename, "_test.go")
}

// ClosesOnStop reports whether the receiver r closes the channel it
// receives from on every way its function can return after r: a close of
// the same channel (SameValue) on each path to a return, or a deferred
// one. A send the receiver leaves behind is then woken by the close and
// panics; it does not wait for good.
//
//	for input != nil || output != nil {
//		select {
//		case ch.size = <-ch.resize: // r
//		...
//		}
//	}
//	close(ch.resize) // every way out
//
// A way out on which r itself reported the channel closed (the exit of a
// range over it, the !ok branch) needs no close of its own: the channel is
// closed already, and a later send panics the same way.
//
//	for res := range results { // leaves only once results is closed...
//		if got++; got == sent {
//			close(results) // ...or after closing it
//			break
//		}
//	}
func (x *Index) ClosesOnStop(r Site) bool {
	own := RecvChan(r)
	closes := func(instr ssa.Instruction) bool {
		call, ok := instr.(ssa.CallInstruction)
		return ok && isClose(call) && SameValue(call.Common().Args[0], own)
	}
	for _, b := range r.Func.Blocks {
		for _, instr := range b.Instrs {
			if _, deferred := instr.(*ssa.Defer); deferred && closes(instr) {
				return true
			}
		}
	}
	closed := observedClosed(r)
	open := flow.Path{
		Stop: func(instr ssa.Instruction) bool {
			_, deferred := instr.(*ssa.Defer)
			return !deferred && closes(instr)
		},
		StopEdge: func(e flow.Edge) bool { return closed[e] },
	}
	return !open.ReturnReachable(r.Instr.Block(), flow.IndexOf(r.Instr))
}

// observedClosed returns the edges taken when the receive r itself reports
// its channel closed: the !ok branches of a comma-ok receive, or of the
// select case r, as ClosedEdges finds them for every receive of a channel.
func observedClosed(r Site) map[flow.Edge]bool {
	edges := make(map[flow.Edge]bool)
	var tuple ssa.Value
	switch recv := r.Instr.(type) {
	case *ssa.UnOp:
		if !recv.CommaOk {
			return edges
		}
		tuple = recv
	case *ssa.Select:
		tuple = recv
	}
	for _, ref := range *tuple.Referrers() {
		if ok, isExtract := ref.(*ssa.Extract); isExtract && ok.Index == 1 && inCase(r, ok.Block()) {
			okBranches(ok, true, edges)
		}
	}
	return edges
}
