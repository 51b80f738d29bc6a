// Package chans answers the questions baresend and lockedsend ask about a
// channel: where a value comes from (made here, a struct field, a
// parameter...), who else sends, receives and closes it, whether a local
// buffer provably has room for every send, and which select cases are
// liveness cases. All answers are per package: callers outside the package
// are unknown and treated as such.
package chans

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
	"github.com/sendlint/sendlint/internal/locks"
)

// Index holds the per-package facts the questions need. Build it once per
// pass with NewIndex; every answer is memoised.
type Index struct {
	pkg *ssa.Package
	ops []*ssa.Value // scratch for the operands of the instruction being added

	closures   map[*ssa.Function][]*ssa.MakeClosure // anonymous function -> its closure sites
	calls      map[*ssa.Function][]ssa.CallInstruction
	instCalls  map[*ssa.Function][]ssa.CallInstruction // generic function -> calls of its instances
	escaped    map[*ssa.Function]bool                  // used other than as a callee: callers unknown
	fieldVals  map[*types.Var][]ssa.Value
	fieldSts   map[*types.Var][]*ssa.Store
	globalVals map[*ssa.Global][]ssa.Value
	globalSts  map[*ssa.Global][]*ssa.Store
	recvs      []Site                              // every receive in the package, Func and Instr set
	invokes    map[string][]ssa.CallInstruction    // calls through interfaces, by method name
	ifaces     map[string][]*types.Interface       // the interfaces they are called on; nil for a type parameter
	bound      map[types.Object]bool               // methods used as method values or expressions
	thunked    map[types.Object]bool               // methods used as method expressions (T.m)
	boundVals  map[types.Object][]*ssa.MakeClosure // the method values of each method

	uses       map[*ssa.MakeChan]*Uses
	loops      map[*ssa.Function]*flow.Loops
	recvFields map[*types.Var][]Site
	recvGlobs  map[*ssa.Global][]Site

	elemSts  []elemStore            // every store into a map, slice or array element
	elemVals map[Origin][]ssa.Value // values stored into elements, by the container's home
	elemRecv map[Origin][]Site      // receives on channels loaded from elements, likewise

	goStarts    map[*ssa.Function][]*ssa.Go // the go statements that start each function
	fieldCloses map[*types.Var][]*ssa.Call  // close(x.f), by field
	chanReturns []*ssa.Return               // returns of exported functions that return a channel

	sends    []*ssa.Send              // every plain send in the package
	inserts  map[any][]*ssa.MapUpdate // m[k] = v, by the map's field or global
	deletes  map[any][]*ssa.Call      // delete(m, k), by the map's field or global
	sendSels []*ssa.Select            // every select with a send case
	oneShot  map[*types.Var]bool
	perValue map[*types.Var]bool               // OncePerValue's answers
	reruns   map[*ssa.Function]ssa.Instruction // rerunBy's answers

	funcs           []*ssa.Function // the indexed functions, for the rare scans of runner.go
	imported        func(*types.Func, int) bool
	inPlaceImported func(*types.Func, int) bool // CallsInPlace of other packages (SetInPlace)
	runners         map[runnerKey]bool
	fieldRuns       map[*types.Var]bool
	kept            map[*types.Var]bool

	shipped   map[*ssa.Function]bool // Shipped's answers
	inits     map[*ssa.Function]bool // see initRefs
	testInits map[*ssa.Function]bool // referred to only from a test file's initializers
	fired     map[*types.Var][]ssa.Instruction

	importedGroups func(*types.Func) (GroupOp, bool)
	importedStops  func(*types.Func) string   // see SetStopMethods
	importedFields map[*types.Var]bool        // other packages' stop fields, as their stop methods return them
	groupMemo      map[*ssa.Function]GroupOp  // GroupMethod's answers; the zero GroupOp is none
	signals        map[Site][]ssa.Instruction // stopSignals' answers; nil when it has none

	writes map[*types.Var][]Write          // the atomic writes of each field; see Writes
	held   map[*ssa.Function]*locks.Result // see lockState
	entry  map[*ssa.Function]*Held         // see entryHeld

	loads      map[*types.Var][]*ssa.UnOp           // see fieldLoads
	inPlace    map[*types.Var]bool                  // see keptInPlace
	closes     map[*types.Var][]ssa.Instruction     // see closesOf
	everyClose map[*types.Var][]ssa.CallInstruction // see allCloses
	operated   map[*types.Var]bool                  // see onlyOperated

	files    []*ast.File // see SetSyntax
	info     *types.Info
	cmpNames map[token.Pos]string
	sizes    map[token.Pos]ast.Expr // make(chan T, size) by the call's Lparen: see SizesOf
}

