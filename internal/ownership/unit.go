package ownership

import (
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/directive"
	"github.com/sendlint/sendlint/internal/flow"
	"github.com/sendlint/sendlint/internal/implementers"
)

// unit is the analysis of one package.
type unit struct {
	pass  *analysis.Pass
	funcs []*ssa.Function // source functions with their literals, then the package initializer
	inPkg map[*ssa.Function]bool

	graph *callgraph.Graph
	// asyncEdge holds the call graph edges that start the callee on a new
	// goroutine: go statements, and calls that hand a closure to a
	// function that starts it.
	asyncEdge map[*callgraph.Edge]bool
	// taken holds the functions used as values whose callers are unknown.
	taken map[*ssa.Function]bool
	byObj map[*types.Func]*ssa.Function
	// impls memoises the package's methods that an interface method call
	// may reach; named, chaWork and cha serve it.
	impls   map[*types.Func][]*ssa.Function
	named   []types.Type
	chaWork int
	cha     *implementers.Finder // over named, made on first use
	ops     []*ssa.Value         // scratch for the operands of one instruction

	marked    map[*ssa.Function]bool
	unmatched []token.Pos

	// holders maps a stored field to the named struct type that declares it.
	holders map[types.Object]*types.Named
	loops   map[*ssa.Function]*flow.Loops
	uses    map[paramKey]paramBits
	// rootsMemo memoises roots.
	rootsMemo map[rootsKey][]root
}

type paramKey struct {
	fn *ssa.Function
	i  int
}

// paramBits is what a function does with one parameter, from the
// caller's point of view.
type paramBits struct {
	sync   bool // sends on it, or calls it, on the caller's goroutine
	async  bool // from a goroutine it starts
	shared bool // stores it where goroutines the caller does not control reach it
	sender bool // the function is marked //sendlint:sender
}

func newPackage(pass *analysis.Pass, input *buildssa.SSA, idx *directive.Index) *unit {
	u := &unit{
		pass:    pass,
		inPkg:   make(map[*ssa.Function]bool),
		holders: make(map[types.Object]*types.Named),
		loops:   make(map[*ssa.Function]*flow.Loops),
		uses:    make(map[paramKey]paramBits),

		rootsMemo: make(map[rootsKey][]root),
	}
	u.funcs = append(u.funcs, input.SrcFuncs...)
	if init := input.Pkg.Func("init"); init != nil {
		u.funcs = append(u.funcs, init)
	}
	for _, fn := range u.funcs {
		u.inPkg[fn] = true
	}
	u.marked, u.unmatched = markSenders(pass, u.funcs, idx)
	u.buildGraph()
	return u
}

// local returns the function of this package that a static call reaches:
// the callee itself, or the generic function it instantiates. It returns
// nil for functions of other packages and for synthetic wrappers.
func (u *unit) local(callee *ssa.Function) *ssa.Function {
	if callee == nil {
		return nil
	}
	if u.inPkg[callee] {
		return callee
	}
	if o := callee.Origin(); o != nil && u.inPkg[o] {
		return o
	}
	return nil
}

// external says what a function of another package does with parameter i,
// from its fact or, for the standard library, from the table. known is
// false when neither says anything.
func (u *unit) external(callee *ssa.Function, i int) (use paramBits, known bool) {
	obj, ok := callee.Object().(*types.Func)
	if !ok {
		return paramBits{}, false
	}
	obj = obj.Origin()
	var fact ParamUse
	if obj.Pkg() != nil && obj.Pkg() != u.pass.Pkg && u.pass.ImportObjectFact(obj, &fact) {
		return fact.bits(i), true
	}
	return stdlibUse(obj, i)
}

// keyOf names the place an address points to, when other functions can
// load from it:
//
//	t1 = &r.send [#1]      field send
//	pkg.hook               package-level variable hook
//	t2 = &t1[i]            an element of the slice or array t1 is loaded from
func (u *unit) keyOf(addr ssa.Value) (Key, bool) {
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		if f := u.field(a.X.Type(), a.Field); f != nil {
			return Key{Obj: f}, true
		}
	case *ssa.Global:
		if v, ok := a.Object().(*types.Var); ok {
			return Key{Obj: v}, true
		}
	case *ssa.IndexAddr:
		return u.elemKey(a.X)
	}
	return Key{}, false
}

// elemKey names the elements of the map, slice, array or channel coll, when
// coll is loaded from (or is the address of) a field or package-level
// variable:
//
//	t1 = &s.clients [#0]; t2 = *t1; t2[id] = stream     elements of field clients
func (u *unit) elemKey(coll ssa.Value) (Key, bool) {
	if load, ok := coll.(*ssa.UnOp); ok && load.Op == token.MUL {
		coll = load.X
	}
	var key Key
	switch c := coll.(type) {
	case *ssa.FieldAddr, *ssa.Global:
		k, ok := u.keyOf(c)
		if !ok {
			return Key{}, false
		}
		key = k
	case *ssa.Field:
		f := u.field(c.X.Type(), c.Field)
		if f == nil {
			return Key{}, false
		}
		key = Key{Obj: f}
	default:
		return Key{}, false
	}
	key.Elem = true
	return key, true
}

// field returns field i of the struct t is or points to, as its generic
// origin, and remembers the named type that declares it.
func (u *unit) field(t types.Type, i int) *types.Var {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	s, ok := t.Underlying().(*types.Struct)
	if !ok || i < 0 || i >= s.NumFields() {
		return nil
	}
	f := s.Field(i).Origin()
	if n, ok := types.Unalias(t).(*types.Named); ok {
		u.holders[f] = n.Origin()
	}
	return f
}

// streamHolder reports whether t, or the type it points to, is a stream
// type: a wrapper that embeds a stream.
func (u *unit) streamHolder(t types.Type) bool {
	return matcher.IsStream(t)
}

// place names a stored place for messages: "commandRouter.send",
// "elements of Server.clients", "hooks".
func (u *unit) place(k Key) string {
	name := k.Obj.Name()
	if n := u.holders[k.Obj]; n != nil {
		name = n.Obj().Name() + "." + name
	}
	if k.Elem {
		return "the elements of " + name
	}
	return name
}

// repeats reports whether instr can run more than once while v keeps its
// value: instr is in a loop that v is not defined in.
func (u *unit) repeats(instr ssa.Instruction, v ssa.Value) bool {
	fn := instr.Parent()
	if fn == nil || instr.Block() == nil {
		return false
	}
	ls := u.loops[fn]
	if ls == nil {
		ls = flow.FindLoops(fn)
		u.loops[fn] = ls
	}
	base := fn.Blocks[0]
	if def, ok := v.(ssa.Instruction); ok && def.Block() != nil && def.Parent() == fn {
		base = def.Block()
	}
	return ls.RepeatsWithout(instr.Block(), base)
}

// inGOROOT reports whether the package's files are in the standard
// library's source tree.
func inGOROOT(pass *analysis.Pass) bool {
	root := build.Default.GOROOT
	if root == "" || len(pass.Files) == 0 {
		return false
	}
	name := pass.Fset.File(pass.Files[0].Pos()).Name()
	src := filepath.Join(root, "src") + string(filepath.Separator)
	return strings.HasPrefix(name, src)
}
