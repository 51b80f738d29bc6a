package verdict

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/report"
)

// secondAnswer is the verdict on a send that answers a request a second
// time (chans.SecondAnswer): earlier, which every run that reaches the
// send passes, can already have filled the one slot.
func (j *Judge) secondAnswer(send *ssa.Send, earlier ssa.Instruction) Verdict {
	first := "the request is answered here first"
	if _, ok := earlier.(*ssa.Call); ok {
		first = "this call can answer the request first"
	}
	v := Verdict{
		Blocks: true,
		Reason: "it can answer the request a second time in one run of " + OwnerName(send.Parent()) +
			", and the channel holds one answer: a requester that takes one leaves it waiting",
		Related: []analysis.RelatedInformation{related(earlier.Pos(), first)},
	}
	makes := j.idx.FieldMakes(chans.LoadedField(send.Chan))
	for _, mk := range makes {
		v.Related = append(v.Related, related(mk.Pos(), report.MadeHere+capSuffix(mk)))
	}
	v.Makes = makes
	return v
}
