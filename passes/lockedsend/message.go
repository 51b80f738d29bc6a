package lockedsend

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/sendlint/sendlint/internal/locks"
	"github.com/sendlint/sendlint/internal/summary"
)

// report writes one finding for b, made with the locks of held:
//
//	send on tr.responses can block while s.lock is held: every goroutine that needs s.lock waits for the channel's receiver
//	call to c.hub.DispatchControl can block while gate is held: (*runnerhub.Hub).DispatchControl → (*runnerhub.commandRouter).send1 → stream send through send, ...; every goroutine that needs gate waits for the peer to read
//
// The Lock calls, and the blocking operation when a call reaches it, go in
// Related.
func (c *checker) report(b *summary.Blocking, held locks.Set) {
	names := c.lockNames(held)
	what := b.Op
	if len(b.Chain) > 0 {
		what = "call to " + c.callName(b) + " can block while " + join(names, "and") + isAre(names) + " held: " +
			strings.Join(b.Chain, " → ") + " → " + b.Op + "; "
	} else {
		what += " can block while " + join(names, "and") + isAre(names) + " held: "
	}
	msg := what + "every goroutine that needs " + join(names, "or") + " waits for " + waitsFor(b.Kind)

	var related []analysis.RelatedInformation
	for i, l := range held.Locks() {
		verb := " locked here"
		if l.Mode == locks.Read {
			verb = " read-locked here"
		}
		related = append(related, analysis.RelatedInformation{Pos: l.Pos(), Message: names[i] + verb})
	}
	if len(b.Chain) > 0 && b.OpPos.IsValid() {
		related = append(related, analysis.RelatedInformation{Pos: b.OpPos, Message: "blocks here: " + b.Op})
	}
	if b.Taken.IsValid() {
		related = append(related, analysis.RelatedInformation{Pos: b.Taken, Message: "the stream's Send was taken here"})
	}
	c.rep.Report(analysis.Diagnostic{Pos: b.At, Category: category(b), Message: msg, Related: related})
}

func waitsFor(k summary.OpKind) string {
	switch k {
	case summary.ChanSend, summary.SelectSend:
		return "the channel's receiver"
	case summary.StreamSend:
		return "the peer to read"
	}
	return "it"
}

func category(b *summary.Blocking) string {
	if len(b.Chain) > 0 {
		return "call"
	}
	switch b.Kind {
	case summary.ChanSend, summary.SelectSend:
		return "send"
	case summary.StreamSend:
		return "stream"
	}
	return "configured"
}

// lockNames quotes each held lock as written at its Lock call: s.lock,
// r.sendMu, gate, or s for a struct that embeds its mutex.
func (c *checker) lockNames(held locks.Set) []string {
	var names []string
	for _, l := range held.Locks() {
		name := "a mutex"
		if call := c.sum.Source(l.Pos()); call != nil {
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
				name = types.ExprString(sel.X)
			}
		}
		names = append(names, name)
	}
	return names
}

// callName quotes the function of the call that reaches the blocking
// operation, as written: c.hub.DispatchControl, s.flush.
func (c *checker) callName(b *summary.Blocking) string {
	if call := c.sum.Source(b.At); call != nil {
		return types.ExprString(call.Fun)
	}
	return b.Chain[0]
}

// join lists names: "a", "a and b", "a, b and c".
func join(names []string, conj string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conj + " " + names[len(names)-1]
}

func isAre(names []string) string {
	if len(names) == 1 {
		return " is"
	}
	return " are"
}