// NewIndex indexes funcs, the source functions of one package.
func NewIndex(pkg *ssa.Package, funcs []*ssa.Function) *Index {
	x := &Index{
		pkg:            pkg,
		closures:       make(map[*ssa.Function][]*ssa.MakeClosure),
		calls:          make(map[*ssa.Function][]ssa.CallInstruction),
		instCalls:      make(map[*ssa.Function][]ssa.CallInstruction),
		escaped:        make(map[*ssa.Function]bool),
		fieldVals:      make(map[*types.Var][]ssa.Value),
		fieldSts:       make(map[*types.Var][]*ssa.Store),
		globalVals:     make(map[*ssa.Global][]ssa.Value),
		globalSts:      make(map[*ssa.Global][]*ssa.Store),
		uses:           make(map[*ssa.MakeChan]*Uses),
		loops:          make(map[*ssa.Function]*flow.Loops),
		invokes:        make(map[string][]ssa.CallInstruction),
		ifaces:         make(map[string][]*types.Interface),
		inserts:        make(map[any][]*ssa.MapUpdate),
		deletes:        make(map[any][]*ssa.Call),
		bound:          make(map[types.Object]bool),
		thunked:        make(map[types.Object]bool),
		boundVals:      make(map[types.Object][]*ssa.MakeClosure),
		goStarts:       make(map[*ssa.Function][]*ssa.Go),
		fieldCloses:    make(map[*types.Var][]*ssa.Call),
		funcs:          funcs,
		runners:        make(map[runnerKey]bool),
		fieldRuns:      make(map[*types.Var]bool),
		kept:           make(map[*types.Var]bool),
		operated:       make(map[*types.Var]bool),
		shipped:        make(map[*ssa.Function]bool),
		fired:          make(map[*types.Var][]ssa.Instruction),
		groupMemo:      make(map[*ssa.Function]GroupOp),
		signals:        make(map[Site][]ssa.Instruction),
		importedFields: make(map[*types.Var]bool),
	}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				x.add(instr)
			}
		}
	}
	return x
}

func (x *Index) add(instr ssa.Instruction) {
	switch instr := instr.(type) {
	case *ssa.MakeClosure:
		x.closures[instr.Fn.(*ssa.Function)] = append(x.closures[instr.Fn.(*ssa.Function)], instr)
	case *ssa.Store:
		switch addr := instr.Addr.(type) {
		case *ssa.IndexAddr:
			x.elemSts = append(x.elemSts, elemStore{addr.X, instr.Val})
		case *ssa.FieldAddr:
			if f := FieldOf(addr.X.Type(), addr.Field, true); f != nil {
				x.fieldVals[f] = append(x.fieldVals[f], instr.Val)
				x.fieldSts[f] = append(x.fieldSts[f], instr)
			}
		case *ssa.Global:
			x.globalVals[addr] = append(x.globalVals[addr], instr.Val)
			x.globalSts[addr] = append(x.globalSts[addr], instr)
		}
	case *ssa.UnOp:
		if instr.Op == arrow {
			x.recvs = append(x.recvs, Site{Instr: instr, State: -1, Func: instr.Parent()})
		}
	case *ssa.Send:
		x.sends = append(x.sends, instr)
	case *ssa.Return:
		if obj := instr.Parent().Object(); obj != nil && obj.Exported() && returnsChan(instr) {
			x.chanReturns = append(x.chanReturns, instr)
		}
	case *ssa.Go:
		if fn := goEntry(instr); fn != nil {
			x.goStarts[fn] = append(x.goStarts[fn], instr)
		}
	case *ssa.MapUpdate:
		// A range over the map yields its keys as elements too: a set
		// of channels (m[ch] = h) holds its channels as keys.
		x.elemSts = append(x.elemSts, elemStore{instr.Map, instr.Value}, elemStore{instr.Map, instr.Key})
		if m := registry(instr.Map); m != nil {
			x.inserts[m] = append(x.inserts[m], instr)
		}
	case *ssa.Call:
		if b, ok := instr.Call.Value.(*ssa.Builtin); ok && b.Name() == "delete" {
			if m := registry(instr.Call.Args[0]); m != nil {
				x.deletes[m] = append(x.deletes[m], instr)
			}
		}
		if b, ok := instr.Call.Value.(*ssa.Builtin); ok && b.Name() == "close" {
			if f := LoadedField(instr.Call.Args[0]); f != nil {
				x.fieldCloses[f] = append(x.fieldCloses[f], instr)
			}
		}
	case *ssa.Select:
		sends := false
		for i, st := range instr.States {
			if st.Dir == types.RecvOnly {
				x.recvs = append(x.recvs, Site{Instr: instr, State: i, Func: instr.Parent()})
			} else {
				sends = true
			}
		}
		if sends {
			x.sendSels = append(x.sendSels, instr)
		}
	}
	x.addFuncRefs(instr)
}

