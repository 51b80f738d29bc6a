package chans

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Site is one operation on a channel made in this package.
type Site struct {
	Instr ssa.Instruction // *ssa.Send, *ssa.UnOp (receive), *ssa.Select or *ssa.Call (close)
	State int             // the select state, or -1
	Func  *ssa.Function   // the function that holds Instr

	// Start is the instruction of the channel's owner (the function that
	// made it) through which Func was reached: a go, a call, a defer, or a
	// call that was handed a closure. It is nil when Func is the owner.
	Start ssa.Instruction
	// Async is set when Func runs on another goroutine than the owner, or at
	// a time the owner does not control (a closure handed to another
	// function, as errgroup.Go is).
	Async bool
}

// Pos returns the position of the site's operation: its select case's,
// for a select.
func (s Site) Pos() token.Pos {
	if sel, ok := s.Instr.(*ssa.Select); ok && s.State >= 0 {
		return sel.States[s.State].Pos
	}
	return s.Instr.Pos()
}

// Uses is everything this package does with one made channel.
type Uses struct {
	Make   *ssa.MakeChan
	Sends  []Site
	Recvs  []Site
	Closes []Site
	// Escapes lists uses that cannot be followed: the channel is returned,
	// converted to an interface, sent on a channel, or passed to a function
	// whose body is not in this package.
	Escapes []ssa.Instruction
	// Stores lists stores of the channel into struct fields and globals,
	// and Fields and Globals what was stored into: code that loads them is
	// another party.
	Stores  []ssa.Instruction
	Fields  []*types.Var
	Globals []*ssa.Global
}

// Owner returns the function that made the channel.
func (u *Uses) Owner() *ssa.Function { return u.Make.Parent() }

// Uses returns the memoised uses of the channel made by mk.
func (x *Index) Uses(mk *ssa.MakeChan) *Uses {
	if u, ok := x.uses[mk]; ok {
		return u
	}
	u := &Uses{Make: mk}
	w := walker{x: x, u: u, seen: make(map[visit]bool)}
	w.value(mk, context{fn: mk.Parent()})
	x.uses[mk] = u
	return u
}

// context says how the walk reached the function it is in.
type context struct {
	fn    *ssa.Function
	start ssa.Instruction
	async bool
	depth int
}

// enter returns the context of a function reached from ctx by instr.
func (c context) enter(fn *ssa.Function, instr ssa.Instruction, async bool) context {
	next := context{fn: fn, start: c.start, async: c.async || async, depth: c.depth + 1}
	if next.start == nil {
		next.start = instr
	}
	return next
}

type walker struct {
	x    *Index
	u    *Uses
	seen map[visit]bool
}

// visit is a value reached through one start: the same helper started twice
// is two senders.
type visit struct {
	v     ssa.Value
	start ssa.Instruction
}

// value follows every use of v, a channel value or a pointer to a variable
// holding one.
func (w *walker) value(v ssa.Value, ctx context) {
	key := visit{v, ctx.start}
	if w.seen[key] || ctx.depth > maxDepth {
		return
	}
	w.seen[key] = true
	for _, ref := range *v.Referrers() {
		w.use(v, ref, ctx)
	}
}

func (w *walker) use(v ssa.Value, ref ssa.Instruction, ctx context) {
	site := func(state int) Site {
		return Site{Instr: ref, State: state, Func: ctx.fn, Start: ctx.start, Async: ctx.async}
	}
	switch r := ref.(type) {
	case *ssa.Send:
		if r.Chan == v {
			w.u.Sends = append(w.u.Sends, site(-1))
		} else {
			w.escape(r)
		}
	case *ssa.UnOp:
		switch r.Op {
		case arrow:
			w.u.Recvs = append(w.u.Recvs, site(-1))
		default: // a load of a variable holding the channel
			w.value(r, ctx)
		}
	case *ssa.Select:
		w.selectUse(v, r, ctx)
	case ssa.CallInstruction:
		w.call(v, r, ctx)
	case *ssa.Store:
		w.store(v, r, ctx)
	case *ssa.MakeClosure:
		w.closure(v, r, ctx)
	case *ssa.Phi:
		w.value(r, ctx)
	case *ssa.ChangeType:
		w.value(r, ctx)
	case *ssa.Convert:
		w.value(r, ctx)
	case *ssa.DebugRef, *ssa.BinOp, *ssa.If:
		// comparisons with nil and debug info do not move the channel
	default:
		w.escape(ref)
	}
}

func (w *walker) escape(instr ssa.Instruction) { w.u.Escapes = append(w.u.Escapes, instr) }

func (w *walker) selectUse(v ssa.Value, sel *ssa.Select, ctx context) {
	for i, st := range sel.States {
		switch {
		case st.Chan == v && st.Dir == types.SendOnly:
			w.u.Sends = append(w.u.Sends, Site{Instr: sel, State: i, Func: ctx.fn, Start: ctx.start, Async: ctx.async})
		case st.Chan == v:
			w.u.Recvs = append(w.u.Recvs, Site{Instr: sel, State: i, Func: ctx.fn, Start: ctx.start, Async: ctx.async})
		case st.Send == v:
			w.escape(sel)
		}
	}
}

