package summary

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
)

// RunsUntilDone is the fact that a function is a runner for some of its
// func parameters: it never calls one again once the context it passed it
// is done (chans.Index.RunsUntilDone). A package that hands a service's
// loop to the runner knows, from it, that the loop's return on that
// context is final. Params are the parameters' indices, receiver first.
type RunsUntilDone struct {
	Params []int
}

func (*RunsUntilDone) AFact() {}

func (f *RunsUntilDone) String() string {
	return fmt.Sprintf("runs parameters %v until their context is done", f.Params)
}

// exportRunners exports the RunsUntilDone fact of an exported function
// that takes a func value with a context.Context parameter and runs it
// until that context is done.
func (r *Result) exportRunners(pass *analysis.Pass, fn *ssa.Function, obj *types.Func) {
	if !obj.Exported() {
		return
	}
	var params []int
	for i, p := range fn.Params {
		if _, ok := p.Type().Underlying().(*types.Signature); ok && r.chanIndex().RunsUntilDone(fn, i) {
			params = append(params, i)
		}
	}
	if len(params) > 0 {
		pass.ExportObjectFact(obj.Origin(), &RunsUntilDone{Params: params})
	}
}

// importedParams reads the dependencies' RunsUntilDone and InPlace facts
// by object, in one pass over their facts.
func importedParams(pass *analysis.Pass) (runners, inPlace map[*types.Func][]int) {
	runners, inPlace = make(map[*types.Func][]int), make(map[*types.Func][]int)
	for _, of := range pass.AllObjectFacts() {
		fn, ok := of.Object.(*types.Func)
		if !ok || of.Object.Pkg() == pass.Pkg {
			continue
		}
		switch f := of.Fact.(type) {
		case *RunsUntilDone:
			runners[fn] = f.Params
		case *InPlace:
			inPlace[fn] = f.Params
		}
	}
	return runners, inPlace
}

// InPlace is the fact that a function calls some of its func parameters
// only in place (chans.CallsInPlace): on its caller's goroutine, before it
// returns, keeping them nowhere. A function literal handed to it runs
// during the call, on the goroutine that makes it. Params are the
// parameters' indices, receiver first.
type InPlace struct {
	Params []int
}

func (*InPlace) AFact() {}

func (f *InPlace) String() string {
	return fmt.Sprintf("calls parameters %v in place", f.Params)
}

// exportInPlace exports the InPlace fact of an exported function.
func exportInPlace(pass *analysis.Pass, fn *ssa.Function, obj *types.Func) {
	if !obj.Exported() {
		return
	}
	var params []int
	for i := range fn.Params {
		if chans.CallsInPlace(fn, i) {
			params = append(params, i)
		}
	}
	if len(params) > 0 {
		pass.ExportObjectFact(obj.Origin(), &InPlace{Params: params})
	}
}