// addFuncRefs records how instr uses the package's functions: as the callee
// of a call (a known call site) or as a value (its callers become unknown).
func (x *Index) addFuncRefs(instr ssa.Instruction) {
	var callee ssa.Value
	if call, ok := instr.(ssa.CallInstruction); ok && call.Common().IsInvoke() {
		name := call.Common().Method.Name()
		x.invokes[name] = append(x.invokes[name], call)
		var iface *types.Interface // stays nil for a call on a type parameter
		if t := call.Common().Value.Type(); !isTypeParam(t) {
			iface, _ = t.Underlying().(*types.Interface)
		}
		if !slices.Contains(x.ifaces[name], iface) {
			x.ifaces[name] = append(x.ifaces[name], iface)
		}
	}
	if mc, ok := instr.(*ssa.MakeClosure); ok {
		if fn := mc.Fn.(*ssa.Function); x.noteBound(fn) {
			x.boundVals[fn.Object()] = append(x.boundVals[fn.Object()], mc)
		}
	}
	if call, ok := instr.(ssa.CallInstruction); ok && !call.Common().IsInvoke() {
		callee = call.Common().Value
		if fn, ok := callee.(*ssa.Function); ok && fn.Pkg == x.pkg {
			x.calls[fn] = append(x.calls[fn], call)
		} else if ok && fn.Origin() != nil && fn.Origin().Pkg == x.pkg {
			x.instCalls[fn.Origin()] = append(x.instCalls[fn.Origin()], call)
		}
	}
	if _, ok := instr.(*ssa.MakeClosure); ok {
		return // the closure's own uses decide; see callers
	}
	x.ops = instr.Operands(x.ops[:0])
	for _, op := range x.ops {
		fn, ok := (*op).(*ssa.Function)
		if !ok || *op == callee {
			continue
		}
		if x.noteBound(fn) {
			x.thunked[fn.Object()] = true
		}
		if fn.Pkg == x.pkg {
			x.escaped[fn] = true
		}
	}
}

// noteBound records the method behind a method value or expression
// wrapper ($bound, $thunk): its callers are no longer all visible. It
// reports whether fn is such a wrapper.
func (x *Index) noteBound(fn *ssa.Function) bool {
	if fn.Synthetic == "" || fn.Object() == nil {
		return false
	}
	x.bound[fn.Object()] = true
	return true
}

// Loops returns the memoised loops of fn.
func (x *Index) Loops(fn *ssa.Function) *flow.Loops {
	l, ok := x.loops[fn]
	if !ok {
		l = flow.FindLoops(fn)
		x.loops[fn] = l
	}
	return l
}

// Callers returns the call sites of fn, and whether they are all visible
// (see callers).
func (x *Index) Callers(fn *ssa.Function) ([]ssa.CallInstruction, bool) { return x.callers(fn) }

// callers returns the call sites of fn when they are all visible: fn is an
// unexported, non-generic function, method or closure of this package whose
// value never escapes into a variable, a field or another call. A local
// variable that holds the closure, assigned once and only called, is the
// closure under another name (see cellCalls). An unexported method can be
// called through an interface only by this package, so it qualifies when
// no interface call here uses its name and it is never taken as a method
// value.
func (x *Index) callers(fn *ssa.Function) ([]ssa.CallInstruction, bool) {
	if fn.Pkg != x.pkg || x.escaped[fn] || fn.TypeParams().Len() > 0 {
		return nil, false
	}
	if fn.Parent() == nil {
		obj := fn.Object()
		if obj == nil || obj.Exported() || x.bound[obj] {
			return nil, false
		}
		if fn.Signature.Recv() != nil && (x.invokedAs(fn) || isGenericRecv(fn)) {
			return nil, false
		}
		return x.calls[fn], true
	}
	var sites []ssa.CallInstruction
	for _, mc := range x.closures[fn] {
		calls, ok := onlyCalled(mc, 0)
		if !ok {
			return nil, false
		}
		sites = append(sites, calls...)
	}
	return append(sites, x.calls[fn]...), true
}

