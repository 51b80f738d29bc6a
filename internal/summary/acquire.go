package summary

import (
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/locks"
)

// maxAcquired bounds the lock classes one function's answer and fact
// carry; a function that takes more is cut to the first ones found.
const maxAcquired = 8

// Acquired is one lock class a function takes; see locks.Class.
type Acquired struct {
	Class string
	Write bool // Lock rather than RLock
}

// Acquires is the fact that a function takes locks of these classes,
// itself or through the static calls it makes, on some path. lockedsend
// asks it of the receivers of a channel: one that needs the lock a sender
// holds cannot drain what that sender waits on. It is exported for the
// exported functions and methods that take a lock, sorted by class.
//
// A dependency's fact holds its encoding until decoded reads it; see
// factcode.go.
type Acquires struct {
	Locks []Acquired
	// Invokes lists the interface methods of its own module it calls,
	// itself or through its static calls: a package that implements one
	// takes, through that call, the locks its implementation takes.
	Invokes []Invoked

	raw  []byte
	once sync.Once
}

func (*Acquires) AFact() {}

func (a *Acquires) String() string {
	a = a.decoded()
	parts := make([]string, 0, len(a.Locks))
	for _, l := range a.Locks {
		s := l.Class
		if !l.Write {
			s += " (read)"
		}
		parts = append(parts, s)
	}
	out := "acquires " + strings.Join(parts, ", ")
	if len(a.Invokes) > 0 {
		calls := make([]string, 0, len(a.Invokes))
		for _, v := range a.Invokes {
			calls = append(calls, v.String())
		}
		out += "; calls back " + strings.Join(calls, ", ")
	}
	return out
}

// Acquisition is a lock class a function of this package takes, and where.
type Acquisition struct {
	Acquired
	// Pos is the Lock call in the function, or the call that leads to one.
	Pos token.Pos
	// Via names the callee of that call; "" when the function locks
	// itself.
	Via string
}

// Acquires returns the lock classes fn takes on some path: its own Lock
// and RLock calls, deferred calls included, and those of the functions it
// calls statically, in this package by their bodies and in others by
// their facts, with the locks this package's methods take when another
// package's function calls them back through an interface of its module
// (see Invoked). Goroutines it starts do not count, nor do this package's
// own calls through interfaces and func values, nor the standard library,
// whose locks are its own.
func (r *Result) Acquires(fn *ssa.Function) []Acquisition {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer r.resetOnPanic()
	return r.acquires(fn)
}

func (r *Result) acquires(fn *ssa.Function) []Acquisition {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if r.locked == nil {
		r.locked = make(map[*ssa.Function][]Acquisition)
	}
	if a, ok := r.locked[fn]; ok {
		return a // a call back into a function being scanned adds nothing new
	}
	r.locked[fn] = nil
	var out []Acquisition
	add := func(a Acquisition) {
		for i, o := range out {
			if o.Class == a.Class {
				if a.Write && !o.Write {
					out[i] = a // a Lock after an RLock of the class: the Lock decides
				}
				return
			}
		}
		if len(out) < maxAcquired {
			out = append(out, a)
		}
	}
	waitedCalls(fn, func(call ssa.CallInstruction) {
		for _, a := range r.callAcquires(call) {
			add(a)
		}
	})
	r.locked[fn] = out
	return out
}

// CallAcquires returns what one call takes: a lock, or the lock classes
// its static callee takes, with Pos at the call.
func (r *Result) CallAcquires(call ssa.CallInstruction) []Acquisition {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer r.resetOnPanic()
	return r.callAcquires(call)
}

// callAcquires is what one call takes: a lock, or the locks of its callee.
func (r *Result) callAcquires(call ssa.CallInstruction) []Acquisition {
	if class, mode, ok := locks.Acquires(call); ok {
		if locks.OnFresh(call) {
			return nil // a constructor's lock: nobody else can want it yet
		}
		return []Acquisition{{Acquired: Acquired{Class: class, Write: mode == locks.Write}, Pos: call.Pos()}}
	}
	if call.Common().IsInvoke() {
		return r.invokeAcquires(call)
	}
	callee := r.chanIndex().Callee(call.Common())
	if callee == nil {
		return nil
	}
	via := displayName(callee)
	obj := funcObject(callee)
	switch {
	case len(callee.Blocks) > 0 && callee.Pkg == r.build().Pkg:
		var out []Acquisition
		for _, a := range r.acquires(callee) {
			out = append(out, Acquisition{Acquired: a.Acquired, Pos: call.Pos(), Via: chain(via, a.Via)})
		}
		return out
	case obj != nil && r.importedLock(obj) != nil:
		fact := r.importedLock(obj)
		var out []Acquisition
		for _, a := range fact.Locks {
			out = append(out, Acquisition{Acquired: a, Pos: call.Pos(), Via: via})
		}
		return append(out, r.callbackAcquires(call, callee, fact)...)
	}
	return nil
}

// importedLock returns the Acquires fact a dependency exports on fn, or
// nil.
func (r *Result) importedLock(fn *types.Func) *Acquires {
	if f := r.importedLocks[fn.Origin()]; f != nil {
		return f.decoded()
	}
	return nil
}

// chain names the calls that lead to a lock: via, then the callee's own
// path to it, if any.
func chain(via, then string) string {
	if then == "" {
		return via
	}
	return via + " → " + then
}

// exportAcquires exports the Acquires fact of fn, an exported function or
// method of the package, when it takes a lock.
func (r *Result) exportAcquires(pass *analysis.Pass, fn *ssa.Function, obj *types.Func) {
	if !obj.Exported() {
		return
	}
	acq, inv := r.acquires(fn), r.invokes(fn)
	if len(acq) == 0 && len(inv) == 0 {
		return
	}
	f := &Acquires{Locks: make([]Acquired, 0, len(acq)), Invokes: slices.Clone(inv)}
	sortInvoked(f.Invokes)
	for _, a := range acq {
		f.Locks = append(f.Locks, a.Acquired)
	}
	sort.Slice(f.Locks, func(i, j int) bool {
		a, b := f.Locks[i], f.Locks[j]
		return a.Class < b.Class || a.Class == b.Class && a.Write && !b.Write
	})
	pass.ExportObjectFact(obj.Origin(), f)
}

// waitedCalls calls visit for each call fn makes and waits for: every call
// and defer, not the go statements, whose goroutines run on their own.
func waitedCalls(fn *ssa.Function, visit func(ssa.CallInstruction)) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if _, isGo := instr.(*ssa.Go); ok && !isGo {
				visit(call)
			}
		}
	}
}
