package verdict

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
)

// sizedToSenders says what is missing when the channel of u has a buffer
// sized at run time by a value that also bounds a count of the package
// (chans.SizeBound), and every send into it is a goroutine's one value
// for its run, started from a loop with no count of its own
// (chans.UncountedRuns): then it blocks only when more runs start than
// the size allows, and whether they do is a protocol the pass cannot
// count (a retry timer armed while attempt < max; a spawn limit of alpha
// minus those in flight). A run that sends more than once, a send of the
// owner, or runs started from a counted loop keep the proof, as does a
// constant size, which is a queue's length and not a count of senders.
// v points at the bound.
func sizedToSenders(idx *chans.Index, u *chans.Uses, v *Verdict) string {
	at, ok := idx.SizeBound(u.Make)
	if !ok || !idx.UncountedRuns(u) {
		return ""
	}
	if pos := posNear(at); pos.IsValid() {
		v.Related = append(v.Related, related(pos, "the buffer's size also bounds a count here"))
	}
	return "its buffer (" + idx.SizesOf([]*ssa.MakeChan{u.Make}) + ") is sized by a value the package also compares with a count, and each goroutine sends it one value: when that count is of the goroutines they all fit, and the pass cannot tell"
}

// posNear returns the position of instr, or of the first instruction of
// its block that has one: a range loop's bound test has none of its own.
func posNear(instr ssa.Instruction) token.Pos {
	if instr.Pos().IsValid() {
		return instr.Pos()
	}
	for _, in := range instr.Block().Instrs {
		if in.Pos().IsValid() {
			return in.Pos()
		}
	}
	return instr.Parent().Pos()
}