// MethodCalls returns the call sites of an unexported method of this
// package when all of them are in sight, counting the calls made through
// its method values: each value (wbs.update) is only handed to functions
// of the package that do nothing with the parameter holding it but call
// it, directly or from their closures. The arguments of a call through a
// method value lack the receiver.
//
//	wb := newWatchBroadcast(w, wbs.update) // func newWatchBroadcast(w *watcher, update func(*watchBroadcast))
//	update(wb)                             // inside newWatchBroadcast: a call of update's method value
func (x *Index) MethodCalls(fn *ssa.Function) (direct, viaValue []ssa.CallInstruction, ok bool) {
	obj := fn.Object()
	if fn.Pkg != x.pkg || fn.Parent() != nil || obj == nil || fn.Signature.Recv() == nil ||
		obj.Exported() || x.escaped[fn] || x.thunked[obj] || x.invokedAs(fn) ||
		fn.TypeParams().Len() > 0 || isGenericRecv(fn) {
		return nil, nil, false
	}
	for _, mc := range x.boundVals[obj] {
		for _, ref := range *mc.Referrers() {
			if _, dbg := ref.(*ssa.DebugRef); dbg {
				continue
			}
			calls, ok := x.handedCalls(mc, ref)
			if !ok {
				return nil, nil, false
			}
			viaValue = append(viaValue, calls...)
		}
	}
	return x.calls[fn], viaValue, true
}

// handedCalls returns the calls of the func value v that the instruction
// ref hands it to: a call of this package's function, which calls the
// parameter and does nothing else with it.
func (x *Index) handedCalls(v ssa.Value, ref ssa.Instruction) ([]ssa.CallInstruction, bool) {
	call, ok := ref.(ssa.CallInstruction)
	if !ok || call.Common().Value == v {
		return nil, false
	}
	callee := call.Common().StaticCallee()
	if callee == nil || callee.Pkg != x.pkg || callee.Blocks == nil {
		return nil, false
	}
	var sites []ssa.CallInstruction
	for i, arg := range call.Common().Args {
		if arg != v {
			continue
		}
		if i >= len(callee.Params) {
			return nil, false
		}
		calls, ok := onlyCalled(callee.Params[i], 0)
		if !ok {
			return nil, false
		}
		sites = append(sites, calls...)
	}
	return sites, true
}

// onlyCalled returns the calls of a func value when it is used for nothing
// else: called, or kept in a variable that is only loaded to be called
// (a parameter a closure captures lives in such a variable).
func onlyCalled(v ssa.Value, depth int) ([]ssa.CallInstruction, bool) {
	if depth > maxDepth {
		return nil, false
	}
	var sites []ssa.CallInstruction
	for _, ref := range *v.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
		case ssa.CallInstruction:
			if r.Common().Value != v || slices.Contains(r.Common().Args, v) {
				return nil, false
			}
			sites = append(sites, r)
		case *ssa.Store:
			cell, ok := r.Addr.(*ssa.Alloc)
			if !ok || r.Val != v {
				return nil, false
			}
			calls, ok := cellCalls(cell, v, depth+1)
			if !ok {
				return nil, false
			}
			sites = append(sites, calls...)
		default:
			return nil, false
		}
	}
	return sites, true
}

// cellCalls returns the calls of the func value v kept in the variable
// cell, when v is all it ever holds and every load of it, here or in a
// closure that captures it, is only called.
func cellCalls(cell ssa.Value, v ssa.Value, depth int) ([]ssa.CallInstruction, bool) {
	if depth > maxDepth {
		return nil, false
	}
	var sites []ssa.CallInstruction
	for _, ref := range *cell.Referrers() {
		var calls []ssa.CallInstruction
		ok := false
		switch r := ref.(type) {
		case *ssa.DebugRef:
			ok = true
		case *ssa.Store:
			ok = r.Addr == cell && r.Val == v
		case *ssa.UnOp:
			if r.Op == token.MUL {
				calls, ok = onlyCalled(r, depth+1)
			}
		case *ssa.MakeClosure:
			ok = true
			for i, b := range r.Bindings {
				if b == cell {
					var more []ssa.CallInstruction
					more, ok = cellCalls(r.Fn.(*ssa.Function).FreeVars[i], v, depth+1)
					calls = append(calls, more...)
					if !ok {
						break
					}
				}
			}
		}
		if !ok {
			return nil, false
		}
		sites = append(sites, calls...)
	}
	return sites, true
}

func isTypeParam(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.TypeParam)
	return ok
}

// isGenericRecv reports whether fn is a method of a generic type, whose
// calls go through instantiations this index does not see.
func isGenericRecv(fn *ssa.Function) bool {
	recv := fn.Signature.Recv().Type()
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	named, ok := recv.(*types.Named)
	return ok && named.TypeParams().Len() > 0
}

// FieldOf returns the field at index i of the struct that t (or, when
// pointer is set, the type t points to) denotes.
func FieldOf(t types.Type, i int, pointer bool) *types.Var {
	if pointer {
		p, ok := t.Underlying().(*types.Pointer)
		if !ok {
			return nil
		}
		t = p.Elem()
	}
	s, ok := t.Underlying().(*types.Struct)
	if !ok || i >= s.NumFields() {
		return nil
	}
	// Fields of instantiated generic types are distinct objects; their
	// origin is the one field the package declares.
	return s.Field(i).Origin()
}

