package summary

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/streams"
)

// call reports whether a call (or a deferred call) may block: a stream
// send, a configured blocking function, or a call to a function that may
// block, known by its summary here or its fact from a dependency.
func (r *Result) call(call ssa.CallInstruction) *Blocking {
	if s, ok := r.streamFlow().Send(call); ok {
		b := &Blocking{Kind: StreamSend, At: call.Pos(), OpPos: call.Pos(), OpPkg: r.pkg.Path(), OpInstr: call, OpState: -1}
		if s.Origin.Method != nil && !r.cfg.matcher.IsStream(recvType(s.Origin.Method)) {
			b.Kind = Configured
		}
		b.Op = "stream send " + r.describeSend(s, call)
		if b.Kind == Configured {
			b.Op = "call to " + r.describeSend(s, call) + " (configured as blocking)"
		}
		if !s.Direct && s.Origin.Pos.IsValid() {
			b.Taken = s.Origin.Pos
		}
		return b
	}
	cc := call.Common()
	callee := r.chanIndex().Callee(cc)
	if callee == nil {
		// An interface method or a func value that holds no stream send:
		// the callee is unknown, and is taken not to block (see the
		// package documentation). A local variable that holds a function
		// literal, assigned once and only called, is that literal.
		return nil
	}
	obj := funcObject(callee)
	if obj != nil && obj.Signature().Recv() == nil && r.cfg.funcs[pkgPath(obj)][obj.Name()] {
		return &Blocking{Kind: Configured, Op: "call to " + FuncName(obj) + " (configured as blocking)", At: call.Pos(), OpPos: call.Pos(), OpPkg: r.pkg.Path(),
			OpInstr: call, OpState: -1}
	}
	var via *Blocking
	switch {
	case len(callee.Blocks) > 0 && callee.Pkg == r.build().Pkg:
		via = r.summarize(callee)
	case obj != nil && r.imported[obj.Origin()] != nil:
		f := r.imported[obj.Origin()]
		if r.othersQueue(f) {
			return nil
		}
		via = &Blocking{Kind: f.Kind, Op: f.Op, Chain: f.Chain, Param: f.Param, OpPkg: f.OpPkg}
	case obj != nil:
		return r.stdCall(call, obj)
	}
	if via == nil {
		return nil
	}
	param, blocks := r.passedChan(call, via.Param)
	if !blocks {
		return nil
	}
	b := through(callee, via, call.Pos())
	b.Param = param
	return b
}

// othersQueue reports whether a dependency's fact ends in a channel send
// inside another module: a library's queue to its own goroutines, such as
// a compressor's worker pool. Its caller cannot act on it, and the
// library's own check reports the send where it is. Stream sends and
// configured calls are kept: they block on a peer the caller chose.
func (r *Result) othersQueue(f *Blocks) bool {
	if r.module == "" || f.OpPkg == "" || (f.Kind != ChanSend && f.Kind != SelectSend) {
		return false
	}
	return f.OpPkg != r.module && !strings.HasPrefix(f.OpPkg, r.module+"/")
}

// paramChan returns 1 + the index of the parameter of fn that ch is,
// through copies, when every origin of ch is that parameter; 0 otherwise.
func (r *Result) paramChan(ch ssa.Value, fn *ssa.Function) int {
	for {
		ct, ok := ch.(*ssa.ChangeType)
		if !ok {
			break
		}
		ch = ct.X
	}
	if p, ok := ch.(*ssa.Parameter); ok && p.Parent() == fn {
		return paramIndex(p) + 1
	}
	found := 0
	for _, o := range r.chanIndex().Origins(ch) {
		if o.Kind != chans.Param || o.Param.Parent() != fn {
			return 0
		}
		i := paramIndex(o.Param)
		if i < 0 || found != 0 && found != i+1 {
			return 0
		}
		found = i + 1
	}
	return found
}

func paramIndex(p *ssa.Parameter) int {
	for i, q := range p.Parent().Params {
		if q == p {
			return i
		}
	}
	return -1
}