// call follows the channel into a call: close and len are operations, a
// function of this package is entered through its parameter, anything else
// is an escape.
func (w *walker) call(v ssa.Value, call ssa.CallInstruction, ctx context) {
	common := call.Common()
	if b, ok := common.Value.(*ssa.Builtin); ok {
		switch b.Name() {
		case "close":
			w.u.Closes = append(w.u.Closes, Site{Instr: call, State: -1, Func: ctx.fn, Start: ctx.start, Async: ctx.async})
		case "len", "cap":
		default:
			w.escape(call)
		}
		return
	}
	callee := w.x.Callee(common)
	if common.IsInvoke() || callee == nil || callee.Pkg != w.x.pkg || len(callee.Blocks) == 0 {
		w.escape(call)
		return
	}
	_, async := call.(*ssa.Go)
	for i, arg := range common.Args {
		if arg == v && i < len(callee.Params) {
			w.value(callee.Params[i], ctx.enter(callee, call, async))
		}
	}
}

func (w *walker) store(v ssa.Value, st *ssa.Store, ctx context) {
	if st.Val != v {
		return // v is the address: a new value replaces the channel
	}
	switch addr := st.Addr.(type) {
	case *ssa.Alloc:
		w.value(addr, ctx)
	case *ssa.FieldAddr:
		w.u.Stores = append(w.u.Stores, st)
		if f := FieldOf(addr.X.Type(), addr.Field, true); f != nil {
			w.u.Fields = append(w.u.Fields, f)
		}
	case *ssa.Global:
		w.u.Stores = append(w.u.Stores, st)
		w.u.Globals = append(w.u.Globals, addr)
	default:
		w.escape(st)
	}
}

// closure follows a captured variable into the closure, entered the way
// the closure value is used: started by go, called, deferred, or handed to
// another function.
func (w *walker) closure(v ssa.Value, mc *ssa.MakeClosure, ctx context) {
	fn := mc.Fn.(*ssa.Function)
	for i, b := range mc.Bindings {
		if b != v {
			continue
		}
		for _, ref := range closureUses(mc) {
			if st, ok := ref.(*ssa.Store); ok && w.throughCells(fn, fn.FreeVars[i], st, ctx) {
				continue
			}
			instr, async, ok := closureStart(mc, ref)
			if !ok {
				w.escape(ref)
				continue
			}
			if instr != nil {
				w.value(fn.FreeVars[i], ctx.enter(fn, instr, async))
			}
		}
	}
}

// throughCells follows the free variable fv of fn into every call of fn
// made through the cell that st stores fn's closure into, and reports
// whether it could: every use of the cell is a call (cellCalls), made in
// the function that holds it or in a closure nested there.
func (w *walker) throughCells(fn *ssa.Function, fv *ssa.FreeVar, st *ssa.Store, ctx context) bool {
	cell, ok := st.Addr.(*ssa.Alloc)
	if !ok {
		return false
	}
	calls, ok := cellCalls(cell, st.Val, 0)
	if !ok {
		return false
	}
	type hop struct {
		call ssa.CallInstruction
		via  []*ssa.MakeClosure
	}
	hops := make([]hop, 0, len(calls))
	for _, c := range calls {
		via, ok := w.x.capturedThrough(c.Parent(), st.Parent())
		if !ok {
			return false
		}
		hops = append(hops, hop{c, via})
	}
	for _, h := range hops {
		w.throughCell(fv, fn, h.call, h.via, ctx)
	}
	return true
}

// throughCell follows the free variable fv of fn into a call of fn made
// through a cell: in the function that holds the cell, or in the closures
// via that capture it, each entered the way its own closure value is used.
func (w *walker) throughCell(fv *ssa.FreeVar, fn *ssa.Function, call ssa.CallInstruction, via []*ssa.MakeClosure, ctx context) {
	if len(via) == 0 {
		_, async := call.(*ssa.Go)
		w.value(fv, ctx.enter(fn, call, async))
		return
	}
	mc := via[0]
	for _, ref := range closureUses(mc) {
		instr, async, ok := closureStart(mc, ref)
		if !ok {
			w.escape(ref)
			continue
		}
		if instr != nil {
			w.throughCell(fv, fn, call, via[1:], ctx.enter(mc.Fn.(*ssa.Function), instr, async))
		}
	}
}

// closureUses returns the uses of a closure value, looking through a
// conversion to a named func type (a handler type such as msgHandler).
func closureUses(mc *ssa.MakeClosure) []ssa.Instruction {
	var out []ssa.Instruction
	for _, ref := range *mc.Referrers() {
		if ct, ok := ref.(*ssa.ChangeType); ok {
			out = append(out, *ct.Referrers()...)
			continue
		}
		out = append(out, ref)
	}
	return out
}

// closureStart says how a use of a closure value runs it.
func closureStart(mc *ssa.MakeClosure, ref ssa.Instruction) (start ssa.Instruction, async, ok bool) {
	switch r := ref.(type) {
	case *ssa.DebugRef:
		return nil, false, true
	case *ssa.Go:
		return r, true, true
	case ssa.CallInstruction:
		// Called directly or deferred: runs on this goroutine. Handed to
		// another function (errgroup.Go, sync.Once.Do...): assume another
		// goroutine, which is the conservative reading for a sender.
		return r, r.Common().Value != mc, true
	}
	return nil, false, false
}