// FieldMakes returns the channels made in this package and stored into
// field f, the make sites a message can point at.
func (x *Index) FieldMakes(f *types.Var) []*ssa.MakeChan {
	return x.makesAt(Origin{Kind: Field, Field: f})
}

// MadeElsewhere reports whether other packages may make the channels
// that reach o: it is a field of a struct another package declares, so
// FieldMakes are only this package's, and their capacity is not the
// channel's.
func (x *Index) MadeElsewhere(o Origin) bool {
	return o.Kind == Field && o.Field != nil && o.Field.Pkg() != x.pkg.Pkg
}

// GlobalMakes returns the channels made in this package and stored into g.
func (x *Index) GlobalMakes(g *ssa.Global) []*ssa.MakeChan {
	return x.makesAt(Origin{Kind: Global, Global: g})
}

// makesAt returns the channels made in this package that reach home (a
// field, a global, or the elements of a container there), following values
// copied from one home to another: s.clients[id] = tr.responses brings the
// makes of the field responses into the elements of s.clients.
func (x *Index) makesAt(home Origin) []*ssa.MakeChan {
	var out []*ssa.MakeChan
	for _, o := range x.Stored(home) {
		if o.Kind == Made {
			out = append(out, o.Make)
		}
	}
	return out
}

// valuesAt returns the values stored at home: into a field, a global, or
// the elements of a container there.
func (x *Index) valuesAt(home Origin) []ssa.Value {
	switch home.Kind {
	case Field:
		return x.fieldVals[home.Field]
	case Global:
		return x.globalVals[home.Global]
	case Element:
		x.elements()
		if h, ok := home.Home(); ok {
			return x.elemVals[h]
		}
	}
	return nil
}

// Stored returns the origins of the channels stored at home (a field, a
// global, or the elements of a container there), following values copied
// from one home to another, as FieldMakes does: Made for a channel made in
// this package, Param for one handed in by a caller, and so on.
func (x *Index) Stored(home Origin) []Origin {
	var out []Origin
	x.collectStored(home, make(map[Origin]bool), &out)
	return dedupe(out)
}

func (x *Index) collectStored(home Origin, seen map[Origin]bool, out *[]Origin) {
	if seen[home] {
		return
	}
	seen[home] = true
	vals := x.valuesAt(home)
	for _, v := range vals {
		for _, o := range x.Origins(v) {
			switch {
			case o.Kind == Field && o.Field != nil, o.Kind == Global,
				o.Kind == Element && (o.Field != nil || o.Global != nil):
				x.collectStored(o, seen, out)
			default:
				*out = append(*out, o)
			}
		}
	}
}

// elemStore is a store into an element of container: m[k] = val or
// s[i] = val.
type elemStore struct{ container, val ssa.Value }

func returnsChan(r *ssa.Return) bool {
	for _, v := range r.Results {
		if isChan(v.Type()) {
			return true
		}
	}
	return false
}

// HandedOutBy returns the exported function that returns the channel kept
// in field f to its callers (func (c *PubSub) Channel() <-chan *Message {
// return c.ch }), or nil. The callers read it, which the package cannot
// see.
//
// A method this package also calls through an interface (a transport's
// StreamCh, read by the package's own listener through its Transport) is
// not a hand-off to unknown callers: the package reads the channel itself,
// where the index cannot follow it.
func (x *Index) HandedOutBy(f *types.Var) *ssa.Function {
	for _, r := range x.chanReturns {
		if x.invokedAs(r.Parent()) {
			continue
		}
		for _, v := range r.Results {
			if !isChan(v.Type()) {
				continue
			}
			for _, o := range x.Origins(v) {
				if o.Kind == Field && o.Field == f {
					return r.Parent()
				}
			}
		}
	}
	return nil
}

// RegisteredByCaller returns, when code outside the package can hand the
// channels kept at home to it, the parameter through which it does: a
// channel parameter of an exported function or method that is stored
// there (NotifyClose(c) appends c to ch.closes). Its receivers are that
// caller's, which the package cannot see.
func (x *Index) RegisteredByCaller(home Origin) *ssa.Parameter {
	vals := x.valuesAt(home)
	for _, v := range vals {
		for _, o := range x.Origins(v) {
			if o.Kind != Param {
				continue
			}
			if obj := o.Param.Parent().Object(); obj != nil && obj.Exported() {
				return o.Param
			}
		}
	}
	return nil
}

