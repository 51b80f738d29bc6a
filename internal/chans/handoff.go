package chans

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// FailedHandOff returns the edges of the sender's owner on which the call
// that handed the sender's closure on has said that it did not: the
// closure never runs there, so it sends nothing the owner must take.
//
//	errc := make(chan error)
//	fn := func() { errc <- l.changeState(state) }  // runs on the actor loop
//	if err := l.enqueue(fn); err != nil {
//		return err                                  // fn was not handed on
//	}
//	return <-errc
//
//	func (l *Lifecycler) enqueue(fn func()) error {
//		select {
//		case <-l.done:
//			return errNotRunning
//		case l.actions <- fn:
//			return nil
//		}
//	}
//
// The call must be a static call of a function of this package whose
// last result is an error, which uses the closure only to send it on a
// channel, and whose every return of an error that may not be nil is out
// of reach of those sends. The edges are the branches of the owner's
// tests err != nil and err == nil on which err is not nil.
func (x *Index) FailedHandOff(s Site) []flow.Edge {
	call, ok := s.Start.(*ssa.Call)
	if !ok {
		return nil
	}
	callee, ok := call.Call.Value.(*ssa.Function)
	if !ok || callee.Pkg != x.pkg || len(callee.Blocks) == 0 {
		return nil
	}
	param := handedParam(call, callee, s.Func)
	res := callee.Signature.Results()
	if param == nil || res.Len() == 0 || !isError(res.At(res.Len()-1).Type()) {
		return nil
	}
	handed, ok := handOffs(param)
	if !ok || !errorsBeforeHandOff(callee, res.Len()-1, handed) {
		return nil
	}
	return notNilEdges(resultAt(call, res.Len()))
}

// handedParam returns the parameter of callee that call binds to the
// closure of fn.
func handedParam(call *ssa.Call, callee *ssa.Function, fn *ssa.Function) *ssa.Parameter {
	i := closureArg(&call.Call, fn)
	if i < 0 || len(call.Call.Args) != len(callee.Params) {
		return nil
	}
	return callee.Params[i]
}

// closureArg returns the index of the argument of cc that is a closure of
// fn, or -1.
func closureArg(cc *ssa.CallCommon, fn *ssa.Function) int {
	for i, a := range cc.Args {
		if mc, ok := a.(*ssa.MakeClosure); ok && mc.Fn == fn {
			return i
		}
	}
	return -1
}

// handOffs returns the points past which the closure param holds has been
// handed on: each send of it, and the first instruction of the body of
// each select case that sends it; ok is false when the function does
// anything else with it.
func handOffs(param *ssa.Parameter) (handed []ssa.Instruction, ok bool) {
	for _, ref := range *param.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Send:
			if r.X != param {
				return nil, false
			}
			handed = append(handed, r)
		case *ssa.Select:
			for k, st := range r.States {
				if st.Send != param {
					continue
				}
				e, ok := CaseEdge(r, k)
				if !ok || st.Dir != types.SendOnly {
					return nil, false
				}
				handed = append(handed, e.To.Instrs[0])
			}
		default:
			return nil, false
		}
	}
	return handed, len(handed) > 0
}

// errorsBeforeHandOff reports whether every return of fn whose result i
// may be a non-nil error is out of reach of each hand-off.
func errorsBeforeHandOff(fn *ssa.Function, i int, handed []ssa.Instruction) bool {
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || isNil(ret.Results[i]) {
			continue
		}
		for _, h := range handed {
			if h == ret || flow.Reaches(h, ret) {
				return false
			}
		}
	}
	return true
}

// resultAt returns the value of the last of n results of call.
func resultAt(call *ssa.Call, n int) ssa.Value {
	if n == 1 {
		return call
	}
	for _, ref := range *call.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && ex.Index == n-1 {
			return ex
		}
	}
	return nil
}

// notNilEdges returns the branches on which err tests not nil.
func notNilEdges(err ssa.Value) []flow.Edge {
	if err == nil {
		return nil
	}
	var out []flow.Edge
	for _, ref := range *err.Referrers() {
		cmp, ok := ref.(*ssa.BinOp)
		if !ok || cmp.Op != token.NEQ && cmp.Op != token.EQL || !isNil(cmp.X) && !isNil(cmp.Y) {
			continue
		}
		for _, ref := range *cmp.Referrers() {
			cond, ok := ref.(*ssa.If)
			if !ok {
				continue
			}
			b, succ := cond.Block(), 0
			if cmp.Op == token.EQL {
				succ = 1
			}
			out = append(out, flow.Edge{From: b, To: b.Succs[succ]})
		}
	}
	return out
}
