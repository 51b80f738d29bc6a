package chans

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// A Drop is the proof that a select is left without a way out: the
// function that made the object whose channel it sends on, and whose
// signal is its only way out, returns on some path without the object
// and without firing the signal, after starting the goroutine that sends.
// Once it has returned no one holds the object but the package's own
// goroutines, so no one calls its Close or its Read.
type Drop struct {
	Ctor   *ssa.Function
	Return *ssa.Return // the return that drops the object
	Start  *ssa.Go     // starts the goroutine that sends
	Type   *types.Named
	Field  *types.Var // the channel sent on
	Signal *types.Var // the field whose signal is the select's way out; nil for a plain send
}

// A signal is a way out of a select that belongs to an object: a receive
// from its channel field, or from what a method of its field returns
// (c.closed.Done()). It fires when something closes or sends on the
// field, or calls another method of it.
type signal struct {
	field  *types.Var
	method string // "" when the field is the channel itself
}

// DroppedOwner returns the Drop that leaves case k of sel, a send on an
// unexported channel field of an object, waiting for good: every other
// case of sel receives on a signal of the same object (or on a channel
// nothing can fire), and some constructor of the object
//   - starts, through calls that hand the object on, the goroutine that
//     runs sel;
//   - can then return without the object, having handed it nowhere but to
//     its own goroutines, closures and objects (see staysHome);
//   - runs nothing on that path, nor starts a goroutine that runs
//     anything, that receives from the channel or fires a signal.
//
// A send that runs only after a test of a flag or state of the object
// (see Guards) is left alone: it may run only once the object is set up, and then kept.
// The goroutine that sends is not asked whether it fires the signal
// itself: it waits at the send. Calls of function values that are not
// closures made on the way are not followed.
//
//	c := &Conn{decrypted: make(chan []byte), closed: newCloser()}
//	if err := c.handshake(); err != nil { // starts the read loop
//		return nil, err                    // nothing closes c.closed
//	}
//	...
//	select {
//	case c.decrypted <- data: // reported
//	case <-c.closed.Done():
//	}
func (x *Index) DroppedOwner(instr ssa.Instruction, state int) (Drop, bool) {
	var ch ssa.Value
	var others []*ssa.SelectState
	switch instr := instr.(type) {
	case *ssa.Send:
		ch = instr.Chan
	case *ssa.Select:
		ch = instr.States[state].Chan
		others = slices.Delete(slices.Clone(instr.States), state, state+1)
	default:
		return Drop{}, false
	}
	addr := loadedAddr(ch)
	if addr == nil {
		return Drop{}, false
	}
	f := FieldOf(addr.X.Type(), addr.Field, true)
	t := derefNamed(addr.X.Type())
	if f == nil || t == nil || f.Exported() || t.Obj().Pkg() != x.pkg.Pkg || !x.madeHere(f) ||
		x.HandedOutBy(f) != nil || !x.onlyOperated(f) {
		return Drop{}, false
	}
	for _, g := range x.Guards(instr) {
		if fieldOfType(g.Field, t) {
			return Drop{}, false // it may run only once the object is set up, and kept
		}
	}
	var signals []signal
	for _, st := range others {
		if st.Dir == types.RecvOnly && x.Dead(st.Chan) {
			continue
		}
		s, ok := x.objectSignal(st, addr.X)
		if !ok {
			return Drop{}, false
		}
		signals = append(signals, s)
	}
	buffered := false
	for _, mk := range x.FieldMakes(f) {
		if n, ok := ConstCapOK(mk); !ok || n > 0 {
			buffered = true
		}
	}
	shipped := !InTestFile(instr)
	for _, h := range x.holders(instr.Parent(), addr.X, nil, nil, flow.Reaches(instr, instr), 0) {
		if buffered && !h.repeats || shipped && InTestFile(h.entry) {
			continue // one value, which the buffer takes; a test's object
		}
		if d, ok := x.dropIn(h, t, f, signals); ok {
			return d, true
		}
	}
	return Drop{}, false
}

// madeHere reports whether every store into f stores a channel made for
// it alone, so that only what holds the object can reach the channel.
func (x *Index) madeHere(f *types.Var) bool {
	for _, st := range x.fieldSts[f] {
		if _, ok := st.Val.(*ssa.MakeChan); !ok || !onlyStored(st.Val) {
			return false
		}
	}
	return len(x.fieldSts[f]) > 0
}

