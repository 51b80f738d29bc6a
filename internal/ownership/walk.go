package ownership

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// maxSteps bounds one walk: values visited under one goroutine label. Real
// streams reach a few dozen values; the bound only keeps a pathological
// package from hanging the build.
const maxSteps = 20000

// holdKind says what a walked value holds.
type holdKind uint8

const (
	holdsStream  holdKind = iota + 1 // the stream itself
	holdsSend                        // a func value that sends when called: stream.Send, or a func parameter presumed to
	holdsClosure                     // a closure whose free variable fv holds inner
	holdsCell                        // a variable (an Alloc) whose value holds inner
	holdsCarrier                     // a struct made here whose field holds inner
	holdsElems                       // a slice or array made here whose elements hold inner
)

// holds describes what a walked value holds. Values are interned by the
// walker, so that pointers compare equal when the descriptions do.
type holds struct {
	kind  holdKind
	fn    *ssa.Function // holdsClosure: the closure's function
	fv    int           // holdsClosure: the free variable
	field *types.Var    // holdsCarrier: the field, as its generic origin
	inner *holds        // holdsClosure, holdsCell, holdsCarrier, holdsElems
}

// ctx is the goroutine that runs the walked code, and the instruction of
// that goroutine's own function through which the walk left it (nil while
// the walk is still in it).
type ctx struct {
	g  Goroutine
	at ssa.Instruction
}

// call returns the context of code that instr runs synchronously.
func (c ctx) call(instr ssa.Instruction) ctx {
	if c.at == nil {
		c.at = instr
	}
	return c
}

// order returns the instruction of the owner's function that leads to
// instr, when the walk is on the owner's goroutine, and otherwise what the
// current goroutine inherited.
func (c ctx) order(instr ssa.Instruction) ssa.Instruction {
	if c.g.Kind != Owner {
		return c.g.Order
	}
	if c.at != nil {
		return c.at
	}
	return instr
}

type visit struct {
	v ssa.Value
	h *holds
	c ctx
}

// A walker follows the values that hold one stream, or one stored place,
// through a package and collects the sends on them.
type walker struct {
	u      *unit
	sites  map[ssa.CallInstruction]*Site
	list   []*Site
	stores []*Store
	seen   map[visit]bool
	intern map[holds]*holds
	steps  int
}

func (u *unit) newWalker() *walker {
	return &walker{
		u:      u,
		sites:  make(map[ssa.CallInstruction]*Site),
		seen:   make(map[visit]bool),
		intern: make(map[holds]*holds),
	}
}

func (w *walker) hold(h holds) *holds {
	if p, ok := w.intern[h]; ok {
		return p
	}
	p := &h
	w.intern[h] = p
	return p
}

// value follows v, which holds h, through its uses.
func (w *walker) value(v ssa.Value, h *holds, c ctx) {
	key := visit{v, h, c}
	if w.seen[key] || w.steps >= maxSteps {
		return
	}
	w.seen[key] = true
	w.steps++
	refs := v.Referrers()
	if refs == nil {
		return
	}
	for _, instr := range *refs {
		w.use(instr, v, h, c)
	}
}

// use follows one use of v:
//
//	t1 = invoke stream.Send(m)           a send
//	t2 = t1(m)                           a call of a func value that sends
//	t3 = f(stream)   go f(stream)        the stream passed on
//	t4 = make closure g$1 [stream]       captured
//	*t5 = stream                         stored
//	t6 = φ [...]  t7 = make any <- ...   the same value under another name
func (w *walker) use(instr ssa.Instruction, v ssa.Value, h *holds, c ctx) {
	switch in := instr.(type) {
	case ssa.CallInstruction:
		w.call(in, v, h, c)
	case *ssa.MakeClosure:
		w.capture(in, v, h, c)
	case *ssa.Store:
		if in.Val == v {
			w.store(in, h, c)
		}
	case *ssa.MapUpdate:
		if in.Value == v {
			w.storeElem(in, in.Map, h, c)
		}
	case *ssa.Send:
		if in.X == v {
			w.storeElem(in, in.Chan, h, c)
		}
	case *ssa.UnOp:
		if in.Op == token.MUL {
			switch h.kind {
			case holdsCell:
				w.value(in, h.inner, c)
			case holdsCarrier:
				w.value(in, h, c) // the struct, loaded from the pointer
			}
		}
	case *ssa.FieldAddr:
		if h.kind == holdsCarrier && w.u.field(in.X.Type(), in.Field) == h.field {
			w.value(in, w.hold(holds{kind: holdsCell, inner: h.inner}), c)
		}
	case *ssa.Field:
		if h.kind == holdsCarrier && w.u.field(in.X.Type(), in.Field) == h.field {
			w.value(in, h.inner, c)
		}
	case *ssa.IndexAddr:
		if h.kind == holdsElems && in.X == v {
			w.value(in, w.hold(holds{kind: holdsCell, inner: h.inner}), c)
		}
	case *ssa.Slice:
		if h.kind == holdsElems {
			w.value(in, h, c)
		}
	case *ssa.Phi, *ssa.ChangeType, *ssa.ChangeInterface, *ssa.MakeInterface:
		if h.kind != holdsCell {
			w.value(in.(ssa.Value), h, c)
		}
	case *ssa.TypeAssert:
		w.typeAssert(in, h, c)
	case *ssa.Return:
		if h.kind == holdsClosure {
			w.escape(in, h)
		}
	}
}

