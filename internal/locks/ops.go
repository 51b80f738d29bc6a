// Package locks tracks which mutexes are held at each instruction of one
// SSA function, the way gVisor's checklocks does: a held-lock set per basic
// block, shared between blocks until an instruction changes it, joined where
// paths meet.
//
// What acquires: (*sync.Mutex).Lock, (*sync.RWMutex).Lock and RLock, the
// true branch of TryLock and TryRLock, the same methods promoted from an
// embedded mutex (s.Lock()), and Lock on a sync.Locker value. What
// releases: Unlock and RUnlock. A deferred Unlock releases nothing: the
// lock is held to the end of the function. A function starts with no lock
// held, and so does every goroutine and closure, which are functions of
// their own.
//
// Two spellings of one mutex (s.mu, mu := &s.mu, a struct that embeds the
// mutex and the same struct as a sync.Locker) have the same Key, so an
// Unlock through one releases a Lock through the other.
//
// Where paths meet, a lock is held only if it is held on every path into
// the block: a send after a conditional unlock is not under the lock. This
// errs toward silence, as the passes that use it do. Locks taken by helper
// functions (func (s *S) lock() { s.mu.Lock() }) are not seen.
package locks

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Mode says how a lock is held.
type Mode uint8

const (
	Write Mode = iota // Lock, TryLock, sync.Locker.Lock
	Read              // RLock, TryRLock
)

// opKind classifies a call for the held-lock state.
type opKind uint8

const (
	noOp opKind = iota
	acquire
	release
	tryAcquire // acquires on the true branch of its result
)

// lockMethods maps the methods that take or drop a lock, by full name, to
// what they do and how. Interface methods keep their identity through
// embedding, so a user interface that embeds sync.Locker calls
// (sync.Locker).Lock.
var lockMethods = map[string]struct {
	kind opKind
	mode Mode
}{
	"(*sync.Mutex).Lock":       {acquire, Write},
	"(*sync.Mutex).Unlock":     {release, Write},
	"(*sync.Mutex).TryLock":    {tryAcquire, Write},
	"(*sync.RWMutex).Lock":     {acquire, Write},
	"(*sync.RWMutex).Unlock":   {release, Write},
	"(*sync.RWMutex).TryLock":  {tryAcquire, Write},
	"(*sync.RWMutex).RLock":    {acquire, Read},
	"(*sync.RWMutex).RUnlock":  {release, Read},
	"(*sync.RWMutex).TryRLock": {tryAcquire, Read},
	"(sync.Locker).Lock":       {acquire, Write},
	"(sync.Locker).Unlock":     {release, Write},
}

// classify reports what call does to a lock, and the mutex value it acts
// on. The static forms cover a mutex field, a local mutex and a promoted
// method of an embedded one, which the IR spells as the embedded field:
//
//	t1 = &s.mu [#2]                     t1 = &s.Mutex [#0]   // s.Lock()
//	t2 = (*sync.Mutex).Lock(t1)
//
// The dynamic form is an invoke on a sync.Locker:
//
//	t3 = invoke l.Lock()
func classify(call ssa.CallInstruction) (opKind, Mode, ssa.Value) {
	cc := call.Common()
	var fn *types.Func
	var recv ssa.Value
	if cc.IsInvoke() {
		fn, recv = cc.Method, cc.Value
	} else if callee := cc.StaticCallee(); callee != nil && len(cc.Args) > 0 {
		fn, _ = callee.Object().(*types.Func)
		recv = cc.Args[0]
		if fn != nil && fn.Signature().Recv() == nil {
			return noOp, 0, nil // a $bound or $thunk wrapper, or a plain function
		}
	}
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return noOp, 0, nil
	}
	m, ok := lockMethods[fn.Origin().FullName()]
	if !ok {
		return noOp, 0, nil
	}
	return m.kind, m.mode, recv
}

// IsLockCall reports whether call takes, tries or drops a lock.
func IsLockCall(call ssa.CallInstruction) bool {
	k, _, _ := classify(call)
	return k != noOp
}

// Acquires reports whether call takes a lock (Lock, RLock, or a TryLock
// that may), and the class and mode of that lock; see Class. ok is false
// for any other call and for a lock with no class.
func Acquires(call ssa.CallInstruction) (class string, mode Mode, ok bool) {
	kind, mode, recv := classify(call)
	if kind != acquire && kind != tryAcquire {
		return "", 0, false
	}
	c := classOf(recv, 0)
	return c, mode, c != ""
}

// OnFresh reports whether the mutex call acts on lives in an object the
// calling function allocated itself: a constructor's lock, taken before
// the object escapes, which no other goroutine can want yet.
//
//	t0 = new client (complit)
//	t1 = &t0.mu [#3]
//	t2 = (*sync.Mutex).Lock(t1)
func OnFresh(call ssa.CallInstruction) bool {
	_, _, v := classify(call)
	for range maxKeyDepth {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.Alloc:
			return x.Heap && x.Parent() == call.Parent()
		case *ssa.UnOp:
			// c := &client{...} captured by a closure: a variable cell
			// that holds only objects the function allocated.
			cell, ok := x.X.(*ssa.Alloc)
			return ok && x.Op == token.MUL && cell.Parent() == call.Parent() && holdsFresh(cell)
		default:
			return false
		}
	}
	return false
}

// holdsFresh reports whether every store into the variable cell stores an
// object its function allocated.
func holdsFresh(cell *ssa.Alloc) bool {
	n := 0
	for _, ref := range *cell.Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Addr != cell {
			continue
		}
		obj, ok := st.Val.(*ssa.Alloc)
		if !ok || !obj.Heap || obj.Parent() != cell.Parent() {
			return false
		}
		n++
	}
	return n > 0
}
