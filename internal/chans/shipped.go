package chans

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Shipped reports whether code a user ships can run fn: fn is not in a
// _test.go file, and some chain of callers leads from it to a function
// whose callers are not all visible here (an exported function or
// method, one used as a value or a method value, an unexported method an
// interface call of this package may dispatch to, a package initializer)
// without passing through a _test.go file. An unexported function whose
// every caller is test code, or that nothing calls, is not shipped: it
// runs only under test.
//
// The answer is the same in a package and in its test variant: in the
// variant, the test functions that call fn are in _test.go files, and a
// chain that ends there does not count.
//
// It errs toward "shipped": where the index cannot see every caller, fn
// counts as called. A named type declared inside a function that embeds a
// type of this package, and so may carry one of its unexported methods
// into an interface, is not looked for.
func (x *Index) Shipped(fn *ssa.Function) bool {
	if s, ok := x.shipped[fn]; ok {
		return s
	}
	seen := map[*ssa.Function]bool{fn: true}
	work := []*ssa.Function{fn}
	s := false
	for len(work) > 0 && !s {
		g := work[len(work)-1]
		work = work[:len(work)-1]
		if inTestFile(g) {
			continue
		}
		sites, ok := x.visibleCallers(g)
		if !ok {
			s = true
			break
		}
		for _, c := range sites {
			if p := c.Parent(); !seen[p] {
				seen[p] = true
				work = append(work, p)
			}
		}
	}
	x.shipped[fn] = s
	return s
}

// TestOnly reports whether only tests run fn: code a user ships cannot
// run it (Shipped), and some chain of its callers starts in a _test.go
// file. A helper in a shipped file that only the package's tests call
// (a fixture builder, a "for testing" sender) is test code; an
// unexported function nothing calls is dead, not test code, and is
// reported like any other.
func (x *Index) TestOnly(fn *ssa.Function) bool {
	if inTestFile(fn) || x.Shipped(fn) {
		return false
	}
	seen := map[*ssa.Function]bool{fn: true}
	work := []*ssa.Function{fn}
	for len(work) > 0 {
		g := work[len(work)-1]
		work = work[:len(work)-1]
		if inTestFile(g) || x.testInits[g] {
			return true
		}
		sites, _ := x.visibleCallers(g) // all in sight: g is not shipped
		for _, c := range sites {
			if p := c.Parent(); !seen[p] {
				seen[p] = true
				work = append(work, p)
			}
		}
	}
	return false
}

// visibleCallers returns the call sites of fn when they are all in sight:
// callers' answer, except that an unexported method whose name an
// interface call of this package uses still qualifies when no interface
// called by that name can dispatch to it (dispatchable). A function an
// initializer of a package-level variable refers to from a function
// literal the index does not hold is not in sight.
func (x *Index) visibleCallers(fn *ssa.Function) ([]ssa.CallInstruction, bool) {
	if x.initRefs()[fn] {
		return nil, false
	}
	obj := fn.Object()
	if fn.Parent() != nil || obj == nil || fn.Signature.Recv() == nil || !x.invokedAs(fn) {
		return x.callers(fn)
	}
	if fn.Pkg != x.pkg || obj.Exported() || x.escaped[fn] || x.bound[obj] || isGenericRecv(fn) ||
		fn.TypeParams().Len() > 0 || x.dispatchable(fn) {
		return nil, false
	}
	return x.calls[fn], true
}

// dispatchable reports whether an interface call of this package may run
// the method fn: some type declared at the package level whose method set
// (as T or *T) holds fn, as its own method or promoted from an embedded
// field, implements an interface the package invokes fn's name on. A call
// on a type parameter, or a receiver type this index cannot enumerate the
// embedders of (an exported one, which other packages may embed, or one
// declared in a function), may run it.
func (x *Index) dispatchable(fn *ssa.Function) bool {
	obj := fn.Object()
	recv := derefNamed(fn.Signature.Recv().Type())
	if recv == nil || recv.Obj().Exported() || recv.Obj().Parent() != x.pkg.Pkg.Scope() {
		return true
	}
	ifaces := x.ifaces[obj.Name()]
	scope := x.pkg.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		t, ok := tn.Type().(*types.Named)
		if !ok || types.IsInterface(t) {
			continue
		}
		sel := types.NewMethodSet(types.NewPointer(t)).Lookup(x.pkg.Pkg, obj.Name())
		if sel == nil || sel.Obj() != obj {
			continue
		}
		for _, iface := range ifaces {
			if iface == nil || t.TypeParams().Len() > 0 ||
				types.Implements(t, iface) || types.Implements(types.NewPointer(t), iface) {
				return true
			}
		}
	}
	return false
}

func derefNamed(t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// initRefs returns the functions of this package referred to from the
// function literals of the package initializer (var f = func() { ... }),
// which the index does not hold: their calls are not among the call sites
// it knows.
//
// It also notes, in testInits, the functions a literal of a test file's
// variable refers to: those run only under test.
func (x *Index) initRefs() map[*ssa.Function]bool {
	if x.inits != nil {
		return x.inits
	}
	x.inits = make(map[*ssa.Function]bool)
	x.testInits = make(map[*ssa.Function]bool)
	init := x.pkg.Func("init")
	if init == nil {
		return x.inits
	}
	var ops []*ssa.Value
	work := append([]*ssa.Function(nil), init.AnonFuncs...)
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		work = append(work, fn.AnonFuncs...)
		inTest := inTestFile(fn)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				ops = instr.Operands(ops[:0])
				for _, op := range ops {
					if g, ok := (*op).(*ssa.Function); ok && g.Pkg == x.pkg {
						// A literal of a test file's variable (a test
						// suite declared as var _ = Describe(...)) runs
						// only under test.
						x.inits[g] = x.inits[g] || !inTest
						if inTest {
							x.testInits[g] = true
						}
					}
				}
			}
		}
	}
	return x.inits
}

// inTestFile reports whether fn is declared in a _test.go file (a closure
// is in the file of the function it is written in).
func inTestFile(fn *ssa.Function) bool {
	return fn.Synthetic == "" && fn.Pos().IsValid() &&
		strings.HasSuffix(fn.Prog.Fset.Position(fn.Pos()).Filename, "_test.go")
}
