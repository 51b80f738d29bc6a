package singlesender

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/ownership"
)

// consequence ends every message: what single ownership buys.
const consequence = "a stream must have a single sending goroutine"

// report reports the send at site made by the goroutines bad, which break
// the ownership of s by d.
func (c *checker) report(s *ownership.Stream, site *ownership.Site, bad []ownership.Sender, d *ownership.Goroutine) {
	first := bad[0]
	pos := reportPos(site, first)
	if c.reported[pos] {
		return
	}
	c.reported[pos] = true
	var msg string
	if first.G.Kind == ownership.Entry && first.G.Fn == nil && site.Callee != nil {
		// A dependency's function keeps the stream or its Send for other
		// goroutines: the call is what gives it away.
		msg = fmt.Sprintf("%s.%s stores %s where any goroutine may send on it: %s",
			site.Callee.Pkg().Name(), site.Callee.Name(), c.argText(site, s), consequence)
	} else {
		what := c.what(s, site, first, pos)
		if strings.Contains(what, ", ") {
			what += ","
		}
		msg = fmt.Sprintf("%s is called %s%s: %s", what, c.where(first.G, bad), c.against(d), consequence)
	}
	c.rep.Report(analysis.Diagnostic{Pos: pos, Message: msg, Related: c.related(site, first, d, pos)})
}

// reportBeside reports the send at site made by snd's goroutine, which
// other, started by the same function, rivals.
//
//	stream.Send is called in the goroutine started at chat.go:40, but the
//	goroutine started at chat.go:46, sends on it too: a stream must have a
//	single sending goroutine
func (c *checker) reportBeside(s *ownership.Stream, site *ownership.Site, snd ownership.Sender, other ownership.Goroutine) {
	pos := reportPos(site, snd)
	if c.reported[pos] {
		return
	}
	c.reported[pos] = true
	what := c.what(s, site, snd, pos)
	if strings.Contains(what, ", ") {
		what += ","
	}
	msg := fmt.Sprintf("%s is called in %s, but %s, sends on it too: %s", what, c.started(snd.G), c.started(other), consequence)
	var related []analysis.RelatedInformation
	if p := startOf(other); p.IsValid() {
		related = append(related, analysis.RelatedInformation{Pos: p, Message: "the other sender is started here"})
	}
	if pos != site.Call.Pos() {
		related = append(related, analysis.RelatedInformation{Pos: site.Call.Pos(), Message: "the send"})
	}
	c.rep.Report(analysis.Diagnostic{Pos: pos, Message: msg, Related: related})
}

// reportPos is where a send breaks ownership: the call through a stored
// value, or the call of the goroutine's own function that reaches the
// send (the send itself when that function makes it).
func reportPos(site *ownership.Site, snd ownership.Sender) token.Pos {
	if snd.Store != nil || snd.G.Kind == ownership.Entry || snd.At == nil || !snd.At.Pos().IsValid() {
		return site.Call.Pos()
	}
	return snd.At.Pos()
}

// what names the call reported at pos: "stream.Send", "r.send, which
// holds stream.Send taken at handler.go:27", "reply, which sends on
// stream at chat.go:50", "lib.Forward, which sends on stream".
func (c *checker) what(s *ownership.Stream, site *ownership.Site, snd ownership.Sender, pos token.Pos) string {
	if pos != site.Call.Pos() {
		return fmt.Sprintf("%s, which sends on %s at %s", c.calleeOf(snd.At), c.streamName(s), c.short(site.Call.Pos()))
	}
	if site.Callee != nil {
		return fmt.Sprintf("%s.%s, which sends on %s", site.Callee.Pkg().Name(), site.Callee.Name(), c.streamName(s))
	}
	text := c.callText(site.Call)
	if c.res.Flow != nil {
		if send, ok := c.res.Flow.Send(site.Call); ok && !send.Direct {
			if text == "" || text == send.Origin.Expr {
				return send.Describe(c.pass.Fset)
			}
			return fmt.Sprintf("%s, which holds %s taken %s", text, send.Origin.Expr, c.takenAt(send.Origin.Pos))
		}
	}
	if text != "" {
		return text
	}
	return c.streamName(s) + "'s send"
}

