package chans

import (
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/locks"
)

// Held is what the pass knows of the locks held at one point: those held
// on every path to it, by its function or by every caller at each of the
// function's calls, named by class (locks.Class) so that two functions'
// locks of one field compare equal. Locks of one class are taken to be
// one mutex, as lockedsend takes them: the pass cannot tell instances
// apart. Within a function a lock counts as held only where it is held on
// every path (locks.State), so May misses a lock held on some paths into
// a block and not on others.
type Held struct {
	Classes []string // held on every path, sorted
	May     []string // held on some path, sorted: Classes and more
	// Some is set when a lock is held on every path, even where the
	// callers hold different ones, or one with no class.
	Some bool
	// Opaque is set when a lock with no class (a local, a parameter's)
	// may be held: it may be any mutex.
	Opaque bool
	// Sight says how many of the callers are counted.
	Sight Sight
}

// Sight says how many of a function's callers the pass sees.
type Sight uint8

const (
	// Blind: some callers are out of sight and may hold any lock.
	Blind Sight = iota
	// Outside: the callers out of sight are in other packages, which can
	// take only the locks the package exports (locks.Exported).
	Outside
	// Full: every caller is in sight.
	Full
)

// Has reports whether a lock of the class is held on every path.
func (h Held) Has(class string) bool {
	_, ok := slices.BinarySearch(h.Classes, class)
	return ok
}

// Shares reports whether a lock of one class is held on every path to
// both points.
func (h Held) Shares(o Held) bool {
	for _, c := range h.Classes {
		if o.Has(c) {
			return true
		}
	}
	return false
}

// Excludes reports whether h is known to hold none of the locks o holds
// on every path: no path to it holds one of their classes or one with
// no class, and a caller out of sight could not take one either.
func (h Held) Excludes(o Held) bool {
	if h.Opaque || h.Sight == Blind {
		return false
	}
	for _, c := range o.Classes {
		if slices.Contains(h.May, c) || h.Sight == Outside && locks.Exported(c) {
			return false
		}
	}
	return true
}

// meet is what holds where either path may come from.
func (h Held) meet(o Held) Held {
	var classes []string
	for _, c := range h.Classes {
		if o.Has(c) {
			classes = append(classes, c)
		}
	}
	return Held{Classes: classes, May: union(h.May, o.May), Some: h.Some && o.Some, Opaque: h.Opaque || o.Opaque, Sight: min(h.Sight, o.Sight)}
}

// Join is what is held where both h and o are.
func (h Held) Join(o Held) Held {
	return Held{Classes: union(h.Classes, o.Classes), May: union(h.May, o.May), Some: h.Some || o.Some, Opaque: h.Opaque || o.Opaque, Sight: min(h.Sight, o.Sight)}
}

