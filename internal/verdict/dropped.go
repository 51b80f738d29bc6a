package verdict

import (
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/report"
)

// Dropped is the verdict for case k of sel, a send in a select whose every
// way out is a signal of an object its maker can drop (chans.Drop): the
// maker's return, the go statement and the channel's makes are its proof.
// base names the object as the send spells it ("c" of c.decrypted).
func (j *Judge) Dropped(sel *ssa.Select, k int, base string) (Verdict, bool) {
	d, ok := j.idx.DroppedOwner(sel, k)
	if !ok {
		return Verdict{}, false
	}
	obj := "the *" + d.Type.Obj().Name()
	v := Verdict{
		Blocks: true,
		Reason: OwnerName(d.Ctor) + " can return without " + obj + " it made, and without closing it, while the goroutine that sends here runs on: nothing can then fire " +
			base + "." + d.Signal.Name() + ", this select's only way out",
		Makes: j.idx.FieldMakes(d.Field),
	}
	v.Related = append(v.Related,
		related(returnPos(d.Return), OwnerName(d.Ctor)+" returns here without "+obj+", which no one else holds"),
		related(d.Start.Pos(), "the goroutine that sends is started here"))
	for _, mk := range v.Makes {
		v.Related = append(v.Related, related(mk.Pos(), report.MadeHere+capSuffix(mk)))
	}
	return v, true
}
