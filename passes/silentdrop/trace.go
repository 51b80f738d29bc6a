package silentdrop

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/logging"
)

// maxDepth bounds how deep the search for a trace follows calls to
// functions of the package: the default calls s.dropped(), which calls
// s.log.Warn; a refusal can go through a test-hook wrapper, the
// connection's refuse, closeLocal and setCloseError. Deeper helpers are
// rare, and each level multiplies the work.
const maxDepth = 4

// leavesTrace reports whether the default branch d makes the drop visible:
// it returns a status, keeps a flag or counter that is read later, logs,
// updates a metric or other shared state, hands the value on, or fails.
func (c *checker) leavesTrace(d *branch) bool {
	if d.returnsStatus() || d.branchFlag() {
		return true
	}
	t := &tracer{c: c, sent: sentValues(d.sel), seen: map[*ssa.Function]bool{}, fresh: allocs(d.blocks)}
	for _, b := range d.sel.Parent().Blocks {
		if d.blocks[b] && t.block(b, 0) {
			return true
		}
	}
	return false
}

func sentValues(sel *ssa.Select) map[ssa.Value]bool {
	m := map[ssa.Value]bool{}
	for _, st := range sel.States {
		if st.Dir == types.SendOnly {
			m[st.Send] = true
			if mi, ok := st.Send.(*ssa.MakeInterface); ok {
				m[mi.X] = true
			}
		}
	}
	return m
}

// tracer looks for a trace in the default's blocks and, to maxDepth, in
// the functions of the package they call.
type tracer struct {
	c    *checker
	sent map[ssa.Value]bool // the values the send cases carry
	seen map[*ssa.Function]bool
	// fresh holds the allocations the default makes itself.
	fresh map[*ssa.Alloc]bool
}

func allocs(blocks map[*ssa.BasicBlock]bool) map[*ssa.Alloc]bool {
	m := map[*ssa.Alloc]bool{}
	for b := range blocks {
		for _, instr := range b.Instrs {
			if a, ok := instr.(*ssa.Alloc); ok {
				m[a] = true
			}
		}
	}
	return m
}

func (t *tracer) block(b *ssa.BasicBlock, depth int) bool {
	for _, instr := range b.Instrs {
		if t.instr(instr, depth) {
			return true
		}
	}
	return false
}

func (t *tracer) function(fn *ssa.Function, depth int) bool {
	if depth > maxDepth || t.seen[fn] || fn.Pkg != t.c.pkg || len(fn.Blocks) == 0 {
		return false
	}
	t.seen[fn] = true
	for _, b := range fn.Blocks {
		if t.block(b, depth) {
			return true
		}
	}
	return false
}

// instr reports whether one instruction leaves a trace.
func (t *tracer) instr(instr ssa.Instruction, depth int) bool {
	switch x := instr.(type) {
	case *ssa.Send, *ssa.Go, *ssa.Panic, *ssa.MapUpdate:
		// hands a value on (another channel, a goroutine, a map), or fails
		return true
	case *ssa.Select:
		for _, st := range x.States {
			if st.Dir == types.SendOnly {
				return true // hands on through another select; that one is judged on its own
			}
		}
	case *ssa.Store:
		return t.shared(x.Addr, depth)
	case *ssa.MakeClosure:
		return t.function(x.Fn.(*ssa.Function), depth+1)
	case ssa.CallInstruction:
		return t.call(x, depth)
	}
	return false
}

// shared reports whether a store writes memory someone else can read: a
// field, an element, a global, a variable captured by a closure, anything
// reached through a pointer. A store to a local variable is not a trace
// unless the variable escapes the function, and a store into memory the
// default allocates itself (a composite literal, the array behind a
// variadic call) is construction, not a trace.
func (t *tracer) shared(addr ssa.Value, depth int) bool {
	for {
		switch a := addr.(type) {
		case *ssa.FieldAddr:
			if _, local := a.X.(*ssa.Alloc); !local {
				return true
			}
			addr = a.X
			continue
		case *ssa.IndexAddr:
			if _, local := a.X.(*ssa.Alloc); !local {
				return true
			}
			addr = a.X
			continue
		case *ssa.Alloc:
			return depth == 0 && a.Heap && !t.fresh[a]
		}
		return true
	}
}

