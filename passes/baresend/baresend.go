package baresend

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/analyzerdoc"
	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/report"
	"github.com/sendlint/sendlint/internal/summary"
	"github.com/sendlint/sendlint/internal/verdict"
)

//go:embed doc.go
var doc string

// Analyzer reports channel sends that can block forever.
var Analyzer = &analysis.Analyzer{
	Name:     "baresend",
	Doc:      analyzerdoc.MustExtract(doc, "baresend"),
	URL:      "https://pkg.go.dev/github.com/sendlint/sendlint/passes/baresend",
	Requires: append([]*analysis.Analyzer{summary.Analyzer}, report.Requires...),
	Run:      run,
}

func init() { report.Flags(&Analyzer.Flags) }

// checker holds what one run needs.
type checker struct {
	pass  *analysis.Pass
	rep   *report.Reporter
	idx   *chans.Index
	judge *verdict.Judge
	exprs map[token.Pos]ast.Expr // channel expression of each send, by arrow
}

func run(pass *analysis.Pass) (any, error) {
	rep, err := report.New(pass)
	if err != nil {
		return nil, err
	}
	sum := pass.ResultOf[summary.Analyzer].(*summary.Result)
	input := sum.SSA() // shared with every pass
	sum.Chans(func(idx *chans.Index) {
		c := &checker{
			pass:  pass,
			rep:   rep,
			idx:   idx,
			judge: verdict.New(idx),
			exprs: sendExprs(pass.Files),
		}
		for _, fn := range input.SrcFuncs {
			rep.Guard(fn.String(), fn.Pos(), func() { c.checkFunc(fn) })
		}
	})
	rep.Finish()
	return nil, nil
}

func (c *checker) checkFunc(fn *ssa.Function) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Send:
				c.checkSend(instr)
			case *ssa.Select:
				c.checkSelect(instr)
			}
		}
	}
}

// checkSend reports a plain send, or the single send of a degenerate select,
// which the IR lowers to a plain send:
//
//	send t0 <- t1
func (c *checker) checkSend(send *ssa.Send) {
	v := c.judge.Send(send, -1, send.Chan)
	if !v.Proven() {
		// A maker that drops the object proves what the verdict could
		// not: no one is left to receive, whoever received before.
		if d, ok := c.dropped(send); ok {
			v = d
		}
	}
	if v.Blocks && !c.testOnly(send) {
		c.report(send.Pos(), c.chanDesc(send.Pos(), send.Chan, v), v)
	}
}

// dropped is the verdict for a plain send on a channel of an object its
// maker can drop (verdict.Dropped), unless the buffer has room for every
// send.
func (c *checker) dropped(send *ssa.Send) (verdict.Verdict, bool) {
	base, ok := holderExpr(c.exprString(send.Pos(), send.Chan))
	if !ok {
		return verdict.Verdict{}, false
	}
	v, ok := c.judge.Dropped(send, -1, base)
	if !ok || c.idx.NeverBlocks(send, -1, send.Chan) {
		return verdict.Verdict{}, false
	}
	return v, true
}

// testOnly reports whether instr lies in a function only the package's
// tests call (chans.TestOnly): test code, reported only with -test. It is
// asked only of what would be reported, since the answer walks callers.
func (c *checker) testOnly(instr ssa.Instruction) bool {
	return !c.rep.Tests() && c.idx.TestOnly(instr.Parent())
}

// checkSelect reports a blocking select with no way out: no default and no
// live receive case, where every send case can block.
//
//	t3 = select blocking [a<-1:int, b<-2:int] (index int, ok bool)
func (c *checker) checkSelect(sel *ssa.Select) {
	if !sel.Blocking {
		return
	}
	if c.idx.LiveCase(sel) >= 0 {
		if !c.checkCallerContext(sel) && !c.checkHeadOfLine(sel) {
			c.checkDropped(sel)
		}
		return
	}
	var first *verdict.Verdict
	var names []string
	missing := verdict.NoReceiverSeen // proven when any case's receiver is shown to stop
	for i, st := range sel.States {
		if st.Dir != types.SendOnly {
			continue
		}
		v := c.judge.Send(sel, i, st.Chan)
		if !v.Blocks {
			return
		}
		if first == nil || !first.Proven() && v.Proven() {
			first = &v
		}
		if v.Proven() {
			missing = ""
		}
		names = append(names, c.exprString(st.Pos, st.Chan))
	}
	if first == nil || c.testOnly(sel) {
		return
	}
	msg := "select with only send cases (on " + joinNames(names) + ") can block forever: no liveness case (ctx.Done(), a stop channel) lets it give up"
	c.emit(analysis.Diagnostic{Pos: firstSendPos(sel), Message: msg, Related: first.Related}, missing)
}