// objectSignal reads the receive case st as a signal of the object base.
// The field must hold what its object was made with (see madeFresh) and
// be used only as a channel or to call methods on, so that firing it
// takes the object.
func (x *Index) objectSignal(st *ssa.SelectState, base ssa.Value) (signal, bool) {
	if st.Dir != types.RecvOnly {
		return signal{}, false
	}
	var s signal
	recv := st.Chan
	if call, ok := st.Chan.(*ssa.Call); ok {
		c := call.Common()
		switch {
		case c.IsInvoke():
			recv, s.method = c.Value, c.Method.Name()
		case c.Signature().Recv() != nil && len(c.Args) > 0:
			recv, s.method = c.Args[0], c.StaticCallee().Name()
		default:
			return signal{}, false
		}
	}
	addr := loadedAddr(recv)
	if addr == nil || !SameValue(addr.X, base) {
		return signal{}, false
	}
	s.field = FieldOf(addr.X.Type(), addr.Field, true)
	if s.field == nil || s.field.Exported() || !x.madeFresh(s.field) || !x.onlyOperated(s.field) {
		return signal{}, false
	}
	return s, true
}

// madeFresh reports whether every store into f stores something just
// made for it alone: a channel, a new struct, or what a function returns
// when given no more than plain values (closer.New(0), not a context made
// from the caller's, which the caller can cancel).
func (x *Index) madeFresh(f *types.Var) bool {
	for _, st := range x.fieldSts[f] {
		switch v := st.Val.(type) {
		case *ssa.MakeChan, *ssa.Alloc:
		case *ssa.Call:
			if v.Common().StaticCallee() == nil || !plainArgs(v.Common()) {
				return false
			}
		default:
			return false
		}
		if !onlyStored(st.Val) {
			return false
		}
	}
	return len(x.fieldSts[f]) > 0
}

// plainArgs reports whether every argument of c is a basic value.
func plainArgs(c *ssa.CallCommon) bool {
	for _, a := range c.Args {
		if _, ok := a.Type().Underlying().(*types.Basic); !ok {
			return false
		}
	}
	return true
}

// onlyStored reports whether v is used only by its one store.
func onlyStored(v ssa.Value) bool {
	stores := 0
	for _, ref := range *v.Referrers() {
		switch ref.(type) {
		case *ssa.Store:
			stores++
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return stores == 1
}

// onlyOperated reports whether every value loaded from f, anywhere in the
// package, is only sent on, received from, closed, measured, compared or
// called a method on: it is never handed to anything.
func (x *Index) onlyOperated(f *types.Var) bool {
	if ok, seen := x.operated[f]; seen {
		return ok
	}
	ok := true
	for _, fn := range x.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if fa, isAddr := instr.(*ssa.FieldAddr); isAddr && FieldOf(fa.X.Type(), fa.Field, true) == f && !operatedLoads(fa) {
					ok = false
				}
			}
		}
	}
	x.operated[f] = ok
	return ok
}

