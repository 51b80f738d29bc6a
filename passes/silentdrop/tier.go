package silentdrop

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/flow"
)

// What a drop that leaves no trace lacks to be reported by default. Each
// ends an audit finding's message, in brackets.
const (
	missIntended   = "a comment in the default says the drop is intended"
	missPool       = "the receiver takes from this channel without waiting: a pool or free list"
	missReplaced   = "a newer value replaces it (coalescing)"
	missOneSlot    = "the channel holds one value, and a pending one already carries the news (coalescing)"
	missRegistered = "the channel is one a caller handed to this package, and that caller sizes its buffer"
	missNotOwed    = "the dropped value is not owed to a caller or a request"
	missLate       = "the one waiting for it gives up after a while, and a late answer has no one to go to"
	missTimedOut   = "the function also gives up on this send after a timeout, without a trace: dropping is its policy"
)

// missing says why a drop that leaves no trace belongs to the audit tier,
// or "" when it is reported by default: every value dropped is owed to a
// caller or a request (see owed), and nothing in the code says the drop
// is by design. The default has already been found to tell the caller
// nothing, or that the value went through.
func (c *checker) missing(d *branch, sends []int) string {
	if c.intended(d.sel) {
		return missIntended
	}
	if c.timedOutToo(d.sel, sends) {
		return missTimedOut
	}
	for _, i := range sends {
		st := d.sel.States[i]
		switch {
		case c.pool(st.Chan):
			return missPool
		case c.drained(d.sel, st.Chan):
			return missReplaced
		case c.oneSlot(st.Chan):
			return missOneSlot
		case c.registered(st.Chan):
			return missRegistered
		case c.lateAnswer(d.sel, st.Chan):
			return missLate
		case !c.owed(st.Send):
			return missNotOwed
		}
	}
	return ""
}

// lateAnswer reports whether every channel the send may be on is a reply
// slot its maker waits on for a while: it is made in this package, only the
// function that made it receives from it, and one of those receives is a
// case of a select that can give up (a timeout, a context). An answer that
// comes after the wait ended is dropped by design: no one is left to take
// it. A later receive may wait without a timeout, for the answer the
// maker's own timer sends. For a send in shipped code, channels made in
// tests are left out: they prove nothing about production.
//
//	ackCh := make(chan ackMessage, 1)
//	m.setProbeChannels(seq, ackCh, ...)   // the handler answers without waiting
//	select {
//	case v := <-ackCh:
//	case <-time.After(timeout):           // the prober gives up
//	}
func (c *checker) lateAnswer(sel *ssa.Select, ch ssa.Value) bool {
	makes := c.makes(ch)
	if !chans.InTestFile(sel) {
		makes = slices.DeleteFunc(makes, func(mk *ssa.MakeChan) bool { return chans.InTestFile(mk) })
	}
	for _, mk := range makes {
		givesUp := false
		for _, r := range c.idx.Uses(mk).Recvs {
			if r.Func != mk.Parent() {
				return false
			}
			givesUp = givesUp || c.idx.GivesUp(r)
		}
		if !givesUp {
			return false
		}
	}
	return len(makes) > 0
}

// timedOutToo reports whether the function that holds sel also makes one
// of its sends (the same value on the same channel) in a blocking select
// that gives up when a timer fires, and leaves nothing behind when it
// does: a publisher with a configurable wait, whose zero wait is this
// default. The author chose to drop a value its receiver is too slow for;
// the default is that choice, made without waiting.
//
//	if p.timeout > 0 {
//		select {
//		case sub <- v:
//		case <-timer.C:     // gives up, without a trace
//		}
//		return
//	}
//	select {
//	case sub <- v:
//	default:            // the same drop, at once
//	}
func (c *checker) timedOutToo(sel *ssa.Select, sends []int) bool {
	found := false
	chans.RecvCases(sel.Parent(), func(other *ssa.Select, k int) {
		if found || other == sel || !other.Blocking || !isTimer(other.States[k].Chan) {
			return
		}
		for _, i := range sends {
			if sendsSame(other, sel.States[i]) && c.silentCase(other, k) {
				found = true
			}
		}
	})
	return found
}

