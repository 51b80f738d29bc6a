package streams_test

import (
	"fmt"
	"go/types"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/buildssa"

	"github.com/sendlint/sendlint/internal/streams"
)

// carrierFact is what a summary analyzer might export: the places an
// object offers that may hold a stream send. It has no maps and no
// interfaces, so its encoding is deterministic.
type carrierFact struct {
	Places []factPlace
}

type factPlace struct {
	Kind   streams.PlaceKind
	Index  int
	Method string // Origin.Name
	Expr   string // Origin.Expr
}

func (*carrierFact) AFact() {}

func (f *carrierFact) String() string {
	var parts []string
	for _, p := range f.Places {
		s := "carrier " + p.Kind.String()
		if p.Kind == streams.Param || p.Kind == streams.Result {
			s += fmt.Sprintf(" %d", p.Index)
		}
		parts = append(parts, s+" <- "+p.Expr)
	}
	return strings.Join(parts, "; ")
}

// summarizer seeds each package's Flow with its dependencies' facts,
// reports the sends it finds, and exports its own carriers.
func summarizer(m *streams.Matcher) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:      "streamcarriers",
		Doc:       "export stream carriers as facts and report sends through them",
		Requires:  []*analysis.Analyzer{buildssa.Analyzer},
		FactTypes: []analysis.Fact{new(carrierFact)},
		Run: func(pass *analysis.Pass) (any, error) {
			in := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
			flow := m.Flow(pass.Pkg, in.SrcFuncs, importCarriers(pass))
			reportSends(pass, flow, in.SrcFuncs)
			exportCarriers(pass, flow.Carriers())
			return nil, nil
		},
	}
}

// importCarriers turns the facts of dependencies into seeds, in a stable
// order.
func importCarriers(pass *analysis.Pass) []streams.Carrier {
	var seeds []streams.Carrier
	for _, of := range pass.AllObjectFacts() {
		f, ok := of.Fact.(*carrierFact)
		if !ok || of.Object.Pkg() == pass.Pkg {
			continue
		}
		for _, p := range f.Places {
			seeds = append(seeds, streams.Carrier{
				Place:  streams.Place{Kind: p.Kind, Obj: of.Object, Index: p.Index},
				Origin: streams.Origin{Name: p.Method, Expr: p.Expr},
			})
		}
	}
	sort.SliceStable(seeds, func(i, j int) bool {
		a, b := seeds[i].Place, seeds[j].Place
		if a.Obj.Pkg().Path() != b.Obj.Pkg().Path() {
			return a.Obj.Pkg().Path() < b.Obj.Pkg().Path()
		}
		pa, pb := pass.Fset.Position(a.Obj.Pos()), pass.Fset.Position(b.Obj.Pos())
		if pa.Filename != pb.Filename {
			return pa.Filename < pb.Filename
		}
		if pa.Offset != pb.Offset {
			return pa.Offset < pb.Offset
		}
		return a.Kind < b.Kind || a.Kind == b.Kind && a.Index < b.Index
	})
	return seeds
}

// exportCarriers groups carriers by object, in Carriers' order.
func exportCarriers(pass *analysis.Pass, carriers []streams.Carrier) {
	facts := make(map[types.Object]*carrierFact)
	var order []types.Object
	for _, c := range carriers {
		f := facts[c.Place.Obj]
		if f == nil {
			f = new(carrierFact)
			facts[c.Place.Obj] = f
			order = append(order, c.Place.Obj)
		}
		f.Places = append(f.Places, factPlace{
			Kind: c.Place.Kind, Index: c.Place.Index, Method: c.Origin.Name, Expr: c.Origin.Expr,
		})
	}
	for _, obj := range order {
		pass.ExportObjectFact(obj, facts[obj])
	}
}

// TestCrossPackage runs the summarizer over lib and crosspkg: lib exports
// its carrier field, result, parameter and variable, and crosspkg finds the
// sends made through them. analysistest round-trips the facts through their
// encoding on the way.
func TestCrossPackage(t *testing.T) {
	analysistest.Run(t, testdata(t), summarizer(defaultMatcher(t)), "streams/lib", "streams/crosspkg")
}