// checkCallerContext reports a select whose only way out is its caller's
// context, when the loop it hands its value to gives up for good on a stop
// channel the select does not watch (chans.OutlivesLoop): once the loop
// has stopped, the call waits for the context, for good if it never ends.
func (c *checker) checkCallerContext(sel *ssa.Select) bool {
	g, ok := c.idx.OutlivesLoop(sel)
	if !ok || c.testOnly(sel) {
		return false
	}
	st := sel.States[g.Send]
	loop, stop, ctx := verdict.OwnerName(g.Recv.Func), g.Stop.Name(), g.Ctx.Name()
	msg := "send on " + c.exprString(st.Pos, st.Chan) + " gives up only when " + ctx + " is done: its receiver " + loop +
		" stops once " + stop + " is closed, and this select does not give up on " + stop +
		"; a call made after that waits for its caller's context, for good if that never ends"
	related := []analysis.RelatedInformation{{Pos: g.Recv.Pos(), Message: loop + " receives from it here"}}
	for i, cl := range g.Closes {
		if i == 3 {
			related = append(related, analysis.RelatedInformation{Pos: cl.Pos(), Message: fmt.Sprintf("and %d more", len(g.Closes)-3)})
			break
		}
		related = append(related, analysis.RelatedInformation{Pos: cl.Pos(), Message: stop + " is closed here"})
	}
	c.emit(analysis.Diagnostic{Pos: st.Pos, Message: msg, Related: related}, "")
	return true
}

// checkHeadOfLine reports a hand-off to one consumer, for a loop that
// serves many, that waits for as long as that consumer stays open and
// does not read (chans.HeadOfLine).
func (c *checker) checkHeadOfLine(sel *ssa.Select) bool {
	h, ok := c.idx.HeadOfLine(sel)
	if !ok || c.testOnly(sel) {
		return false
	}
	st := sel.States[h.Send]
	loop := verdict.OwnerName(h.Owner)
	msg := "send on " + c.exprString(st.Pos, st.Chan) + " waits for as long as its consumer stays open and does not read, and " +
		loop + ", which hands every consumer its messages, waits with it: one consumer that stops reading stalls all the others"
	related := []analysis.RelatedInformation{{Pos: h.Call.Pos(), Message: loop + " calls it here, for one consumer after another"}}
	for _, pos := range h.Outs {
		related = append(related, analysis.RelatedInformation{Pos: pos, Message: "this case fires only when the consumer, or the whole owner, closes"})
	}
	missing := ""
	if h.ReaderUnseen {
		missing = "no receive of the channel is in sight, and no function hands it to the consumer's caller: whoever reads it may never stop while the consumer is open"
	}
	c.emit(analysis.Diagnostic{Pos: st.Pos, Message: msg, Related: related}, missing)
	return true
}

// checkDropped reports a send case of a select whose every way out is a
// signal of an object that the function that made it can drop, while the
// goroutine that sends runs on (verdict.Dropped).
func (c *checker) checkDropped(sel *ssa.Select) {
	for k, st := range sel.States {
		if st.Dir != types.SendOnly {
			continue
		}
		base, ok := holderExpr(c.exprString(st.Pos, st.Chan))
		if !ok {
			continue
		}
		if v, ok := c.judge.Dropped(sel, k, base); ok && !c.testOnly(sel) {
			c.report(st.Pos, c.chanDesc(st.Pos, st.Chan, v), v)
			return
		}
	}
}

// holderExpr returns the expression that holds the channel field a send
// names: "c.conn" of c.conn.out.
func holderExpr(ch string) (string, bool) {
	i := strings.LastIndex(ch, ".")
	return ch[:max(i, 0)], i > 0
}

func firstSendPos(sel *ssa.Select) token.Pos {
	for _, st := range sel.States {
		if st.Dir == types.SendOnly {
			return st.Pos
		}
	}
	return sel.Pos()
}

func (c *checker) report(pos token.Pos, desc string, v verdict.Verdict) {
	c.emit(c.withLivenessFix(analysis.Diagnostic{
		Pos:     pos,
		Message: "send on " + desc + headline(v) + v.Reason,
		Related: v.Related,
	}), v.Missing)
}

// headline says what the send can do: block forever, or block until its
// owner closes the channel and then panic.
func headline(v verdict.Verdict) string {
	if v.Panics {
		return " can block and then panic: "
	}
	return " can block forever: "
}

// emit reports d in the default tier when its verdict carries a proof, and
// in the audit tier, labelled with what is missing, when it does not.
func (c *checker) emit(d analysis.Diagnostic, missing string) {
	if missing == "" {
		c.rep.Report(d)
		return
	}
	c.rep.Audit(d, missing)
}