func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, c := range b {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

// HeldOf names the locks of one function's held set by class.
func HeldOf(ls []locks.Lock) Held {
	h := Held{Sight: Full, Some: len(ls) > 0}
	for _, l := range ls {
		if c := locks.Class(l); c != "" {
			h.Classes = union(h.Classes, []string{c})
		} else {
			h.Opaque = true
		}
	}
	h.May = h.Classes
	return h
}

// lockState returns the memoised held-lock state of fn.
func (x *Index) lockState(fn *ssa.Function) *locks.Result {
	if x.held == nil {
		x.held = make(map[*ssa.Function]*locks.Result)
	}
	r, ok := x.held[fn]
	if !ok {
		r = locks.Analyze(fn)
		x.held[fn] = r
	}
	return r
}

// statesAt returns the lock state just before each of instrs, in their
// function, and whether each was reached.
func (x *Index) statesAt(fn *ssa.Function, instrs ...ssa.Instruction) ([]locks.State, bool) {
	out := make([]locks.State, len(instrs))
	found := 0
	x.lockState(fn).Walk(func(in ssa.Instruction, s locks.State) bool {
		for i, want := range instrs {
			if in == want {
				out[i] = s
				found++
			}
		}
		return found < len(instrs)
	})
	return out, found == len(instrs)
}

// HeldAt returns what is known of the locks held at instr: its function's,
// and, unless a path there drops a lock the function did not take, those
// every caller holds at every call.
func (x *Index) HeldAt(instr ssa.Instruction) Held {
	st, ok := x.statesAt(instr.Parent(), instr)
	if !ok {
		return Held{}
	}
	h := HeldOf(st[0].Held.Locks())
	if st[0].Released {
		h.Sight = Blind
		return h
	}
	return h.Join(x.entryHeld(instr.Parent()))
}

// entryHeld returns the locks held at every call of fn: the meet of what
// each call holds. A goroutine starts with none; a deferred call holds
// what the pass does not know. When fn's callers are not all in sight,
// its calls in this package still count, and the calls out of sight are
// those of other packages when fn is exported, is called by name through
// no interface here and is never taken as a value: they hold none of the
// package's locks on every path, and no lock the package does not export.
func (x *Index) entryHeld(fn *ssa.Function) Held {
	if x.entry == nil {
		x.entry = make(map[*ssa.Function]*Held)
	}
	if h, ok := x.entry[fn]; ok {
		return *h
	}
	unknown := &Held{}
	x.entry[fn] = unknown // a cycle of calls knows nothing more
	sites, ok := x.callers(fn)
	var h *Held
	if !ok {
		if !x.calledFromOutside(fn) {
			return *unknown
		}
		sites, h = x.calls[fn], &Held{Sight: Outside}
	}
	if len(sites) == 0 && h == nil {
		return *unknown
	}
	for _, site := range sites {
		var at Held
		switch site.(type) {
		case *ssa.Go:
			at = Held{Sight: Full}
		case *ssa.Defer:
			at = Held{}
		default:
			at = x.HeldAt(site)
		}
		at.Some = at.Some || len(at.Classes) > 0
		if h == nil {
			h = &at
		} else {
			m := h.meet(at)
			h = &m
		}
	}
	x.entry[fn] = h
	return *h
}

// calledFromOutside reports whether fn's calls out of sight can only be
// other packages': it is an exported function or method of this package,
// not generic, never used as a value here, and, for a method, called
// through no interface here by its name.
func (x *Index) calledFromOutside(fn *ssa.Function) bool {
	obj := fn.Object()
	if fn.Pkg != x.pkg || fn.Parent() != nil || obj == nil || !obj.Exported() || x.escaped[fn] || x.bound[obj] || fn.TypeParams().Len() > 0 {
		return false
	}
	return fn.Signature.Recv() == nil || !x.invokedAs(fn) && !isGenericRecv(fn)
}

// HeldAcross fills g.Across with the locks held from each of g's tests
// to instr without a break: held at every instruction on the way, so that
// the test and instr are in one critical section. It sets g.Outside when
// a lock held at a test is released before instr: the test is then no
// longer true when instr runs.
func (x *Index) HeldAcross(g *Guard, instr ssa.Instruction) {
	fn := instr.Parent()
	at := append([]ssa.Instruction{instr}, ifsOf(g.Tests)...)
	st, ok := x.statesAt(fn, at...)
	if !ok {
		return
	}
	var kept []locks.Lock
	for _, l := range st[0].Held.Locks() {
		if x.heldBetween(g.Tests[0], instr, l.Key) {
			kept = append(kept, l)
		}
	}
	for _, s := range st[1:] {
		for _, l := range s.Held.Locks() {
			if !slices.ContainsFunc(kept, func(k locks.Lock) bool { return k.Key == l.Key }) {
				g.Outside = true
			}
		}
	}
	h := HeldOf(kept)
	if st[0].Released {
		h.Sight = Blind
	} else {
		h = h.Join(x.entryHeld(fn))
	}
	g.Across = h
}

func ifsOf(tests []*ssa.If) []ssa.Instruction {
	out := make([]ssa.Instruction, len(tests))
	for i, t := range tests {
		out[i] = t
	}
	return out
}

// heldBetween reports whether the lock with key k is held at every
// instruction on the paths from the test to instr.
func (x *Index) heldBetween(test *ssa.If, instr ssa.Instruction, k string) bool {
	fn := instr.Parent()
	from, to := test.Block(), instr.Block()
	fwd := reachableFrom(from.Succs, func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Succs })
	back := reachableFrom([]*ssa.BasicBlock{to}, func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Preds })
	ok := true
	x.lockState(fn).Walk(func(in ssa.Instruction, s locks.State) bool {
		b := in.Block()
		if !fwd[b] || !back[b] || b == from {
			return true
		}
		if b == to && comesAfter(in, instr) {
			return true
		}
		if !s.Held.Holds(k) {
			ok = false
		}
		return ok
	})
	return ok
}

// comesAfter reports whether in comes after instr in their block.
func comesAfter(in, instr ssa.Instruction) bool {
	for _, x := range instr.Block().Instrs {
		if x == instr {
			return in != instr
		}
		if x == in {
			return false
		}
	}
	return false
}

func reachableFrom(start []*ssa.BasicBlock, next func(*ssa.BasicBlock) []*ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	seen := make(map[*ssa.BasicBlock]bool)
	work := slices.Clone(start)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		work = append(work, next(b)...)
	}
	return seen
}

// GuardsAcross returns the guards of instr (Guards), each with the locks
// held from its tests to instr (HeldAcross).
func (x *Index) GuardsAcross(instr ssa.Instruction) []Guard {
	guards := x.Guards(instr)
	for i := range guards {
		x.HeldAcross(&guards[i], instr)
	}
	return guards
}