// MadeForCaller returns, when code outside the package receives from the
// channels kept at home, an exported function through which it does: one
// that makes a channel, keeps it there and returns it to its caller
// (Subscribe() <-chan Event, which adds the channel to the subscribers'
// map). Its receiver is that caller, which the package cannot see.
func (x *Index) MadeForCaller(home Origin) *ssa.Function {
	for _, v := range x.valuesAt(home) {
		for _, o := range x.Origins(v) {
			if o.Kind != Made {
				continue
			}
			fn := o.Make.Parent()
			if obj := fn.Object(); obj == nil || !obj.Exported() || x.invokedAs(fn) {
				continue
			}
			if x.returnsMade(fn, o.Make) {
				return fn
			}
		}
	}
	return nil
}

// returnsMade reports whether fn returns the channel mk makes.
func (x *Index) returnsMade(fn *ssa.Function, mk *ssa.MakeChan) bool {
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		for _, v := range ret.Results {
			if !isChan(v.Type()) {
				continue
			}
			for _, o := range x.Origins(v) {
				if o.Kind == Made && o.Make == mk {
					return true
				}
			}
		}
	}
	return false
}

// ElementMakes returns the channels made in this package and stored into
// elements of the container held at home (a Field or Global origin).
func (x *Index) ElementMakes(home Origin) []*ssa.MakeChan {
	return x.makesAt(Origin{Kind: Element, Field: home.Field, Global: home.Global})
}

// ElementReceives returns the receives of this package on channels held in
// elements of the container at home: loads of an element, and the channels
// made here and stored there.
func (x *Index) ElementReceives(home Origin) []Site {
	x.elements()
	return x.withInstanceRecvs(x.elemRecv[home], x.ElementMakes(home))
}

// elements groups the element stores and the receives on elements by the
// home of their container, once.
func (x *Index) elements() {
	if x.elemVals != nil {
		return
	}
	x.elemVals = make(map[Origin][]ssa.Value)
	x.elemRecv = make(map[Origin][]Site)
	for _, st := range x.elemSts {
		if !isChan(st.val.Type()) {
			continue
		}
		container := st.container
		if into := appendedTo(container); into != nil {
			container = into
		}
		for _, h := range x.homes(container) {
			x.elemVals[h] = append(x.elemVals[h], st.val)
		}
	}
	for _, r := range x.recvs {
		for _, o := range x.Origins(RecvChan(r)) {
			if h, ok := o.Home(); ok {
				x.elemRecv[h] = append(x.elemRecv[h], r)
			}
		}
	}
}

// appendedTo returns the slice that the variadic arguments held in a are
// appended to, when a is the array the IR makes for them:
//
//	t1 = new [1]chan *Error (varargs)
//	*&t1[0] = c
//	t3 = append(t2, slice t1[:]...)   // t2 = *&ch.closes
func appendedTo(a ssa.Value) ssa.Value {
	alloc, ok := a.(*ssa.Alloc)
	if !ok {
		return nil
	}
	for _, ref := range *alloc.Referrers() {
		sl, ok := ref.(*ssa.Slice)
		if !ok {
			continue
		}
		for _, use := range *sl.Referrers() {
			call, ok := use.(*ssa.Call)
			if !ok {
				continue
			}
			if b, ok := call.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" && len(call.Call.Args) == 2 && call.Call.Args[1] == sl {
				return call.Call.Args[0]
			}
		}
	}
	return nil
}

func isChan(t types.Type) bool {
	_, ok := t.Underlying().(*types.Chan)
	return ok
}

// Received reports whether code of this package receives from a channel
// loaded from field f.
func (x *Index) Received(f *types.Var) bool { return len(x.fieldRecvs()[f]) > 0 }

// GlobalReceived reports whether code of this package receives from a
// channel loaded from the package-level variable g.
func (x *Index) GlobalReceived(g *ssa.Global) bool {
	x.fieldRecvs()
	return len(x.recvGlobs[g]) > 0
}

// FieldReceives returns the receives of this package on channels held in
// field f: loads of the field, and the channels made here and stored there.
func (x *Index) FieldReceives(f *types.Var) []Site {
	return x.withInstanceRecvs(x.fieldRecvs()[f], x.FieldMakes(f))
}

// withInstanceRecvs returns the receives on the channels made by makes
// wherever they are kept (on the made value itself, with the path from its
// maker, and on loads of every field and global it was stored into), then
// those of loads, the receives on loads of the home asked about.
// v.notifyCh = r.leader.notify makes the leader loop's receives on
// r.leader.notify receives of v.notifyCh.
func (x *Index) withInstanceRecvs(loads []Site, makes []*ssa.MakeChan) []Site {
	x.fieldRecvs()
	type key struct {
		instr ssa.Instruction
		state int
	}
	seen := make(map[key]bool)
	var out []Site
	add := func(sites []Site) {
		for _, r := range sites {
			if k := (key{r.Instr, r.State}); !seen[k] {
				seen[k] = true
				out = append(out, r)
			}
		}
	}
	for _, mk := range makes {
		add(x.Uses(mk).Recvs)
	}
	for _, mk := range makes {
		u := x.Uses(mk)
		for _, f := range u.Fields {
			add(x.recvFields[f])
		}
		for _, g := range u.Globals {
			add(x.recvGlobs[g])
		}
	}
	add(loads)
	return out
}

