package lockedsend

import (
	"fmt"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/locks"
	"github.com/sendlint/sendlint/internal/verdict"
)

// onlyHere is what a send held forever under a lock lacks for the default
// tier when the lock is taken nowhere but around it.
const onlyHere = "%s is taken only in %s, around this send: it holds up no one but that function's other callers, and baresend reports the send itself"

// onlyAroundSend says why the finding of r, a send that can block forever
// by baresend's proof (itself a default baresend finding) made directly
// under one lock, belongs to the audit tier when that lock's class is
// held nowhere in the package but in the function that sends: a
// per-value lock that orders a once-only vote and its send. The lock then
// strands only the goroutines on their way to the same send, whose fix is
// the send's; the finding would repeat baresend's at the same line. A lock
// that other code takes (a stream's lock that every request needs) keeps
// the finding: the wait spreads to them.
func (c *checker) onlyAroundSend(r *root, proof *verdict.Verdict) string {
	held := r.rep.held.Locks()
	if proof.Missing != "" || len(r.others) > 0 || r.rep.instr != r.rep.b.OpInstr || len(held) != 1 {
		return ""
	}
	class := locks.Class(held[0])
	if class == "" {
		return ""
	}
	sender := r.rep.instr.Parent()
	for _, fn := range c.sum.SSA().SrcFuncs {
		if fn != sender && c.holds(fn, class) {
			return ""
		}
	}
	return fmt.Sprintf(onlyHere, c.lockName(held[0]), verdict.OwnerName(sender))
}

// holds reports whether fn holds a lock of class anywhere.
func (c *checker) holds(fn *ssa.Function, class string) bool {
	found := false
	c.sum.Locks(fn).Walk(func(_ ssa.Instruction, s locks.State) bool {
		found = holdsClass(s.Held, class)
		return !found
	})
	return found
}

// holdsClass reports whether a lock of class is among held.
func holdsClass(held locks.Set, class string) bool {
	for _, l := range held.Locks() {
		if locks.Class(l) == class {
			return true
		}
	}
	return false
}
