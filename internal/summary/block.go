package summary

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/locks"
	"github.com/sendlint/sendlint/internal/streams"
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
		if r.chanBlocks(in, -1, in.Chan) && !r.chanIndex().FreshField(in) {
			return &Blocking{Kind: ChanSend, Op: "send on " + r.source().chanAt(in.Pos()), At: in.Pos(), OpPos: in.Pos(),
				Param: r.paramChan(in.Chan, in.Parent()), OpPkg: r.pkg.Path()}
		}
	case *ssa.Select:
		return r.selectBlocks(in)
	case *ssa.Call:
		return r.call(in)
	}
	return nil
}

// chanBlocks reports whether the send at instr (select state, or -1) on ch
// can block. It cannot when it puts back a token its function took from
// the same channel, when it follows a non-blocking receive from the same
// channel that made room for it (keep-the-latest-value), when it puts a
// token back into a semaphore filled where it was made, when its channel
// is sent on once and closed (chans.OneShot), or when every channel it may send on was made in this
// package with room for every send (the capacity rule baresend uses). A
// nil channel is not counted: code guards such sends.
func (r *Result) chanBlocks(instr ssa.Instruction, state int, ch ssa.Value) bool {
	if chans.ReturnsToken(instr, ch) || chans.MadeRoom(instr, ch) {
		return false
	}
	idx := r.chanIndex()
	origins := idx.Origins(ch)
	if len(origins) == 0 {
		return true
	}
	for _, o := range origins {
		switch o.Kind {
		case chans.Nil:
		case chans.Field:
			if !idx.TokenPool(o.Field) && !idx.OneShot(o.Field) {
				return true
			}
		case chans.Made:
			if !r.covered(idx, o.Make, instr, state) {
				return true
			}
		default:
			return true
		}
	}
	return false
}

func (r *Result) covered(idx *chans.Index, mk *ssa.MakeChan, instr ssa.Instruction, state int) bool {
	u := idx.Uses(mk)
	for _, s := range u.Sends {
		if s.Instr == instr && s.State == state {
			return idx.Covered(u, s)
		}
	}
	return false
}

// selectBlocks reports a select that waits while it cannot send: it has no
// default, and none of its send cases has room. A receive case, a liveness
// case such as <-ctx.Done() included, bounds the wait but does not end it.
//
//	t3 = select blocking [t0<-t1, <-t2] (index int, ok bool)
func (r *Result) selectBlocks(sel *ssa.Select) *Blocking {
	if !sel.Blocking {
		return nil
	}
	first := -1
	for i, st := range sel.States {
		if st.Dir != types.SendOnly {
			continue
		}
		if !r.chanBlocks(sel, i, st.Chan) {
			return nil
		}
		if first < 0 {
			first = i
		}
	}
	if first < 0 {
		return nil
	}
	pos := sel.States[first].Pos
	return &Blocking{
		Kind:  SelectSend,
		Op:    "send on " + r.source().chanAt(pos) + " in a select without default",
		At:    pos,
		OpPos: pos,
		Param: r.paramChan(sel.States[first].Chan, sel.Parent()),
		OpPkg: r.pkg.Path(),
	}
}

// call reports whether a call (or a deferred call) may block: a stream
// send, a configured blocking function, or a call to a function that may
// block, known by its summary here or its fact from a dependency.
func (r *Result) call(call ssa.CallInstruction) *Blocking {
	if s, ok := r.streamFlow().Send(call); ok {
		b := &Blocking{Kind: StreamSend, At: call.Pos(), OpPos: call.Pos(), OpPkg: r.pkg.Path()}
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
	callee := cc.StaticCallee()
	if callee == nil {
		// An interface method or a func value that holds no stream send:
		// the callee is unknown, and is taken not to block (see the
		// package documentation).
		return nil
	}
	obj := funcObject(callee)
	if obj != nil && obj.Signature().Recv() == nil && r.cfg.funcs[pkgPath(obj)][obj.Name()] {
		return &Blocking{Kind: Configured, Op: "call to " + FuncName(obj) + " (configured as blocking)", At: call.Pos(), OpPos: call.Pos(), OpPkg: r.pkg.Path()}
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
	return &Blocking{Kind: via.Kind, Op: via.Op, Chain: chain, At: pos, OpPos: via.OpPos, Taken: via.Taken, OpPkg: via.OpPkg}
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
	locks.Analyze(fn).Walk(func(instr ssa.Instruction, s locks.State) bool {
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
	return &Blocking{Kind: found.Kind, Op: found.Op, Chain: found.Chain, OpPos: found.OpPos, Taken: found.Taken, Param: found.Param, OpPkg: found.OpPkg}
}
