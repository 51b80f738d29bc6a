// Package summary owns sendlint's cross-package knowledge of which
// functions may block on a send, and which values carry a stream's Send.
//
// Its Analyzer reports nothing. For every package outside the standard
// library it builds SSA, works out for each function whether a call to it
// may block (it sends on a channel that can block, calls a stream send
// directly or through a func value that holds one, calls a configured
// blocking function, or calls a function that may), and exports that as a
// Blocks fact naming the chain, so that a caller in another package sees
// it. It also exports the package's stream carriers (internal/streams) as
// Carries facts, so that a Send stored in one package is recognised when
// it is called in another, and a Logs fact for each function that logs,
// counts or exits (internal/logging), so that a wrapper around a logger
// in one package is a logger in the next. The passes read its Result.
//
// Recursion is memoised over static callees, with a guard for cycles.
// Calls through interfaces and func values that hold no stream send are
// taken not to block: logging (slog.Handler), metrics and callbacks would
// otherwise make every call under a lock a finding, and the summary cannot
// know the callee. A func variable assigned once, from a function literal,
// and only ever called is that literal (chans.Index.Callee). The standard
// library is summarised by a table (std.go).
//
// # Cost
//
// The Analyzer does not require buildssa. go vet runs fact-producing
// analyzers, and everything they require, on every dependency of the
// packages it checks; a Requires on buildssa would build SSA for the whole
// standard library on every run. Instead the Result builds SSA lazily: at
// once for packages outside GOROOT, whose facts need it, and for a
// standard-library package only when a pass asks for it, which happens
// only when that package is itself being checked (sendlint std). The
// passes take their SSA from Result.SSA, so a package that several passes
// check is built once.
package summary

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
	"github.com/sendlint/sendlint/internal/flow"
	"github.com/sendlint/sendlint/internal/implementers"
	"github.com/sendlint/sendlint/internal/locks"
	"github.com/sendlint/sendlint/internal/streams"
)

// Analyzer computes the summaries and exports them as facts.
var Analyzer = &analysis.Analyzer{
	Name:       "sendsummary",
	Doc:        "summarise which functions may block on a send, for the passes that report sends",
	URL:        "https://pkg.go.dev/github.com/sendlint/sendlint/internal/summary",
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(Blocks), new(Carries), new(Acquires), new(RunsUntilDone), new(InPlace), new(Group), new(StopMethod), new(Logs)},
	Run:        run,
}

// Result answers, for one package, whether an instruction or a function may
// block on a send. It is safe for concurrent use by the passes that share
// it.
type Result struct {
	fset     *token.FileSet
	pkg      *types.Package
	files    []*ast.File
	info     *types.Info
	cfg      *config
	module   string // the module being analysed, "" outside module mode
	imported map[*types.Func]*Blocks
	seeds    []streams.Carrier
	// importedLocks holds the dependencies' Acquires facts.
	importedLocks map[*types.Func]*Acquires
	// importedRunners holds the dependencies' RunsUntilDone facts.
	importedRunners map[*types.Func][]int
	// importedInPlace holds the dependencies' InPlace facts.
	importedInPlace map[*types.Func][]int
	// importedGroups holds the dependencies' Group facts.
	importedGroups map[*types.Func]chans.GroupOp
	// importedStops holds the dependencies' StopMethod facts.
	importedStops map[*types.Func]string
	// importedLogs holds the dependencies' Logs facts.
	importedLogs map[*types.Func]bool

	mu   sync.Mutex // guards everything below
	ssa  *buildssa.SSA
	flow *streams.Flow
	idx  *chans.Index
	src  *sourceIndex
	memo *memo
	// logs memoises logsIn.
	logs map[*ssa.Function]bool
	// locked memoises Acquires; a function being scanned maps to nil.
	locked map[*ssa.Function][]Acquisition
	// invoked memoises invokes, impls implementations, implementedBy
	// implementers (local answers them over this package's types),
	// declared declaredMethods, declaredBy declaredImplementers.
	invoked       map[*ssa.Function][]Invoked
	impls         map[Invoked][]*ssa.Function
	implementedBy map[Invoked]implementing
	local         *implementers.Finder
	declared      map[string][]*types.Func
	declaredBy    map[*types.Package]*implementers.Finder
	// held memoises the lock state of a function; see Locks.
	held map[*ssa.Function]*locks.Result
}

