package chans

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// A Drop is the proof that a send is left with no one to take its value
// and no way out: the function that made the object whose channel it
// sends on returns on some path without the object, after starting the
// goroutine that sends, and fires none of the object's signals a select
// around the send waits on. Once it has returned no one holds the object
// but the package's own goroutines, so no one calls its Close or its Read.
type Drop struct {
	Ctor   *ssa.Function
	Return *ssa.Return // the return that drops the object
	Start  *ssa.Go     // starts the goroutine that sends
	Type   *types.Named
	Helper *ssa.Function // the helper Ctor got the object from, or nil when Ctor made it
	Field  *types.Var    // the channel sent on
	Signal *types.Var    // the field whose signal is the select's way out; nil for a plain send
}

// DroppedOwner returns the Drop that leaves the send at instr (a plain
// send, or case state of a select), on an unexported channel field of an
// object, waiting for good: every other case of the select receives on a
// signal of the same object (or on a channel nothing can fire), and some
// constructor of the object
//   - starts, through calls that hand the object on, the goroutine that
//     makes the send;
//   - can then return without the object, having handed it nowhere but to
//     its own goroutines, closures and objects (see staysHome);
//   - runs nothing on that path, nor starts a goroutine that runs
//     anything, that receives from the channel or fires a signal.
//
// A send that runs only after a test of a flag or state of the object
// (see Guards) is left alone: it may run only once the object is set up,
// and then kept.
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
		if !isStructAlloc(v) || start == nil {
			return nil
		}
		out := []holder{{fn, v, entry, start, repeats}}
		if !returnsNew(fn) {
			return out
		}
		// A helper that makes the object and starts its goroutine hands
		// it to its callers, which may drop it: c := newConn(); if err
		// := c.handshake(); err != nil { return nil, err }.
		runs, _ := x.directRuns(fn)
		for _, r := range runs {
			if c, ok := r.(*ssa.Call); ok {
				out = append(out, holder{c.Parent(), c, c, start, repeats || flow.Reaches(c, c)})
			}
		}
		return out
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
			if call, ok := h.obj.(*ssa.Call); ok {
				d.Helper = call.Common().StaticCallee()
			}
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