// call reports whether a call leaves a trace: a log, a metric, an exit, a
// helper of the package that does, a close (the receiver learns its channel
// is done), a callback, a call that is handed the dropped value, or one
// that is handed a record of the drop.
func (t *tracer) call(call ssa.CallInstruction, depth int) bool {
	cc := call.Common()
	if b, ok := cc.Value.(*ssa.Builtin); ok {
		switch b.Name() {
		case "close", "print", "println":
			return true
		}
		return false
	}
	if k := logging.Call(cc); k != logging.None {
		return k != logging.Quiet
	}
	if f := logging.Callee(cc); f != nil && t.c.sum.Logs(f) {
		return true // another module's wrapper around its logger
	}
	for _, a := range cc.Args {
		// A function of the package handed to the call, as a log helper
		// hands executeLogCall the closure that writes the line.
		if fn, ok := a.(*ssa.Function); ok && t.function(fn, depth+1) {
			return true
		}
	}
	if fn := cc.StaticCallee(); fn != nil {
		if fn.Pkg == t.c.pkg {
			return t.function(fn, depth+1)
		}
	} else if !cc.IsInvoke() && depth == 0 {
		return true // a func value: the drop is handed to a callback
	}
	return depth == 0 && (t.handsOn(cc) || t.tells(call))
}

// handsOn reports whether the call is given the dropped value as an
// argument (a spill buffer's Push, a retry queue's Add), other than as the
// receiver of a method on it.
func (t *tracer) handsOn(cc *ssa.CallCommon) bool {
	args := cc.Args
	if !cc.IsInvoke() && cc.Signature().Recv() != nil && len(args) > 0 {
		args = args[1:]
	}
	for _, a := range args {
		if mi, ok := a.(*ssa.MakeInterface); ok {
			a = mi.X
		}
		if t.sent[a] {
			return true
		}
	}
	return false
}

// tells reports whether a call the pass does not follow (an interface
// method, a function of another package) is told of the drop: it is made
// for its effect, its results unused, and it is handed, other than as the
// receiver of a method, a record the default builds, a struct literal made
// only on the way that drops the value, held by value, by pointer or in an
// interface. The record is an account of the drop given to the code that
// keeps it (a tracer's event, a hook's report); cleanup hands over what it
// releases, not a new record (buf.Release(), conns.Remove(p.key)).
//
//	default:
//		if t.tracer != nil {
//			t.tracer.RecordEvent(PacketDropped{Len: p.Size()})
//		}
//
//	t5 = local PacketDropped (complit)      // in the default
//	t8 = *t5
//	t9 = make Event <- PacketDropped (t8)
//	invoke t4.RecordEvent(t9)
//
// A record handed to a call whose result is used (a key built to look
// something up, a value encoded) is material for a value, not a report.
func (t *tracer) tells(call ssa.CallInstruction) bool {
	if v := call.Value(); v != nil && used(v) {
		return false
	}
	cc := call.Common()
	args := cc.Args
	if !cc.IsInvoke() && cc.Signature().Recv() != nil && len(args) > 0 {
		args = args[1:]
	}
	for _, a := range args {
		if t.record(a) {
			return true
		}
	}
	return false
}

// record reports whether v is a struct literal the default builds, or an
// interface or a variadic argument slice holding one:
//
//	t1 = new [1]any (varargs)        // in the default
//	t2 = &t1[0:int]
//	*t2 = t9                         // t9 = make any <- *Dropped (t5)
//	t3 = slice t1[:]
func (t *tracer) record(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.MakeInterface:
		return t.record(x.X)
	case *ssa.ChangeType:
		return t.record(x.X)
	case *ssa.UnOp:
		if x.Op != token.MUL {
			return false
		}
		a, ok := x.X.(*ssa.Alloc)
		return ok && t.fresh[a] && isStruct(a)
	case *ssa.Alloc:
		return t.fresh[x] && isStruct(x)
	case *ssa.Slice:
		a, ok := x.X.(*ssa.Alloc)
		if !ok || !t.fresh[a] {
			return false
		}
		for _, ref := range *a.Referrers() {
			elem, ok := ref.(*ssa.IndexAddr)
			if !ok {
				continue
			}
			for _, use := range *elem.Referrers() {
				if st, ok := use.(*ssa.Store); ok && st.Addr == elem && t.record(st.Val) {
					return true
				}
			}
		}
	}
	return false
}

// isStruct reports whether a allocates a struct: a composite literal or a
// struct variable, not an array behind a slice.
func isStruct(a *ssa.Alloc) bool {
	p, ok := a.Type().Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	_, ok = p.Elem().Underlying().(*types.Struct)
	return ok
}
