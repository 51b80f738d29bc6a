package locks

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// A Lock is one held mutex.
type Lock struct {
	Key  string // the mutex's canonical path; see Key
	Mode Mode
	// Call is the call that took the lock: Lock, RLock, or the TryLock
	// whose true branch this is.
	Call ssa.CallInstruction
}

// Pos is the position of the call that took the lock.
func (l Lock) Pos() token.Pos { return l.Call.Pos() }

// A Set is the locks held at one point, in the order they were taken. Sets
// are never modified: an instruction that takes or drops a lock makes a
// new one, and blocks share the set until then (copy on write).
type Set struct {
	locks []Lock
}

// Len returns the number of locks held.
func (s Set) Len() int { return len(s.locks) }

// Locks returns the held locks, oldest first. The caller must not modify
// the slice.
func (s Set) Locks() []Lock { return s.locks }

// Holds reports whether the lock with key k is held.
func (s Set) Holds(k string) bool { return s.index(k) >= 0 }

func (s Set) index(k string) int {
	for i, l := range s.locks {
		if l.Key == k {
			return i
		}
	}
	return -1
}

// with returns s plus l; taking a held lock again keeps the first take.
func (s Set) with(l Lock) Set {
	if s.Holds(l.Key) {
		return s
	}
	locks := make([]Lock, len(s.locks), len(s.locks)+1)
	copy(locks, s.locks)
	return Set{append(locks, l)}
}

// without returns s less the lock at index i.
func (s Set) without(i int) Set {
	locks := make([]Lock, 0, len(s.locks)-1)
	locks = append(locks, s.locks[:i]...)
	return Set{append(locks, s.locks[i+1:]...)}
}

// meet returns the locks held in both s and t, in s's order. It returns s
// itself when nothing is dropped.
func (s Set) meet(t Set) Set {
	keep := 0
	for _, l := range s.locks {
		if t.Holds(l.Key) {
			keep++
		}
	}
	if keep == len(s.locks) {
		return s
	}
	locks := make([]Lock, 0, keep)
	for _, l := range s.locks {
		if t.Holds(l.Key) {
			locks = append(locks, l)
		}
	}
	return Set{locks}
}

func (s Set) equal(t Set) bool {
	if len(s.locks) != len(t.locks) {
		return false
	}
	for i := range s.locks {
		if s.locks[i].Key != t.locks[i].Key {
			return false
		}
	}
	return true
}

// State is what is known at one point of a function.
type State struct {
	// Held is the set of locks held on every path to this point.
	Held Set
	// Released is set when some path to this point dropped a lock the
	// function did not take: one its caller holds. A helper that unlocks
	// its caller's mutex before it sends does not send under that mutex.
	Released bool
}

func (s State) equal(t State) bool { return s.Released == t.Released && s.Held.equal(t.Held) }

// meet joins the states of two paths.
func (s State) meet(t State) State {
	return State{Held: s.Held.meet(t.Held), Released: s.Released || t.Released}
}

// step applies instr to s.
func step(s State, instr ssa.Instruction) State {
	call, ok := instr.(*ssa.Call) // not go or defer: they do not run here and now
	if !ok {
		return s
	}
	kind, mode, recv := classify(call)
	switch kind {
	case acquire:
		s.Held = s.Held.with(Lock{Key: Key(recv), Mode: mode, Call: call})
	case release:
		s = unlock(s, Key(recv))
	}
	return s
}

// unlock drops the lock with key k. When no held lock has that key, the
// function drops a lock it did not take, unless the key is opaque and an
// opaque lock is held: then the two are taken to be the same mutex, spelled
// in ways the key cannot relate, and the most recent such lock is dropped.
// Erring that way keeps a lock from looking held after its Unlock.
func unlock(s State, k string) State {
	if i := s.Held.index(k); i >= 0 {
		s.Held = s.Held.without(i)
		return s
	}
	if isOpaque(k) {
		for i := len(s.Held.locks) - 1; i >= 0; i-- {
			if isOpaque(s.Held.locks[i].Key) {
				s.Held = s.Held.without(i)
				return s
			}
		}
	}
	s.Released = true
	return s
}

func isOpaque(k string) bool { return len(k) > 0 && k[0] == '$' }

// Result holds the lock state of one function.
type Result struct {
	fn    *ssa.Function
	entry []*State // by block index; nil for a block no path reaches
}

// maxRounds bounds the fixpoint iteration. Sets only shrink and Released
// only turns on, so the iteration converges in a few rounds; the bound is a
// guard, after which the states are left as they are.
const maxRounds = 64

// Analyze computes the held-lock state at the start of every block of fn.
// The entry block starts with no lock held. A block that ends in a call
// that never returns (os.Exit, log.Fatal, t.Fatal) passes nothing on.
func Analyze(fn *ssa.Function) *Result {
	r := &Result{fn: fn, entry: make([]*State, len(fn.Blocks))}
	if len(fn.Blocks) == 0 {
		return r
	}
	r.entry[0] = &State{}
	for round, changed := 0, true; changed && round < maxRounds; round++ {
		changed = false
		for _, b := range fn.Blocks {
			in := r.entry[b.Index]
			if in == nil {
				continue
			}
			out, ends := r.exit(b, *in)
			if ends {
				continue
			}
			for i, succ := range b.Succs {
				s := edge(b, i, out)
				if old := r.entry[succ.Index]; old == nil {
					r.entry[succ.Index] = &s
					changed = true
				} else if m := old.meet(s); !m.equal(*old) {
					r.entry[succ.Index] = &m
					changed = true
				}
			}
		}
	}
	return r
}

// exit applies the block's instructions to in. ends reports a block whose
// path stops in it.
func (r *Result) exit(b *ssa.BasicBlock, in State) (out State, ends bool) {
	out = in
	for _, instr := range b.Instrs {
		if flow.NoReturn(instr) {
			return out, true
		}
		out = step(out, instr)
	}
	return out, false
}

// edge is the state passed along the i-th successor edge of b. The true
// edge of a TryLock's result holds the lock:
//
//	t1 = (*sync.Mutex).TryLock(t0)
//	if t1 goto 2 else 3            // 2 holds t0, 3 does not
func edge(b *ssa.BasicBlock, i int, s State) State {
	cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return s
	}
	v, positive := cond.Cond, true
	for {
		not, ok := v.(*ssa.UnOp)
		if !ok || not.Op != token.NOT {
			break
		}
		v, positive = not.X, !positive
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return s
	}
	kind, mode, recv := classify(call)
	if kind != tryAcquire || (i == 0) != positive {
		return s
	}
	s.Held = s.Held.with(Lock{Key: Key(recv), Mode: mode, Call: call})
	return s
}

// Reached reports whether some path from the entry reaches b.
func (r *Result) Reached(b *ssa.BasicBlock) bool { return r.entry[b.Index] != nil }

// Walk calls visit for every instruction of every reached block, in block
// order, with the state just before the instruction, until visit returns
// false.
func (r *Result) Walk(visit func(instr ssa.Instruction, s State) bool) {
	for _, b := range r.fn.Blocks {
		in := r.entry[b.Index]
		if in == nil {
			continue
		}
		s := *in
		for _, instr := range b.Instrs {
			if !visit(instr, s) {
				return
			}
			if flow.NoReturn(instr) {
				break
			}
			s = step(s, instr)
		}
	}
}