func run(pass *analysis.Pass) (any, error) {
	cfg, err := readConfig(&pass.Analyzer.Flags)
	if err != nil {
		return nil, err
	}
	r := &Result{
		fset:  pass.Fset,
		pkg:   pass.Pkg,
		files: pass.Files,
		info:  pass.TypesInfo,
		cfg:   cfg,
	}
	if pass.Module != nil {
		r.module = pass.Module.Path
	}
	if isStd(pass.Pkg.Path(), pass.Fset, pass.Files) {
		// A std package imports only std packages, which export no facts.
		r.imported = map[*types.Func]*Blocks{}
		return r, nil
	}
	r.imported, r.seeds = importedFacts(pass)
	r.importedLocks = importedLocks(pass)
	r.importedRunners, r.importedInPlace = importedParams(pass)
	r.importedGroups = importedGroups(pass)
	r.importedStops = importedStops(pass)
	r.importedLogs = importedLogs(pass)
	r.exportFacts(pass)
	return r, nil
}

// Matcher returns the stream matcher the summary was configured with.
func (r *Result) Matcher() *streams.Matcher { return r.cfg.matcher }

// SSA returns the package's SSA and its source functions (with their
// anonymous functions, in source order), building them on first use.
func (r *Result) SSA() *buildssa.SSA {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.build()
}

// Flow returns the package's stream flow, seeded with the dependencies'
// carriers.
func (r *Result) Flow() *streams.Flow {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.streamFlow()
}

// Chans runs f with the package's channel index, which every pass shares:
// it is built once, on first use, and memoises its answers, so f holds it
// alone while it runs.
func (r *Result) Chans(f func(*chans.Index)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f(r.chanIndex())
}

// Locks returns the held-lock state of fn's blocks, computed once per
// function: the summary's scan and lockedsend's walk both need it, and a
// function in a cycle of calls may be scanned more than once. The state
// is never modified, so callers may walk it without holding anything.
func (r *Result) Locks(fn *ssa.Function) *locks.Result {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lockState(fn)
}

func (r *Result) lockState(fn *ssa.Function) *locks.Result {
	if s, ok := r.held[fn]; ok {
		return s
	}
	if r.held == nil {
		r.held = make(map[*ssa.Function]*locks.Result)
	}
	s := locks.Analyze(fn)
	r.held[fn] = s
	return s
}

func (r *Result) build() *buildssa.SSA {
	if r.ssa != nil {
		return r.ssa
	}
	prog := ssa.NewProgram(r.fset, 0)
	// buildssa takes this from ctrlflow, which would run on every
	// dependency; the table of internal/flow covers std and testing.
	prog.SetNoReturn(flow.NoReturnFunc)
	for _, p := range r.pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	pkg := prog.CreatePackage(r.pkg, r.files, r.info, false)
	if !buildGuarded(pkg) {
		// Only a driver that hands over syntax without complete type
		// information gets here (a dependency loaded from export data
		// with its files): analyse nothing rather than crash.
		r.ssa = &buildssa.SSA{Pkg: pkg}
		return r.ssa
	}
	var funcs []*ssa.Function
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		funcs = append(funcs, fn)
		for _, anon := range fn.AnonFuncs {
			add(anon)
		}
	}
	for _, f := range r.files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if obj, ok := r.info.Defs[fd.Name].(*types.Func); ok {
				if fn := prog.FuncValue(obj); fn != nil {
					add(fn)
				}
			}
		}
	}
	r.ssa = &buildssa.SSA{Pkg: pkg, SrcFuncs: funcs}
	return r.ssa
}

// buildGuarded builds pkg's function bodies and reports whether it could.
func buildGuarded(pkg *ssa.Package) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	pkg.Build()
	return true
}

