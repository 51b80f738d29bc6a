package chans

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A shutdown often waits for a set of goroutines before it stops the
// goroutine that receives what they send: a sync.WaitGroup they mark done
// on their way out, or a value whose type counts its goroutines with a
// WaitGroup of its own (a closer: Done at the end of each, a Wait, or a
// SignalAndWait, that returns once all are done).
//
//	func (c *Closer) Done() { c.waiting.Done() }   // GroupOp{Field: "waiting"}
//	func (c *Closer) Wait() { c.waiting.Wait() }   // GroupOp{Wait: true, Field: "waiting"}
//
// A group is where such a set is kept: the field or local variable that
// holds the WaitGroup, or the one that holds the value counting with it.

// GroupOp is what a method does to the goroutines its receiver counts in
// one of its sync.WaitGroup fields: waits until all are done (Wait), or
// marks one done.
type GroupOp struct {
	Wait  bool
	Field string // the receiver's WaitGroup field
}

// group is a set of goroutines a shutdown can wait for.
type group struct {
	home  any    // *types.Var (a field) or *ssa.Alloc (a local variable)
	inner string // the holder's WaitGroup field; "" for a sync.WaitGroup itself
}

// maxGroupDepth bounds the methods followed to a WaitGroup, and the calls
// followed back from a stop to the wait that comes before it.
const maxGroupDepth = 3

// SetGroups installs the answers the dependencies' facts give for their
// methods (summary's Groups facts).
func (x *Index) SetGroups(imported func(fn *types.Func) (GroupOp, bool)) {
	x.importedGroups = imported
}

// GroupMethod reports what fn, a method of this package, does to the
// goroutines its receiver counts: it calls (*sync.WaitGroup).Wait on one
// of the receiver's fields on every path to its return, or Done on one of
// them, directly or through another method of the receiver that does.
func (x *Index) GroupMethod(fn *ssa.Function) (GroupOp, bool) {
	return x.groupMethod(fn, 0)
}

func (x *Index) groupMethod(fn *ssa.Function, depth int) (GroupOp, bool) {
	if fn.Signature.Recv() == nil || len(fn.Params) == 0 || len(fn.Blocks) == 0 || depth > maxGroupDepth {
		return GroupOp{}, false
	}
	if op, ok := x.groupMemo[fn]; ok {
		return op, op.Field != ""
	}
	x.groupMemo[fn] = GroupOp{} // a cycle answers nothing
	recv := fn.Params[0]
	var found []GroupOp
	var at []ssa.Instruction
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || len(call.Call.Args) == 0 {
				continue
			}
			callee := call.Call.StaticCallee()
			if callee == nil {
				continue
			}
			arg := call.Call.Args[0]
			if wait, ok := waitGroupOp(callee); ok {
				if addr, ok := arg.(*ssa.FieldAddr); ok && uncelled(addr.X) == recv {
					if f := FieldOf(addr.X.Type(), addr.Field, true); f != nil {
						found, at = append(found, GroupOp{Wait: wait, Field: f.Name()}), append(at, call)
					}
				}
				continue
			}
			if uncelled(arg) != recv {
				continue
			}
			if op, ok := x.methodOp(callee, depth+1); ok {
				found, at = append(found, op), append(at, call)
			}
		}
	}
	if len(found) == 0 {
		return GroupOp{}, false
	}
	op := found[0]
	for _, o := range found[1:] {
		if o != op {
			return GroupOp{}, false // both waits and counts down: neither
		}
	}
	if op.Wait && !x.onEveryReturn(fn, at) {
		return GroupOp{}, false
	}
	x.groupMemo[fn] = op
	return op, true
}