// typeAssert follows x.(T), and x.(T) with ok through its value.
func (w *walker) typeAssert(in *ssa.TypeAssert, h *holds, c ctx) {
	if h.kind == holdsCell {
		return
	}
	if !in.CommaOk {
		w.value(in, h, c)
		return
	}
	for _, ref := range *in.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && ex.Index == 0 {
			w.value(ex, h, c)
		}
	}
}

// call handles a call that uses v: as the method receiver of a send, as
// the func value called, or as an argument.
func (w *walker) call(in ssa.CallInstruction, v ssa.Value, h *holds, c ctx) {
	cc := in.Common()
	if b, ok := cc.Value.(*ssa.Builtin); ok {
		// t4 = append(s, t3...): the result holds what the appended
		// elements hold.
		if b.Name() == "append" && h.kind == holdsElems && in.Value() != nil {
			w.value(in.Value(), h, c)
		}
		return
	}
	_, isGo := in.(*ssa.Go)
	direct := w.sends(cc, v, h)
	if direct {
		w.site(in, nil, w.callCtx(in, v, nil, c, isGo))
	}
	if h.kind == holdsClosure && !cc.IsInvoke() && cc.Value == v {
		w.enter(h, w.callCtx(in, captured(v, h), h.fn, c, isGo))
	}
	if h.kind == holdsCarrier && cc.IsInvoke() && cc.Value == v {
		// A method of the carrying struct called through an interface:
		// the package's implementations receive it.
		for _, m := range w.u.implementations(cc.Method) {
			w.value(m.Params[0], h, w.callCtx(in, v, m, c, isGo))
		}
	}
	for i, a := range cc.Args {
		if a == v && !(direct && i == 0) {
			w.arg(in, i, v, h, c, isGo)
		}
	}
}

// captured returns the value a closure captured, which is what a go
// statement starting it repeats over; v itself when it is not the closure.
func captured(v ssa.Value, h *holds) ssa.Value {
	if mc, ok := v.(*ssa.MakeClosure); ok && h.kind == holdsClosure && h.fv < len(mc.Bindings) {
		return mc.Bindings[h.fv]
	}
	return v
}

// sends reports whether the call sends on what v holds:
//
//	t1 = invoke v.Send(m)                     v a stream (interface)
//	t1 = (*connect.BidiStream[A, B]).Send(v, m) v a stream (concrete)
//	t1 = v(m)                                 v holds a send
func (w *walker) sends(cc *ssa.CallCommon, v ssa.Value, h *holds) bool {
	switch h.kind {
	case holdsSend:
		return !cc.IsInvoke() && cc.Value == v
	case holdsStream:
		if cc.IsInvoke() {
			return cc.Value == v && matcher.IsSend(cc.Method)
		}
		return len(cc.Args) > 0 && cc.Args[0] == v && matcher.Direct(cc) != nil
	}
	return false
}

// callCtx is the context of code that in runs, synchronously or, for a go
// statement, on a new goroutine. fn is the function entered, when known;
// entering a function marked //sendlint:sender makes it the goroutine.
func (w *walker) callCtx(in ssa.CallInstruction, v ssa.Value, fn *ssa.Function, c ctx, isGo bool) ctx {
	next := c.call(in)
	if isGo {
		next = w.start(in, v, fn, c)
	}
	if fn != nil && w.u.marked[fn] {
		next = ctx{g: Goroutine{Kind: Marked, Fn: fn, Order: c.order(in)}}
	}
	return next
}