// callText renders the function expression of the call as written:
// "stream.Send", "r.send", "s.stream.SendMsg".
func (c *checker) callText(call ssa.CallInstruction) string {
	if c.calls == nil {
		c.calls = make(map[token.Pos]ast.Expr)
		c.args = make(map[token.Pos][]ast.Expr)
		for _, f := range c.files {
			ast.Inspect(f, func(n ast.Node) bool {
				if ce, ok := n.(*ast.CallExpr); ok {
					c.calls[ce.Lparen] = ce.Fun
					c.args[ce.Lparen] = ce.Args
				}
				return true
			})
		}
	}
	pos := call.Pos()
	if cc := call.Common(); cc != nil && cc.Pos().IsValid() {
		pos = cc.Pos()
	}
	if fun, ok := c.calls[pos]; ok {
		return types.ExprString(fun)
	}
	return ""
}

// argText renders the argument of site's call that carries the stream:
// "stream.SendMsg", "stream"; the stream's name when it cannot be told.
func (c *checker) argText(site *ownership.Site, s *ownership.Stream) string {
	c.callText(site.Call) // fills c.args
	if args, ok := c.args[site.Call.Common().Pos()]; ok {
		for _, a := range args {
			text := types.ExprString(a)
			if strings.HasPrefix(text, c.streamName(s)) {
				return text
			}
		}
	}
	return c.streamName(s)
}

// takenAt says where a method value was taken: "at handler.go:27", or "in
// a dependency".
func (c *checker) takenAt(pos token.Pos) string {
	if !pos.IsValid() {
		return "in a dependency"
	}
	return "at " + c.short(pos)
}

// calleeOf names what instr calls or starts.
func (c *checker) calleeOf(instr ssa.Instruction) string {
	call, ok := instr.(ssa.CallInstruction)
	if !ok {
		return "this call"
	}
	if text := c.callText(call); text != "" {
		return text
	}
	if fn := call.Common().StaticCallee(); fn != nil {
		if fn.Parent() != nil {
			return "the func literal"
		}
		return c.funcName(fn)
	}
	if call.Common().IsInvoke() {
		return call.Common().Method.Name()
	}
	return "this call"
}

// where says which goroutine makes the call: "on Broadcast's goroutine",
// "in the goroutine started at chat.go:40", "from Hub.DispatchControl,
// which any goroutine may call".
func (c *checker) where(g ownership.Goroutine, bad []ownership.Sender) string {
	switch g.Kind {
	case ownership.Owner:
		return "on " + c.funcName(g.Fn) + "'s goroutine"
	case ownership.Started:
		if g.Multi {
			return "in goroutines started in a loop at " + c.short(g.Site.Pos())
		}
		return "in " + c.started(g)
	case ownership.Marked:
		return "in " + c.funcName(g.Fn) + " (//sendlint:sender)"
	case ownership.Callback:
		return "in a closure that escapes at " + c.short(g.Site.Pos()) + " to be called later"
	case ownership.Entry:
		var names []string
		for _, snd := range bad {
			if snd.G.Kind == ownership.Entry && snd.G.Fn != nil && !slices.Contains(names, c.funcName(snd.G.Fn)) {
				names = append(names, c.funcName(snd.G.Fn))
			}
		}
		slices.Sort(names)
		if !g.Multi {
			return "from " + list(names)
		}
		return "from " + list(names) + ", which any goroutine may call"
	}
	return "on another goroutine"
}

// started describes a started goroutine: "sendFeedback's goroutine,
// started at router.go:98", "the goroutine started at chat.go:40", "the
// goroutine that startLater starts at chat.go:70". A goroutine started
// inside a function the owner calls is named by that call.
func (c *checker) started(g ownership.Goroutine) string {
	start := g.Site
	if g.Order != nil && g.Order.Parent() != g.Site.Parent() {
		start = g.Order
	}
	at := c.short(start.Pos())
	if _, isGo := start.(*ssa.Go); !isGo {
		return "the goroutine that " + c.calleeOf(start) + " starts at " + at
	}
	if g.Fn != nil && g.Fn.Parent() == nil {
		return c.funcName(g.Fn) + "'s goroutine, started at " + at
	}
	return "the goroutine started at " + at
}

// startPos is where the designated goroutine starts, as the owner sees it.
func startOf(g ownership.Goroutine) token.Pos {
	if g.Order != nil && g.Site != nil && g.Order.Parent() != g.Site.Parent() {
		return g.Order.Pos()
	}
	return g.Site.Pos()
}

