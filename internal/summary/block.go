package summary

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/locks"
)

// OpKind says what blocks at the end of a chain.
type OpKind uint8

const (
	ChanSend   OpKind = iota + 1 // a plain send on a channel that can block
	SelectSend                   // a select without default whose send cases can all block
	StreamSend                   // a stream's Send, directly or through a func value
	Configured                   // a function or method configured as blocking
)

// maxChain bounds the chain a fact and a message carry. A longer chain is
// cut and ends in "…".
const maxChain = 6

// Blocking describes how an instruction may block.
type Blocking struct {
	Kind OpKind
	// Op describes the blocking operation at the end of the chain.
	Op string
	// Chain names the functions between the instruction and Op,
	// outermost first: for a call, the callee, then its callee, and so on.
	// It is empty when the instruction is the blocking operation.
	Chain []string
	// At is where to report the instruction: the send's arrow, the select
	// case's arrow or the call's parenthesis.
	At token.Pos
	// OpPos is the position of Op when it lies in this package, and
	// NoPos when it was learnt from a dependency's fact.
	OpPos token.Pos
	// Taken is where a stream send's method value was taken, when the
	// send goes through a func value and the value was taken in this
	// package.
	Taken token.Pos
	// OpPkg is the path of the package that holds Op.
	OpPkg string
	// Param, when not 0, says that Op sends on the channel passed as
	// parameter Param-1 (SSA numbering, receiver first) of the function
	// summarised: a caller that passes nil there does not block through it.
	Param int
	// OpInstr is the instruction of Op when it lies in this package: the
	// send, the select (OpState is then the send case) or the stream
	// call; nil when Op was learnt from a dependency's fact.
	OpInstr ssa.Instruction
	OpState int
}

// Instr reports whether instr may block on a send, and how. Locks are not
// considered: the caller knows which are held. Go and defer statements
// are not blocking where they stand.
func (r *Result) Instr(instr ssa.Instruction) *Blocking {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer r.resetOnPanic()
	return r.instr(instr)
}

// resetOnPanic drops the memo, whose stack a panic left mid-scan, and lets
// the panic go on to the pass's report.Guard.
func (r *Result) resetOnPanic() {
	if v := recover(); v != nil {
		r.memo = nil
		panic(v)
	}
}

// Func reports whether a call to fn may block its caller on a send, and
// how. A send that fn makes only after it unlocked a mutex it did not lock
// (its caller's) does not count: the caller's lock is not held then.
func (r *Result) Func(fn *ssa.Function) *Blocking {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer r.resetOnPanic()
	return r.summarize(fn)
}

func (r *Result) instr(instr ssa.Instruction) *Blocking {
	switch in := instr.(type) {
	case *ssa.Send:
		if r.chanBlocks(in, -1, in.Chan) {
			return &Blocking{Kind: ChanSend, Op: "send on " + r.source().chanAt(in.Pos()), At: in.Pos(), OpPos: in.Pos(),
				Param: r.paramChan(in.Chan, in.Parent()), OpPkg: r.pkg.Path(), OpInstr: in, OpState: -1}
		}
	case *ssa.Select:
		return r.selectBlocks(in)
	case *ssa.Call:
		return r.call(in)
	}
	return nil
}

// summarize returns the memoised summary of fn; see memo.
func (r *Result) summarize(fn *ssa.Function) *Blocking {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if r.memo == nil {
		r.memo = newMemo()
	}
	return r.memo.get(fn, r.scan)
}

// scan finds the first operation of fn that may block while the locks of
// fn's caller are still held, in block order: the summary of fn. Deferred
// calls count, since they run before fn returns; go statements do not.
//
// An operation that depends on a parameter (a send on a channel the caller
// passes) is kept only if no operation that does not depend on one
// follows: a caller passing nil must still see the others.
func (r *Result) scan(fn *ssa.Function) *Blocking {
	var found, cond *Blocking
	r.lockState(fn).Walk(func(instr ssa.Instruction, s locks.State) bool {
		if s.Released {
			return true
		}
		var b *Blocking
		switch in := instr.(type) {
		case *ssa.Defer:
			b = r.call(in)
		case *ssa.Go:
		default:
			b = r.instr(instr)
		}
		switch {
		case b == nil:
		case b.Param == 0:
			found = b
		case cond == nil:
			cond = b
		}
		return found == nil
	})
	if found == nil {
		found = cond
	}
	if found == nil {
		return nil
	}
	return &Blocking{Kind: found.Kind, Op: found.Op, Chain: found.Chain, OpPos: found.OpPos, Taken: found.Taken, Param: found.Param, OpPkg: found.OpPkg,
		OpInstr: found.OpInstr, OpState: found.OpState}
}