// start is the context of a goroutine started by in with v. The goroutine
// is one of many when the start repeats while v stays the same: a go
// statement in a loop that does not also produce v.
func (w *walker) start(in ssa.Instruction, v ssa.Value, fn *ssa.Function, c ctx) ctx {
	g := Goroutine{
		Kind:  Started,
		Fn:    fn,
		Site:  in,
		Multi: c.g.Multi || w.u.repeats(in, v),
		Order: c.order(in),
	}
	return ctx{g: g}
}

// enter walks the body of the closure h describes, in context c.
func (w *walker) enter(h *holds, c ctx) {
	if w.u.marked[h.fn] && c.g.Kind != Marked {
		c = ctx{g: Goroutine{Kind: Marked, Fn: h.fn, Order: c.g.Order}}
	}
	if h.fv < len(h.fn.FreeVars) {
		w.value(h.fn.FreeVars[h.fv], h.inner, c)
	}
}

// escape walks a closure that is stored or returned: whoever calls it
// later runs it on a goroutine of its own.
func (w *walker) escape(in ssa.Instruction, h *holds) {
	w.enter(h, ctx{g: Goroutine{Kind: Callback, Fn: h.fn, Site: in}})
}

// arg follows v passed as argument i of in.
func (w *walker) arg(in ssa.CallInstruction, i int, v ssa.Value, h *holds, c ctx, isGo bool) {
	cc := in.Common()
	v = captured(v, h) // what a go statement repeats over
	callee := cc.StaticCallee()
	if callee == nil && cc.IsInvoke() {
		for _, m := range w.u.implementations(cc.Method) {
			if i+1 < len(m.Params) {
				w.value(m.Params[i+1], h, w.callCtx(in, v, m, c, isGo))
			}
		}
	}
	if callee == nil {
		// Policy: beyond the package's own implementations of an interface
		// method, the callee of an interface or func-value call is unknown.
		// A stream or send passed to it is not followed; a closure is
		// presumed to run on the caller's goroutine.
		if h.kind == holdsClosure {
			w.enter(h, w.callCtx(in, v, nil, c, isGo))
		}
		return
	}
	if fn := w.u.local(callee); fn != nil {
		if i < len(fn.Params) {
			w.value(fn.Params[i], h, w.callCtx(in, v, fn, c, isGo))
		}
		return
	}
	use, known := w.u.external(callee, i)
	here := w.callCtx(in, v, nil, c, isGo)
	obj, _ := callee.Object().(*types.Func)
	if obj != nil {
		obj = obj.Origin()
	}
	switch h.kind {
	case holdsStream, holdsSend:
		if use.sync {
			w.site(in, obj, here)
		}
		if use.async || use.sender {
			w.site(in, obj, w.start(in, v, nil, here))
		}
		if use.shared {
			w.site(in, obj, ctx{g: Goroutine{Kind: Entry, Site: in, Multi: true}})
		}
	case holdsClosure:
		switch {
		case use.async:
			w.enter(h, w.start(in, v, h.fn, here))
		case use.shared:
			w.escape(in, h)
		case use.sync || !known:
			// Policy: a closure handed to a function that is not known to
			// start or store it runs on the caller's goroutine.
			w.enter(h, here)
		}
	}
}

// capture follows v captured by a closure, and a method value taken on a
// stream, which is a closure over the stream's bound Send:
//
//	t1 = make closure (*connect.BidiStream[A, B]).Send$bound [v]
//	t2 = make closure handler$1 [v, t0]
func (w *walker) capture(mc *ssa.MakeClosure, v ssa.Value, h *holds, c ctx) {
	if h.kind == holdsStream && len(mc.Bindings) == 1 && matcher.MethodValue(mc) != nil {
		w.value(mc, w.hold(holds{kind: holdsSend}), c)
		return
	}
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return
	}
	for j, b := range mc.Bindings {
		if b == v {
			w.value(mc, w.hold(holds{kind: holdsClosure, fn: fn, fv: j, inner: h}), c)
		}
	}
}

// site records that in sends, in context c.
func (w *walker) site(in ssa.CallInstruction, callee *types.Func, c ctx) {
	s := w.sites[in]
	if s == nil {
		s = &Site{Call: in, Callee: callee}
		w.sites[in] = s
		w.list = append(w.list, s)
	}
	at := c.at
	if at == nil {
		at = in
	}
	g := c.g
	if g.Kind == Owner && g.Order == nil {
		g.Order = at
	}
	for _, old := range s.Senders {
		if old.G == g && old.At == at {
			return
		}
	}
	s.Senders = append(s.Senders, Sender{G: g, At: at})
}
