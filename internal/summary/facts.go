package summary

import (
	"fmt"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/sendlint/sendlint/internal/streams"
)

// Blocks is the fact that a function may block its caller on a send: it
// sends on a channel that can block, calls a stream send, or calls a
// function that may. It is exported on the function's generic origin, for
// the functions and methods of the package being analysed, and only when
// the function may block: no fact means it does not, as far as the
// summary can see.
//
// It holds strings and a slice only, so its encoding is deterministic.
type Blocks struct {
	Kind OpKind
	// Op describes the blocking operation at the end of the chain, as the
	// package that holds it writes it: "send on s.events", "stream send
	// through r.send, which holds stream.Send taken at handler.go:27".
	Op string
	// Chain names the functions the call goes through after this one,
	// outermost first, down to the one that holds Op; empty when this
	// function holds Op itself. Long chains are cut at maxChain.
	Chain []string
	// Param, when not 0, says that Op sends on the channel the function
	// takes as parameter Param-1, receiver first: a caller passing nil
	// there does not block through it.
	Param int
	// OpPkg is the path of the package that holds Op.
	OpPkg string
}

func (*Blocks) AFact() {}

func (b *Blocks) String() string {
	s := "blocks: " + b.Op
	if len(b.Chain) > 0 {
		s = "blocks: " + strings.Join(b.Chain, " → ") + " → " + b.Op
	}
	if b.Param > 0 {
		s += fmt.Sprintf(" unless parameter %d is nil", b.Param-1)
	}
	return s
}

// Carries is the fact that places of an object may hold a stream send: a
// field or package-level variable, or parameters and results of a
// function. A dependent package seeds its stream flow with them, so that a
// Send stored into a field in one package is seen when it is called in
// another.
type Carries struct {
	Places []CarriedPlace
}

// CarriedPlace is one place of a Carries fact.
type CarriedPlace struct {
	Kind   streams.PlaceKind
	Index  int    // the parameter or result, for Param and Result
	Method string // the stream method, as streams.Origin.Name
	Expr   string // the method value as written where it was taken
}

func (*Carries) AFact() {}

func (c *Carries) String() string {
	parts := make([]string, 0, len(c.Places))
	for _, p := range c.Places {
		s := "carries " + p.Kind.String()
		if p.Kind == streams.Param || p.Kind == streams.Result {
			s += fmt.Sprintf(" %d", p.Index)
		}
		parts = append(parts, s+" <- "+p.Expr)
	}
	return strings.Join(parts, "; ")
}

// importedFacts reads the dependencies' facts: the Blocks facts by object,
// and the Carries facts as seeds for the stream flow, in a stable order.
func importedFacts(pass *analysis.Pass) (map[*types.Func]*Blocks, []streams.Carrier) {
	blocks := make(map[*types.Func]*Blocks)
	var seeds []streams.Carrier
	for _, of := range pass.AllObjectFacts() {
		if of.Object.Pkg() == pass.Pkg {
			continue
		}
		switch f := of.Fact.(type) {
		case *Blocks:
			if fn, ok := of.Object.(*types.Func); ok {
				blocks[fn] = f
			}
		case *Carries:
			for _, p := range f.Places {
				seeds = append(seeds, streams.Carrier{
					Place:  streams.Place{Kind: p.Kind, Obj: of.Object, Index: p.Index},
					Origin: streams.Origin{Name: p.Method, Expr: p.Expr},
				})
			}
		}
	}
	sort.SliceStable(seeds, func(i, j int) bool {
		a, b := seeds[i].Place, seeds[j].Place
		if pa, pb := a.Obj.Pkg().Path(), b.Obj.Pkg().Path(); pa != pb {
			return pa < pb
		}
		pa, pb := pass.Fset.Position(a.Obj.Pos()), pass.Fset.Position(b.Obj.Pos())
		if pa.Filename != pb.Filename {
			return pa.Filename < pb.Filename
		}
		if pa.Offset != pb.Offset {
			return pa.Offset < pb.Offset
		}
		if a.Obj.Name() != b.Obj.Name() {
			return a.Obj.Name() < b.Obj.Name()
		}
		return a.Kind < b.Kind || a.Kind == b.Kind && a.Index < b.Index
	})
	return blocks, seeds
}

// exportCarriers groups the package's carriers by object, in the order
// Flow.Carriers gives them, and exports one fact per object.
func exportCarriers(pass *analysis.Pass, carriers []streams.Carrier) {
	facts := make(map[types.Object]*Carries)
	var order []types.Object
	for _, c := range carriers {
		f := facts[c.Place.Obj]
		if f == nil {
			f = new(Carries)
			facts[c.Place.Obj] = f
			order = append(order, c.Place.Obj)
		}
		f.Places = append(f.Places, CarriedPlace{
			Kind: c.Place.Kind, Index: c.Place.Index, Method: c.Origin.Name, Expr: c.Origin.Expr,
		})
	}
	for _, obj := range order {
		pass.ExportObjectFact(obj, facts[obj])
	}
}

// importedLocks reads the dependencies' Acquires facts by object.
func importedLocks(pass *analysis.Pass) map[*types.Func]*Acquires {
	out := make(map[*types.Func]*Acquires)
	for _, of := range pass.AllObjectFacts() {
		if f, ok := of.Fact.(*Acquires); ok && of.Object.Pkg() != pass.Pkg {
			if fn, ok := of.Object.(*types.Func); ok {
				out[fn] = f
			}
		}
	}
	return out
}
