// Package chans answers the questions baresend and lockedsend ask about a
// channel: where a value comes from (made here, a struct field, a
// parameter...), who else sends, receives and closes it, whether a local
// buffer provably has room for every send, and which select cases are
// liveness cases. All answers are per package: callers outside the package
// are unknown and treated as such.
package chans

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// Index holds the per-package facts the questions need. Build it once per
// pass with NewIndex; every answer is memoised.
type Index struct {
	pkg *ssa.Package

	closures   map[*ssa.Function][]*ssa.MakeClosure // anonymous function -> its closure sites
	calls      map[*ssa.Function][]ssa.CallInstruction
	escaped    map[*ssa.Function]bool // used other than as a callee: callers unknown
	fieldVals  map[*types.Var][]ssa.Value
	globalVals map[*ssa.Global][]ssa.Value
	recvChans  []ssa.Value   // channel operands of every receive in the package
	sends      []*ssa.Send   // every plain send in the package
	sendSels   []*ssa.Select // every select with a send case

	uses       map[*ssa.MakeChan]*Uses
	loops      map[*ssa.Function]*flow.Loops
	recvFields map[*types.Var]bool
	oneShot    map[*types.Var]bool
}

// NewIndex indexes funcs, the source functions of one package.
func NewIndex(pkg *ssa.Package, funcs []*ssa.Function) *Index {
	x := &Index{
		pkg:        pkg,
		closures:   make(map[*ssa.Function][]*ssa.MakeClosure),
		calls:      make(map[*ssa.Function][]ssa.CallInstruction),
		escaped:    make(map[*ssa.Function]bool),
		fieldVals:  make(map[*types.Var][]ssa.Value),
		globalVals: make(map[*ssa.Global][]ssa.Value),
		uses:       make(map[*ssa.MakeChan]*Uses),
		loops:      make(map[*ssa.Function]*flow.Loops),
	}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				x.add(instr)
			}
		}
	}
	return x
}

func (x *Index) add(instr ssa.Instruction) {
	switch instr := instr.(type) {
	case *ssa.MakeClosure:
		x.closures[instr.Fn.(*ssa.Function)] = append(x.closures[instr.Fn.(*ssa.Function)], instr)
	case *ssa.Store:
		switch addr := instr.Addr.(type) {
		case *ssa.FieldAddr:
			if f := FieldOf(addr.X.Type(), addr.Field, true); f != nil {
				x.fieldVals[f] = append(x.fieldVals[f], instr.Val)
			}
		case *ssa.Global:
			x.globalVals[addr] = append(x.globalVals[addr], instr.Val)
		}
	case *ssa.UnOp:
		if instr.Op == arrow {
			x.recvChans = append(x.recvChans, instr.X)
		}
	case *ssa.Send:
		x.sends = append(x.sends, instr)
	case *ssa.Select:
		sends := false
		for _, st := range instr.States {
			if st.Dir == types.RecvOnly {
				x.recvChans = append(x.recvChans, st.Chan)
			} else {
				sends = true
			}
		}
		if sends {
			x.sendSels = append(x.sendSels, instr)
		}
	}
	x.addFuncRefs(instr)
}

// addFuncRefs records how instr uses the package's functions: as the callee
// of a call (a known call site) or as a value (its callers become unknown).
func (x *Index) addFuncRefs(instr ssa.Instruction) {
	var callee ssa.Value
	if call, ok := instr.(ssa.CallInstruction); ok && !call.Common().IsInvoke() {
		callee = call.Common().Value
		if fn, ok := callee.(*ssa.Function); ok && fn.Pkg == x.pkg {
			x.calls[fn] = append(x.calls[fn], call)
		}
	}
	if _, ok := instr.(*ssa.MakeClosure); ok {
		return // the closure's own uses decide; see callers
	}
	var buf [8]*ssa.Value
	for _, op := range instr.Operands(buf[:0]) {
		if fn, ok := (*op).(*ssa.Function); ok && *op != callee && fn.Pkg == x.pkg {
			x.escaped[fn] = true
		}
	}
}

// Loops returns the memoised loops of fn.
func (x *Index) Loops(fn *ssa.Function) *flow.Loops {
	l, ok := x.loops[fn]
	if !ok {
		l = flow.FindLoops(fn)
		x.loops[fn] = l
	}
	return l
}

// callers returns the call sites of fn when they are all visible: fn is an
// unexported, non-generic function or a closure of this package whose value
// never escapes into a variable, a field or another call. Methods are left
// out: a method value or an interface can call them from anywhere.
func (x *Index) callers(fn *ssa.Function) ([]ssa.CallInstruction, bool) {
	if fn.Pkg != x.pkg || x.escaped[fn] || fn.Signature.Recv() != nil || fn.TypeParams().Len() > 0 {
		return nil, false
	}
	if fn.Parent() == nil {
		if obj := fn.Object(); obj == nil || obj.Exported() {
			return nil, false
		}
		return x.calls[fn], true
	}
	var sites []ssa.CallInstruction
	for _, mc := range x.closures[fn] {
		for _, ref := range *mc.Referrers() {
			if _, dbg := ref.(*ssa.DebugRef); dbg {
				continue
			}
			call, ok := ref.(ssa.CallInstruction)
			if !ok || call.Common().Value != mc {
				return nil, false
			}
			sites = append(sites, call)
		}
	}
	return append(sites, x.calls[fn]...), true
}

// FieldOf returns the field at index i of the struct that t (or, when
// pointer is set, the type t points to) denotes.
func FieldOf(t types.Type, i int, pointer bool) *types.Var {
	if pointer {
		p, ok := t.Underlying().(*types.Pointer)
		if !ok {
			return nil
		}
		t = p.Elem()
	}
	s, ok := t.Underlying().(*types.Struct)
	if !ok || i >= s.NumFields() {
		return nil
	}
	return s.Field(i)
}

// FieldMakes returns the channels made in this package and stored into
// field f, the make sites a message can point at.
func (x *Index) FieldMakes(f *types.Var) []*ssa.MakeChan { return x.makesOf(x.fieldVals[f]) }

// GlobalMakes returns the channels made in this package and stored into g.
func (x *Index) GlobalMakes(g *ssa.Global) []*ssa.MakeChan { return x.makesOf(x.globalVals[g]) }

func (x *Index) makesOf(vals []ssa.Value) []*ssa.MakeChan {
	var out []*ssa.MakeChan
	for _, v := range vals {
		for _, o := range x.Origins(v) {
			if o.Kind == Made && !slices.Contains(out, o.Make) {
				out = append(out, o.Make)
			}
		}
	}
	return out
}

// Received reports whether code of this package receives from a channel
// loaded from field f.
func (x *Index) Received(f *types.Var) bool {
	if x.recvFields == nil {
		x.recvFields = make(map[*types.Var]bool)
		for _, ch := range x.recvChans {
			for _, o := range x.Origins(ch) {
				if o.Kind == Field {
					x.recvFields[o.Field] = true
				}
			}
		}
	}
	return x.recvFields[f]
}