// GlobalReceives is FieldReceives for a package-level variable.
func (x *Index) GlobalReceives(g *ssa.Global) []Site {
	x.fieldRecvs()
	return x.withInstanceRecvs(x.recvGlobs[g], x.GlobalMakes(g))
}

func (x *Index) fieldRecvs() map[*types.Var][]Site {
	if x.recvFields != nil {
		return x.recvFields
	}
	x.recvFields = make(map[*types.Var][]Site)
	x.recvGlobs = make(map[*ssa.Global][]Site)
	for _, r := range x.recvs {
		for _, o := range x.Origins(RecvChan(r)) {
			switch o.Kind {
			case Field:
				x.recvFields[o.Field] = append(x.recvFields[o.Field], r)
			case Global:
				x.recvGlobs[o.Global] = append(x.recvGlobs[o.Global], r)
			}
		}
	}
	return x.recvFields
}

// RecvChan returns the channel a receive site receives from.
func RecvChan(r Site) ssa.Value {
	if sel, ok := r.Instr.(*ssa.Select); ok {
		return sel.States[r.State].Chan
	}
	return r.Instr.(*ssa.UnOp).X
}

// GivesUp reports whether a receive site can stop waiting for the channel
// for good: it is a case of a select that has a default or another live
// receive case, and once another case is taken the function can return
// without coming back to the select. A select loop that multiplexes several
// inputs keeps receiving; a plain receive waits until a value comes or the
// channel is closed. So does a function that, once another case is taken,
// receives from the same channel until it is closed before it returns
// (drainedEdges): it stops only when no sender is left.
func (x *Index) GivesUp(r Site) bool {
	sel, ok := r.Instr.(*ssa.Select)
	if !ok || sel.Blocking && !x.otherLiveCase(sel, r.State) {
		return false
	}
	ours, _ := CaseEdge(sel, r.State)
	drained := drainedEdges(r.Func, sel.States[r.State].Chan)
	leave := flow.Path{
		Stop:     func(i ssa.Instruction) bool { return i == sel },
		StopEdge: func(e flow.Edge) bool { return e == ours || drained[e] },
	}
	return leave.ReturnReachable(sel.Block(), flow.IndexOf(sel))
}

// drainedEdges returns the edges of fn taken when a receive from the same
// channel as ch (SameValue: the same field of the same value) reports that
// it is closed: the exit of a range over it, or the !ok branch of a
// comma-ok receive. A return reached only through one comes after the
// close, when no send can wait any more.
//
//	case s, ok := <-n.states:       // the other case fires
//		if !ok {
//			for c := range n.candidates { // t9 = <-t8,ok; if t10 goto body else done
//			}
//			return                  // reached only through done
//		}
//
// So is the branch taken when a helper says the channel is closed
// (calledClosedEdges). A field stored anew between the two receives would
// make them two channels; the pass takes them for one.
func drainedEdges(fn *ssa.Function, ch ssa.Value) map[flow.Edge]bool {
	edges := make(map[flow.Edge]bool)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			recv, ok := instr.(*ssa.UnOp)
			if !ok || recv.Op != token.ARROW || !recv.CommaOk || !SameValue(recv.X, ch) {
				continue
			}
			for _, ref := range *recv.Referrers() {
				if e, ok := ref.(*ssa.Extract); ok && e.Index == 1 {
					okBranches(e, true, edges)
				}
			}
		}
	}
	calledClosedEdges(fn, ch, edges)
	return edges
}

func (x *Index) otherLiveCase(sel *ssa.Select, k int) bool {
	for i, st := range sel.States {
		if i != k && st.Dir == types.RecvOnly && !x.Dead(st.Chan) {
			return true
		}
	}
	return false
}