// against names the designated sender: ", but sendFeedback's goroutine,
// started at router.go:98, is the stream's sender".
func (c *checker) against(d *ownership.Goroutine) string {
	if d == nil {
		return ""
	}
	switch d.Kind {
	case ownership.Started:
		return ", but " + c.started(*d) + ", is the stream's sender"
	case ownership.Marked:
		return ", but " + c.funcName(d.Fn) + " is the stream's sender (//sendlint:sender)"
	case ownership.Owner:
		return ", but " + c.funcName(d.Fn) + " sends on it from its own goroutine"
	case ownership.Callback:
		return ", but a closure that escapes at " + c.short(d.Site.Pos()) + " sends on it too"
	case ownership.Entry:
		return ", but " + c.funcName(d.Fn) + " sends on it too"
	}
	return ""
}

// related points at the designated sender, the send itself when the
// report is at a call that reaches it, and the store the send goes
// through.
func (c *checker) related(site *ownership.Site, snd ownership.Sender, d *ownership.Goroutine, pos token.Pos) []analysis.RelatedInformation {
	var out []analysis.RelatedInformation
	add := func(p token.Pos, msg string) {
		if p.IsValid() && p != pos {
			out = append(out, analysis.RelatedInformation{Pos: p, Message: msg})
		}
	}
	if d != nil {
		switch {
		case d.Site != nil && d.Kind == ownership.Started:
			add(startOf(*d), "the stream's sender is started here")
		case d.Fn != nil && d.Kind == ownership.Marked:
			add(d.Fn.Pos(), "the stream's designated sender")
		case d.Order != nil:
			add(d.Order.Pos(), "the stream's sender sends here")
		}
	}
	if pos != site.Call.Pos() {
		add(site.Call.Pos(), "the send")
	}
	if snd.Store != nil {
		add(snd.Store.Instr.Pos(), "stored in "+snd.Store.Place+" here")
	}
	return out
}

// streamName names the stream as its owner spells it.
func (c *checker) streamName(s *ownership.Stream) string {
	if s.Name != "" {
		return s.Name
	}
	if name := c.assignedName(s.Pos()); name != "" {
		return name
	}
	return "the stream opened at " + c.short(s.Pos())
}

// assignedName returns the variable that the call at pos is assigned to,
// as in `stream, err := client.Chat(ctx)`.
func (c *checker) assignedName(pos token.Pos) string {
	var name string
	for _, f := range c.files {
		if pos < f.Pos() || pos > f.End() {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if name != "" || n == nil || pos < n.Pos() || pos >= n.End() {
				return false
			}
			if as, ok := n.(*ast.AssignStmt); ok && len(as.Rhs) == 1 && len(as.Lhs) > 0 {
				if id, ok := as.Lhs[0].(*ast.Ident); ok && as.Rhs[0].Pos() <= pos && id.Name != "_" {
					name = id.Name
				}
			}
			return true
		})
	}
	return name
}

// short renders pos as file.go:line.
func (c *checker) short(pos token.Pos) string {
	p := c.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// funcName names a function for messages: "Hub.DispatchControl",
// "runSender", "lib.Pump", "the func literal in Broadcast".
func (c *checker) funcName(fn *ssa.Function) string {
	if fn == nil {
		return "a function"
	}
	if fn.Parent() != nil {
		return "the func literal in " + c.funcName(fn.Parent())
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return fn.Name()
	}
	qual := ""
	if obj.Pkg() != nil && obj.Pkg() != c.pass.Pkg {
		qual = obj.Pkg().Name() + "."
	}
	recv := obj.Signature().Recv()
	if recv == nil {
		return qual + obj.Name()
	}
	t := types.Unalias(recv.Type())
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	if n, ok := t.(*types.Named); ok {
		return qual + n.Obj().Name() + "." + obj.Name()
	}
	return qual + obj.Name()
}

// list renders names as "A", "A and B", "A, B and C", or "A, B and 3 more".
func list(names []string) string {
	switch n := len(names); {
	case n == 0:
		return "an entry point"
	case n == 1:
		return names[0]
	case n <= 3:
		return strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	default:
		return strings.Join(names[:2], ", ") + fmt.Sprintf(" and %d more", n-2)
	}
}
