package chans

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/flow"
	"github.com/sendlint/sendlint/internal/locks"
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
		if flag := x.startedTest(b, self); flag != nil && x.onlySetTrue(flag) && guardsAll(b, r.Instr) {
			return true
		}
	}
	return false
}

// startedTest returns the flag field b tests, when b loads a bool field of
// self and branches on it: if it is set, every way returns; if not, the
// next block sets it before it calls anything. A write lock of self is
// held at the test and at the set (locks' own reading of what is held).
func (x *Index) startedTest(b *ssa.BasicBlock, self *ssa.Parameter) *types.Var {
	iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return nil
	}
	addr := loadedAddr(iff.Cond)
	if addr == nil || !isSelf(addr.X, self) {
		return nil
	}
	flag := FieldOf(self.Type(), addr.Field, true)
	if flag == nil || flag.Exported() || !isBool(flag.Type()) || !returnsWithout(iff.Block().Succs[0]) {
		return nil
	}
	set := setsFirst(iff.Block().Succs[1], self, addr.Field)
	if set == nil || !x.lockedAt(self.Parent(), locks.Key(addr.X), iff, set) {
		return nil
	}
	return flag
}

// lockedAt reports whether one write lock of the object whose lock key is
// obj (obj.mu, or obj itself when it embeds its mutex) is held on every
// path to each of instrs, in fn.
func (x *Index) lockedAt(fn *ssa.Function, obj string, instrs ...ssa.Instruction) bool {
	seen := map[string]int{}
	x.lockState(fn).Walk(func(instr ssa.Instruction, s locks.State) bool {
		if !slices.Contains(instrs, instr) {
			return true
		}
		for _, l := range s.Held.Locks() {
			if l.Mode == locks.Write && (l.Key == obj || strings.HasPrefix(l.Key, obj+".")) {
				seen[l.Key]++
			}
		}
		return true
	})
	for _, n := range seen {
		if n == len(instrs) {
			return true
		}
	}
	return false
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

// setsFirst returns the store of true into self's field i that b makes
// before it calls anything, or nil.
func setsFirst(b *ssa.BasicBlock, self *ssa.Parameter, i int) *ssa.Store {
	for _, instr := range b.Instrs {
		switch in := instr.(type) {
		case *ssa.Store:
			if fa, ok := in.Addr.(*ssa.FieldAddr); ok && isSelf(fa.X, self) && fa.Field == i && isTrue(in.Val) {
				return in
			}
		case ssa.CallInstruction:
			return nil
		}
	}
	return nil
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
