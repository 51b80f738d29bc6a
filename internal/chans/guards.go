package chans

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// A Guard is a test of a field that an instruction runs only after it
// passes: a shutdown flag (if s.closed { return }) or a state compared
// with constants (if st := pc.getState(); st == closed || st == closing
// { return }). The field's value at the test is one the test lets
// through; a write of a value it stops (closed = true, state = closed)
// is what the code that stops the receiver does first, when it is
// written that way.
type Guard struct {
	Field *types.Var
	// Tests are the branches that make the guard, outermost first: a
	// state compared with two constants is two tests.
	Tests []*ssa.If
	// The values the tests stop. For a bool, the one not let through;
	// for a state, the constants it may not equal, or, when the
	// instruction runs only while the state equals one constant (only),
	// every other value.
	stopped []constant.Value
	only    constant.Value
	names   []string // the constants' names, for messages
	// Across is what is known of the locks held from the tests to the
	// instruction they guard, and Outside is set when a lock held at a
	// test is released before it (see HeldAcross).
	Across  Held
	Outside bool
}

// Stops reports whether writing v into the field makes the guard fail.
func (g Guard) Stops(v constant.Value) bool {
	if g.only != nil {
		return !constant.Compare(v, token.EQL, g.only)
	}
	for _, s := range g.stopped {
		if constant.Compare(v, token.EQL, s) {
			return true
		}
	}
	return false
}

// IsFlag reports whether the guarded field is a bool.
func (g Guard) IsFlag() bool {
	b, ok := g.Field.Type().Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// Describe says what the guard lets through: "closed is false", "state is
// not consumerClosed or consumerClosing", "state is consumerReady".
func (g Guard) Describe() string {
	name := g.Field.Name()
	switch {
	case g.IsFlag() && len(g.stopped) == 1:
		return name + " is " + negate(g.stopped[0])
	case g.only != nil:
		return name + " is " + g.names[0]
	}
	return name + " is not " + strings.Join(g.names, " or ")
}

func negate(v constant.Value) string {
	if constant.BoolVal(v) {
		return "false"
	}
	return "true"
}

// Guards returns the guards of instr: the tests of a field, in the blocks
// that dominate instr's, on whose one branch instr lies. Tests of one
// field merge into one guard. Across is left for HeldAcross to fill.
//
//	t3 = (*partitionConsumer).getConsumerState(pc)   // consumerState(pc.state.Load())
//	t4 = t3 == 3:consumerState
//	if t4 goto 2 else 3                              // 3 leads to instr
func (x *Index) Guards(instr ssa.Instruction) []Guard {
	b := instr.Block()
	var out []Guard
	for d := b.Idom(); d != nil; d = d.Idom() {
		f, stopped, only, name, cond, ok := x.test(d, b)
		if !ok {
			continue
		}
		i := 0
		for i < len(out) && out[i].Field != f {
			i++
		}
		if i == len(out) {
			out = append(out, Guard{Field: f})
		}
		g := &out[i]
		// Dominators are walked inward out: keep the outermost test first.
		g.Tests = append([]*ssa.If{cond}, g.Tests...)
		switch {
		case only != nil && g.only == nil && len(g.stopped) == 0:
			g.only, g.names = only, []string{name}
		case stopped != nil && g.only == nil:
			g.stopped = append([]constant.Value{stopped}, g.stopped...)
			g.names = append([]string{name}, g.names...)
		}
	}
	return out
}

// test reads the test that ends d, when b is reached only through one of
// its branches and the test reads a field: a bool field, or a field
// compared with a constant. It returns the value the branch to b stops
// (stopped), or the one value it lets through (only), with its name.
func (x *Index) test(d, b *ssa.BasicBlock) (f *types.Var, stopped, only constant.Value, name string, cond *ssa.If, ok bool) {
	if cond, ok = branch(d); !ok {
		return nil, nil, nil, "", nil, false
	}
	v, positive := cond.Cond, true
	for {
		not, isNot := v.(*ssa.UnOp)
		if !isNot || not.Op != token.NOT {
			break
		}
		v, positive = not.X, !positive
	}
	var onTrue bool // b lies on the branch where v is true
	switch {
	case flow.EdgeDominates(d, d.Succs[0], b):
		onTrue = positive
	case flow.EdgeDominates(d, d.Succs[1], b):
		onTrue = !positive
	default:
		return nil, nil, nil, "", nil, false
	}
	if f := x.stateRead(v, 0); f != nil && isBool(f.Type()) {
		return f, constant.MakeBool(!onTrue), nil, "", cond, true
	}
	cmp, isCmp := v.(*ssa.BinOp)
	if !isCmp || cmp.Op != token.EQL && cmp.Op != token.NEQ {
		return nil, nil, nil, "", nil, false
	}
	read, k := cmp.X, cmp.Y
	if _, isConst := read.(*ssa.Const); isConst {
		read, k = k, read
	}
	c, isConst := k.(*ssa.Const)
	if !isConst || c.Value == nil {
		return nil, nil, nil, "", nil, false
	}
	if f = x.stateRead(read, 0); f == nil {
		return nil, nil, nil, "", nil, false
	}
	equal := onTrue == (cmp.Op == token.EQL) // b runs only while f == c
	name = x.constName(cmp, c)
	if equal {
		return f, nil, c.Value, name, cond, true
	}
	return f, c.Value, nil, name, cond, true
}

// branch returns the If that ends d when d branches two ways.
func branch(d *ssa.BasicBlock) (*ssa.If, bool) {
	if len(d.Instrs) == 0 || len(d.Succs) != 2 || d.Succs[0] == d.Succs[1] {
		return nil, false
	}
	cond, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
	return cond, ok
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// constName names the constant c that cmp compares with as the source
// spells it (consumerClosed), when the index has the package's syntax
// (SetSyntax), or else by the package-level constant of its type that
// has its value, or by its value.
func (x *Index) constName(cmp *ssa.BinOp, c *ssa.Const) string {
	if name, ok := x.constNames()[cmp.Pos()]; ok {
		return name
	}
	if n, ok := types.Unalias(c.Type()).(*types.Named); ok && n.Obj().Pkg() != nil {
		scope := n.Obj().Pkg().Scope()
		for _, nm := range scope.Names() {
			k, ok := scope.Lookup(nm).(*types.Const)
			if ok && types.Identical(k.Type(), c.Type()) && constant.Compare(k.Val(), token.EQL, c.Value) {
				return nm
			}
		}
	}
	return c.Value.ExactString()
}

// SetSyntax gives the index the package's files and type information,
// from which messages name what the IR keeps only as values.
func (x *Index) SetSyntax(files []*ast.File, info *types.Info) {
	x.files, x.info = files, info
}

// constNames maps the operator of each comparison with a named constant
// to that constant's name: state == consumerClosed.
func (x *Index) constNames() map[token.Pos]string {
	if x.cmpNames != nil || x.info == nil {
		return x.cmpNames
	}
	x.cmpNames = make(map[token.Pos]string)
	for _, f := range x.files {
		ast.Inspect(f, func(n ast.Node) bool {
			be, ok := n.(*ast.BinaryExpr)
			if !ok || be.Op != token.EQL && be.Op != token.NEQ {
				return true
			}
			for _, e := range []ast.Expr{be.Y, be.X} {
				if name := x.namedConst(e); name != "" {
					x.cmpNames[be.OpPos] = name
					break
				}
			}
			return true
		})
	}
	return x.cmpNames
}

// namedConst returns the name of the constant e names, or "".
func (x *Index) namedConst(e ast.Expr) string {
	var id *ast.Ident
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel
	}
	if id == nil {
		return ""
	}
	if _, ok := x.info.Uses[id].(*types.Const); ok {
		return id.Name
	}
	return ""
}

// stateRead returns the field v reads: a load of it, an atomic Load of
// it, a conversion of either, or the result of a getter of this package
// that returns one (func (pc *T) state() S { return S(pc.st.Load()) }).
//
//	t1 = &pc.state [#40]
//	t2 = (*sync/atomic.Int32).Load(t1)
//	t3 = changetype consumerState <- int32 (t2)
func (x *Index) stateRead(v ssa.Value, depth int) *types.Var {
	if depth > 4 {
		return nil
	}
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return nil
		}
		if addr, ok := v.X.(*ssa.FieldAddr); ok {
			return FieldOf(addr.X.Type(), addr.Field, true)
		}
	case *ssa.ChangeType:
		return x.stateRead(v.X, depth+1)
	case *ssa.Convert:
		return x.stateRead(v.X, depth+1)
	case *ssa.Call:
		if f := atomicField(v.Common(), "Load"); f != nil {
			return f
		}
		callee := v.Call.StaticCallee()
		if callee == nil || callee.Pkg != x.pkg || len(callee.Blocks) == 0 {
			return nil
		}
		var f *types.Var
		for _, b := range callee.Blocks {
			ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
			if !ok {
				continue
			}
			if len(ret.Results) != 1 {
				return nil
			}
			g := x.stateRead(ret.Results[0], depth+1)
			if g == nil || f != nil && g != f {
				return nil
			}
			f = g
		}
		return f
	}
	return nil
}

