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
const writeMutex = "%s is only ever held to call the client stream %s: every goroutine that waits for it waits for the same server anyway"

// writeMutexOf reports, for a stream send under one lock, whether that lock
// is the stream's write mutex: the stream is a client stream (this
// process's call to one server) loaded from a field, and every critical
// section of the mutex's class in this package does nothing
// but call that stream's methods. Goroutines that contend for such a lock
// are the call's own writers, which would wait for the server's flow
// control without it; the lock guards no other state that someone else
// could need. A server stream is never one: a hub's lock around one
// client's Send makes the callers that serve other clients wait on that
// client, which is the stall lockedsend exists to find. It returns the
// lock and the stream's field.
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
	for _, fn := range c.sum.SSA().SrcFuncs {
		if !c.onlyStreamCalls(fn, class, field) {
			return locks.Lock{}, nil, false
		}
	}
	return held[0], field, true
}

// onlyStreamCalls reports whether everything fn does while it holds a lock
// of class is to call a method of the stream in field, or the lock's own
// methods: no other call, no store to memory, no channel operation.
func (c *checker) onlyStreamCalls(fn *ssa.Function, class string, field *types.Var) bool {
	ok := true
	c.sum.Locks(fn).Walk(func(instr ssa.Instruction, s locks.State) bool {
		if !holdsClass(s.Held, class) {
			return true
		}
		ok = allowedUnder(instr, field)
		return ok
	})
	return ok
}

func holdsClass(held locks.Set, class string) bool {
	for _, l := range held.Locks() {
		if locks.Class(l) == class {
			return true
		}
	}
	return false
}

// allowedUnder reports whether instr is something a stream's write mutex
// may cover: a call on the stream in field, a lock operation, or an
// instruction that neither calls, stores nor communicates.
func allowedUnder(instr ssa.Instruction, field *types.Var) bool {
	switch instr := instr.(type) {
	case ssa.CallInstruction:
		return locks.IsLockCall(instr) || streamField(instr) == field
	case *ssa.Store:
		_, local := instr.Addr.(*ssa.Alloc)
		return local && !instr.Addr.(*ssa.Alloc).Heap
	case *ssa.Send, *ssa.Select, *ssa.Panic, *ssa.MapUpdate:
		return false
	case *ssa.UnOp:
		return instr.Op != token.ARROW
	}
	return true
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
