package lockedsend

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/sendlint/sendlint/internal/locks"
	"github.com/sendlint/sendlint/internal/summary"
	"github.com/sendlint/sendlint/internal/verdict"
)

// report writes r's finding, in the tier judge chose:
//
//	stream send through send (...) can block while r.sendMu is held: every goroutine that needs r.sendMu waits for the peer to read
//	send on s.events can block while s.mu is held: its receiver (*S).loop takes s.mu too, so once the channel is full neither can go on
//	send on responses can block forever while s.lock is held: nothing receives from it; every goroutine that needs s.lock waits with it
//	call to s.flush can block while s.mu is held: (*S).flush → send on s.out; every goroutine that needs s.mu waits for the channel's receiver [audit: ...]
//
// The Lock calls, the blocking operation when a call reaches it, the
// proof, the other functions that take the lock (the goroutines that
// wait) and the other paths to the same operation go in Related.
func (c *checker) report(r *root) {
	b, held := r.rep.b, r.rep.held
	names := c.lockNames(held)
	verb := " can block while "
	if r.rule == forever {
		verb = " can block forever while "
	}
	what := b.Op + verb + join(names, "and") + isAre(names) + " held: "
	if len(b.Chain) > 0 {
		what = "call to " + c.callName(b) + verb + join(names, "and") + isAre(names) + " held: " +
			strings.Join(b.Chain, " → ") + " → " + b.Op + "; "
	}
	cyclic := r.rule == cycle || r.rule == audit && r.reason != "" // a cycle, or one through a vast buffer
	var msg string
	switch {
	case cyclic:
		msg = what + r.reason
	case r.rule == forever:
		msg = what + r.reason + "; " + waiters(names, held) + " waits with it"
	default:
		msg = what + waiters(names, held) + " waits for " + waitsFor(b.Kind)
	}

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
	related = append(related, r.related...)
	if !cyclic { // a cycle names the receiver's take instead
		related = append(related, c.contenders(r)...)
	}
	related = append(related, c.otherPaths(r)...)
	d := analysis.Diagnostic{Pos: b.At, Category: category(b), Message: msg, Related: related}
	if r.rule == audit {
		c.rep.Audit(d, r.missing)
		return
	}
	c.rep.Report(d)
}

// waiters says who waits while the locks named are held. Readers of a
// read lock do not wait for one another: a writer does, and, once a writer
// waits, every reader that comes after it (sync.RWMutex lets no new reader
// in ahead of a waiting writer).
func waiters(names []string, held locks.Set) string {
	for _, l := range held.Locks() {
		if l.Mode != locks.Read {
			return "every goroutine that needs " + join(names, "or")
		}
	}
	return "every goroutine that needs " + join(names, "or") + " for writing, and every reader after it,"
}

// maxOtherPaths bounds the other paths a finding lists.
const maxOtherPaths = 3

// otherPaths points at the other calls that reach the same operation with
// the same locks held, at most maxOtherPaths, the last saying how many
// more there are.
func (c *checker) otherPaths(r *root) []analysis.RelatedInformation {
	var out []analysis.RelatedInformation
	for i, f := range r.others {
		if i == maxOtherPaths {
			out[len(out)-1].Message += fmt.Sprintf(" (and %d more)", len(r.others)-maxOtherPaths)
			break
		}
		out = append(out, analysis.RelatedInformation{Pos: f.b.At, Message: "also reached here, in " + verdict.OwnerName(f.fn)})
	}
	return out
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
		names = append(names, c.lockName(l))
	}
	return names
}

func (c *checker) lockName(l locks.Lock) string {
	if call := c.sum.Source(l.Pos()); call != nil {
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			return types.ExprString(sel.X)
		}
	}
	return "a mutex"
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
