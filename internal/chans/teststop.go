package chans

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// StopsOnlyUnderTest returns the closes and sends that fire the stop
// channels of the receiver r, when those are its only ways to give up and
// code a user ships runs none of them: r is a case of a blocking select,
// and once a case other than its own is taken, its function returns only
// through cases on stop channels that only test code fires
// (firedOnlyUnderTest). It returns nil otherwise, and whenever r gives up
// in some other way: a default, a context, a timer, a stop channel that
// shipped code closes, a value that tells it to return.
//
//	func (h *handler) loop() {
//		for {
//			select {
//			case <-h.closeCh:     // closed only by h.close, which only tests call
//				return
//			case req := <-h.requestCh:
//				h.serve(req)
//			}
//		}
//	}
//
// Such a receiver does not stop in the code that ships, and proves nothing
// about a send that waits for it.
func (x *Index) StopsOnlyUnderTest(r Site) []ssa.Instruction {
	sel, ok := r.Instr.(*ssa.Select)
	if !ok || !sel.Blocking {
		return nil
	}
	cut := make(map[flow.Edge]bool)
	var fires []ssa.Instruction
	RecvCases(r.Func, func(s *ssa.Select, i int) {
		f := LoadedField(s.States[i].Chan)
		if s == sel && i == r.State || f == nil {
			return
		}
		sites := x.firedOnlyUnderTest(f)
		e, ok := CaseEdge(s, i)
		if sites == nil || !ok {
			return
		}
		cut[e] = true
		fires = append(fires, sites...)
	})
	if len(cut) == 0 {
		return nil
	}
	ours, _ := CaseEdge(sel, r.State)
	drained := drainedEdges(r.Func, sel.States[r.State].Chan)
	leave := flow.Path{
		Stop:     func(i ssa.Instruction) bool { return i == sel },
		StopEdge: func(e flow.Edge) bool { return e == ours || drained[e] || cut[e] },
	}
	if leave.ReturnReachable(sel.Block(), flow.IndexOf(sel)) {
		return nil
	}
	return fires
}

// firedOnlyUnderTest returns the closes of, and sends on, the channels
// kept in the field f, when none of them can run in code a user ships
// (Shipped), and nil otherwise. It says so only when the package sees
// every channel f holds and every hand that may fire one:
//
//   - f is unexported, and every channel stored into it is made in this
//     package;
//   - no such channel goes where the index cannot follow it (see
//     stopScan.handsOut) other than from code that only tests run;
//   - some close or send is seen to fire one, and none of those runs in
//     shipped code, nor does a close or send on a channel of the same
//     element type whose origin is not known (a parameter of an exported
//     function, a received channel, a call's result), which may be one.
func (x *Index) firedOnlyUnderTest(f *types.Var) []ssa.Instruction {
	if sites, ok := x.fired[f]; ok {
		return sites
	}
	x.fired[f] = nil
	sites := x.testFires(f)
	x.fired[f] = sites
	return sites
}

func (x *Index) testFires(f *types.Var) []ssa.Instruction {
	elem := chanElem(f.Type())
	if f.Exported() || elem == nil {
		return nil
	}
	sc := stopScan{x: x, elem: elem, ours: make(map[*ssa.MakeChan]bool), holds: make(map[Origin]bool)}
	for _, o := range x.Stored(Origin{Kind: Field, Field: f}) {
		if o.Kind != Made {
			return nil
		}
		sc.ours[o.Make] = true
	}
	if len(sc.ours) == 0 {
		return nil
	}
	for _, fn := range x.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				sc.instr(instr)
			}
		}
	}
	if len(sc.fires) == 0 {
		return nil
	}
	for _, instr := range append(sc.fires, sc.maybe...) {
		if x.Shipped(instr.Parent()) {
			return nil
		}
	}
	for _, instr := range sc.escapes {
		if x.Shipped(instr.Parent()) {
			return nil
		}
	}
	return sc.fires
}

// stopScan walks every instruction of the package for the uses of the
// channels in ours: the closes and sends that fire them, and the uses that
// hand them where the index cannot follow.
type stopScan struct {
	x       *Index
	elem    types.Type // the channels' element type
	ours    map[*ssa.MakeChan]bool
	holds   map[Origin]bool   // whether a home may hold one of ours
	fires   []ssa.Instruction // closes and sends on ours
	maybe   []ssa.Instruction // on channels of the same type from unknown origins
	escapes []ssa.Instruction
}

