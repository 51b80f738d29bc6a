package lockedsend

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/locks"
)

// writeMutex is what a stream send under a client stream's write mutex
// lacks for the default tier.
const writeMutex = "%s is held only to use the client stream %s: every goroutine that waits for it is on its way to the same server"

// writeMutexOf reports, for a stream send under one lock, whether that lock
// is the stream's write mutex: the stream is a client stream (this
// process's call to one server) loaded from a field, and every critical
// section of the mutex's class in this package calls a method of that
// stream, itself or through a function of the package it calls. Whoever
// waits for such a lock waits to use the same call to the same server,
// whose flow control it would meet without the lock: the lock holds up
// nobody who came for something else (a renewal to record, a counter to
// read). A server stream is never one: a hub's lock around one client's
// Send makes the callers that serve other clients wait on that client,
// which is the stall lockedsend exists to find. It returns the lock and
// the stream's field.
func (c *checker) writeMutexOf(r *root) (locks.Lock, *types.Var, bool) {
	held := r.rep.held.Locks()
	call, ok := r.rep.b.OpInstr.(ssa.CallInstruction)
	if len(held) != 1 || !ok {
		return locks.Lock{}, nil, false
	}
	class := locks.Class(held[0])
	field := streamField(call)
	if class == "" || field == nil || !clientStream(field.Type()) {
		return locks.Lock{}, nil, false
	}
	u := &streamUse{field: field, pkg: c.pass.Pkg, memo: make(map[*ssa.Function]bool)}
	for _, fn := range c.sum.SSA().SrcFuncs {
		if !c.sectionsUse(fn, class, u) {
			return locks.Lock{}, nil, false
		}
	}
	return held[0], field, true
}

// sectionsUse reports whether every critical section of class in fn, told
// apart by the call that took the lock, calls a method of u's stream.
func (c *checker) sectionsUse(fn *ssa.Function, class string, u *streamUse) bool {
	sections := make(map[ssa.CallInstruction]bool) // the Lock call: whether its section uses the stream
	c.sum.Locks(fn).Walk(func(instr ssa.Instruction, s locks.State) bool {
		for _, l := range s.Held.Locks() {
			if locks.Class(l) != class {
				continue
			}
			call, ok := instr.(ssa.CallInstruction)
			sections[l.Call] = sections[l.Call] || ok && u.uses(call)
		}
		return true
	})
	for _, used := range sections {
		if !used {
			return false
		}
	}
	return true
}

// streamUse finds calls on the client stream in field.
type streamUse struct {
	field *types.Var
	pkg   *types.Package
	memo  map[*ssa.Function]bool
}

// uses reports whether call is a method call on the stream, or a static
// call to a function of the package that makes one on some path.
func (u *streamUse) uses(call ssa.CallInstruction) bool {
	if streamField(call) == u.field {
		return true
	}
	fn := call.Common().StaticCallee()
	if fn == nil || fn.Pkg == nil || fn.Pkg.Pkg != u.pkg {
		return false
	}
	if used, seen := u.memo[fn]; seen {
		return used
	}
	u.memo[fn] = false // a recursive call uses the stream only if the rest does
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok && u.uses(call) {
				u.memo[fn] = true
				return true
			}
		}
	}
	return false
}

// streamField returns the struct field the receiver of call was loaded
// from (x.stream.Send(m) gives stream), or nil.
func streamField(call ssa.CallInstruction) *types.Var {
	cc := call.Common()
	var recv ssa.Value
	switch {
	case cc.IsInvoke():
		recv = cc.Value
	case cc.Signature().Recv() != nil && len(cc.Args) > 0:
		recv = cc.Args[0]
	default:
		return nil
	}
	load, ok := recv.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	st, ok := types.Unalias(fa.X.Type().Underlying().(*types.Pointer).Elem()).Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	return st.Field(fa.Field)
}

// clientStream reports whether t is the client side of a stream: a grpc
// ClientStream has CloseSend, and a connect client stream CloseRequest or
// CloseAndReceive, which no server side has, since only a client ends its
// half of the call that way.
func clientStream(t types.Type) bool {
	for _, name := range []string{"CloseSend", "CloseRequest", "CloseAndReceive"} {
		if obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name); obj != nil {
			if _, isFunc := obj.(*types.Func); isFunc {
				return true
			}
		}
	}
	return false
}

func (c *checker) writeMutexReason(l locks.Lock, field *types.Var) string {
	return fmt.Sprintf(writeMutex, c.lockName(l), field.Name())
}
