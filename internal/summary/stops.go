package summary

import (
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// StopMethod is the fact that a method returns its receiver's stop
// channel, held in the unexported field Field, which its package closes
// and sends no value on (chans.Index.StopMethod): a service base type's
// Quit. A loop of another package that gives up on it stops for good once
// it fires.
type StopMethod struct {
	Field string
}

func (*StopMethod) AFact() {}

func (f *StopMethod) String() string { return "returns the stop channel " + f.Field }

// exportStopMethod exports the StopMethod fact of an exported method.
func (r *Result) exportStopMethod(pass *analysis.Pass, fn *ssa.Function, obj *types.Func) {
	if !obj.Exported() {
		return
	}
	if f := r.chanIndex().StopMethod(fn); f != nil && !f.Exported() {
		pass.ExportObjectFact(obj.Origin(), &StopMethod{Field: f.Name()})
	}
}

// importedStops reads the dependencies' StopMethod facts by object.
func importedStops(pass *analysis.Pass) map[*types.Func]string {
	out := make(map[*types.Func]string)
	for _, of := range pass.AllObjectFacts() {
		if f, ok := of.Fact.(*StopMethod); ok && of.Object.Pkg() != pass.Pkg {
			if fn, ok := of.Object.(*types.Func); ok {
				out[fn] = f.Field
			}
		}
	}
	return out
}