// sendsSame reports whether sel has a send case of st's value on st's
// channel.
func sendsSame(sel *ssa.Select, st *ssa.SelectState) bool {
	for _, o := range sel.States {
		if o.Dir == types.SendOnly && chans.SameValue(o.Chan, st.Chan) && chans.SameValue(o.Send, st.Send) {
			return true
		}
	}
	return false
}

// silentCase reports whether case k of sel leaves no trace: its branch
// returns nothing or the same as after the select, through no call that
// logs, counts or hands the value on (the trace the default is judged by).
func (c *checker) silentCase(sel *ssa.Select, k int) bool {
	d, ok := caseBranch(sel, k)
	return ok && !c.leavesTrace(d)
}

// isTimer reports whether ch is a timer's channel: time.After's result, or
// the C field of a *time.Timer.
func isTimer(ch ssa.Value) bool {
	if call, ok := ch.(*ssa.Call); ok {
		fn := call.Call.StaticCallee()
		return fn != nil && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "time" && fn.Name() == "After"
	}
	f := chans.LoadedField(ch)
	return f != nil && f.Name() == "C" && f.Pkg() != nil && f.Pkg().Path() == "time"
}

// intended reports whether the default carries a comment, on its own
// lines or after default:, that explains the drop:
//
//	default:
//		// the receiver is busy; the next tick retries
//
// A comment that marks the drop as unfinished (TODO, FIXME, XXX) says the
// opposite, and directives are not explanations.
func (c *checker) intended(sel *ssa.Select) bool {
	stmt := c.selects[sel.Pos()]
	def := defaultClause(stmt)
	f := c.fileOf(sel.Pos())
	if def == nil || f == nil {
		return false
	}
	from, to := c.defaultSpan(stmt, def)
	tf := c.pass.Fset.File(stmt.Pos())
	above := headLines(tf, f, stmt)
	for _, g := range f.Comments {
		for _, cm := range g.List {
			inDefault := cm.Pos() >= from && cm.Pos() < to
			onSelect := above[tf.Line(g.End())]
			if (inDefault || onSelect) && explains(cm.Text) {
				return true
			}
		}
	}
	return false
}

// headLines returns the lines just above the select and above each
// statement it opens: a select that is the first statement of an if or
// a loop body is introduced by the comment above that statement.
//
//	// Forward the event immediately, do not block
//	if s.outCh != nil {
//		select {
func headLines(tf *token.File, f *ast.File, sel *ast.SelectStmt) map[int]bool {
	lines := map[int]bool{tf.Line(sel.Pos()) - 1: true}
	path, _ := astutil.PathEnclosingInterval(f, sel.Pos(), sel.End())
	var inner ast.Node = sel
	for _, n := range path {
		if n == sel {
			continue
		}
		if b, ok := n.(*ast.BlockStmt); ok {
			if len(b.List) == 0 || b.List[0] != inner {
				break
			}
			inner = b
			continue
		}
		if body := loopOrIfBody(n); body == nil || body != inner {
			break
		}
		lines[tf.Line(n.Pos())-1] = true
		inner = n
	}
	return lines
}

// loopOrIfBody returns the body of an if, a for or a range statement.
func loopOrIfBody(n ast.Node) *ast.BlockStmt {
	switch n := n.(type) {
	case *ast.IfStmt:
		return n.Body
	case *ast.ForStmt:
		return n.Body
	case *ast.RangeStmt:
		return n.Body
	}
	return nil
}

// defaultSpan returns where the default clause's comments lie: from the
// line after the previous clause ends (or from default itself) to the
// next clause or the select's closing brace.
func (c *checker) defaultSpan(stmt *ast.SelectStmt, def *ast.CommClause) (from, to token.Pos) {
	from, to = def.Case, stmt.Body.Rbrace
	for i, cl := range stmt.Body.List {
		if cl != def {
			continue
		}
		if i+1 < len(stmt.Body.List) {
			to = stmt.Body.List[i+1].Pos()
		}
		if i > 0 {
			prev := stmt.Body.List[i-1].End()
			tf := c.pass.Fset.File(prev)
			if line := tf.Line(prev); line < tf.Line(def.Case) {
				from = tf.LineStart(line + 1)
			}
		}
	}
	return from, to
}