// methodOp answers for a method of this package or of a dependency.
func (x *Index) methodOp(callee *ssa.Function, depth int) (GroupOp, bool) {
	if callee.Pkg == x.pkg {
		return x.groupMethod(callee, depth)
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || x.importedGroups == nil {
		return GroupOp{}, false
	}
	return x.importedGroups(obj.Origin())
}

// onEveryReturn reports whether one of the calls at runs before every
// return of fn.
func (x *Index) onEveryReturn(fn *ssa.Function, at []ssa.Instruction) bool {
	returns := 0
	for _, b := range fn.Blocks {
		if b == fn.Recover || len(b.Instrs) == 0 {
			continue // reached only when a deferred call recovers a panic
		}
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		returns++
		if !dominatedBy(ret, func(i ssa.Instruction) bool { return containsInstr(at, i) }) {
			return false
		}
	}
	return returns > 0
}

func containsInstr(list []ssa.Instruction, i ssa.Instruction) bool {
	for _, x := range list {
		if x == i {
			return true
		}
	}
	return false
}

// dominatedBy reports whether an instruction that runs on every path to
// instr, before it, satisfies pred.
func dominatedBy(instr ssa.Instruction, pred func(ssa.Instruction) bool) bool {
	found := false
	eachBefore(instr, func(i ssa.Instruction) {
		found = found || pred(i)
	})
	return found
}

// eachBefore calls f with every instruction that runs on every path to
// instr, before it: those of the blocks that dominate instr's block, and
// the earlier ones of its own.
func eachBefore(instr ssa.Instruction, f func(ssa.Instruction)) {
	for b := instr.Block(); b != nil; b = b.Idom() {
		for _, i := range b.Instrs {
			if i == instr {
				break
			}
			f(i)
		}
	}
}

// waitGroupOp reports whether fn is (*sync.WaitGroup).Wait (wait) or
// Done: the standard library's, known by name as the rest of its API is.
func waitGroupOp(fn *ssa.Function) (wait, ok bool) {
	if !isWaitGroupMethod(fn) {
		return false, false
	}
	switch fn.Name() {
	case "Wait":
		return true, true
	case "Done":
		return false, true
	}
	return false, false
}

// isWaitGroupMethod reports whether fn is a method of sync.WaitGroup.
func isWaitGroupMethod(fn *ssa.Function) bool {
	if fn.Pkg == nil || fn.Pkg.Pkg.Path() != "sync" || fn.Signature.Recv() == nil {
		return false
	}
	named, ok := derefType(fn.Signature.Recv().Type()).(*types.Named)
	return ok && named.Obj().Name() == "WaitGroup"
}

func derefType(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// opAt reports the group call acts on and how: a (*sync.WaitGroup).Wait
// or Done on a WaitGroup kept in a field or a local variable, or a
// method with a GroupOp called on a value kept in a field. bind resolves
// the parameters of call's function (those a go statement passed in), or
// is nil.
func (x *Index) opAt(call ssa.CallInstruction, bind func(*ssa.Parameter) ssa.Value) (group, bool, bool) {
	c := call.Common()
	callee := c.StaticCallee()
	if callee == nil || len(c.Args) == 0 {
		return group{}, false, false
	}
	if wait, ok := waitGroupOp(callee); ok {
		home := x.homeOf(c.Args[0], bind, 0)
		return group{home: home}, wait, home != nil
	}
	op, ok := x.methodOp(callee, 0)
	if !ok {
		return group{}, false, false
	}
	home := x.homeOf(c.Args[0], bind, 0)
	return group{home: home, inner: op.Field}, op.Wait, home != nil
}

// homeOf returns where the WaitGroup, or the value that counts with one,
// is kept: the field it is the address of or is loaded from, or the local
// variable that holds it (through a closure's free variable too).
//
//	t1 = &s.wg           // (*sync.WaitGroup).Wait(t1): the field wg
//	t2 = *t1             // the field closer, for t2.SignalAndWait()
func (x *Index) homeOf(v ssa.Value, bind func(*ssa.Parameter) ssa.Value, depth int) any {
	if depth > maxGroupDepth {
		return nil
	}
	switch v := uncelled(v).(type) {
	case *ssa.FieldAddr:
		if f := FieldOf(v.X.Type(), v.Field, true); f != nil {
			return f
		}
	case *ssa.UnOp:
		if f := LoadedField(v); f != nil {
			return f
		}
		if v.Op != token.MUL {
			return nil
		}
		if a, ok := v.X.(*ssa.Alloc); ok {
			return a
		}
		if fv, ok := v.X.(*ssa.FreeVar); ok {
			if b, ok := x.binding(fv).(*ssa.Alloc); ok {
				return b
			}
		}
	case *ssa.Alloc:
		return v
	case *ssa.FreeVar:
		if b := x.binding(v); b != nil {
			return x.homeOf(b, nil, depth+1)
		}
	case *ssa.Parameter:
		if bind != nil {
			if b := bind(v); b != nil {
				return x.homeOf(b, nil, depth+1)
			}
		}
	}
	return nil
}

// uncelled returns the value a load of a local variable's cell reads
// when it is stored there once (a parameter a closure captures), or v.
//
//	t0 = new *Closer (c); *t0 = c; ...; t4 = *t0   // t4 is c
func uncelled(v ssa.Value) ssa.Value {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if cell, ok := load.X.(*ssa.Alloc); ok {
			if stored := StoredOnce(cell); stored != nil {
				return stored
			}
		}
	}
	return v
}