// operatedLoads reports whether the address fa is only stored to or
// loaded from, and its loads only operated on (see onlyOperated).
func operatedLoads(fa *ssa.FieldAddr) bool {
	for _, ref := range *fa.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != fa {
				return false
			}
		case *ssa.UnOp:
			if ref.Op != token.MUL || !operatedOn(ref) {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

func operatedOn(v ssa.Value) bool {
	for _, ref := range *v.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Send:
			if ref.X == v {
				return false
			}
		case *ssa.UnOp:
			if ref.Op != token.ARROW {
				return false
			}
		case *ssa.Select, *ssa.BinOp, *ssa.DebugRef:
		case ssa.CallInstruction:
			c := ref.Common()
			if c.IsInvoke() && c.Value == v {
				continue
			}
			if b, ok := c.Value.(*ssa.Builtin); ok {
				if n := b.Name(); n == "close" || n == "len" || n == "cap" {
					continue
				}
				return false
			}
			if c.Signature().Recv() == nil || len(c.Args) == 0 || c.Args[0] != v {
				return false
			}
			for _, a := range c.Args[1:] {
				if a == v {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// A holder is a function that made the object a goroutine sends with:
// it holds obj, and entry is its instruction through which the goroutine
// is started (a go statement, or a call that leads to one, start).
// repeats is set when a loop on the way can run the send again.
type holder struct {
	fn      *ssa.Function
	obj     ssa.Value
	entry   ssa.Instruction
	start   *ssa.Go
	repeats bool
}

// maxHolderDepth bounds how many calls holders climbs from the send.
const maxHolderDepth = 6

// holders climbs from v, the object as fn sees it, to the functions that
// made it, through the calls and go statements that hand it on as an
// argument, a receiver or a captured variable. entry is the instruction
// of fn's caller climbed from, start the go statement nearest the send,
// and repeats whether a loop on the way can run the send again.
func (x *Index) holders(fn *ssa.Function, v ssa.Value, entry ssa.Instruction, start *ssa.Go, repeats bool, depth int) []holder {
	if depth > maxHolderDepth {
		return nil
	}
	switch v := v.(type) {
	case *ssa.Alloc:
		if isStructAlloc(v) && start != nil {
			return []holder{{fn, v, entry, start, repeats}}
		}
	case *ssa.Call:
		if start != nil && returnsNew(v.Common().StaticCallee()) {
			return []holder{{fn, v, entry, start, repeats}}
		}
	case *ssa.Parameter:
		i := paramIndex(v)
		runs, ok := x.directRuns(fn)
		if !ok || i < 0 {
			return nil
		}
		var out []holder
		for _, r := range runs {
			args := r.Common().Args
			if i >= len(args) {
				continue
			}
			out = append(out, x.holders(r.Parent(), args[i], r, nearest(start, r), repeats || flow.Reaches(r, r), depth+1)...)
		}
		return out
	case *ssa.FreeVar:
		return x.closureHolders(fn, boundValue(v), start, repeats, depth)
	case *ssa.UnOp:
		// A variable a closure captures, or one of the function's own,
		// assigned once: c, captured by the read loop's literal.
		if v.Op != token.MUL {
			return nil
		}
		switch cell := v.X.(type) {
		case *ssa.FreeVar:
			if a, ok := boundValue(cell).(*ssa.Alloc); ok {
				return x.closureHolders(fn, StoredOnce(a), start, repeats, depth)
			}
		case *ssa.Alloc:
			if val := StoredOnce(cell); val != nil {
				return x.holders(fn, val, entry, start, repeats, depth+1)
			}
		}
	}
	return nil
}

// closureHolders climbs from the literal fn to the function that makes
// it, where bound is what it captures.
func (x *Index) closureHolders(fn *ssa.Function, bound ssa.Value, start *ssa.Go, repeats bool, depth int) []holder {
	runs, ok := x.directRuns(fn)
	if bound == nil || !ok {
		return nil
	}
	var out []holder
	for _, r := range runs {
		if r.Parent() == fn.Parent() {
			out = append(out, x.holders(r.Parent(), bound, r, nearest(start, r), repeats || flow.Reaches(r, r), depth+1)...)
		}
	}
	return out
}

// nearest keeps the go statement nearest the send: start, or r when it
// is the first met.
func nearest(start *ssa.Go, r ssa.CallInstruction) *ssa.Go {
	if g, ok := r.(*ssa.Go); ok && start == nil {
		return g
	}
	return start
}

// dropIn finds a return of h.fn that drops h.obj, a *t, after h.entry:
// it returns nothing that holds the object, and nothing on the way to it
// receives from f or fires a signal.
func (x *Index) dropIn(h holder, t *types.Named, f *types.Var, signals []signal) (Drop, bool) {
	if h.entry == nil || !x.madeHome(h.obj, t) {
		return Drop{}, false
	}
	holding, ok := x.staysHome(h.fn, h.obj, t)
	if !ok {
		return Drop{}, false
	}
	for _, b := range h.fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || !flow.Reaches(h.entry, ret) || returnsAny(ret, holding) {
			continue
		}
		if x.quietOnWay(h, ret, t, f, signals) {
			d := Drop{Ctor: h.fn, Return: ret, Start: h.start, Type: t, Field: f}
			if len(signals) > 0 {
				d.Signal = signals[0].field
			}
			return d, true
		}
	}
	return Drop{}, false
}

// madeHome reports whether the constructor call obj, when it is one,
// keeps the object it makes to itself until it returns it.
func (x *Index) madeHome(obj ssa.Value, t *types.Named) bool {
	call, ok := obj.(*ssa.Call)
	if !ok {
		return true
	}
	fn := call.Common().StaticCallee()
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			if _, ok := x.staysHome(fn, ret.Results[0], t); !ok {
				return false
			}
		}
	}
	return true
}

// returnsAny reports whether some result of ret is one of holding.
func returnsAny(ret *ssa.Return, holding map[ssa.Value]bool) bool {
	for _, r := range ret.Results {
		if holding[r] {
			return true
		}
	}
	return false
}

// quietOnWay reports whether nothing that runs on the way to ret in h.fn,
// or in its defers, or in a goroutine they start (other than the one that
// sends), receives from f or fires one of signals.
func (x *Index) quietOnWay(h holder, ret *ssa.Return, t *types.Named, f *types.Var, signals []signal) bool {
	var roots []ssa.CallInstruction
	for _, b := range h.fn.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			// Whatever runs before the return, before the goroutine
			// starts or after, may fire the way out or start what does.
			_, deferred := c.(*ssa.Defer)
			if deferred || instr == h.entry || flow.Reaches(instr, ret) {
				roots = append(roots, c)
			}
		}
	}
	reached, ok := x.runsFrom(roots, h.start, t)
	if !ok {
		return false
	}
	for fn := range reached {
		if x.touches(fn, f, signals) {
			return false
		}
	}
	for _, c := range roots {
		if touchesAt(c, signals) {
			return false
		}
	}
	return true
}

