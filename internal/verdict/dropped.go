package verdict

import (
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/report"
)

// Dropped is the verdict for the send at instr (a select's case state, or
// -1 for a plain send) on a channel of an object its maker can drop,
// when every other way out of the select is a signal of the same object
// (chans.Drop): the maker's return, the go statement and the channel's
// makes are its proof. base names the object as the send spells it ("c"
// of c.decrypted).
func (j *Judge) Dropped(instr ssa.Instruction, state int, base string) (Verdict, bool) {
	d, ok := j.idx.DroppedOwner(instr, state)
	if !ok {
		return Verdict{}, false
	}
	obj := "the *" + d.Type.Obj().Name()
	v := Verdict{
		Blocks: true,
		Reason: OwnerName(d.Ctor) + " can return without " + obj + " it " + made(d) + " while the goroutine that sends here runs on: ",
		Makes:  j.idx.FieldMakes(d.Field),
	}
	if d.Signal != nil {
		v.Reason += "nothing can then fire " + base + "." + d.Signal.Name() + ", this select's only way out"
	} else {
		v.Reason += "what receives from it needs " + obj + ", which no one holds any more"
	}
	v.Related = append(v.Related,
		related(returnPos(d.Return), OwnerName(d.Ctor)+" returns here without "+obj+", which no one else holds"),
		related(d.Start.Pos(), "the goroutine that sends is started here"))
	for _, mk := range v.Makes {
		v.Related = append(v.Related, related(mk.Pos(), report.MadeHere+capSuffix(mk)))
	}
	return v, true
}

// made says how the maker came by the object: "made", or "got from
// newConn".
func made(d chans.Drop) string {
	if d.Helper != nil {
		return "got from " + OwnerName(d.Helper)
	}
	return "made"
}