func explains(text string) bool {
	body := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(text, "//"), "/*"))
	if body == "" || strings.HasPrefix(text, "//sendlint:") || strings.HasPrefix(text, "//nolint") ||
		strings.HasPrefix(text, "//lint:") || strings.HasPrefix(body, "want ") {
		return false
	}
	for _, mark := range []string{"TODO", "FIXME", "XXX"} {
		if strings.Contains(body, mark) {
			return false
		}
	}
	return true
}

func (c *checker) fileOf(pos token.Pos) *ast.File {
	for _, f := range c.pass.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			return f
		}
	}
	return nil
}

// pool reports whether the channel is a pool or free list: every receive
// of it in this package is a case of a select with a default (or comes
// after its function closed the channel: see afterClose), and at
// least one merges what it takes with what its default makes, so a taker
// never waits and makes its own when the channel is empty. A value the
// pool has no room for is garbage, not news.
//
//	select {
//	case b = <-p.free:      // take one if there is one
//	default:
//		b = new(buffer)     // or make one
//	}
func (c *checker) pool(ch ssa.Value) bool {
	recvs, ok := c.receives(ch)
	if !ok || len(recvs) == 0 {
		return false
	}
	merged := false
	for _, r := range recvs {
		sel, ok := r.Instr.(*ssa.Select)
		if !ok && afterClose(r.Instr) {
			continue
		}
		if !ok || sel.Blocking {
			return false
		}
		if recvMerged(sel, r.State) {
			merged = true
		}
	}
	return merged
}

// afterClose reports whether the receive instr comes after its own
// function closed the same channel, on every path: it never waits, as
// the drain of a pool being shut down does (close(p.free); for b :=
// range p.free { b.release() }).
func afterClose(instr ssa.Instruction) bool {
	recv, ok := instr.(*ssa.UnOp)
	if !ok || recv.Op != token.ARROW {
		return false
	}
	return flow.Before(recv, func(x ssa.Instruction) bool { return chans.ClosesChan(x, recv.X) })
}

// receives returns the receives of this package on the channel, and
// false when some of its origins cannot be followed. A parameter whose
// callers are out of sight is followed only by its type: see
// typeReceives.
func (c *checker) receives(ch ssa.Value) ([]chans.Site, bool) {
	var out []chans.Site
	origins := c.idx.Origins(ch)
	for _, o := range origins {
		switch o.Kind {
		case chans.Made:
			out = append(out, c.idx.Uses(o.Make).Recvs...)
		case chans.Field:
			out = append(out, c.idx.FieldReceives(o.Field)...)
		case chans.Global:
			out = append(out, c.idx.GlobalReceives(o.Global)...)
		case chans.Param:
			recvs, ok := c.typeReceives(o.Param.Type())
			if !ok {
				return nil, false
			}
			out = append(out, recvs...)
		default:
			return nil, false
		}
	}
	return out, len(origins) > 0
}

// recvMerged reports whether the value received by state k of sel is
// merged with a value its default makes: both reach one phi, or one
// result of the function's returns, and what the default gives is not a
// constant. A taker that makes its own when the channel is empty is a
// pool's; one that gives back nil is only polling.
//
//	t3 = select nonblocking [<-t1] (index int, ok bool, *buffer)
//	t6 = extract t3 #2
//	t9 = phi [1: t6, 2: t8] #b      // t8 = new buffer, made in the default
func recvMerged(sel *ssa.Select, k int) bool {
	index := 2
	for i := range k {
		if sel.States[i].Dir == types.RecvOnly {
			index++
		}
	}
	d, ok := defaultBranch(sel)
	if !ok {
		return false
	}
	for _, ref := range *sel.Referrers() {
		e, ok := ref.(*ssa.Extract)
		if !ok || e.Index != index {
			continue
		}
		for _, use := range *e.Referrers() {
			switch u := use.(type) {
			case *ssa.Phi:
				if d.makesEdge(u) {
					return true
				}
			case *ssa.Return:
				if d.makesResult(slices.Index(u.Results, ssa.Value(e))) {
					return true
				}
			}
		}
	}
	return false
}

