package verdict

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/report"
)

// secondAnswer is the verdict on a send that answers a request a second
// time (chans.SecondAnswer): the earlier answer can already have filled
// the one slot.
func (j *Judge) secondAnswer(send *ssa.Send, a chans.Answer) Verdict {
	first := "the request is answered here first"
	if _, ok := a.First.(*ssa.Call); ok {
		first = "this call can answer the request first"
	}
	where := "in one run of " + OwnerName(send.Parent())
	if a.HandOff != nil {
		where = "after " + OwnerName(a.HandOff.Parent()) + " answered it and still handed it on"
	}
	v := Verdict{
		Blocks:  true,
		Reason:  "it can answer the request a second time " + where + ", and the channel holds one answer: a requester that takes one leaves it waiting",
		Related: []analysis.RelatedInformation{related(a.First.Pos(), first)},
	}
	if a.HandOff != nil {
		v.Related = append(v.Related, related(a.HandOffPos, "and hands it on here"))
	}
	makes := j.idx.FieldMakes(chans.LoadedField(send.Chan))
	for _, mk := range makes {
		v.Related = append(v.Related, related(mk.Pos(), report.MadeHere+capSuffix(mk)))
	}
	v.Makes = makes
	return v
}
