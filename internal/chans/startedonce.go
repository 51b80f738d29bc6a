package chans

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
)

// StartedOnce reports whether the receive r runs at most once for each
// channel of makes, because its method lets one call per object past a
// started flag and the channel is one object's own:
//
//	func (cm *manager) Start(ctx context.Context) error {
//		cm.mu.Lock()
//		if cm.started {
//			cm.mu.Unlock()
//			return errAlreadyStarted
//		}
//		cm.started = true
//		...
//		select {
//		case <-ctx.Done():
//		case err := <-cm.errChan: // at most once per manager
//		}
//
// The flag is an unexported bool field of the method's receiver, tested and
// set with the receiver's lock held, on every way to r, and nothing in the
// package sets it false; r receives from another field of the receiver,
// and each channel of makes is made in the call that makes the object it
// is stored into.
func (x *Index) StartedOnce(r Site, makes []*ssa.MakeChan) bool {
	fn := r.Func
	if len(makes) == 0 || fn.Signature.Recv() == nil || len(fn.Params) == 0 || r.Start != nil {
		return false
	}
	self := fn.Params[0]
	addr := loadedAddr(RecvChan(r))
	if addr == nil || !isSelf(addr.X, self) {
		return false
	}
	ch := FieldOf(self.Type(), addr.Field, true)
	if ch == nil || !x.oneObjectEach(ch, makes) {
		return false
	}
	for _, b := range fn.Blocks {
		if flag := startedTest(b, self); flag != nil && x.onlySetTrue(flag) && guardsAll(b, r.Instr) {
			return true
		}
	}
	return false
}

// startedTest returns the flag field b tests, when b takes a lock of self,
// loads a bool field of self and branches on it: if it is set, every way
// returns; if not, the next block sets it before it unlocks.
func startedTest(b *ssa.BasicBlock, self *ssa.Parameter) *types.Var {
	iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok || !locksSelf(b, self) {
		return nil
	}
	addr := loadedAddr(iff.Cond)
	if addr == nil || !isSelf(addr.X, self) {
		return nil
	}
	flag := FieldOf(self.Type(), addr.Field, true)
	if flag == nil || flag.Exported() || !isBool(flag.Type()) {
		return nil
	}
	if !returnsWithout(iff.Block().Succs[0]) || !setsFirst(iff.Block().Succs[1], self, addr.Field) {
		return nil
	}
	return flag
}

// locksSelf reports whether b calls Lock on a mutex of self before its end.
func locksSelf(b *ssa.BasicBlock, self *ssa.Parameter) bool {
	for _, instr := range b.Instrs {
		call, ok := instr.(*ssa.Call)
		if !ok {
			continue
		}
		callee := call.Call.StaticCallee()
		if callee == nil || callee.Name() != "Lock" || len(call.Call.Args) == 0 || !isSyncMutex(callee) {
			continue
		}
		if isSelf(addrBase(call.Call.Args[0]), self) {
			return true
		}
	}
	return false
}

// isSyncMutex reports whether fn is a method of sync.Mutex or sync.RWMutex.
func isSyncMutex(fn *ssa.Function) bool {
	recv := fn.Signature.Recv()
	if recv == nil {
		return false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && (n.Obj().Name() == "Mutex" || n.Obj().Name() == "RWMutex")
}

// addrBase follows field addresses down to the value they start from.
func addrBase(v ssa.Value) ssa.Value {
	for {
		fa, ok := v.(*ssa.FieldAddr)
		if !ok {
			return v
		}
		v = fa.X
	}
}

// returnsWithout reports whether every path from b returns without
// running a receive, a send or a go statement.
func returnsWithout(b *ssa.BasicBlock) bool {
	for _, instr := range b.Instrs {
		switch in := instr.(type) {
		case *ssa.Send, *ssa.Select, *ssa.Go:
			return false
		case *ssa.UnOp:
			if in.Op == token.ARROW {
				return false
			}
		}
	}
	if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
		return true
	}
	return len(b.Succs) == 1 && len(b.Succs[0].Preds) == 1 && returnsWithout(b.Succs[0])
}

// setsFirst reports whether b stores true into self's field i before it
// calls anything.
func setsFirst(b *ssa.BasicBlock, self *ssa.Parameter, i int) bool {
	for _, instr := range b.Instrs {
		switch in := instr.(type) {
		case *ssa.Store:
			if fa, ok := in.Addr.(*ssa.FieldAddr); ok && isSelf(fa.X, self) && fa.Field == i && isTrue(in.Val) {
				return true
			}
		case ssa.CallInstruction:
			return false
		}
	}
	return false
}

// isSelf reports whether v is the method's receiver self: the parameter,
// or a load of the one variable it is stored in (a receiver its closures
// capture).
func isSelf(v ssa.Value, self *ssa.Parameter) bool {
	if v == self {
		return true
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	cell, ok := load.X.(*ssa.Alloc)
	return ok && StoredOnce(cell) == self
}

func isTrue(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Bool && constant.BoolVal(c.Value)
}

// onlySetTrue reports whether every store into flag in the package stores
// true: once set, nothing lets a second call past the test.
func (x *Index) onlySetTrue(flag *types.Var) bool {
	for _, st := range x.fieldSts[flag] {
		if !isTrue(st.Val) {
			return false
		}
	}
	return true
}

// guardsAll reports whether every way from the function's entry to instr
// passes through the test at b's end and takes its not-set branch.
func guardsAll(b *ssa.BasicBlock, instr ssa.Instruction) bool {
	notSet := b.Succs[1]
	return len(notSet.Preds) == 1 && notSet.Dominates(instr.Block())
}

// oneObjectEach reports whether each channel of makes belongs to one object:
// every store into the field ch stores a channel of makes, made in the
// same run of its function as the object stored into, neither in a loop.
func (x *Index) oneObjectEach(ch *types.Var, makes []*ssa.MakeChan) bool {
	sts := x.fieldSts[ch]
	if len(sts) == 0 {
		return false
	}
	for _, st := range sts {
		mk, ok := st.Val.(*ssa.MakeChan)
		fa, ok2 := st.Addr.(*ssa.FieldAddr)
		if !ok || !ok2 || !slices.Contains(makes, mk) {
			return false
		}
		obj, ok := fa.X.(*ssa.Alloc)
		if !ok || obj.Parent() != mk.Parent() || flow.Reaches(mk, mk) || flow.Reaches(obj, obj) {
			return false
		}
	}
	return true
}