// maxRuns bounds runsFrom's walk.
const maxRuns = 256

// runsFrom returns the functions of this package that the calls roots
// can run: through static calls, go statements other than skip, defers,
// and calls through an interface of a method t has. ok is false when the
// walk is too large to trust.
func (x *Index) runsFrom(roots []ssa.CallInstruction, skip *ssa.Go, t *types.Named) (map[*ssa.Function]bool, bool) {
	reached := make(map[*ssa.Function]bool)
	var work []*ssa.Function
	follow := func(c ssa.CallInstruction) {
		if g, ok := c.(*ssa.Go); ok && g == skip {
			return
		}
		callee := c.Common().StaticCallee()
		if c.Common().IsInvoke() {
			callee = x.methodOf(t, c.Common().Method.Name())
		}
		if callee != nil && callee.Pkg == x.pkg && !reached[callee] {
			reached[callee] = true
			work = append(work, callee)
		}
	}
	for _, c := range roots {
		follow(c)
	}
	for len(work) > 0 {
		if len(reached) > maxRuns {
			return nil, false
		}
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if c, ok := instr.(ssa.CallInstruction); ok {
					follow(c)
				}
			}
		}
	}
	return reached, true
}

// methodOf returns t's method called name, when this package defines it.
func (x *Index) methodOf(t *types.Named, name string) *ssa.Function {
	prog := x.pkg.Prog
	sel := prog.MethodSets.MethodSet(types.NewPointer(t)).Lookup(x.pkg.Pkg, name)
	if sel == nil {
		return nil
	}
	fn := prog.FuncValue(sel.Obj().(*types.Func))
	if fn == nil || fn.Pkg != x.pkg {
		return nil
	}
	return fn
}

// touches reports whether fn receives from f or fires one of signals.
func (x *Index) touches(fn *ssa.Function, f *types.Var, signals []signal) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.UnOp:
				if instr.Op == token.ARROW && fieldOfLoad(instr.X) == f {
					return true
				}
			case *ssa.Select:
				for _, st := range instr.States {
					g := fieldOfLoad(st.Chan)
					if st.Dir == types.RecvOnly && g == f || st.Dir == types.SendOnly && isSignalChan(g, signals) {
						return true
					}
				}
			case *ssa.Send:
				if isSignalChan(fieldOfLoad(instr.Chan), signals) {
					return true
				}
			case ssa.CallInstruction:
				if touchesAt(instr, signals) {
					return true
				}
			}
		}
	}
	return false
}

// touchesAt reports whether the call c fires one of signals: it closes a
// signal channel, or calls a method on a signal's field other than the
// one whose result is waited on.
func touchesAt(c ssa.CallInstruction, signals []signal) bool {
	common := c.Common()
	if b, ok := common.Value.(*ssa.Builtin); ok {
		return b.Name() == "close" && len(common.Args) == 1 && isSignalChan(fieldOfLoad(common.Args[0]), signals)
	}
	var recv ssa.Value
	var name string
	switch {
	case common.IsInvoke():
		recv, name = common.Value, common.Method.Name()
	case common.Signature().Recv() != nil && len(common.Args) > 0 && common.StaticCallee() != nil:
		recv, name = common.Args[0], common.StaticCallee().Name()
	default:
		return false
	}
	g := fieldOfLoad(recv)
	for _, s := range signals {
		if s.method != "" && s.field == g && s.method != name {
			return true
		}
	}
	return false
}

func isSignalChan(g *types.Var, signals []signal) bool {
	for _, s := range signals {
		if g != nil && s.field == g && s.method == "" {
			return true
		}
	}
	return false
}

// fieldOfLoad returns the field v is loaded from, or nil.
func fieldOfLoad(v ssa.Value) *types.Var {
	if addr := loadedAddr(v); addr != nil {
		return FieldOf(addr.X.Type(), addr.Field, true)
	}
	return nil
}

// fieldOfType reports whether f is a field of the struct t names.
func fieldOfType(f *types.Var, t *types.Named) bool {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if st.Field(i) == f {
			return true
		}
	}
	return false
}