func (sc *stopScan) instr(instr ssa.Instruction) {
	switch i := instr.(type) {
	case *ssa.Send:
		sc.fire(i, i.Chan)
		sc.handsOut(i, sc.is(i.X))
	case *ssa.Select:
		for _, st := range i.States {
			if st.Dir == types.SendOnly {
				sc.fire(i, st.Chan)
				sc.handsOut(i, sc.is(st.Send))
			}
		}
	case ssa.CallInstruction:
		sc.call(i)
	case *ssa.Store:
		sc.handsOut(i, sc.is(i.Val) && !sc.keptAt(i.Addr))
	case *ssa.MapUpdate:
		sc.handsOut(i, (sc.is(i.Value) || sc.is(i.Key)) && !sc.unexportedHome(i.Map))
	case *ssa.MakeInterface:
		sc.handsOut(i, sc.is(i.X))
	case *ssa.Return:
		for _, v := range i.Results {
			sc.handsOut(i, sc.is(v))
		}
	case *ssa.MakeClosure:
		// A closure made in several places has no one binding, and
		// Origins loses the channel inside it.
		for _, v := range i.Bindings {
			sc.handsOut(i, sc.is(v) && len(sc.x.closures[i.Fn.(*ssa.Function)]) > 1)
		}
	}
	// Receives, comparisons, loads, phis and conversions move nothing
	// where Origins cannot follow.
}

// call weighs a close, and a channel handed to a function: followed when
// the callee is this package's and every call of it is in sight, so that
// Origins resolves its parameter to the arguments; handed out otherwise.
func (sc *stopScan) call(c ssa.CallInstruction) {
	common := c.Common()
	if b, ok := common.Value.(*ssa.Builtin); ok {
		switch b.Name() {
		case "close":
			sc.fire(c, common.Args[0])
		case "len", "cap":
		default:
			for _, a := range common.Args {
				sc.handsOut(c, sc.is(a))
			}
		}
		return
	}
	callee := sc.x.Callee(common)
	followed := false
	if !common.IsInvoke() && callee != nil && callee.Pkg == sc.x.pkg && len(callee.Blocks) > 0 {
		_, followed = sc.x.callers(callee)
	}
	for _, a := range common.Args {
		sc.handsOut(c, !followed && sc.is(a))
	}
}

// fire records instr as a close of, or send on, ch when ch may be one of
// ours: known to be, or of the same element type and of unknown origin.
func (sc *stopScan) fire(instr ssa.Instruction, ch ssa.Value) {
	switch ours, unknown := sc.origin(ch); {
	case ours:
		sc.fires = append(sc.fires, instr)
	case unknown:
		sc.maybe = append(sc.maybe, instr)
	}
}

func (sc *stopScan) handsOut(instr ssa.Instruction, yes bool) {
	if yes {
		sc.escapes = append(sc.escapes, instr)
	}
}

// is reports whether v may be one of ours.
func (sc *stopScan) is(v ssa.Value) bool {
	ours, _ := sc.origin(v)
	return ours
}

// origin reports whether v, a channel of our element type, may be one of
// ours, and whether some of its origins are unknown. Values of other
// types are neither.
func (sc *stopScan) origin(v ssa.Value) (ours, unknown bool) {
	if e := chanElem(v.Type()); e == nil || !types.Identical(e, sc.elem) {
		return false, false
	}
	origins := sc.x.Origins(v)
	if len(origins) == 0 {
		return false, true
	}
	for _, o := range origins {
		switch o.Kind {
		case Made:
			ours = ours || sc.ours[o.Make]
		case Field, Global, Element:
			if (o.Kind == Field && o.Field == nil) || (o.Kind == Element && o.Field == nil && o.Global == nil) {
				unknown = true
			} else {
				ours = ours || sc.held(o)
			}
		case Nil:
		default:
			unknown = true
		}
	}
	return ours, unknown
}

// held reports whether one of ours may be stored at home.
func (sc *stopScan) held(home Origin) bool {
	if h, ok := sc.holds[home]; ok {
		return h
	}
	sc.holds[home] = false
	for _, o := range sc.x.Stored(home) {
		if o.Kind == Made && sc.ours[o.Make] {
			sc.holds[home] = true
			break
		}
	}
	return sc.holds[home]
}

// keptAt reports whether a channel stored at addr stays where this
// package's loads find it: an unexported field or global, an element of a
// container held in one, or a local variable whose address goes nowhere
// else.
func (sc *stopScan) keptAt(addr ssa.Value) bool {
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		f := FieldOf(a.X.Type(), a.Field, true)
		return f != nil && !f.Exported()
	case *ssa.Global:
		return !a.Object().Exported()
	case *ssa.IndexAddr:
		return sc.unexportedHome(a.X)
	case *ssa.Alloc:
		// Loads of it, here or in the one closure that captures it, are
		// what Origins follows back to the store.
		for _, ref := range *a.Referrers() {
			switch r := ref.(type) {
			case *ssa.UnOp, *ssa.DebugRef:
			case *ssa.Store:
				if r.Addr != a {
					return false
				}
			case *ssa.MakeClosure:
				if len(sc.x.closures[r.Fn.(*ssa.Function)]) > 1 {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	return false
}

// unexportedHome reports whether the container c is held in unexported
// fields or globals only.
func (sc *stopScan) unexportedHome(c ssa.Value) bool {
	homes := sc.x.homes(c)
	for _, h := range homes {
		if h.Kind == Field && h.Field.Exported() || h.Kind == Global && h.Global.Object().Exported() {
			return false
		}
	}
	return len(homes) > 0
}

// chanElem returns the element type of a channel type, or nil.
func chanElem(t types.Type) types.Type {
	if c, ok := t.Underlying().(*types.Chan); ok {
		return c.Elem()
	}
	return nil
}