// passedChan applies a callee's summary that sends on its parameter
// param-1 to a call. Passing nil there means the callee does not block
// through that send (a nil channel is one the callee checks before
// sending):
//
//	s.configJetStream(a, nil)   // configJetStream sends on tq only if tq != nil
//
// Passing one of the caller's own parameters makes the caller's summary
// depend on that parameter in turn.
func (r *Result) passedChan(call ssa.CallInstruction, param int) (int, bool) {
	cc := call.Common()
	if param == 0 || cc.IsInvoke() || param > len(cc.Args) {
		return 0, true
	}
	switch a := cc.Args[param-1].(type) {
	case *ssa.Const:
		if a.IsNil() {
			return 0, false
		}
	case *ssa.Parameter:
		if a.Parent() == call.Parent() {
			return paramIndex(a) + 1, true
		}
	}
	return 0, true
}

// describeSend renders a stream send for a message:
//
//	stream.Send
//	send (stream.Send, a method value taken at handler.go:27)
//	r.send (holds stream.Send, taken at handler.go:27)
func (r *Result) describeSend(s streams.Send, call ssa.CallInstruction) string {
	if s.Direct {
		if ce := r.source().calls[call.Pos()]; ce != nil {
			return types.ExprString(ce.Fun) // as written: s.Send, not the method's name
		}
		return s.Origin.Expr
	}
	where := "in a dependency"
	if s.Origin.Pos.IsValid() {
		p := r.fset.Position(s.Origin.Pos)
		where = fmt.Sprintf("at %s:%d", filepath.Base(p.Filename), p.Line)
	}
	if s.Via == "" || s.Via == s.Origin.Expr {
		return fmt.Sprintf("through %s (a method value taken %s)", s.Origin.Expr, where)
	}
	return fmt.Sprintf("through %s (holds %s, taken %s)", s.Via, s.Origin.Expr, where)
}

// through is via seen from a call to callee at pos.
func through(callee *ssa.Function, via *Blocking, pos token.Pos) *Blocking {
	chain := append([]string{displayName(callee)}, via.Chain...)
	if len(chain) > maxChain {
		chain = append(chain[:maxChain-1:maxChain-1], "…")
	}
	return &Blocking{Kind: via.Kind, Op: via.Op, Chain: chain, At: pos, OpPos: via.OpPos, Taken: via.Taken, OpPkg: via.OpPkg,
		OpInstr: via.OpInstr, OpState: via.OpState}
}

// stdCall applies the standard library's table: a call that runs its
// function argument before returning blocks when that function does.
//
//	t2 = (*sync.Once).Do(t0, t1)    where t1 = make closure f$1 [...]
func (r *Result) stdCall(call ssa.CallInstruction, obj *types.Func) *Blocking {
	i, ok := stdCallsArg[obj.Origin().FullName()]
	args := call.Common().Args
	if !ok || i >= len(args) {
		return nil
	}
	var fn *ssa.Function
	switch a := args[i].(type) {
	case *ssa.Function:
		fn = a
	case *ssa.MakeClosure:
		fn, _ = a.Fn.(*ssa.Function)
	}
	if fn == nil || len(fn.Blocks) == 0 || fn.Pkg != r.build().Pkg {
		return nil
	}
	via := r.summarize(fn)
	if via == nil {
		return nil
	}
	b := through(fn, via, call.Pos())
	b.Chain = append([]string{FuncName(obj)}, b.Chain...)
	return b
}

func recvType(fn *types.Func) types.Type {
	if recv := fn.Signature().Recv(); recv != nil {
		return recv.Type()
	}
	return nil
}

func pkgPath(fn *types.Func) string {
	if fn.Pkg() == nil {
		return ""
	}
	return fn.Pkg().Path()
}

// funcObject returns the declared function or method that callee is, or
// the method a $bound or $thunk wrapper calls.
func funcObject(callee *ssa.Function) *types.Func {
	if o := callee.Origin(); o != nil {
		callee = o
	}
	fn, _ := callee.Object().(*types.Func)
	return fn
}