// WalkedOncePerObject reports whether the send at instr, in a loop over a
// container held in a field of one of its function's parameters, runs in
// one walk per object: every caller in the package hands the function an
// object it has just allocated, once, outside loops. A call's list of
// waiters, answered when the call completes, is walked once, so each
// waiter's channel gets one value from the walk, however many waiters
// there are:
//
//	c := &call{chans: []chan<- Result{ch}}
//	go g.doCall(c, key, fn) // walks c.chans once
func (x *Index) WalkedOncePerObject(instr ssa.Instruction, ch ssa.Value) bool {
	fa := containerAddr(ch)
	if fa == nil || !x.onlyWalk(instr, FieldOf(fa.X.Type(), fa.Field, true)) {
		return false
	}
	p, ok := boundParam(fa.X).(*ssa.Parameter)
	if !ok {
		return false
	}
	i := paramIndex(p)
	sites, ok := x.callers(p.Parent())
	if !ok {
		sites, ok = x.genericCallers(p.Parent())
	}
	if !ok || len(sites) == 0 || i < 0 {
		return false
	}
	calls := make(map[ssa.Value]int)
	for _, s := range sites {
		args := s.Common().Args
		if i >= len(args) || flow.Reaches(s, s) {
			return false
		}
		a, ok := args[i].(*ssa.Alloc)
		if !ok || a.Parent() != s.Parent() {
			return false
		}
		calls[a]++
		if calls[a] > 1 {
			return false
		}
	}
	return true
}

// genericCallers returns the calls of an unexported method of a generic
// type, which callers leaves out: only this package's code can call it,
// and every call names an instance of it, which the index records under
// the method itself. A method value of any instance hides calls.
func (x *Index) genericCallers(fn *ssa.Function) ([]ssa.CallInstruction, bool) {
	obj := fn.Object()
	if fn.Pkg != x.pkg || fn.Parent() != nil || obj == nil || obj.Exported() || x.bound[obj] || x.thunked[obj] ||
		fn.Signature.Recv() == nil || !isGenericRecv(fn) || x.invokedAs(fn) {
		return nil, false
	}
	for _, f := range x.funcs {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				if x.refersToInstance(instr, fn) {
					return nil, false
				}
			}
		}
	}
	return x.instCalls[fn], true
}

// refersToInstance reports whether instr uses an instance of fn other than
// as the callee of a call.
func (x *Index) refersToInstance(instr ssa.Instruction, fn *ssa.Function) bool {
	var callee ssa.Value
	if call, ok := instr.(ssa.CallInstruction); ok {
		callee = call.Common().Value
	}
	for _, op := range instr.Operands(nil) {
		if g, ok := (*op).(*ssa.Function); ok && *op != callee && (g.Origin() == fn || sameMethod(g, fn)) {
			return true
		}
	}
	return false
}

// sameMethod reports whether g is a wrapper of an instance of the generic
// method fn: the bound method value g.run.
func sameMethod(g, fn *ssa.Function) bool {
	m, ok := g.Object().(*types.Func)
	return ok && m.Origin() == fn.Object()
}

// boundParam returns v, or, for a variable a closure captures that the
// closure's function defers once, the value it captures: the deferred
// answer to a call's waiters walks the call's object.
func boundParam(v ssa.Value) ssa.Value {
	cell := false
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		v, cell = load.X, true // a variable the closure shares with its function
	}
	fv, ok := v.(*ssa.FreeVar)
	if !ok {
		if cell {
			return nil
		}
		return v
	}
	fn := fv.Parent()
	defers := deferredAt(fn)
	if len(defers) != 1 || flow.Reaches(defers[0], defers[0]) {
		return nil
	}
	mc, ok := defers[0].Call.Value.(*ssa.MakeClosure)
	if !ok {
		return nil
	}
	for i, b := range mc.Fn.(*ssa.Function).FreeVars {
		if b != fv {
			continue
		}
		if !cell {
			return mc.Bindings[i]
		}
		if a, ok := mc.Bindings[i].(*ssa.Alloc); ok {
			return StoredOnce(a)
		}
	}
	return nil
}

// containerAddr returns the field address of the container the channel
// ch was read from, in a range over a slice or a map: &c.chans in
// for _, ch := range c.chans.
func containerAddr(ch ssa.Value) *ssa.FieldAddr {
	var container ssa.Value
	switch v := ch.(type) {
	case *ssa.UnOp:
		if ia, ok := v.X.(*ssa.IndexAddr); ok && v.Op == token.MUL {
			container = ia.X
		}
	case *ssa.Extract:
		if next, ok := v.Tuple.(*ssa.Next); ok {
			if r, ok := next.Iter.(*ssa.Range); ok {
				container = r.X
			}
		}
	}
	return loadedAddr(container)
}

// onlyWalk reports whether the send at instr is the package's only send on
// channels read from a container in field f: no other walk of the list
// answers its waiters again.
func (x *Index) onlyWalk(instr ssa.Instruction, f *types.Var) bool {
	if f == nil {
		return false
	}
	for _, send := range x.sends {
		if send != instr {
			if fa := containerAddr(send.Chan); fa != nil && FieldOf(fa.X.Type(), fa.Field, true) == f {
				return false
			}
		}
	}
	return true
}