// makesEdge reports whether the phi gets, through the default, a value
// that is not a constant.
func (d *branch) makesEdge(phi *ssa.Phi) bool {
	for i, pred := range phi.Block().Preds {
		if _, isConst := phi.Edges[i].(*ssa.Const); !isConst && d.side(pred, phi.Block()) == +1 {
			return true
		}
	}
	return false
}

// makesResult reports whether a return only the default reaches gives a
// value that is not a constant as result i.
func (d *branch) makesResult(i int) bool {
	if i < 0 {
		return false
	}
	for _, ret := range returns(d.blocks) {
		if i >= len(ret.Results) {
			continue
		}
		if _, isConst := ret.Results[i].(*ssa.Const); !isConst {
			return true
		}
	}
	return false
}

// drained reports whether the function empties the channel before it
// sends, by a receive in a select with a default: the stale pending
// value is thrown away so the newer one takes its place, and a send that
// still finds the channel full loses a value no newer than the one
// another sender just put there.
//
//	select {
//	case <-s.latest:        // drop the stale one
//	default:
//	}
//	select {
//	case s.latest <- snap:  // audit: a newer value replaces it
//	default:
//	}
func (c *checker) drained(sel *ssa.Select, ch ssa.Value) bool {
	for _, b := range sel.Parent().Blocks {
		for _, instr := range b.Instrs {
			other, ok := instr.(*ssa.Select)
			if !ok || other == sel || other.Blocking || !before(other, sel) {
				continue
			}
			for _, st := range other.States {
				if st.Dir == types.RecvOnly && chans.SameValue(st.Chan, ch) {
					return true
				}
			}
		}
	}
	return false
}

// before reports whether a runs before b on every path to b: it is
// earlier in b's block or in a block that dominates it.
func before(a, b ssa.Instruction) bool {
	if a.Block() != b.Block() {
		return a.Block().Dominates(b.Block())
	}
	for _, instr := range b.Block().Instrs {
		switch instr {
		case a:
			return true
		case b:
			return false
		}
	}
	return false
}

// oneSlot reports whether every channel the send may be on is made in
// this package with capacity 1: a mailbox for the latest notice, not a
// queue. While one value waits, it already tells the receiver what the
// dropped one would (a leader changed, an interval changed, a watcher
// can be merged); the receiver reads the state it points to, not a
// history of values.
func (c *checker) oneSlot(ch ssa.Value) bool {
	// Only a notice with no data of its own is carried by the pending one:
	// a newer interval or leader dropped behind an older one is lost news.
	if t, ok := ch.Type().Underlying().(*types.Chan); !ok || !isBool(t.Elem()) {
		return false
	}
	makes := c.makes(ch)
	for _, mk := range makes {
		if n, ok := chans.ConstCapOK(mk); !ok || n != 1 {
			return false
		}
	}
	return len(makes) > 0
}

// registered reports whether every channel the send may be on is one a
// caller handed to the package, which keeps it (in a field, a map or
// slice, a global) to send on later: every channel stored there comes
// from a parameter, and none is made in this package. The caller made the
// channel and chose its buffer, and the package's contract with that
// caller, not this select, says what a full buffer means (os/signal's
// Notify, a subscription to interest changes).
//
//	func Notify(c chan<- Signal) { handlers.m[c] = h }
//	for c := range handlers.m {
//		select {
//		case c <- sig:  // audit: the caller's channel
//		default:
//		}
//	}
func (c *checker) registered(ch ssa.Value) bool {
	origins := c.idx.Origins(ch)
	for _, o := range origins {
		if _, ok := o.Home(); !ok && o.Kind != chans.Field && o.Kind != chans.Global {
			return false
		}
		stored := c.idx.Stored(o)
		if len(stored) == 0 {
			return false
		}
		for _, s := range stored {
			if s.Kind != chans.Param {
				return false
			}
		}
	}
	return len(origins) > 0
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}