// atomicPkgs are the packages whose types' methods Load, Store, Swap and
// CompareAndSwap read and write the value they hold atomically:
// sync/atomic, and go.uber.org/atomic, which wraps it.
var atomicPkgs = []string{"sync/atomic", "go.uber.org/atomic"}

// atomicOp returns the operation of an atomic call (Add, Sub, Inc, Dec,
// Load, Store, Swap, CompareAndSwap, ...) and the field address it acts on,
// for the methods of atomicPkgs' types and the functions of sync/atomic.
func atomicOp(cc *ssa.CallCommon) (string, *ssa.FieldAddr) {
	callee := cc.StaticCallee()
	if callee == nil || len(cc.Args) == 0 {
		return "", nil
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || !slices.Contains(atomicPkgs, obj.Pkg().Path()) {
		return "", nil
	}
	fa, ok := cc.Args[0].(*ssa.FieldAddr)
	if !ok {
		return "", nil
	}
	for _, op := range []string{"CompareAndSwap", "Add", "Sub", "Inc", "Dec", "Load", "Store", "Swap"} {
		if strings.HasPrefix(obj.Name(), op) {
			return op, fa
		}
	}
	return obj.Name(), fa
}

// atomicField returns the field an atomic method call acts on, when the
// call is method (or, for Store, Swap or CompareAndSwap) of an atomic
// type (atomicPkgs) on a field's address: pc.state.Load(). The functions
// of the older API (atomic.LoadInt32(&pc.state)) count too.
func atomicField(cc *ssa.CallCommon, method string) *types.Var {
	op, fa := atomicOp(cc)
	if fa == nil || op != method && (method != "Store" || op != "Swap" && op != "CompareAndSwap") {
		return nil
	}
	return FieldOf(fa.X.Type(), fa.Field, true)
}
