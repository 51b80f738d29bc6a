package lockedsend

import (
	"fmt"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/locks"
	"github.com/sendlint/sendlint/internal/verdict"
)

// maxContenders bounds the other takers of the held locks a finding lists.
const maxContenders = 3

// contenders points at the goroutines the message says wait: the Lock
// calls, in the package's other functions, that take a held lock's class
// in a mode that waits for this holder (any take of a lock held for
// writing; a write take of one held for reading). The functions that
// reach the same operation under the same locks are left out: they are
// the finding's other paths. So is test code, for a finding outside it.
// At most maxContenders are listed, in the package's order of functions,
// the last counting the rest.
func (c *checker) contenders(r *root) []analysis.RelatedInformation {
	skip := map[*ssa.Function]bool{r.rep.fn: true}
	for _, o := range r.others {
		skip[o.fn] = true
	}
	inTest := chans.InTestFile(r.rep.instr)
	var out []analysis.RelatedInformation
	n := 0
	for _, held := range r.rep.held.Locks() {
		class := locks.Class(held)
		if class == "" {
			continue
		}
		for _, fn := range c.sum.SSA().SrcFuncs {
			if skip[fn] {
				continue
			}
			for _, call := range takes(fn, class, held.Mode) {
				if !inTest && chans.InTestFile(call) {
					continue
				}
				n++
				if len(out) < maxContenders {
					name := c.lockName(locks.Lock{Call: call})
					out = append(out, analysis.RelatedInformation{Pos: call.Pos(), Message: name + " is taken here too, in " + verdict.OwnerName(fn)})
				}
			}
		}
	}
	if n > maxContenders {
		out[len(out)-1].Message += fmt.Sprintf(" (and %d more)", n-maxContenders)
	}
	return out
}

// takes returns fn's calls that take a lock of class in a mode that waits
// for a holder in mode held. A constructor's take of the lock of an
// object it just made, before anyone else can see it, waits for no one.
func takes(fn *ssa.Function, class string, held locks.Mode) []ssa.CallInstruction {
	var out []ssa.CallInstruction
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if cl, mode, ok := locks.Acquires(call); ok && cl == class && (held != locks.Read || mode != locks.Read) && !locks.OnFresh(call) {
				out = append(out, call)
			}
		}
	}
	return out
}