// indexed returns the functions whose stores and calls the flow and the
// channel index must see: the source functions and the package
// initializer, which holds the initialisers of package-level variables.
func (r *Result) indexed() []*ssa.Function {
	in := r.build()
	funcs := in.SrcFuncs
	if init := in.Pkg.Func("init"); init != nil {
		funcs = append(funcs[:len(funcs):len(funcs)], init)
	}
	return funcs
}

func (r *Result) streamFlow() *streams.Flow {
	if r.flow == nil {
		r.flow = r.cfg.matcher.Flow(r.pkg, r.indexed(), r.seeds)
	}
	return r.flow
}

func (r *Result) chanIndex() *chans.Index {
	if r.idx == nil {
		r.idx = chans.NewIndex(r.build().Pkg, r.indexed())
		r.idx.SetSyntax(r.files, r.info)
		r.idx.SetRunners(func(fn *types.Func, param int) bool {
			return slices.Contains(r.importedRunners[fn], param)
		})
		r.idx.SetInPlace(func(fn *types.Func, param int) bool {
			return slices.Contains(r.importedInPlace[fn], param)
		})
		r.idx.SetGroups(func(fn *types.Func) (chans.GroupOp, bool) {
			op, ok := r.importedGroups[fn]
			return op, ok
		})
		r.idx.SetStopMethods(func(fn *types.Func) string { return r.importedStops[fn] })
	}
	return r.idx
}

// exportFacts summarises every function of the package and exports the
// Blocks facts of its functions and methods, then its carriers.
func (r *Result) exportFacts(pass *analysis.Pass) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, fn := range r.build().SrcFuncs {
		b := r.guardedSummary(fn)
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil || obj.Pkg() != pass.Pkg {
			continue
		}
		r.guardedAcquires(pass, fn, obj)
		r.guardedRunners(pass, fn, obj)
		r.guardedGroups(pass, fn, obj)
		r.exportLogs(pass, fn, obj)
		if b == nil {
			continue
		}
		pass.ExportObjectFact(obj.Origin(), &Blocks{Kind: b.Kind, Op: b.Op, Chain: b.Chain, Param: b.Param, OpPkg: b.OpPkg})
	}
	exportCarriers(pass, r.streamFlow().Carriers())
}

// guardedAcquires exports fn's Acquires fact, containing a panic the way
// guardedSummary does: the function is then taken to lock nothing.
func (r *Result) guardedAcquires(pass *analysis.Pass, fn *ssa.Function, obj *types.Func) {
	defer func() {
		if recover() != nil {
			r.locked, r.invoked = nil, nil
		}
	}()
	r.exportAcquires(pass, fn, obj)
}

// guardedRunners exports fn's RunsUntilDone and InPlace facts, containing
// a panic the way guardedSummary does: the function is then taken to be
// no runner, and to call no parameter in place.
func (r *Result) guardedRunners(pass *analysis.Pass, fn *ssa.Function, obj *types.Func) {
	defer func() { _ = recover() }()
	r.exportRunners(pass, fn, obj)
	exportInPlace(pass, fn, obj)
}

// guardedGroups exports fn's Group fact, containing a panic the way
// guardedSummary does: the method is then taken to count nothing.
func (r *Result) guardedGroups(pass *analysis.Pass, fn *ssa.Function, obj *types.Func) {
	defer func() { _ = recover() }()
	r.exportGroups(pass, fn, obj)
	r.exportStopMethod(pass, fn, obj)
}

// guardedSummary summarises fn and contains a panic in doing so: a function
// the summary cannot handle is taken not to block, and the run goes on, so
// that one odd function in a dependency does not fail go vet for every
// package that imports it. The passes contain their own panics with
// report.Guard, which names the function.
func (r *Result) guardedSummary(fn *ssa.Function) (b *Blocking) {
	defer func() {
		if recover() != nil {
			r.memo = nil // its stack is mid-scan; start afresh
			b = nil
		}
	}()
	return r.summarize(fn)
}
