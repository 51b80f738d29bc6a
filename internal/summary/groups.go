package summary

import (
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
)

// Group is the fact that a method waits for, or marks done, the
// goroutines its receiver counts in one of its sync.WaitGroup fields
// (chans.Index.GroupMethod): a closer's Done, Wait and SignalAndWait. A
// package that keeps such a value in a field sees, from it, a shutdown
// that waits for its goroutines before it stops their receiver.
type Group struct {
	Wait  bool
	Field string
}

func (*Group) AFact() {}

func (f *Group) String() string {
	if f.Wait {
		return "waits for the goroutines counted in " + f.Field
	}
	return "marks a goroutine counted in " + f.Field + " done"
}

// exportGroups exports the Group fact of an exported method.
func (r *Result) exportGroups(pass *analysis.Pass, fn *ssa.Function, obj *types.Func) {
	if !obj.Exported() || fn.Signature.Recv() == nil {
		return
	}
	if op, ok := r.chanIndex().GroupMethod(fn); ok {
		pass.ExportObjectFact(obj.Origin(), &Group{Wait: op.Wait, Field: op.Field})
	}
}

// importedGroups reads the dependencies' Group facts by object.
func importedGroups(pass *analysis.Pass) map[*types.Func]chans.GroupOp {
	out := make(map[*types.Func]chans.GroupOp)
	for _, of := range pass.AllObjectFacts() {
		if f, ok := of.Fact.(*Group); ok && of.Object.Pkg() != pass.Pkg {
			if fn, ok := of.Object.(*types.Func); ok {
				out[fn] = chans.GroupOp{Wait: f.Wait, Field: f.Field}
			}
		}
	}
	return out
}
