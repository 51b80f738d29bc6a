package chans

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A signal is a way out of a select that belongs to an object: a receive
// from its channel field, or from what a method of its field returns
// (c.closed.Done()). It fires when something closes or sends on the
// field, or calls another method of it.
type signal struct {
	field  *types.Var
	method string // "" when the field is the channel itself
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

// touches reports whether fn receives from f or fires one of signals.
func (x *Index) touches(fn *ssa.Function, f *types.Var, signals []signal) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.UnOp:
				if instr.Op == token.ARROW && LoadedField(instr.X) == f {
					return true
				}
			case *ssa.Select:
				for _, st := range instr.States {
					g := LoadedField(st.Chan)
					if st.Dir == types.RecvOnly && g == f || st.Dir == types.SendOnly && isSignalChan(g, signals) {
						return true
					}
				}
			case *ssa.Send:
				if isSignalChan(LoadedField(instr.Chan), signals) {
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
		return b.Name() == "close" && len(common.Args) == 1 && isSignalChan(LoadedField(common.Args[0]), signals)
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
	g := LoadedField(recv)
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
